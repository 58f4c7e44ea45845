import { expect } from 'chai';
import { formatDeviceTime } from '../../src/simulator/wire-format';
import { createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData, rest } from '../support/http';
import { createTerminalDevice, iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

const DAY = 86_400_000;
const at = (ms: number) => formatDeviceTime(new Date(ms), 0);
const attlogLine = (pin: string, time: string) => `${pin}\t${time}\t0\t1\t0\t0\t0`;

// The third hardening round: one anonymous upload of 36,524 punches dated 2000-2099 filled the punch
// table's default partition and the attendance backlog, stalling other workspaces for two minutes.
// Punches dated before 2000, or more than a day ahead of the terminal's clock (or the server's when
// that is unknown), are now kept in a quarantine the API shows, not in punches or timesheets.
describe('far-dated terminal punches are quarantined (docs/punches.md, "Quarantine")', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const attlog = (serial: string, lines: string[]) => iclock(t.url, 'POST', `/iclock/cdata?SN=${serial}&table=ATTLOG&Stamp=1`, `${lines.join('\r\n')}\r\n`);
  const punchPartitions = async () => (await sql(`select count(*)::int as n from pg_inherits where inhparent = 'punch'::regclass`))[0].n as number;
  const companyOf = async (deviceId: number) => (await sql('select company_id from device where id = ?', [deviceId]))[0].company_id as number;
  const QUARANTINE_QUERY = `query ($deviceId: Int, $reason: QuarantineReason) { quarantinedPunches(deviceId: $deviceId, reason: $reason, first: 100) {
    totalCount nodes { id companyId deviceId deviceSerial pin localTime timeZone punchTime reason clockSkewSeconds punchState verifyType verifyCode workCode deviceRecordIndex receivedAt } } }`;

  before(async () => {
    t = await startTestApp({}, 'quarantine');
    ws = await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 10, maxEmployees: 100 });
    other = await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 10 });
  });
  after(() => t.stop());

  it('keeps punches before 2000 and more than a day ahead out of punches, days and partitions; the API lists them; the terminal is answered OK', async () => {
    const device = await createTerminalDevice(t.url, ws.key, { time_zone: 'UTC' });
    await createEmployee(t.url, ws.key, await companyOf(device.id), { pin: '7001' });
    const partitions = await punchPartitions();
    const now = Date.now();
    const lines = [
      attlogLine('7001', at(now - 3_600_000)),
      attlogLine('7001', at(now + 3_600_000)),
      attlogLine('7001', '1999-12-31 23:59:59'),
      attlogLine('7001', at(now + 2 * DAY)),
      attlogLine('7002', '2090-06-01 08:00:00'),
    ];
    const upload = await attlog(device.serial_number, lines);
    expect(upload.status).to.equal(200);
    // Every good line is acknowledged, quarantined or not: the terminal must not send them again.
    expect(upload.text.trim()).to.equal('OK: 5');
    const punches = await sql('select local_time from punch where device_id = ? order by punch_time', [device.id]);
    expect(punches.map((p) => p.local_time)).to.deep.equal([at(now - 3_600_000), at(now + 3_600_000)]);
    expect(await punchPartitions(), 'no partition for 1999 or 2090').to.equal(partitions);
    expect((await sql(`select count(*)::int as n from punch_default where device_id = ?`, [device.id]))[0].n).to.equal(0);
    expect((await sql(`select count(*)::int as n from attendance_day where date < '2000-01-01' or date > current_date + 1`))[0].n).to.equal(0);

    const listed = (await gqlData(t.url, ws.key, QUARANTINE_QUERY, { deviceId: device.id })).quarantinedPunches;
    expect(listed.totalCount).to.equal(3);
    const byTime = new Map(listed.nodes.map((n: any) => [n.localTime, n]));
    expect(byTime.get('1999-12-31 23:59:59')).to.deep.include({
      reason: 'before_2000',
      pin: '7001',
      deviceId: device.id,
      deviceSerial: device.serial_number,
      timeZone: 'UTC',
      punchState: '0',
    });
    expect(byTime.get(at(now + 2 * DAY))).to.deep.include({ reason: 'ahead_of_server_time', pin: '7001', clockSkewSeconds: null });
    expect(byTime.get('2090-06-01 08:00:00')).to.deep.include({ reason: 'ahead_of_server_time', pin: '7002', punchTime: '2090-06-01T08:00:00.000Z' });

    // REST shows the same, snake_case, filterable by reason.
    const rest1 = await rest(t.url, 'GET', `/public/v2/quarantined_punches?device_id=${device.id}&reason=before_2000`, { key: ws.key });
    expect(rest1.status, rest1.text).to.equal(200);
    expect(rest1.headers.get('x-total-count')).to.equal('1');
    expect(rest1.body[0]).to.deep.include({ local_time: '1999-12-31 23:59:59', reason: 'before_2000', pin: '7001', device_id: device.id });

    // The terminal sends it all again: still acknowledged, nothing duplicated.
    expect((await attlog(device.serial_number, lines)).text.trim()).to.equal('OK: 5');
    expect((await gqlData(t.url, ws.key, QUARANTINE_QUERY, { deviceId: device.id })).quarantinedPunches.totalCount).to.equal(3);
    expect(await sql('select count(*)::int as n from punch where device_id = ?', [device.id])).to.deep.equal([{ n: 2 }]);

    // Another workspace sees none of them.
    expect((await gqlData(t.url, other.key, QUARANTINE_QUERY, {})).quarantinedPunches.totalCount).to.equal(0);
    expect((await rest(t.url, 'GET', '/public/v2/quarantined_punches', { key: other.key })).body).to.deep.equal([]);
  });

  it("measures ahead of the terminal's own clock when it is known (it runs ahead), and quarantines the punch of an rtlog record while keeping its door event", async () => {
    const device = await createTerminalDevice(t.url, ws.key, { time_zone: 'UTC' });
    // The terminal's clock was measured 3 days ahead of ours.
    await sql('update device set clock_skew_seconds = ?, clock_checked_at = now() where id = ?', [3 * 86_400, device.id]);
    const now = Date.now();
    const upload = await attlog(device.serial_number, [attlogLine('7101', at(now + 3 * DAY)), attlogLine('7101', at(now + 5 * DAY))]);
    expect(upload.text.trim()).to.equal('OK: 2');
    expect((await sql('select local_time from punch where device_id = ?', [device.id])).map((p) => p.local_time)).to.deep.equal([at(now + 3 * DAY)]);
    const [quarantined] = (await gqlData(t.url, ws.key, QUARANTINE_QUERY, { deviceId: device.id })).quarantinedPunches.nodes;
    expect(quarantined).to.deep.include({ localTime: at(now + 5 * DAY), reason: 'ahead_of_terminal_clock', clockSkewSeconds: 3 * 86_400 });

    const rtlog = [
      `time=${at(now - 60_000)}\tpin=7101\tcardno=0\teventaddr=1\tevent=0\tinoutstatus=0\tverifytype=1\tindex=11`,
      `time=2095-01-01 10:00:00\tpin=7101\tcardno=0\teventaddr=1\tevent=0\tinoutstatus=0\tverifytype=1\tindex=12`,
    ].join('\n');
    for (let round = 0; round < 2; round++) {
      expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=rtlog`, `${rtlog}\n`)).text).to.equal('OK');
    }
    expect(
      (await sql('select device_record_index from door_event where device_id = ? order by device_record_index', [device.id])).map((r) => r.device_record_index),
    ).to.deep.equal([11, 12]);
    expect(
      (await sql('select device_record_index from punch where device_id = ? and device_record_index is not null', [device.id])).map(
        (r) => r.device_record_index,
      ),
    ).to.deep.equal([11]);
    const fromRtlog = (await gqlData(t.url, ws.key, QUARANTINE_QUERY, { deviceId: device.id, reason: 'ahead_of_terminal_clock' })).quarantinedPunches;
    expect(fromRtlog.totalCount).to.equal(2);
    expect(fromRtlog.nodes.find((n: any) => n.deviceRecordIndex === 12)).to.deep.include({ localTime: '2095-01-01 10:00:00', pin: '7101' });
  });

  it('takes the 36,524-punch upload of 2000-2099: the past is stored, the future quarantined up to the bound, no partition made, other workspaces answered', async function () {
    this.timeout(300_000);
    const device = await createTerminalDevice(t.url, ws.key, { time_zone: 'UTC' });
    const partitions = await punchPartitions();
    const lines: string[] = [];
    for (let day = 0; day < 36_524; day++) lines.push(attlogLine(String(1000 + (day % 50)), at(Date.UTC(2000, 0, 1 + day, 9))));
    const plausible = lines.filter((l) => new Date(`${l.split('\t')[1]!.replace(' ', 'T')}Z`).getTime() <= Date.now() + DAY).length;
    const otherDevice = await createTerminalDevice(t.url, other.key, { time_zone: 'UTC' });
    const pending = attlog(device.serial_number, lines);
    // Another workspace's requests are answered while it is stored (no time asserted: bench/far-dated-punches.ts measures).
    expect((await rest(t.url, 'GET', `/public/v2/devices/${otherDevice.id}`, { key: other.key })).status).to.equal(200);
    expect((await fetch(`${t.url}/healthz`)).status).to.equal(200);
    const upload = await pending;
    expect(upload.text.trim()).to.equal('OK: 36524');
    expect((await sql('select count(*)::int as n from punch where device_id = ?', [device.id]))[0].n).to.equal(plausible);
    expect((await sql('select count(*)::int as n from quarantined_punch where device_id = ?', [device.id]))[0].n).to.equal(
      Math.min(36_524 - plausible, t.config.quarantineMaxPerDevice),
    );
    expect(await punchPartitions()).to.equal(partitions);
    expect(
      (await sql(`select count(*)::int as n from punch_default where device_id = ? and punch_time > now() + interval '1 day'`, [device.id]))[0].n,
    ).to.equal(0);
  });
});
