import { expect } from 'chai';
import { createCompany, createDevice, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, gqlData } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

/** The workspace's doors in one request (`doors`): the door board and the overview's open alarms read them so, not per controller. */
describe('doors of the workspace', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  before(async () => {
    t = await startTestApp({}, 'doors-list');
    ws = await createWorkspace(t.url, { maxDevices: 20 });
  });
  after(() => t.stop());

  const sql = (query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute(query, params);
  const DOORS =
    'query ($deviceId: Int, $alarmed: Boolean, $first: Int) { doors(deviceId: $deviceId, alarmed: $alarmed, first: $first) { totalCount nodes { id deviceId number state { alarms } } } }';

  it('lists every controller’s doors by device and number; alarmed keeps the doors in alarm; deviceId one device; another workspace sees none', async () => {
    const companyId = (await createCompany(t.url, ws.key)).id;
    const first = await createDevice(t.url, ws.key, companyId, { name: 'Gate', mode_type: 'acc' });
    const second = await createDevice(t.url, ws.key, companyId, { name: 'Loading bay', mode_type: 'acc' });
    const clock = await createDevice(t.url, ws.key, companyId, { name: 'Clock' });
    // The controllers' state as their rtstate would have left it: one door held open.
    const [alarmed] = (await sql('select id from door where device_id = ? order by number', [second.id])) as { id: number }[];
    await sql(`update door set alarms = '{held_open}' where id = ?`, [alarmed!.id]);

    const all = (await gqlData(t.url, ws.key, DOORS, {})).doors;
    expect(all.totalCount).to.equal(3);
    expect(all.nodes.map((d: any) => d.deviceId)).to.deep.equal([first.id, second.id, clock.id]);

    const open = (await gqlData(t.url, ws.key, DOORS, { alarmed: true })).doors;
    expect(open).to.deep.equal({ totalCount: 1, nodes: [{ id: alarmed!.id, deviceId: second.id, number: 1, state: { alarms: ['held_open'] } }] });
    const quiet = (await gqlData(t.url, ws.key, DOORS, { alarmed: false })).doors;
    expect(quiet.nodes.map((d: any) => d.deviceId)).to.deep.equal([first.id, clock.id]);
    expect((await gqlData(t.url, ws.key, DOORS, { deviceId: first.id })).doors.nodes.map((d: any) => d.deviceId)).to.deep.equal([first.id]);
    const page = (await gqlData(t.url, ws.key, DOORS, { first: 2 })).doors;
    expect({ total: page.totalCount, shown: page.nodes.length }).to.deep.equal({ total: 3, shown: 2 });

    const other = await createWorkspace(t.url);
    expect((await gqlData(t.url, other.key, DOORS, {})).doors).to.deep.equal({ totalCount: 0, nodes: [] });
    expect((await gqlData(t.url, other.key, DOORS, { deviceId: first.id })).doors.nodes).to.deep.equal([]);
    const tooMany = await gql(t.url, ws.key, DOORS, { first: 1001 });
    expect(tooMany.errors?.[0]?.extensions?.code).to.equal('validation_failed');
  });
});
