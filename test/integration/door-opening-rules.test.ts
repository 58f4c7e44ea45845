import { expect } from 'chai';
import { SimulatedTerminal } from '../../src/simulator';
import { createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { createTerminalDevice } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { snapshotChanges, workspaceSnapshot } from '../support/snapshot';
import { startTestApp, type TestApp } from '../support/test-app';

/** Door opening rules: first-person-in and the multi-person rule set per door through the API, compiled to the controller's tables and door parameters, enforced by the controller. */
describe('door opening rules (first-person-in, multi-person)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  before(async () => {
    t = await startTestApp({}, 'door_opening');
    ws = await createWorkspace(t.url, { maxCompanies: 20, maxDevices: 50 });
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const call = (method: string, path: string, body?: unknown) => rest(t.url, method, path, { key: ws.key, body });
  const company = async (code: string) => (await call('POST', '/public/v2/companies', { name: code, code })).body;
  // Monday 2026-11-23 in the controller's zone (UTC); the schedule "Mornings" opens Mondays 08:00–10:00.
  const monday = (hhmm: string) => new Date(`2026-11-23T${hhmm}:00Z`);

  it('compiles first-person-in to firstcard rows and SET OPTIONS, shows it on the door, the controller opens at the first member and keeps the rows in step with the level', async () => {
    const acme = await company('DOR1');
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
    try {
      const doors = await waitUntil('the controller reports its two doors', async () => {
        const list = (await call('GET', `/public/v2/devices/${device.id}/doors`)).body;
        return list.length === 2 && list;
      });
      const [door1, door2] = doors as Array<{ id: number }>;
      const always = (await call('GET', `/public/v2/access_schedules?company_id=${acme.id}`)).body[0];
      const mornings = (
        await call('POST', '/public/v2/access_schedules', {
          company_id: acme.id,
          name: 'Mornings',
          intervals: [{ weekday: 1, start_time: '08:00', end_time: '10:00' }],
        })
      ).body;
      const level = async (name: string) =>
        (await call('POST', '/public/v2/access_levels', { company_id: acme.id, name, schedule_id: always.id, door_ids: [door1!.id, door2!.id] })).body;
      const openers = await level('Openers');
      const staff = await level('Staff');
      const people: Record<string, { id: number }> = {};
      for (const pin of ['8201', '8202', '8203']) people[pin] = await createEmployee(t.url, ws.key, acme.id, { pin, name: 'Door', lastname: pin });
      await call('POST', `/public/v2/access_levels/${openers.id}/employees`, [{ employee_id: people['8201']!.id }]);
      await call('POST', `/public/v2/access_levels/${staff.id}/employees`, [{ employee_id: people['8202']!.id }, { employee_id: people['8203']!.id }]);
      await waitUntil(
        'the controller holds the 3 people and their rights',
        async () => terminal.store.users.size === 3 && terminal.store.authorizations.size === 3,
      );
      expect((await call('GET', `/public/v2/devices/${device.id}`)).body.capabilities).to.include({ first_person_in: true });
      expect((await call('GET', `/public/v2/doors/${door1!.id}/opening_rules`)).body).to.include({ first_person_in: null, delivery_status: 'none' });

      const [{ last }] = await sql<{ last: number }>('select coalesce(max(id), 0) as last from device_command where device_id = ?', [device.id]);
      const put = await call('PUT', `/public/v2/doors/${door1!.id}/opening_rules`, {
        first_person_in: { schedule_id: mornings.id, access_level_ids: [openers.id] },
      });
      expect(put.status).to.equal(200);
      expect(put.body).to.include({ door_id: door1!.id, device_id: device.id, first_card_value: 1, first_card_rows: 1, delivery_status: 'pending' });
      expect(put.body.first_person_in).to.deep.equal({ schedule_id: mornings.id, access_level_ids: [openers.id] });
      // The schedule's time zone first (the controller does not hold it yet), then the door's rows, and the parameter.
      const commands = await sql<{ command: string }>(
        "select command from device_command where device_id = ? and kind in ('access_schedule', 'door_opening_rows', 'door_opening_rules') and status <> 'batched' and id > ? order by id",
        [device.id, last],
      );
      expect(commands.map((c) => c.command.split('\t')[0])).to.deep.equal([
        'DATA UPDATE timezone TimezoneId=2',
        'DATA DELETE firstcard DoorID=1',
        'DATA UPDATE firstcard Pin=8201',
        'DATA DELETE multimcard DoorId=1',
        'SET OPTIONS Door1FirstCardOpenDoor=1,Door1MultiCardOpenDoor=0',
      ]);
      expect(commands[2]!.command).to.equal('DATA UPDATE firstcard Pin=8201\tDoorID=1\tTimezoneID=2');
      await waitUntil(
        'the opening rules are applied on the controller',
        async () => (await call('GET', `/public/v2/doors/${door1!.id}/opening_rules`)).body.delivery_status,
        (v) => v === 'applied',
      );
      expect(terminal.store.parameters.get('Door1FirstCardOpenDoor')).to.equal('1');
      expect([...terminal.store.firstCards.values()]).to.deep.equal([{ pin: '8201', door: 1, timezoneId: '2' }]);
      // The door's settings show it, in both APIs; the other door has none.
      const shown = (await call('GET', `/public/v2/doors/${door1!.id}`)).body.rules;
      expect(shown).to.include({ opening_delivery_status: 'applied' });
      expect(shown.first_person_in).to.deep.equal({ schedule_id: mornings.id, access_level_ids: [openers.id] });
      expect(shown.multi_person).to.equal(null);
      expect((await call('GET', `/public/v2/doors/${door2!.id}`)).body.rules).to.include({
        first_person_in: null,
        multi_person: null,
        opening_delivery_status: 'none',
      });
      const gql = await call('POST', '/graphql', {
        query: `{ door(id: ${door1!.id}) { rules { firstPersonIn { scheduleId accessLevelIds } } } doorOpeningRules(doorId: ${door1!.id}) { firstCardRows deliveryStatus } }`,
      });
      expect(gql.body.data).to.deep.equal({
        door: { rules: { firstPersonIn: { scheduleId: mornings.id, accessLevelIds: [openers.id] } } },
        doorOpeningRules: { firstCardRows: 1, deliveryStatus: 'applied' },
      });

      // At the door: a member of Staff opens for the passage only; the first Opener leaves it open
      // (rtlog 2); the next verification is during the open period (1).
      expect(terminal.punch({ pin: '8202', door: 1, at: monday('08:05') }).event).to.equal(0);
      expect(terminal.punch({ pin: '8201', door: 1, at: monday('08:10') }).event).to.equal(2);
      expect(terminal.punch({ pin: '8203', door: 1, at: monday('08:20') }).event).to.equal(1);
      const stored = await waitUntil('the three door events are stored', async () => {
        const rows = await sql<{ event_code: number; event_class: string; opened: boolean }>(
          "select event_code, event_class, opened from door_event where device_id = ? and pin in ('8201', '8202', '8203') order by device_record_index",
          [device.id],
        );
        return rows.length === 3 && rows;
      });
      expect(stored.map((r) => [r.event_code, r.event_class, r.opened])).to.deep.equal([
        [0, 'granted', true],
        [2, 'granted', true],
        [1, 'granted', true],
      ]);

      // Membership follows: 8203 joins Openers (a row is written), 8201 leaves it (its row is deleted).
      await call('POST', `/public/v2/access_levels/${openers.id}/employees`, [{ employee_id: people['8203']!.id }]);
      await waitUntil('the controller holds 8203 as a first person', async () => terminal.store.firstCards.has('8203/1'));
      await call('DELETE', `/public/v2/access_levels/${openers.id}/employees`, [{ employee_id: people['8201']!.id }]);
      await waitUntil('the controller no longer holds 8201 as a first person', async () => !terminal.store.firstCards.has('8201/1'));
      expect([...terminal.store.firstCards.keys()]).to.deep.equal(['8203/1']);
      expect((await call('GET', `/public/v2/doors/${door1!.id}/opening_rules`)).body.first_card_rows).to.equal(1);

      // What a rule uses is not deleted under it.
      expect((await call('DELETE', `/public/v2/access_schedules/${mornings.id}`)).status).to.equal(409);
      expect((await call('DELETE', `/public/v2/access_levels/${openers.id}`)).status).to.equal(409);

      // Off: the parameter goes to 0, the door's rows are deleted, and the schedule's time zone, which nobody else uses, is freed.
      const off = await call('PUT', `/public/v2/doors/${door1!.id}/opening_rules`, { first_person_in: null });
      expect(off.body).to.include({ first_person_in: null, first_card_value: 0, first_card_rows: 0 });
      await waitUntil(
        'the first-person-in rule is off on the controller',
        async () =>
          terminal.store.parameters.get('Door1FirstCardOpenDoor') === '0' && terminal.store.firstCards.size === 0 && !terminal.store.timezones.has('2'),
      );
      expect((await call('DELETE', `/public/v2/access_schedules/${mornings.id}`)).status).to.equal(200);
    } finally {
      await terminal.stop();
    }
  });

  it("compiles the two-person rule to a multimcard combination, the members' user Group and SET OPTIONS; the controller waits at the first (rtlog 26) and opens at the second (rtlog 3)", async () => {
    const acme = await company('DOR4');
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
    try {
      const doors = await waitUntil('the controller reports its two doors', async () => {
        const list = (await call('GET', `/public/v2/devices/${device.id}/doors`)).body;
        return list.length === 2 && list;
      });
      const [door1, door2] = doors as Array<{ id: number }>;
      const always = (await call('GET', `/public/v2/access_schedules?company_id=${acme.id}`)).body[0];
      const level = async (name: string) =>
        (await call('POST', '/public/v2/access_levels', { company_id: acme.id, name, schedule_id: always.id, door_ids: [door1!.id, door2!.id] })).body;
      const vault = await level('Vault');
      const staff = await level('Staff');
      const people: Record<string, { id: number }> = {};
      for (const pin of ['8301', '8302', '8303']) people[pin] = await createEmployee(t.url, ws.key, acme.id, { pin, name: 'Vault', lastname: pin });
      await call('POST', `/public/v2/access_levels/${vault.id}/employees`, [{ employee_id: people['8301']!.id }, { employee_id: people['8302']!.id }]);
      await call('POST', `/public/v2/access_levels/${staff.id}/employees`, [{ employee_id: people['8303']!.id }]);
      await waitUntil(
        'the controller holds the 3 people and their rights',
        async () => terminal.store.users.size === 3 && terminal.store.authorizations.size === 3,
      );
      expect((await call('GET', `/public/v2/devices/${device.id}`)).body.capabilities).to.include({ multi_person: true });

      const [{ last }] = await sql<{ last: number }>('select coalesce(max(id), 0) as last from device_command where device_id = ?', [device.id]);
      const set = await call('POST', '/graphql', {
        query:
          'mutation ($id: Int!, $input: DoorOpeningRulesInput!) { updateDoorOpeningRules(doorId: $id, input: $input) { multiPerson { count accessLevelIds } multiCardValue firstCardValue deliveryStatus } }',
        variables: { id: door1!.id, input: { multiPerson: { count: 2, accessLevelIds: [vault.id] } } },
      });
      expect(set.body.data.updateDoorOpeningRules).to.deep.equal({
        multiPerson: { count: 2, accessLevelIds: [vault.id] },
        multiCardValue: 1,
        firstCardValue: 0,
        deliveryStatus: 'pending',
      });
      const commands = await sql<{ command: string }>(
        "select command from device_command where device_id = ? and kind in ('door_opening_rows', 'door_opening_rules') and status <> 'batched' and id > ? order by id",
        [device.id, last],
      );
      expect(commands.map((c) => c.command)).to.deep.equal([
        'DATA DELETE multimcard DoorId=1',
        'DATA UPDATE multimcard Index=1\tDoorId=1\tGroup1=1\tGroup2=1\tGroup3=0\tGroup4=0\tGroup5=0',
        'SET OPTIONS Door1FirstCardOpenDoor=0,Door1MultiCardOpenDoor=1',
      ]);
      // The members' user rows are written again with their multi-card group; the others keep group 0.
      await waitUntil(
        'the members hold their multi-card group and the rules are applied',
        async () =>
          terminal.store.users.get('8301')?.group === '1' &&
          terminal.store.users.get('8302')?.group === '1' &&
          (await call('GET', `/public/v2/doors/${door1!.id}/opening_rules`)).body.delivery_status === 'applied',
      );
      expect(terminal.store.users.get('8303')?.group).to.equal('0');
      expect(terminal.store.parameters.get('Door1MultiCardOpenDoor')).to.equal('1');
      expect([...terminal.store.multiCards.values()]).to.deep.equal([{ index: '1', door: 1, groups: [1, 1] }]);
      expect((await call('GET', `/public/v2/doors/${door1!.id}`)).body.rules.multi_person).to.deep.equal({ count: 2, access_level_ids: [vault.id] });

      // At the door: the first member waits, the second opens; door 2 is not concerned.
      expect(terminal.punch({ pin: '8301', door: 1, at: monday('09:00') }).event).to.equal(26);
      expect(terminal.punch({ pin: '8302', door: 1, at: new Date(monday('09:00').getTime() + 3000) }).event).to.equal(3);
      expect(terminal.punch({ pin: '8303', door: 2, at: monday('09:01') }).event).to.equal(0);
      const waited = await waitUntil('the multi-person wait is listed', async () => {
        const list = (await call('GET', `/public/v2/door_events?device_id=${device.id}&reason=multi_person_wait`)).body;
        return list.length === 1 && list;
      });
      expect(waited[0]).to.include({ event_code: 26, reason: 'multi_person_wait', pin: '8301' });
      const opened = await waitUntil('the multi-person opening is stored', async () => {
        const rows = await sql<{ event_class: string; opened: boolean }>('select event_class, opened from door_event where device_id = ? and event_code = 3', [
          device.id,
        ]);
        return rows.length === 1 && rows;
      });
      expect(opened[0]).to.deep.equal({ event_class: 'granted', opened: true });

      // A person joining the level gets the group too.
      await call('POST', `/public/v2/access_levels/${vault.id}/employees`, [{ employee_id: people['8303']!.id }]);
      await waitUntil(
        'the controller holds 8303 in the multi-card group',
        async () => terminal.store.users.get('8303')?.group,
        (v) => v === '1',
      );

      // One group per person on a controller: another door of it counting other levels, and a door with both modes, are refused.
      const refused = await call('PUT', `/public/v2/doors/${door2!.id}/opening_rules`, { multi_person: { count: 3, access_level_ids: [staff.id] } });
      expect(refused.status).to.equal(422);
      expect(refused.body.error.details.map((d: any) => [d.field, d.code])).to.deep.equal([['multi_person.access_level_ids', 'unsupported_combination']]);
      const both = await call('PUT', `/public/v2/doors/${door2!.id}/opening_rules`, {
        multi_person: { count: 2, access_level_ids: [vault.id] },
        first_person_in: { schedule_id: always.id, access_level_ids: [vault.id] },
      });
      expect(both.body.error.details.map((d: any) => [d.field, d.code])).to.deep.equal([['multi_person', 'unsupported_combination']]);
      const one = await call('POST', '/graphql', {
        query: 'mutation ($id: Int!, $input: DoorOpeningRulesInput!) { updateDoorOpeningRules(doorId: $id, input: $input) { doorId } }',
        variables: { id: door2!.id, input: { multiPerson: { count: 1, accessLevelIds: [vault.id] } } },
      });
      expect(one.body.errors[0].extensions.details.map((d: any) => [d.field, d.code])).to.deep.equal([['multi_person.count', 'out_of_range']]);
      expect((await call('PUT', `/public/v2/doors/${door2!.id}/opening_rules`, { multi_person: { count: 6, access_level_ids: [vault.id] } })).status).to.equal(
        422,
      );
      expect((await call('GET', `/public/v2/doors/${door2!.id}/opening_rules`)).body.delivery_status).to.equal('none');

      // Off: the combination goes, and the members' group is 0 again.
      await call('PUT', `/public/v2/doors/${door1!.id}/opening_rules`, {});
      await waitUntil(
        'the two-person rule is off on the controller',
        async () =>
          terminal.store.parameters.get('Door1MultiCardOpenDoor') === '0' &&
          terminal.store.multiCards.size === 0 &&
          ['8301', '8302', '8303'].every((pin) => terminal.store.users.get(pin)?.group === '0'),
      );
      expect(terminal.punch({ pin: '8301', door: 1, at: monday('09:10') }).event).to.equal(0);
    } finally {
      await terminal.stop();
    }
  });

  it('refuses what the terminal cannot enforce and references of another company, precisely and changing nothing, in both APIs', async () => {
    // A workspace of its own: no terminal of the first test writes its buffered presence into the snapshot.
    ws = await createWorkspace(t.url, { maxCompanies: 20, maxDevices: 50 });
    const acme = await company('DOR2');
    const other = await company('DOR3');
    const panel = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: acme.id });
    const clock = await createTerminalDevice(t.url, ws.key, { mode_type: 'att', company_id: acme.id });
    const [door] = (await call('GET', `/public/v2/devices/${panel.id}/doors`)).body;
    const [clockDoor] = (await call('GET', `/public/v2/devices/${clock.id}/doors`)).body;
    const always = (await call('GET', `/public/v2/access_schedules?company_id=${acme.id}`)).body[0];
    const foreignSchedule = (await call('GET', `/public/v2/access_schedules?company_id=${other.id}`)).body[0];
    const withDoor = (await call('POST', '/public/v2/access_levels', { company_id: acme.id, name: 'Panel', schedule_id: always.id, door_ids: [door.id] })).body;
    const withoutDoor = (
      await call('POST', '/public/v2/access_levels', { company_id: acme.id, name: 'Clock', schedule_id: always.id, door_ids: [clockDoor.id] })
    ).body;
    const foreignLevel = (
      await call('POST', '/public/v2/access_levels', { company_id: other.id, name: 'Other', schedule_id: foreignSchedule.id, door_ids: [] })
    ).body;
    expect((await call('GET', `/public/v2/devices/${clock.id}`)).body.capabilities).to.include({ first_person_in: false, multi_person: false });

    const before = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    const cases: Array<[number, unknown, string, string]> = [
      [clockDoor.id, { first_person_in: { schedule_id: always.id, access_level_ids: [withoutDoor.id] } }, 'first_person_in', 'unsupported_by_device'],
      [door.id, { first_person_in: { schedule_id: foreignSchedule.id, access_level_ids: [withDoor.id] } }, 'first_person_in.schedule_id', 'company_mismatch'],
      [door.id, { first_person_in: { schedule_id: 999999, access_level_ids: [withDoor.id] } }, 'first_person_in.schedule_id', 'not_found'],
      [door.id, { first_person_in: { schedule_id: always.id, access_level_ids: [withoutDoor.id] } }, 'first_person_in.access_level_ids.0', 'door_not_in_level'],
      [
        door.id,
        { first_person_in: { schedule_id: always.id, access_level_ids: [withDoor.id, foreignLevel.id] } },
        'first_person_in.access_level_ids.1',
        'company_mismatch',
      ],
      [door.id, { first_person_in: { schedule_id: always.id, access_level_ids: [] } }, 'first_person_in.access_level_ids', 'required'],
      [door.id, { first_person_in: { schedule_id: always.id, access_level_ids: [withDoor.id, withDoor.id] } }, 'first_person_in.access_level_ids', 'duplicate'],
      [clockDoor.id, { multi_person: { count: 2, access_level_ids: [withoutDoor.id] } }, 'multi_person', 'unsupported_by_device'],
      [door.id, { multi_person: { count: 2, access_level_ids: [withoutDoor.id] } }, 'multi_person.access_level_ids.0', 'door_not_in_level'],
    ];
    for (const [doorId, body, field, code] of cases) {
      const r = await call('PUT', `/public/v2/doors/${doorId}/opening_rules`, body);
      expect(r.status, `${field} ${code}`).to.equal(422);
      expect(
        r.body.error.details.map((d: any) => [d.field, d.code]),
        `${field} ${code}`,
      ).to.deep.include([field, code]);
    }
    const gql = await call('POST', '/graphql', {
      query: 'mutation ($id: Int!, $input: DoorOpeningRulesInput!) { updateDoorOpeningRules(doorId: $id, input: $input) { doorId } }',
      variables: { id: clockDoor.id, input: { firstPersonIn: { scheduleId: always.id, accessLevelIds: [withoutDoor.id] } } },
    });
    expect(gql.body.errors[0].extensions.details.map((d: any) => [d.field, d.code])).to.deep.equal([['first_person_in', 'unsupported_by_device']]);
    // A body the schema refuses, and a door of another workspace.
    expect((await call('PUT', `/public/v2/doors/${door.id}/opening_rules`, { first_person_in: { schedule_id: always.id } })).status).to.equal(422);
    const otherWs = await createWorkspace(t.url);
    expect((await rest(t.url, 'PUT', `/public/v2/doors/${door.id}/opening_rules`, { key: otherWs.key, body: {} })).status).to.equal(404);
    expect((await rest(t.url, 'GET', `/public/v2/doors/${door.id}/opening_rules`, { key: otherWs.key })).status).to.equal(404);
    const after = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    expect(after, snapshotChanges(before, after)).to.deep.equal(before);
  });
});
