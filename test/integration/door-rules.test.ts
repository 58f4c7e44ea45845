import { expect } from 'chai';
import { SimulatedTerminal } from '../../src/simulator';
import { subscribe } from '../support/events';
import { createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { createTerminalDevice } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { snapshotChanges, workspaceSnapshot } from '../support/snapshot';
import { startTestApp, type TestApp } from '../support/test-app';

/** Controller door rules: anti-passback and interlock set through the API, compiled to SET OPTIONS, enforced by the controller. */
describe('controller door rules (anti-passback, interlock)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  before(async () => {
    t = await startTestApp({}, 'door_rules');
    ws = await createWorkspace(t.url, { maxCompanies: 20, maxDevices: 50 });
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const call = (method: string, path: string, body?: unknown) => rest(t.url, method, path, { key: ws.key, body });
  const company = async (code: string) => (await call('POST', '/public/v2/companies', { name: code, code })).body;

  /** A 2-door controller online, with its doors reported, and two people allowed through both doors at any hour. */
  async function twoDoorController(code: string) {
    const acme = await company(code);
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: acme.id, time_zone: 'UTC' });
    const terminal = new SimulatedTerminal({
      serverUrl: t.url,
      serialNumber: device.serial_number,
      family: 'acc',
      pollIntervalMs: 50,
      enforceAccess: true,
      lockCount: 2,
    });
    terminal.start();
    const doors = await waitUntil('the controller reports its two doors', async () => {
      const list = (await call('GET', `/public/v2/devices/${device.id}/doors`)).body;
      return list.length === 2 && list;
    });
    const always = (await call('GET', `/public/v2/access_schedules?company_id=${acme.id}`)).body[0];
    const level = (
      await call('POST', '/public/v2/access_levels', { company_id: acme.id, name: 'Both doors', schedule_id: always.id, door_ids: doors.map((d: any) => d.id) })
    ).body;
    const people = [];
    for (const pin of ['8101', '8102']) people.push(await createEmployee(t.url, ws.key, acme.id, { pin, name: 'Door', lastname: pin }));
    await call(
      'POST',
      `/public/v2/access_levels/${level.id}/employees`,
      people.map((p) => ({ employee_id: p.id })),
    );
    await waitUntil(
      'both people are synced to the controller',
      async () => (await sql("select count(*)::int as n from device_user where device_id = ? and sync_status = 'synced'", [device.id]))[0].n,
      (v) => v === 2,
    );
    return { acme, device, terminal, doors: doors as Array<{ id: number; number: number }> };
  }

  it('compiles anti-passback and interlock to SET OPTIONS, shows them applied on the controller and on its doors, and the controller refuses with rtlog 24 and 25', async () => {
    const { device, terminal, doors } = await twoDoorController('DRL1');
    const [door1, door2] = doors;
    const denied = await subscribe(t.app, ws.id, ws.key, `subscription { accessDenied(deviceId: ${device.id}) { denial { eventCode employeeId } } }`);
    try {
      expect((await call('GET', `/public/v2/devices/${device.id}`)).body.capabilities).to.include({ anti_passback: true, interlock: true });
      expect((await call('GET', `/public/v2/devices/${device.id}/door_rules`)).body).to.include({
        anti_passback: null,
        interlock: null,
        delivery_status: 'none',
      });

      const put = await call('PUT', `/public/v2/devices/${device.id}/door_rules`, {
        anti_passback: { type: 'in_out', door_ids: [door1!.id] },
        interlock: { groups: [[door1!.id, door2!.id]] },
      });
      expect(put.status).to.equal(200);
      expect(put.body).to.include({ anti_passback_value: 1, interlock_value: 1, delivery_status: 'pending' });
      expect(put.body.anti_passback).to.deep.equal({ type: 'in_out', mode: 'hard', daily_reset: false, door_ids: [door1!.id], pairs: null });
      const [command] = await sql("select command from device_command where device_id = ? and kind = 'controller_rules'", [device.id]);
      expect(command.command).to.equal('SET OPTIONS AntiPassback=1,InterLock=1');
      await waitUntil(
        'the door rules are applied on the controller',
        async () => (await call('GET', `/public/v2/devices/${device.id}/door_rules`)).body.delivery_status,
        (v) => v === 'applied',
      );
      expect(terminal.store.parameters.get('AntiPassback')).to.equal('1');
      expect(terminal.store.parameters.get('InterLock')).to.equal('1');
      // The door's settings show the rules that concern it, in both APIs.
      const shown = (await call('GET', `/public/v2/doors/${door2!.id}`)).body.rules;
      expect(shown).to.deep.equal({
        anti_passback: null,
        interlock_group: [door1!.id, door2!.id],
        delivery_status: 'applied',
        first_person_in: null,
        multi_person: null,
        opening_delivery_status: 'none',
      });
      const gql = await call('POST', '/graphql', { query: `{ door(id: ${door1!.id}) { rules { antiPassback { type doorIds } interlockGroup } } }` });
      expect(gql.body.data.door.rules).to.deep.equal({ antiPassback: { type: 'in_out', doorIds: [door1!.id] }, interlockGroup: [door1!.id, door2!.id] });

      // 8101 enters at door 1 (granted, the door is open); 8102 at door 2 is refused by the interlock;
      // 8101 entering door 1 again without an exit is refused by the anti-passback.
      expect(terminal.punch({ pin: '8101', door: 1, status: 0 }).event).to.equal(0);
      expect(terminal.punch({ pin: '8102', door: 2, status: 0 }).event).to.equal(25);
      terminal.closeDoor(1);
      expect(terminal.punch({ pin: '8101', door: 1, status: 0 }).event).to.equal(24);
      expect(terminal.punch({ pin: '8102', door: 2, status: 0 }).event).to.equal(0);
      const refusals = (await denied.waitFor(2)).map((e: any) => e.denial.eventCode);
      expect(refusals).to.deep.equal([25, 24]);
      const stored = await waitUntil('the two refusals are stored', async () => {
        const rows = await sql<{ event_code: number; door_number: number }>(
          'select event_code, door as door_number from door_event where device_id = ? and event_code in (24, 25) order by id',
          [device.id],
        );
        return rows.length === 2 && rows;
      });
      expect(stored.map((r) => [r.event_code, r.door_number])).to.deep.equal([
        [25, 2],
        [24, 1],
      ]);

      // Off again: SET OPTIONS with zeros.
      const off = await call('PUT', `/public/v2/devices/${device.id}/door_rules`, {});
      expect(off.body).to.include({ anti_passback: null, interlock: null, anti_passback_value: 0, interlock_value: 0 });
      await waitUntil(
        'the controller holds InterLock=0 and AntiPassback=0',
        async () => terminal.store.parameters.get('InterLock') === '0' && terminal.store.parameters.get('AntiPassback') === '0',
      );
    } finally {
      await denied.close();
      await terminal.stop();
    }
  });

  it('refuses what the terminal cannot enforce, doors of another controller and unknown devices, precisely and changing nothing', async () => {
    // A workspace of its own: no terminal of the first test can write its buffered presence into the snapshot.
    ws = await createWorkspace(t.url, { maxCompanies: 20, maxDevices: 50 });
    const acme = await company('DRL2');
    const panel = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: acme.id });
    const clock = await createTerminalDevice(t.url, ws.key, { mode_type: 'att', company_id: acme.id });
    const other = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: acme.id });
    const [door] = (await call('GET', `/public/v2/devices/${panel.id}/doors`)).body;
    const [clockDoor] = (await call('GET', `/public/v2/devices/${clock.id}/doors`)).body;
    const [otherDoor] = (await call('GET', `/public/v2/devices/${other.id}/doors`)).body;
    expect((await call('GET', `/public/v2/devices/${clock.id}`)).body.capabilities).to.include({ anti_passback: false, interlock: false });
    expect((await call('GET', `/public/v2/devices/${panel.id}`)).body.capabilities).to.include({ anti_passback: true, interlock: false });

    const before = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    const cases: Array<[number, unknown, string, string]> = [
      [clock.id, { anti_passback: { type: 'in_out', door_ids: [clockDoor.id] } }, 'anti_passback', 'unsupported_by_device'],
      [panel.id, { anti_passback: { type: 'in_out', mode: 'soft', door_ids: [door.id] } }, 'anti_passback.mode', 'unsupported_by_device'],
      [panel.id, { anti_passback: { type: 'in_out', daily_reset: true, door_ids: [door.id] } }, 'anti_passback.daily_reset', 'unsupported_by_device'],
      [panel.id, { anti_passback: { type: 'in_out', door_ids: [otherDoor.id] } }, 'anti_passback.door_ids', 'not_on_device'],
      [
        panel.id,
        { anti_passback: { type: 'between_doors', pairs: [{ entry_door_ids: [door.id], exit_door_ids: [door.id] }] } },
        'anti_passback',
        'unsupported_combination',
      ],
      [panel.id, { anti_passback: { type: 'between_doors' } }, 'anti_passback.pairs', 'required'],
      // One door: no interlock on this controller.
      [panel.id, { interlock: { groups: [[door.id, otherDoor.id]] } }, 'interlock', 'unsupported_by_device'],
    ];
    for (const [deviceId, body, field, code] of cases) {
      const r = await call('PUT', `/public/v2/devices/${deviceId}/door_rules`, body);
      expect(r.status, `${field} ${code}`).to.equal(422);
      expect(
        r.body.error.details.map((d: any) => [d.field, d.code]),
        `${field} ${code}`,
      ).to.deep.include([field, code]);
    }
    // The same refusal through GraphQL.
    const gql = await call('POST', '/graphql', {
      query: 'mutation ($id: Int!, $input: DeviceDoorRulesInput!) { updateDeviceDoorRules(deviceId: $id, input: $input) { deviceId } }',
      variables: { id: panel.id, input: { antiPassback: { type: 'in_out', mode: 'soft', doorIds: [door.id] } } },
    });
    expect(gql.body.errors[0].extensions.details.map((d: any) => [d.field, d.code])).to.deep.equal([['anti_passback.mode', 'unsupported_by_device']]);
    // A body the schema refuses, and a device of another workspace.
    expect((await call('PUT', `/public/v2/devices/${panel.id}/door_rules`, { anti_passback: { type: 'sideways' } })).status).to.equal(422);
    const otherWs = await createWorkspace(t.url);
    expect((await rest(t.url, 'PUT', `/public/v2/devices/${panel.id}/door_rules`, { key: otherWs.key, body: {} })).status).to.equal(404);
    expect((await rest(t.url, 'GET', `/public/v2/devices/${panel.id}/door_rules`, { key: otherWs.key })).status).to.equal(404);
    const after = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    expect(after, snapshotChanges(before, after)).to.deep.equal(before);
  });
});
