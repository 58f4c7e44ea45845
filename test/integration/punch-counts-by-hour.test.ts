import { expect } from 'chai';
import { createPunch } from '../support/attendance-seeding';
import { createCompany, createDevice, createEmployee, createWorkspace, setWorkspaceTimeZone } from '../support/factories';
import { gql, gqlData } from '../support/http';
import { iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

const COUNTS = `query ($date: String!, $companyId: Int) { punchCountsByHour(date: $date, companyId: $companyId) }`;

// The overview's hour chart: punches per hour of one local day, counted by the service (the punch
// list's first page held 1,000 punches, so a busy day was undercounted).
describe('punchCountsByHour: punches per hour of a local day in the workspace zone', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'punch-counts');
  });
  after(() => t.stop());

  it('counts every punch of the day (more than 1,000), by the hour of the workspace zone, per company when asked; another workspace sees none', async () => {
    const ws = await createWorkspace(t.url, { maxCompanies: 2, maxDevices: 2 });
    await setWorkspaceTimeZone(t.url, ws.key, 'America/New_York');
    const c = await createCompany(t.url, ws.key);
    const other = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, c.id);
    const otherDevice = await createDevice(t.url, ws.key, other.id);
    const e = await createEmployee(t.url, ws.key, c.id, { pin: '41' });
    const o = await createEmployee(t.url, ws.key, other.id, { pin: '42' });
    // 2026-03-10 in New York is UTC-4 (EDT): its day runs from 04:00Z to 04:00Z the next day.
    for (const punchTime of ['2026-03-10T12:30:00Z', '2026-03-10T13:05:00Z', '2026-03-11T02:00:00Z', '2026-03-10T03:59:59Z', '2026-03-11T04:00:00Z']) {
      await createPunch(t.url, ws.key, { employeeId: e.id, companyId: c.id, deviceId: device.id, punchTime, punchState: '0' });
    }
    await createPunch(t.url, ws.key, { employeeId: o.id, companyId: other.id, deviceId: otherDevice.id, punchTime: '2026-03-10T12:45:00Z', punchState: '0' });
    // A busy morning from a terminal: 1,100 punches every 5 s from 10:00 local (the terminal's zone is the workspace's).
    const lines = Array.from({ length: 1100 }, (_, i) => {
      const s = 10 * 3600 + i * 5;
      const hh = String(Math.floor(s / 3600)).padStart(2, '0');
      const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
      const ss = String(s % 60).padStart(2, '0');
      return `41\t2026-03-10 ${hh}:${mm}:${ss}\t0\t1\t0`;
    });
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, lines.join('\n'))).text).to.equal('OK: 1100');

    const expected = Array.from({ length: 24 }, () => 0);
    expected[8] = 2; // 12:30Z (ours) and 12:45Z (the other company's)
    expected[9] = 1;
    expected[10] = 720;
    expected[11] = 380;
    expected[22] = 1; // 02:00Z on the 11th is 22:00 on the 10th
    expect((await gqlData(t.url, ws.key, COUNTS, { date: '2026-03-10' })).punchCountsByHour).to.deep.equal(expected);
    expected[8] = 1;
    expect((await gqlData(t.url, ws.key, COUNTS, { date: '2026-03-10', companyId: c.id })).punchCountsByHour).to.deep.equal(expected);
    const eleventh = (await gqlData(t.url, ws.key, COUNTS, { date: '2026-03-11' })).punchCountsByHour;
    expect(eleventh[0]).to.equal(1);
    expect(eleventh.reduce((a: number, b: number) => a + b, 0)).to.equal(1);

    const stranger = await createWorkspace(t.url);
    expect((await gqlData(t.url, stranger.key, COUNTS, { date: '2026-03-10' })).punchCountsByHour).to.deep.equal(Array.from({ length: 24 }, () => 0));
    const foreign = await gql(t.url, stranger.key, COUNTS, { date: '2026-03-10', companyId: c.id });
    expect(foreign.errors?.[0]?.extensions?.code, JSON.stringify(foreign)).to.equal('not_found');
  });

  it('refuses a date that is not a calendar date', async () => {
    const ws = await createWorkspace(t.url);
    for (const date of ['2026-02-30', '10/03/2026', '']) {
      const answer = await gql(t.url, ws.key, COUNTS, { date });
      expect(answer.errors?.[0]?.extensions?.code, `${date}: ${JSON.stringify(answer)}`).to.equal('validation_failed');
      expect(JSON.stringify(answer.errors?.[0]?.extensions)).to.include('date');
    }
  });
});
