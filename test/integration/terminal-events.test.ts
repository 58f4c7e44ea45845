import { expect } from 'chai';
import { subscribe } from '../support/events';
import { createEmployee, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { fixtureBody, iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Events caused by real terminal traffic ("each event type end to end from its cause"):
 * an ATTLOG upload and an access-control rtlog upload reach GraphQL subscribers, and a re-sent
 * history emits nothing again.
 */
describe('events from terminal uploads', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'terminal_events');
  });
  after(() => t.stop());

  it('an ATTLOG upload emits attendance.created per new punch, in order; the re-sent history emits nothing', async () => {
    const ws = await createWorkspace(t.url);
    const company = (await rest(t.url, 'POST', '/public/v2/companies', { key: ws.key, body: { name: 'Clock Co', code: 'CLK' } })).body;
    const device = (
      await rest(t.url, 'POST', '/public/v2/devices', {
        key: ws.key,
        body: { name: 'Clock', serial_number: 'EVTCLOCK1', company_id: company.id, time_zone: 'Asia/Kolkata' },
      })
    ).body;
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: '7' });
    const sub = await subscribe(
      t.app,
      ws.id,
      ws.key,
      'subscription { punchCreated { cursor punch { id employeeId deviceId pin punchTime localTime verifyType recordType } } }',
    );
    try {
      expect((await iclock(t.url, 'GET', '/iclock/cdata?SN=EVTCLOCK1&options=all&pushver=2.4.1')).status).to.equal(200);
      const body = '7\t2026-11-21 09:00:00\t0\t1\t\t0\t0\n7\t2026-11-21 13:30:15\t1\t15\t\t0\t0\n';
      const upload = await iclock(t.url, 'POST', '/iclock/cdata?SN=EVTCLOCK1&table=ATTLOG&Stamp=9999', body);
      expect(upload.text).to.equal('OK: 2');
      const events = await sub.waitFor(2);
      expect(events.map((e) => e.punch)).to.deep.equal([
        {
          id: events[0].punch.id,
          employeeId: employee.id,
          deviceId: device.id,
          pin: '7',
          punchTime: '2026-11-21T03:30:00.000Z',
          localTime: '2026-11-21 09:00:00',
          verifyType: 'fingerprint',
          recordType: 'device',
        },
        {
          id: events[1].punch.id,
          employeeId: employee.id,
          deviceId: device.id,
          pin: '7',
          punchTime: '2026-11-21T08:00:15.000Z',
          localTime: '2026-11-21 13:30:15',
          verifyType: 'face',
          recordType: 'device',
        },
      ]);
      expect(BigInt(events[1].cursor) > BigInt(events[0].cursor)).to.equal(true);
      // The terminal re-sends its history after a reconnect: stored once, emitted once.
      expect((await iclock(t.url, 'POST', '/iclock/cdata?SN=EVTCLOCK1&table=ATTLOG&Stamp=9999', body)).text).to.equal('OK: 2');
      const third = await iclock(t.url, 'POST', '/iclock/cdata?SN=EVTCLOCK1&table=ATTLOG&Stamp=9999', '7\t2026-11-21 18:00:00\t1\t1\t\t0\t0\n');
      expect(third.text).to.equal('OK: 1');
      const all = await sub.waitFor(3);
      expect(all.map((e) => e.punch.localTime)).to.deep.equal(['2026-11-21 09:00:00', '2026-11-21 13:30:15', '2026-11-21 18:00:00']);
    } finally {
      await sub.close();
    }
  });

  it('an access-control rtlog upload (fixture 19) emits door.opened and attendance.created for the granted event only', async () => {
    const ws = await createWorkspace(t.url);
    const company = (await rest(t.url, 'POST', '/public/v2/companies', { key: ws.key, body: { name: 'Gym', code: 'GYM' } })).body;
    const device = (
      await rest(t.url, 'POST', '/public/v2/devices', {
        key: ws.key,
        body: { name: 'Gate', serial_number: 'CRJP230860129', company_id: company.id, mode_type: 'acc' },
      })
    ).body;
    const opened = await subscribe(t.app, ws.id, ws.key, 'subscription { doorOpened { cursor doorOpening { deviceId door source pin openedAt } } }');
    const punches = await subscribe(t.app, ws.id, ws.key, 'subscription { punchCreated { punch { pin deviceRecordIndex recordType } } }');
    try {
      const upload = await iclock(t.url, 'POST', '/iclock/cdata?SN=CRJP230860129&table=rtlog', fixtureBody('19-acc-rtlog-SpeedFaceV3L-CRJP230860129.txt'), {
        'content-type': 'application/push;charset=UTF-8',
      });
      expect(upload.status).to.equal(200);
      expect(upload.text).to.equal('OK');
      const [door] = await opened.waitFor(1);
      expect(door.doorOpening).to.deep.include({ deviceId: device.id, door: 1, source: 'fingerprint', pin: '41235478' });
      const [punch] = await punches.waitFor(1);
      expect(punch.punch).to.deep.equal({ pin: '41235478', deviceRecordIndex: 13355, recordType: 'device' });
      // The same records again (dedupe on serial + index): no new events.
      await iclock(t.url, 'POST', '/iclock/cdata?SN=CRJP230860129&table=rtlog', fixtureBody('19-acc-rtlog-SpeedFaceV3L-CRJP230860129.txt'));
      const marker = await iclock(
        t.url,
        'POST',
        '/iclock/cdata?SN=CRJP230860129&table=rtlog',
        'time=2026-09-28 12:00:00\tpin=0\tcardno=0\teventaddr=1\tevent=202\tinoutstatus=2\tverifytype=200\tindex=13400\n',
      );
      expect(marker.text).to.equal('OK');
      const doors = await opened.waitFor(2);
      expect(doors.map((d) => d.doorOpening.source)).to.deep.equal(['fingerprint', 'exit_button']);
      expect(punches.received).to.have.length(1);
    } finally {
      await opened.close();
      await punches.close();
    }
  });
});
