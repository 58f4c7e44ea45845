import { expect } from 'chai';
import { SimulatedTerminal } from '../../src/simulator';
import { subscribe } from '../support/events';
import { createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { createTerminalDevice, iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

/** Device operations: actions, their lifecycle and events, with the simulator playing each. */
describe('device actions', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  before(async () => {
    t = await startTestApp({}, 'device_actions');
    ws = await createWorkspace(t.url, { maxCompanies: 20, maxDevices: 50 });
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const act = (deviceId: number, body: unknown, key = ws.key) => rest(t.url, 'POST', `/public/v2/devices/${deviceId}/actions`, { key, body });
  const finished = (deviceId: number, actionId: string) =>
    waitUntil(`action ${actionId} finished`, async () => {
      const r = await rest(t.url, 'GET', `/public/v2/devices/${deviceId}/actions/${actionId}`, { key: ws.key });
      return ['succeeded', 'failed', 'expired'].includes(r.body.status) ? r.body : null;
    });
  /**
   * Sends a real-time record (again each second) until `check` sees the clock reading it carries. A
   * reading is skipped, by design, when another transaction holds the device row (a poll's presence
   * write): the terminal's next record reads the clock again, as a real one would a moment later.
   */
  // A record reads the clock once a later one confirms it (CONFIRM_AFTER_MS later): a record a second, for up to 30 s.
  const untilClockRead = <T>(send: () => void, check: () => Promise<T | null>) => {
    let sentAt = 0;
    return waitUntil(
      'the terminal reports the clock reading',
      async () => {
        if (Date.now() - sentAt >= 1000) {
          send();
          sentAt = Date.now();
        }
        return check();
      },
      30_000,
    );
  };

  async function clockWithPunches() {
    const device = await createTerminalDevice(t.url, ws.key, { time_zone: 'UTC' });
    const [{ company_id }] = await sql('select company_id from device where id = ?', [device.id]);
    const employee = await createEmployee(t.url, ws.key, company_id, { pin: '31' });
    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: device.serial_number, family: 'att', pollIntervalMs: 50 });
    terminal.start();
    for (const at of ['2026-10-05T08:00:00Z', '2026-10-05T17:00:00Z', '2026-10-20T08:00:00Z', '2026-11-10T08:00:00Z', '2026-11-10T17:00:00Z'])
      terminal.punch({ pin: '31', at: new Date(at) });
    await waitUntil(
      "the terminal's 5 punches are stored",
      async () => (await sql('select count(*)::int as n from punch where device_id = ?', [device.id]))[0].n,
      (v) => v === 5,
    );
    return { device, employee, terminal };
  }

  it('a backfill recovers punches lost from the database, in windows of at most 31 days, and adds no duplicate; a count finds the mismatch before and none after', async () => {
    const { device, terminal } = await clockWithPunches();
    const updates = await subscribe(t.app, ws.id, ws.key, `subscription { deviceActionUpdated(deviceId: ${device.id}) { action { actionId type status } } }`);
    try {
      // Two punches go missing on our side (the terminal still has them).
      await sql("delete from punch where device_id = ? and local_time in ('2026-10-05 17:00:00', '2026-11-10 08:00:00')", [device.id]);

      const count = await act(device.id, { type: 'attendance.count', options: { start_date: '2026-10-01', end_date: '2026-11-30' } });
      expect(count.status).to.equal(202);
      expect(count.body).to.include({ type: 'attendance.count', status: 'queued' });
      expect(count.body.action_id).to.match(/^dact_[0-9a-f]{24}$/);
      const [verify] = await sql('select command from device_command where reference = ?', [`device_action:${count.body.action_id}`]);
      expect(verify.command).to.equal('VERIFY SUM ATTLOG StartTime=2026-10-01 00:00:00\tEndTime=2026-11-30 23:59:59');
      const counted = await finished(device.id, count.body.action_id);
      expect(counted.status).to.equal('succeeded');
      expect(counted.result).to.include({ device_records: 5, timegate_records: 3, matched: false });

      const backfill = await act(device.id, { type: 'attendance.backfill', options: { start_date: '2026-10-01', end_date: '2026-11-30' } });
      expect(backfill.status).to.equal(202);
      const queries = await sql('select command from device_command where reference = ? order by id', [`device_action:${backfill.body.action_id}`]);
      expect(queries.map((q) => q.command)).to.deep.equal([
        'DATA QUERY ATTLOG StartTime=2026-10-01 00:00:00\tEndTime=2026-10-31 23:59:59',
        'DATA QUERY ATTLOG StartTime=2026-11-01 00:00:00\tEndTime=2026-11-30 23:59:59',
      ]);
      const done = await finished(device.id, backfill.body.action_id);
      expect(done.status).to.equal('succeeded');
      expect(done.result).to.include({ windows: 2, records_received: 5 });
      await waitUntil(
        "the terminal's 5 punches are stored again",
        async () => (await sql('select count(*)::int as n from punch where device_id = ?', [device.id]))[0].n,
        (v) => v === 5,
      );
      expect(
        (await rest(t.url, 'GET', `/public/v2/devices/${device.id}/actions/${backfill.body.action_id}`, { key: ws.key })).body.result.punches_new,
      ).to.equal(2);
      const times = await sql('select local_time from punch where device_id = ? order by local_time', [device.id]);
      expect(times.map((r) => r.local_time)).to.deep.equal([
        '2026-10-05 08:00:00',
        '2026-10-05 17:00:00',
        '2026-10-20 08:00:00',
        '2026-11-10 08:00:00',
        '2026-11-10 17:00:00',
      ]);

      const recount = await finished(
        device.id,
        (await act(device.id, { type: 'attendance.count', options: { start_date: '2026-10-01', end_date: '2026-11-30' } })).body.action_id,
      );
      expect(recount.result).to.include({ device_records: 5, timegate_records: 5, matched: true });

      // Every status change was an event, in order.
      const seen = (await updates.waitFor(9)).map((e: any) => [e.action.type, e.action.status]);
      expect(seen.filter(([type]: string[]) => type === 'attendance.backfill')).to.deep.equal([
        ['attendance.backfill', 'queued'],
        ['attendance.backfill', 'sent'],
        ['attendance.backfill', 'succeeded'],
      ]);
      const list = await rest(t.url, 'GET', `/public/v2/devices/${device.id}/actions`, { key: ws.key });
      expect(list.body.map((a: any) => a.type)).to.deep.equal(['attendance.count', 'attendance.backfill', 'attendance.count']);
    } finally {
      await updates.close();
      await terminal.stop();
    }
  });

  it('info.refresh returns what the terminal reports; reboot restarts it', async () => {
    const { device, terminal } = await clockWithPunches();
    try {
      const info = await finished(device.id, (await act(device.id, { type: 'info.refresh' })).body.action_id);
      expect(info.status).to.equal('succeeded');
      expect(info.result.info.length).to.be.greaterThan(3);
      expect(info.result.info.map((f: any) => f.key)).to.include('UserCount');
      const handshakes = terminal.stats.handshakes;
      const reboot = await act(device.id, { type: 'reboot' });
      const [command] = await sql('select command from device_command where reference = ?', [`device_action:${reboot.body.action_id}`]);
      expect(command.command).to.equal('REBOOT');
      expect((await finished(device.id, reboot.body.action_id)).status).to.equal('succeeded');
      await waitUntil(
        'the terminal handshakes again after the reboot',
        async () => terminal.stats.handshakes,
        (v) => v > handshakes,
      );
    } finally {
      await terminal.stop();
    }
  });

  const clearError = async (deviceId: number) => {
    const refused = await act(deviceId, { type: 'logs.clear' });
    expect(refused.status).to.equal(422);
    return refused.body.error.details[0] as { field: string; code: string; message: string };
  };
  const punchCount = async (deviceId: number) => (await sql('select count(*)::int as n from punch where device_id = ?', [deviceId]))[0].n as number;

  it('logs.clear is refused without a count of the terminal within the hour, and says what would be lost and what to run; after the backfill it clears', async () => {
    const { device, terminal } = await clockWithPunches();
    try {
      const none = await clearError(device.id);
      expect(none).to.include({ field: 'type', code: 'count_required' });
      expect(none.message).to.match(/run info\.refresh/);
      // A punch lost on our side: the terminal's count (info.refresh, every record) is one more.
      await sql("delete from punch where device_id = ? and local_time = '2026-10-20 08:00:00'", [device.id]);
      const info = await finished(device.id, (await act(device.id, { type: 'info.refresh' })).body.action_id);
      expect(info.result.info).to.deep.include({ key: 'TransactionCount', value: '5' });
      const lost = await clearError(device.id);
      expect(lost.code).to.equal('count_not_matched');
      expect(lost.message).to.match(
        /^Clearing would delete 1 record\(s\) Timegate does not hold: the terminal counted 5 in all \(info\.refresh at [^)]+\) and Timegate had received 4 of them\./,
      );
      expect(lost.message).to.contain("Timegate's oldest record from it is of 2026-10-05");
      expect(lost.message).to.match(
        /Run attendance\.backfill from 2026-10-05 \(or earlier, if the terminal holds older records\) to \d{4}-\d{2}-\d{2}, then info\.refresh again, and clear\.$/,
      );
      // Done as it says: backfilled, counted again, cleared.
      await finished(
        device.id,
        (await act(device.id, { type: 'attendance.backfill', options: { start_date: '2026-10-05', end_date: '2026-11-30' } })).body.action_id,
      );
      await waitUntil(
        'the 5 punches are stored',
        () => punchCount(device.id),
        (v) => v === 5,
      );
      await finished(device.id, (await act(device.id, { type: 'info.refresh' })).body.action_id);
      const clear = await act(device.id, { type: 'logs.clear' });
      expect(clear.status).to.equal(202);
      expect((await finished(device.id, clear.body.action_id)).status).to.equal('succeeded');
      expect(terminal.store.log).to.have.length(0);
      expect(await punchCount(device.id)).to.equal(5);
    } finally {
      await terminal.stop();
    }
  });

  // Regression: the guard compared with a count info.refresh did not update, so it refused a safe clear.
  it("logs.clear takes the count of the latest info.refresh, which also becomes the terminal's record count", async () => {
    const { device, terminal } = await clockWithPunches();
    try {
      await sql('update device set attlog_count = 99 where id = ?', [device.id]);
      await finished(device.id, (await act(device.id, { type: 'info.refresh' })).body.action_id);
      expect((await sql('select attlog_count from device where id = ?', [device.id]))[0].attlog_count).to.equal(5);
      const clear = await act(device.id, { type: 'logs.clear' });
      expect(clear.status).to.equal(202);
      expect((await finished(device.id, clear.body.action_id)).status).to.equal('succeeded');
      expect(terminal.store.log).to.have.length(0);
    } finally {
      await terminal.stop();
    }
  });

  // Regression: with more records in Timegate than on the terminal the guard could never pass.
  it('logs.clear is allowed when Timegate holds more of the range than the terminal (records the terminal no longer has)', async () => {
    const { device, terminal } = await clockWithPunches();
    try {
      // The terminal lost two old records (overwritten, or cleared from its menu); Timegate keeps them.
      terminal.store.log.splice(0, 2);
      const count = await finished(
        device.id,
        (await act(device.id, { type: 'attendance.count', options: { start_date: '2026-10-01', end_date: '2026-11-30' } })).body.action_id,
      );
      expect(count.result).to.include({ device_records: 3, timegate_records: 5, matched: false });
      // The terminal's own total (5) may still wait in the presence buffer from a poll before the
      // loss: written first, so that it cannot overwrite the total set here.
      await t.app.terminals.flush();
      await sql('update device set attlog_count = 3 where id = ?', [device.id]);
      const clear = await act(device.id, { type: 'logs.clear' });
      expect(clear.status).to.equal(202);
      expect((await finished(device.id, clear.body.action_id)).status).to.equal('succeeded');
      expect(await punchCount(device.id)).to.equal(5);
    } finally {
      await terminal.stop();
    }
  });

  it('logs.clear after a count of a range refuses records outside that range, and a range missing records names it', async () => {
    const { device, terminal } = await clockWithPunches();
    try {
      await finished(device.id, (await act(device.id, { type: 'info.refresh' })).body.action_id);
      // October only: 3 of the terminal's 5 records.
      await finished(
        device.id,
        (await act(device.id, { type: 'attendance.count', options: { start_date: '2026-10-01', end_date: '2026-10-31' } })).body.action_id,
      );
      const outside = await clearError(device.id);
      expect(outside.code).to.equal('count_not_matched');
      expect(outside.message).to.match(
        /^Clearing would delete 2 record\(s\) outside the counted range 2026-10-01 to 2026-10-31: the terminal holds 5 in all, the count \(attendance\.count at [^)]+\) covered 3\./,
      );
      await sql("delete from punch where device_id = ? and local_time = '2026-11-10 17:00:00'", [device.id]);
      await finished(
        device.id,
        (await act(device.id, { type: 'attendance.count', options: { start_date: '2026-10-01', end_date: '2026-11-30' } })).body.action_id,
      );
      const missing = await clearError(device.id);
      expect(missing.message).to.match(
        /^Clearing would delete 1 record\(s\) Timegate does not hold: the terminal counted 5 between 2026-10-01 and 2026-11-30 \(attendance\.count at [^)]+\) and Timegate had received 4 of them\. The missing records are of 2026-10-01 to 2026-11-30\. Run attendance\.backfill from 2026-10-01 to 2026-11-30, then attendance\.count again, and clear\.$/,
      );
    } finally {
      await terminal.stop();
    }
  });

  it('info.refresh on an access-control terminal asks GET OPTIONS (its document has no INFO) and shows what it answered', async () => {
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc' });
    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: device.serial_number, family: 'acc', pollIntervalMs: 50 });
    terminal.start();
    try {
      const refresh = await act(device.id, { type: 'info.refresh' });
      const [command] = await sql('select command from device_command where reference = ?', [`device_action:${refresh.body.action_id}`]);
      expect(command.command).to.match(/^GET OPTIONS ~SerialNumber,FirmVer,~DeviceName,LockCount,/);
      expect(command.command).to.not.contain('ComPwd');
      const done = await finished(device.id, refresh.body.action_id);
      expect(done.status).to.equal('succeeded');
      const info = Object.fromEntries(done.result.info.map((f: any) => [f.key, f.value]));
      expect(info).to.include({ LockCount: '1', ReaderCount: '2', DateFmtFunOn: '0', MaxUserCount: '10000' });
      expect(info.FirmVer).to.be.a('string');
      // What it answered is also what it reports about itself.
      const [{ reported_options }] = await sql('select reported_options from device where id = ?', [device.id]);
      expect(reported_options).to.include({ DateFmtFunOn: '0', MaxAttLogCount: '100000' });
      expect((await sql("select count(*)::int as n from device_command where device_id = ? and command = 'INFO'", [device.id]))[0].n).to.equal(0);
    } finally {
      await terminal.stop();
    }
  });

  it('a device shows what its firmware supports and its capacities, from what it reported', async () => {
    const device = await createTerminalDevice(t.url, ws.key);
    const capabilities = async () =>
      (
        await rest(t.url, 'POST', '/graphql', {
          key: ws.key,
          body: {
            query: `{ device(id: ${device.id}) { capabilities { doors accessLevels fingerprint face facePhoto userPhoto attendanceBackfill capacity { users fingerprints faces records userPhotos } } } }`,
          },
        })
      ).body.data.device.capabilities;
    expect(await capabilities()).to.deep.include({ fingerprint: false, face: false, facePhoto: false, userPhoto: false, attendanceBackfill: true });
    // The ProBio options of the vendor document (fixture 37), posted by this terminal.
    const options =
      '~DeviceName=ProBio,MAC=00:17:61:11:ad:4f,TransactionCount=23,~MaxAttLogCount=10,UserCount=7,~MaxUserCount=100,PhotoFunOn=1,~MaxUserPhotoCount=3000,FingerFunOn=1,FPVersion=10,~MaxFingerCount=40,FPCount=4,FaceFunOn=1,FaceVersion=7,~MaxFaceCount=2000,FaceCount=3,FvFunOn=0';
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=options`, options)).status).to.equal(200);
    expect(await capabilities()).to.deep.equal({
      doors: 1,
      accessLevels: true,
      fingerprint: true,
      face: true,
      facePhoto: false,
      userPhoto: true,
      attendanceBackfill: true,
      capacity: { users: 100, fingerprints: 40, faces: 2000, records: 10, userPhotos: 3000 },
    });
    await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=options`, 'BioPhotoFun=1,VisilightFun=1,~MaxBioPhotoCount=3000');
    expect((await capabilities()).facePhoto).to.equal(true);
  });

  it('a terminal clock off by 2:30 h shows its skew, raises device.clock_skew once (no loop), and clock.sync sets it and reads it back', async () => {
    const device = await createTerminalDevice(t.url, ws.key, { time_zone: 'UTC' });
    const [{ company_id }] = await sql('select company_id from device where id = ?', [device.id]);
    await createEmployee(t.url, ws.key, company_id, { pin: '41' });
    const receivedEvents = async () =>
      (await sql("select data from event where type = 'device.clock_skew' and (data->>'device_id')::int = ?", [device.id])).map((r) => r.data);
    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: device.serial_number, family: 'att', pollIntervalMs: 50, clockSkewSeconds: 9000 });
    terminal.start();
    try {
      const skewed = await untilClockRead(
        () => terminal.punch({ pin: '41' }),
        async () => {
          const r = await rest(t.url, 'GET', `/public/v2/devices/${device.id}`, { key: ws.key });
          return r.body.clock_skew_seconds !== null ? r.body : null;
        },
      );
      expect(skewed.clock_skew_seconds).to.be.within(8995, 9005);
      const punchCount = async () => (await sql('select count(*)::int as n from punch where device_id = ?', [device.id]))[0].n as number;
      const before = await waitUntil('the terminal sent everything and the punch count is read', async () =>
        terminal.pendingCount === 0 ? punchCount() : null,
      );
      // More real-time punches, the clock still off: still one alert.
      for (const seconds of [60, 120]) terminal.punch({ pin: '41', at: new Date(Date.now() + 9000_000 + seconds * 1000) });
      await waitUntil(
        'the two new punches are stored',
        () => punchCount(),
        (v) => v === before + 2,
      );
      const [alert, ...more] = await receivedEvents();
      expect(more).to.have.length(0);
      expect(alert).to.include({ device_id: device.id, likely_wrong_time_zone: true, limit_seconds: 300 });

      const sync = await act(device.id, { type: 'clock.sync' });
      expect(sync.status).to.equal(202);
      const [command] = await sql('select command from device_command where reference = ?', [`device_action:${sync.body.action_id}`]);
      expect(command.command).to.equal('CHECK');
      // The terminal took the command; the action succeeds only once a reading shows the clock right.
      const setting = await waitUntil('the clock setting awaits a clock reading', async () => {
        const r = await rest(t.url, 'GET', `/public/v2/devices/${device.id}/actions/${sync.body.action_id}`, { key: ws.key });
        return r.body.status_detail === 'awaiting_clock_reading' ? r.body : null;
      });
      expect(setting.status).to.equal('sent');
      expect(setting.result.skew_before).to.be.within(8995, 9005);
      await waitUntil('the terminal is connected again', async () => terminal.isConnected);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const done = await untilClockRead(
        () => terminal.punch({ pin: '41' }),
        async () => {
          const r = await rest(t.url, 'GET', `/public/v2/devices/${device.id}/actions/${sync.body.action_id}`, { key: ws.key });
          return r.body.status !== 'sent' ? r.body : null;
        },
      );
      expect(done).to.include({ status: 'succeeded', status_detail: null });
      expect(Math.abs(done.result.skew_after)).to.be.at.most(2);
      expect((await rest(t.url, 'GET', `/public/v2/devices/${device.id}`, { key: ws.key })).body.clock_skew_seconds).to.be.within(-5, 5);
      expect(await receivedEvents()).to.have.length(1);
    } finally {
      await terminal.stop();
    }
  });

  it('clock.sync on an access-control terminal sets its clock with SET OPTIONS DateTime (ZK-encoded local time)', async () => {
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', time_zone: 'Asia/Kolkata' });
    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: device.serial_number, family: 'acc', pollIntervalMs: 50, clockSkewSeconds: -600 });
    terminal.start();
    try {
      const sync = await act(device.id, { type: 'clock.sync' });
      // The terminal's next real-time record reads its clock: the action succeeds when it is within 2 s.
      const done = await untilClockRead(
        () => terminal.doorAlarm('held_open'),
        async () => {
          const r = await rest(t.url, 'GET', `/public/v2/devices/${device.id}/actions/${sync.body.action_id}`, { key: ws.key });
          return r.body.status !== 'sent' && r.body.status !== 'queued' ? r.body : null;
        },
      );
      expect(done).to.include({ status: 'succeeded', status_detail: null });
      expect(Math.abs(done.result.skew_after)).to.be.at.most(2);
      // Stored as it went out: the value was rendered when the terminal fetched it.
      const [command] = await sql('select command from device_command where reference = ?', [`device_action:${sync.body.action_id}`]);
      expect(command.command).to.match(/^SET OPTIONS DateTime=\d+$/);
    } finally {
      await terminal.stop();
    }
  });

  it('a user the terminal reports with a name cut to its 201 characters at an emoji is remembered, with the emoji whole', async () => {
    const device = await createTerminalDevice(t.url, ws.key);
    const name = `${'n'.repeat(200)}😀 and more`;
    const reply = await iclock(
      t.url,
      'POST',
      `/iclock/cdata?SN=${device.serial_number}&table=OPERLOG&Stamp=1`,
      `USER PIN=61\tName=${name}\tPri=0\tPasswd=\tCard=\tGrp=1\tTZ=\n`,
    );
    expect(reply.status, reply.text).to.equal(200);
    const rows = await sql('select pin, name from device_reported_user where device_id = ?', [device.id]);
    expect(rows).to.deep.equal([{ pin: '61', name: `${'n'.repeat(200)}😀` }]);
  });

  it('users.reconcile finds one missing and one unexpected user, and with fix closes exactly that gap', async () => {
    const device = await createTerminalDevice(t.url, ws.key);
    const [{ company_id }] = await sql('select company_id from device where id = ?', [device.id]);
    const ann = await createEmployee(t.url, ws.key, company_id, { pin: '51', name: 'Ann', lastname: 'Lee' });
    const ben = await createEmployee(t.url, ws.key, company_id, { pin: '52', name: 'Ben', lastname: 'Ray' });
    expect(
      (
        await rest(t.url, 'POST', `/public/v2/devices/${device.id}/employees`, {
          key: ws.key,
          body: [
            { employee_id: ann.id, permission_id: 0 },
            { employee_id: ben.id, permission_id: 0 },
          ],
        })
      ).status,
    ).to.equal(200);
    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: device.serial_number, family: 'att', pollIntervalMs: 50 });
    terminal.start();
    try {
      await waitUntil('the terminal holds users 51 and 52', async () => terminal.store.users.has('51') && terminal.store.users.has('52'));
      // Ann's fingerprint, enrolled on the terminal: stored, and counted in the terminal's INFO.
      terminal.enrollFingerprint('51', 2);
      await waitUntil(
        "the device's fingerprint count is 1",
        async () => (await sql('select fingerprint_count from device where id = ?', [device.id]))[0].fingerprint_count,
        (v) => v === 1,
      );
      // Behind Timegate's back: Ben is gone from the terminal, someone unknown was added.
      terminal.store.deleteUser('52');
      terminal.store.upsertUser('99', { name: 'Stranger' });

      const report = await act(device.id, { type: 'users.reconcile' });
      const [query] = await sql('select command from device_command where reference = ?', [`device_action:${report.body.action_id}`]);
      expect(query.command).to.equal('DATA QUERY USERINFO');
      const found = await waitUntil('the reconcile report is complete', async () => {
        const r = await rest(t.url, 'GET', `/public/v2/devices/${device.id}/actions/${report.body.action_id}`, { key: ws.key });
        return r.body.result?.complete ? r.body.result : null;
      });
      expect(found).to.include({ complete: true, users_reported: 2 });
      expect(found).to.deep.include({ missing_on_device: ['52'], unexpected_on_device: ['99'], differing: [] });
      expect(found.fixed).to.equal(null);
      // Attendance terminals count their templates in INFO: Ann's one fingerprint, as expected.
      expect(found.templates).to.deep.equal({ fingerprints_on_device: 1, fingerprints_expected: 1, faces_on_device: 0, faces_expected: 0 });
      expect(terminal.store.users.has('99')).to.equal(true);

      const mark = (await sql('select coalesce(max(id), 0)::int as id from device_command where device_id = ?', [device.id]))[0].id;
      const fix = await act(device.id, { type: 'users.reconcile', options: { fix: true } });
      const fixed = await waitUntil('the reconcile fix is complete', async () => {
        const r = await rest(t.url, 'GET', `/public/v2/devices/${device.id}/actions/${fix.body.action_id}`, { key: ws.key });
        return r.body.result?.complete ? r.body.result : null;
      });
      expect(fixed).to.deep.include({ missing_on_device: ['52'], unexpected_on_device: ['99'], fixed: 2 });
      await waitUntil('the terminal holds 52 and no longer 99', async () => terminal.store.users.has('52') && !terminal.store.users.has('99'));
      const queued = (await sql('select command from device_command where device_id = ? and id > ? order by id', [device.id, mark])).map((r) => r.command);
      expect(queued.filter((c) => c.startsWith('DATA DELETE'))).to.deep.equal(['DATA DELETE USERINFO PIN=99']);
      expect(queued.filter((c) => c.startsWith('DATA UPDATE USERINFO'))).to.deep.equal(['DATA UPDATE USERINFO PIN=52\tName=Ben Ray\tPri=0']);
      expect(terminal.store.users.has('51')).to.equal(true);
    } finally {
      await terminal.stop();
    }
  });

  it('users.reconcile on an access-control terminal reads its user table through querydata, fixes the gap by pin, and compares template counts', async () => {
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc' });
    const [{ company_id }] = await sql('select company_id from device where id = ?', [device.id]);
    const cy = await createEmployee(t.url, ws.key, company_id, { pin: '61', name: 'Cy', lastname: 'Dee' });
    const di = await createEmployee(t.url, ws.key, company_id, { pin: '62', name: 'Di', lastname: 'Eve' });
    await rest(t.url, 'POST', `/public/v2/devices/${device.id}/employees`, {
      key: ws.key,
      body: [
        { employee_id: cy.id, permission_id: 0 },
        { employee_id: di.id, permission_id: 0 },
      ],
    });
    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: device.serial_number, family: 'acc', pollIntervalMs: 50 });
    const uploads: string[] = [];
    terminal.on('upload', (u) => uploads.push(u.table));
    terminal.start();
    try {
      await waitUntil('the terminal holds users 61 and 62', async () => terminal.store.users.has('61') && terminal.store.users.has('62'));
      // Cy's fingerprint, enrolled on the terminal, is stored and expected there.
      terminal.enrollFingerprint('61', 3);
      await waitUntil(
        "Cy's fingerprint is stored",
        async () => (await sql('select 1 from employee_template where employee_id = ?', [cy.id])).length,
        (v) => v > 0,
      );
      terminal.store.deleteUser('62');
      terminal.store.upsertUser('98', { name: 'Stranger' });

      const fix = await act(device.id, { type: 'users.reconcile', options: { fix: true } });
      const [query] = await sql('select command from device_command where reference = ?', [`device_action:${fix.body.action_id}`]);
      expect(query.command).to.equal('DATA QUERY tablename=user,fielddesc=*,filter=*');
      const fixed = await waitUntil('the reconcile fix is complete', async () => {
        const r = await rest(t.url, 'GET', `/public/v2/devices/${device.id}/actions/${fix.body.action_id}`, { key: ws.key });
        return r.body.result?.complete ? r.body.result : null;
      });
      expect(uploads).to.include('querydata:user');
      expect(fixed).to.deep.include({ users_reported: 2, missing_on_device: ['62'], unexpected_on_device: ['98'], differing: [], fixed: 4 });
      // Access-control terminals report no template counters; Timegate expects Cy's one fingerprint.
      expect(fixed.templates).to.deep.equal({ fingerprints_on_device: null, fingerprints_expected: 1, faces_on_device: null, faces_expected: 0 });
      await waitUntil('the terminal holds 62 and no longer 98', async () => terminal.store.users.has('62') && !terminal.store.users.has('98'));
      const deletes = (await sql(`select command from device_command where reference = ? order by id`, [`reconcile:${fix.body.action_id}`])).map(
        (r) => r.command,
      );
      expect(deletes).to.deep.equal(['DATA DELETE userauthorize Pin=98', 'DATA DELETE templatev10 Pin=98', 'DATA DELETE user Pin=98']);
    } finally {
      await terminal.stop();
    }
  });

  it('refuses unknown types, bad or missing options, what the terminal cannot do and foreign devices, queueing nothing', async () => {
    const clock = await createTerminalDevice(t.url, ws.key);
    const panel = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc' });
    const cases: Array<[number, unknown, string, string]> = [
      [clock.id, { type: 'explode' }, 'type', 'invalid_value'],
      [clock.id, { type: 'attendance.backfill' }, 'options.start_date', 'required'],
      [clock.id, { type: 'attendance.backfill', options: { start_date: '2026-11-30', end_date: '2026-11-01' } }, 'options.end_date', 'before_start_date'],
      [clock.id, { type: 'attendance.backfill', options: { start_date: '2025-01-01', end_date: '2026-11-01' } }, 'options.end_date', 'out_of_range'],
      [clock.id, { type: 'attendance.count', options: { start_date: '2026-02-30', end_date: '2026-03-01' } }, 'options.start_date', 'invalid_date'],
      [clock.id, { type: 'reboot', options: { start_date: '2026-11-01' } }, 'options.start_date', 'not_allowed'],
      [panel.id, { type: 'attendance.backfill', options: { start_date: '2026-11-01', end_date: '2026-11-02' } }, 'type', 'unsupported_by_device'],
    ];
    for (const [deviceId, body, field, code] of cases) {
      const r = await act(deviceId, body);
      expect(r.status, JSON.stringify(body)).to.equal(422);
      expect(
        r.body.error.details.map((d: any) => [d.field, d.code]),
        JSON.stringify(body),
      ).to.deep.include([field, code]);
    }
    const other = await createWorkspace(t.url);
    expect((await act(clock.id, { type: 'reboot' }, other.key)).status).to.equal(404);
    expect((await rest(t.url, 'GET', `/public/v2/devices/${clock.id}/actions`, { key: other.key })).status).to.equal(404);
    const [{ n }] = await sql('select count(*)::int as n from device_action where device_id in (?, ?)', [clock.id, panel.id]);
    expect(n).to.equal(0);
    const [{ c }] = await sql("select count(*)::int as c from device_command where device_id in (?, ?) and kind like 'action_%'", [clock.id, panel.id]);
    expect(c).to.equal(0);
  });
});
