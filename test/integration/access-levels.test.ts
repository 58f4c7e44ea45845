import { expect } from 'chai';
import { SimulatedTerminal } from '../../src/simulator';
import { subscribe } from '../support/events';
import { createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { createTerminalDevice, iclock, registerAccessTerminal } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { workspaceSnapshot } from '../support/snapshot';
import { startTestApp, type TestApp } from '../support/test-app';

/** Access schedules and levels: the API, the terminal's own tables, the simulated controller enforcing them. */
describe('access schedules and levels', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  before(async () => {
    t = await startTestApp({}, 'access_levels');
    ws = await createWorkspace(t.url, { maxCompanies: 20, maxDevices: 50 });
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const call = (method: string, path: string, body?: unknown) => rest(t.url, method, path, { key: ws.key, body });
  const company = async (code: string) => (await call('POST', '/public/v2/companies', { name: code, code })).body;
  const officeHours = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start_time: '08:30', end_time: '12:30' }));
  /** The commands queued for a device after `afterId`, in order. */
  const commandsOf = async (deviceId: number, afterId = 0) =>
    await sql<{ id: number; command: string }>('select id, command from device_command where device_id = ? and id > ? order by id', [deviceId, afterId]);
  const lastCommandId = async (deviceId: number) =>
    (await sql('select coalesce(max(id), 0)::int as id from device_command where device_id = ?', [deviceId]))[0].id as number;

  it('every company has a built-in "Always" schedule that cannot be changed; bad schedules and levels are refused precisely and change nothing', async () => {
    const acme = await company('ACS1');
    const other = await company('ACS2');
    const schedules = (await call('GET', `/public/v2/access_schedules?company_id=${acme.id}`)).body;
    expect(schedules).to.have.length(1);
    expect(schedules[0]).to.include({ name: 'Always', built_in: true, company_id: acme.id });
    expect(schedules[0].intervals).to.have.length(7);
    expect((await call('PUT', `/public/v2/access_schedules/${schedules[0].id}`, { name: 'Sometimes' })).body.error.details[0]).to.include({
      field: 'id',
      code: 'built_in',
    });
    expect((await call('DELETE', `/public/v2/access_schedules/${schedules[0].id}`)).status).to.equal(422);

    const before = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    const bad: Array<[unknown[], string, string]> = [
      [
        [
          { weekday: 1, start_time: '08:00', end_time: '12:00' },
          { weekday: 1, start_time: '11:00', end_time: '13:00' },
        ],
        'intervals.1',
        'overlapping',
      ],
      [[{ weekday: 2, start_time: '12:00', end_time: '08:00' }], 'intervals.0.end_time', 'reversed_interval'],
      [[1, 2, 3, 4].map((h) => ({ weekday: 3, start_time: `0${h}:00`, end_time: `0${h}:30` })), 'intervals.3', 'too_many_intervals'],
      [[{ weekday: 8, start_time: '08:00', end_time: '09:00' }], 'intervals.0.weekday', 'out_of_range'],
      [[{ weekday: 1, start_time: '25:00', end_time: '26:00' }], 'intervals.0.start_time', 'invalid_time'],
    ];
    for (const [intervals, field, code] of bad) {
      const r = await call('POST', '/public/v2/access_schedules', { company_id: acme.id, name: 'Bad', intervals });
      expect(r.status, code).to.equal(422);
      expect(
        r.body.error.details.map((d: any) => [d.field, d.code]),
        code,
      ).to.deep.include([field, code]);
    }
    // A list longer than a week's 21 slots is refused as a whole, in both APIs.
    const week = Array.from({ length: 22 }, (_, i) => ({ weekday: (i % 7) + 1, start_time: '08:00', end_time: '09:00' }));
    expect((await call('POST', '/public/v2/access_schedules', { company_id: acme.id, name: 'Long', intervals: week })).status).to.equal(422);
    const long = await call('POST', '/graphql', {
      query: 'mutation ($input: CreateAccessScheduleInput!) { createAccessSchedule(input: $input) { id } }',
      variables: {
        input: { companyId: acme.id, name: 'Long', intervals: week.map((w) => ({ weekday: w.weekday, startTime: w.start_time, endTime: w.end_time })) },
      },
    });
    expect(long.body.errors[0].extensions.details.map((d: any) => [d.field, d.code])).to.deep.equal([['intervals', 'too_many_intervals']]);
    const foreignSchedule = (await call('POST', '/public/v2/access_schedules', { company_id: other.id, name: 'Theirs', intervals: officeHours })).body;
    const panel = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: other.id });
    const [theirDoor] = (await call('GET', `/public/v2/devices/${panel.id}/doors`)).body;
    const afterCreate = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    // The refused schedules stored nothing: the only new ones are the one created and the new company's built-in.
    expect(
      afterCreate
        .access_schedule!.filter((row: any) => !before.access_schedule!.some((old: any) => old.id === row.id))
        .map((row: any) => row.name)
        .sort(),
    ).to.deep.equal(['Always', 'Theirs']);
    const levelCases: Array<[Record<string, unknown>, string, string]> = [
      [{ schedule_id: foreignSchedule.id, door_ids: [] }, 'schedule_id', 'company_mismatch'],
      [{ schedule_id: schedules[0].id, door_ids: [theirDoor.id] }, 'door_ids.0', 'company_mismatch'],
      [{ schedule_id: schedules[0].id, door_ids: [999999] }, 'door_ids.0', 'not_found'],
      [{ schedule_id: 999999, door_ids: [] }, 'schedule_id', 'not_found'],
    ];
    for (const [body, field, code] of levelCases) {
      const r = await call('POST', '/public/v2/access_levels', { company_id: acme.id, name: 'Bad', ...body });
      expect(r.status, code).to.equal(422);
      expect(
        r.body.error.details.map((d: any) => [d.field, d.code]),
        code,
      ).to.deep.include([field, code]);
    }
    const otherWs = await createWorkspace(t.url);
    expect((await rest(t.url, 'GET', `/public/v2/access_schedules/${foreignSchedule.id}`, { key: otherWs.key })).status).to.equal(404);
    const after = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    expect(after.access_level).to.deep.equal(afterCreate.access_level);
    expect(after.access_schedule).to.deep.equal(afterCreate.access_schedule);
  });

  it('a level reaches the terminal as its own tables; the controller grants inside the schedule, denies outside it and after the validity window; edits re-send only what changed', async () => {
    const acme = await company('ACS3');
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: acme.id, time_zone: 'UTC' });
    const [door] = (await call('GET', `/public/v2/devices/${device.id}/doors`)).body;
    const ada = await createEmployee(t.url, ws.key, acme.id, { pin: '5001', name: 'Ada', lastname: 'Door' });
    const bob = await createEmployee(t.url, ws.key, acme.id, { pin: '5002', name: 'Bob', lastname: 'Door' });
    const schedule = (await call('POST', '/public/v2/access_schedules', { company_id: acme.id, name: 'Office hours', intervals: officeHours })).body;
    const level = (await call('POST', '/public/v2/access_levels', { company_id: acme.id, name: 'Staff', schedule_id: schedule.id, door_ids: [door.id] })).body;
    expect(level).to.include({ name: 'Staff', schedule_id: schedule.id });
    expect(level.door_ids).to.deep.equal([door.id]);

    const added = await call('POST', `/public/v2/access_levels/${level.id}/employees`, [{ employee_id: ada.id }, { employee_id: bob.id }]);
    expect(added.status).to.equal(200);
    expect(added.body.map((m: any) => m.employee_id)).to.deep.equal([ada.id, bob.id]);

    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: device.serial_number, family: 'acc', pollIntervalMs: 50, enforceAccess: true });
    const denied = await subscribe(t.app, ws.id, ws.key, `subscription { accessDenied(deviceId: ${device.id}) { denial { reason eventCode employeeId } } }`);
    const punches = await subscribe(t.app, ws.id, ws.key, `subscription { punchCreated(deviceId: ${device.id}) { punch { employeeId localTime } } }`);
    terminal.start();
    try {
      await waitUntil(
        'both people are synced to the controller',
        async () => (await sql("select count(*)::int as n from device_user where device_id = ? and sync_status = 'synced'", [device.id]))[0].n,
        (v) => v === 2,
      );
      const sent = (await commandsOf(device.id)).map((c) => c.command);
      const tz = (mon: string) => `DATA UPDATE timezone TimezoneId=2\tSunTime1=0\tSunTime2=0\tSunTime3=0\t${mon}`;
      const weekdays = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'].map((d) => `${d}Time1=54396110\t${d}Time2=0\t${d}Time3=0`).join('\t');
      expect(sent[0]).to.equal(
        `${tz(weekdays)}\tSatTime1=0\tSatTime2=0\tSatTime3=0\tHol1Time1=0\tHol1Time2=0\tHol1Time3=0\tHol2Time1=0\tHol2Time2=0\tHol2Time3=0\tHol3Time1=0\tHol3Time2=0\tHol3Time3=0`,
      );
      expect(sent).to.include('DATA UPDATE user CardNo=\tPin=5001\tPassword=\tGroup=0\tStartTime=0\tEndTime=0\tName=Ada Door\tPrivilege=0');
      // DevID=1 when the rows were built after the simulator registered (its AccSupportFunList has
      // position 26); none when a sweep built them before (no options known: the document's default).
      for (const pin of ['5001', '5002']) {
        expect(
          sent.filter((c) => new RegExp(`^DATA UPDATE userauthorize Pin=${pin}\tAuthorizeTimezoneId=2\tAuthorizeDoorId=1(\tDevID=1)?$`).test(c)),
        ).to.have.length(1);
      }
      expect(sent.filter((c) => c.startsWith('DATA UPDATE timezone'))).to.have.length(1);

      // Monday 2026-11-23: granted at 09:00, refused at 13:00 (outside the schedule).
      terminal.punch({ pin: '5001', at: new Date('2026-11-23T09:00:00Z') });
      terminal.punch({ pin: '5001', at: new Date('2026-11-23T13:00:00Z') });
      expect((await punches.waitFor(1))[0].punch).to.deep.equal({ employeeId: ada.id, localTime: '2026-11-23 09:00:00' });
      expect((await denied.waitFor(1))[0].denial).to.deep.equal({ reason: 'outside_schedule', eventCode: 23, employeeId: ada.id });

      // A validity window that has ended: the user row carries it and the controller refuses.
      let mark = await lastCommandId(device.id);
      await call('POST', `/public/v2/access_levels/${level.id}/employees`, [{ employee_id: ada.id, start_date: '2026-11-01', end_date: '2026-11-20' }]);
      await waitUntil(
        'Ada is synced again and new commands were queued',
        async () =>
          (await sql('select sync_status from device_user where device_id = ? and employee_id = ?', [device.id, ada.id]))[0].sync_status === 'synced' &&
          (await commandsOf(device.id, mark)).length > 0,
      );
      const windowed = (await commandsOf(device.id, mark)).map((c) => c.command);
      expect(windowed[0]).to.equal('DATA UPDATE user CardNo=\tPin=5001\tPassword=\tGroup=0\tStartTime=20261101\tEndTime=20261120\tName=Ada Door\tPrivilege=0');
      terminal.punch({ pin: '5001', at: new Date('2026-11-23T09:30:00Z') });
      expect((await denied.waitFor(2))[1].denial).to.deep.equal({ reason: 'expired', eventCode: 29, employeeId: ada.id });

      // A schedule edit re-sends the time-zone row only.
      mark = await lastCommandId(device.id);
      const edited = await call('PUT', `/public/v2/access_schedules/${schedule.id}`, { intervals: [{ weekday: 1, start_time: '08:30', end_time: '14:00' }] });
      expect(edited.status).to.equal(200);
      const afterEdit = await commandsOf(device.id, mark);
      expect(afterEdit.map((c) => c.command)).to.deep.equal([
        `DATA UPDATE timezone TimezoneId=2\tSunTime1=0\tSunTime2=0\tSunTime3=0\tMonTime1=${(830 << 16) + 1400}\tMonTime2=0\tMonTime3=0\t${['Tue', 'Wed', 'Thu', 'Fri', 'Sat'].map((d) => `${d}Time1=0\t${d}Time2=0\t${d}Time3=0`).join('\t')}\tHol1Time1=0\tHol1Time2=0\tHol1Time3=0\tHol2Time1=0\tHol2Time2=0\tHol2Time3=0\tHol3Time1=0\tHol3Time2=0\tHol3Time3=0`,
      ]);
      await waitUntil(
        'the command after the edit succeeded',
        async () => (await sql('select status from device_command where id = ?', [afterEdit[0]!.id]))[0].status,
        (v) => v === 'succeeded',
      );
      terminal.punch({ pin: '5002', at: new Date('2026-11-23T13:30:00Z') });
      expect((await punches.waitFor(2))[1].punch).to.deep.equal({ employeeId: bob.id, localTime: '2026-11-23 13:30:00' });

      // Removing a member removes only their rows.
      mark = await lastCommandId(device.id);
      const removed = await call('DELETE', `/public/v2/access_levels/${level.id}/employees`, [{ employee_id: ada.id }]);
      expect(removed.body.map((m: any) => m.employee_id)).to.deep.equal([bob.id]);
      await waitUntil(
        'Ada is synced to the controller',
        async () => (await sql('select present, sync_status from device_user where device_id = ? and employee_id = ?', [device.id, ada.id]))[0]?.sync_status,
        (v) => v === 'synced',
      );
      const removal = (await commandsOf(device.id, mark)).map((c) => c.command);
      expect(removal.every((c) => c.includes('Pin=5001'))).to.equal(true);
      expect(removal[0]).to.equal('DATA DELETE userauthorize Pin=5001');
      expect(terminal.store.users.has('5001')).to.equal(false);
      expect([...terminal.store.authorizations.values()].map((a) => [a.pin, a.timezoneId])).to.deep.equal([['5002', '2']]);
    } finally {
      await denied.close();
      await punches.close();
      await terminal.stop();
    }
  });

  it("attendance terminals get the PUSH 2.x settings: AccTimeZone rows per interval of a day, the person's own TZ; a terminal refusing the table says so in its capabilities", async () => {
    const acme = await company('ACS9');
    const clock = await createTerminalDevice(t.url, ws.key, { mode_type: 'att', company_id: acme.id, time_zone: 'UTC' });
    const [door] = (await call('GET', `/public/v2/devices/${clock.id}/doors`)).body;
    const ada = await createEmployee(t.url, ws.key, acme.id, { pin: '6001', name: 'Ada', lastname: 'Clock' });
    const split = [...officeHours, { weekday: 1, start_time: '13:30', end_time: '17:00' }];
    const schedule = (await call('POST', '/public/v2/access_schedules', { company_id: acme.id, name: 'Split day', intervals: split })).body;
    const level = (await call('POST', '/public/v2/access_levels', { company_id: acme.id, name: 'Clocks', schedule_id: schedule.id, door_ids: [door.id] })).body;
    await call('POST', `/public/v2/access_levels/${level.id}/employees`, [{ employee_id: ada.id }]);
    const capabilities = async (deviceId: number) => (await call('GET', `/public/v2/devices/${deviceId}`)).body.capabilities.access_levels;
    expect(await capabilities(clock.id)).to.equal(true);

    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: clock.serial_number, family: 'att', pollIntervalMs: 50 });
    terminal.start();
    try {
      await waitUntil(
        'Ada is synced to the time clock',
        async () => (await sql('select sync_status from device_user where device_id = ? and employee_id = ?', [clock.id, ada.id]))[0]?.sync_status,
        (v) => v === 'synced',
      );
      const sent = (await commandsOf(clock.id)).map((c) => c.command);
      const day = (name: string, start: string, end: string) => `${name}Start=${start}\t${name}End=${end}`;
      const row = (uid: number, monday: [string, string], weekdays: [string, string]) =>
        `DATA UPDATE AccTimeZone UID=${uid}\t${day('Sun', '2359', '0000')}\t${day('Mon', ...monday)}\t${['Tue', 'Wed', 'Thu', 'Fri'].map((d) => day(d, ...weekdays)).join('\t')}\t${day('Sat', '2359', '0000')}`;
      // Two intervals on Monday: two slots (ids 2 and 3); the block's third id is sent closed.
      expect(sent.slice(0, 3)).to.deep.equal([
        row(2, ['0830', '1230'], ['0830', '1230']),
        row(3, ['1330', '1700'], ['2359', '0000']),
        row(4, ['2359', '0000'], ['2359', '0000']),
      ]);
      expect(sent[3]).to.equal('DATA UPDATE USERINFO PIN=6001\tName=Ada Clock\tPri=0\tTZ=0001000200030000');
      expect(terminal.store.users.get('6001')!.timeZones).to.equal('0001000200030000');
      expect(terminal.store.accTimeZones.get('3')!.get('monstart')).to.equal('1330');

      // One interval a day now: the rows again, and the person's TZ shrinks to the one id.
      const mark = await lastCommandId(clock.id);
      await call('PUT', `/public/v2/access_schedules/${schedule.id}`, { intervals: officeHours });
      await waitUntil('a DATA UPDATE USERINFO command is queued for the time clock', async () =>
        (await commandsOf(clock.id, mark)).some((c) => c.command.startsWith('DATA UPDATE USERINFO')),
      );
      const edited = (await commandsOf(clock.id, mark)).map((c) => c.command);
      expect(edited.slice(0, 3)).to.deep.equal([
        row(2, ['0830', '1230'], ['0830', '1230']),
        row(3, ['2359', '0000'], ['2359', '0000']),
        row(4, ['2359', '0000'], ['2359', '0000']),
      ]);
      expect(edited[3]).to.equal('DATA UPDATE USERINFO PIN=6001\tName=Ada Clock\tPri=0\tTZ=0001000200000000');

      // Out of the level but still assigned: back to the group's time zones; the block is deleted.
      await call('POST', `/public/v2/employees/${ada.id}/devices`, [{ device_id: clock.id, permission_id: 0 }]);
      const beforeRemoval = await lastCommandId(clock.id);
      await call('DELETE', `/public/v2/access_levels/${level.id}/employees`, [{ employee_id: ada.id }]);
      const reset = 'DATA UPDATE USERINFO PIN=6001\tName=Ada Clock\tPri=0\tTZ=0000000100000000';
      const removal = await waitUntil('the reset and the AccTimeZone UID=4 delete are queued for the time clock', async () => {
        const list = (await commandsOf(clock.id, beforeRemoval)).map((c) => c.command);
        return list.includes(reset) && list.includes('DATA DELETE AccTimeZone UID=4') ? list : null;
      }).catch(async (error) => {
        // On a timeout, say what the terminal was sent and the row's state (how the lost update of
        // device-user-lost-update.test.ts was found).
        const commands = await sql('select id, command, status, device_user_version::text as version from device_command where device_id = ? order by id', [
          clock.id,
        ]);
        const users = await sql('select present, access, sent_access, sync_status, changed_at::text as version from device_user where device_id = ?', [
          clock.id,
        ]);
        throw new Error(`${error.message}; mark ${beforeRemoval}; commands ${JSON.stringify(commands)}; device_user ${JSON.stringify(users)}`);
      });
      // The block goes (by its own ids); the person stays, on the group's time zones. (The direct
      // assignment may have re-sent the user once more with its levels just before.)
      expect(removal.filter((c) => c.startsWith('DATA DELETE'))).to.deep.equal([
        'DATA DELETE AccTimeZone UID=2',
        'DATA DELETE AccTimeZone UID=3',
        'DATA DELETE AccTimeZone UID=4',
      ]);
      expect(removal.filter((c) => c === reset)).to.have.length(1);
      await waitUntil(
        'the time clock holds 6001 with the reset time zones and no access time zone',
        async () => terminal.store.users.get('6001')?.timeZones === '0000000100000000' && terminal.store.accTimeZones.size === 0,
      );
    } finally {
      await terminal.stop();
    }

    // Firmware without the access tables answers -1004: the device says so and gets no more of them.
    const old = await createTerminalDevice(t.url, ws.key, { mode_type: 'att', company_id: acme.id });
    const [oldDoor] = (await call('GET', `/public/v2/devices/${old.id}/doors`)).body;
    await call('PUT', `/public/v2/access_levels/${level.id}`, { door_ids: [door.id, oldDoor.id] });
    await call('POST', `/public/v2/access_levels/${level.id}/employees`, [{ employee_id: ada.id }]);
    const plain = new SimulatedTerminal({ serverUrl: t.url, serialNumber: old.serial_number, family: 'att', pollIntervalMs: 50, accessTables: false });
    plain.start();
    try {
      await waitUntil(
        'the old terminal is known to lack the access tables',
        () => capabilities(old.id),
        (v) => v === false,
      );
      const [refused] = await sql(
        "select status, return_code from device_command where device_id = ? and command like 'DATA UPDATE AccTimeZone%' order by id limit 1",
        [old.id],
      );
      expect(refused).to.deep.equal({ status: 'failed', return_code: -1004 });
      await call('PUT', `/public/v2/employees/${ada.id}`, { name: 'Adele' });
      await waitUntil(
        'the rename reached the old terminal',
        async () =>
          (
            await sql("select 1 from device_command where device_id = ? and command like 'DATA UPDATE USERINFO PIN=6001%Adele%' and status = 'succeeded'", [
              old.id,
            ])
          ).length,
        (v) => v > 0,
      );
      const [user] = await sql("select command from device_command where device_id = ? and command like 'DATA UPDATE USERINFO PIN=6001%Adele%'", [old.id]);
      expect(user.command).to.equal('DATA UPDATE USERINFO PIN=6001\tName=Adele Clock\tPri=0');
    } finally {
      await plain.stop();
    }
  });

  it('a grant taken off a person deletes exactly that userauthorize row; an area member inherits the level', async () => {
    const acme = await company('ACS4');
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: acme.id });
    const [door] = (await call('GET', `/public/v2/devices/${device.id}/doors`)).body;
    const eve = await createEmployee(t.url, ws.key, acme.id, { pin: '6001' });
    const [always] = (await call('GET', `/public/v2/access_schedules?company_id=${acme.id}`)).body;
    const nights = (
      await call('POST', '/public/v2/access_schedules', {
        company_id: acme.id,
        name: 'Nights',
        intervals: [{ weekday: 6, start_time: '20:00', end_time: '23:59' }],
      })
    ).body;
    const day = (await call('POST', '/public/v2/access_levels', { company_id: acme.id, name: 'Always', schedule_id: always.id, door_ids: [door.id] })).body;
    const night = (await call('POST', '/public/v2/access_levels', { company_id: acme.id, name: 'Nights', schedule_id: nights.id, door_ids: [door.id] })).body;
    const area = (await call('POST', '/public/v2/areas', { name: 'Ops', code: 'OPS4', company_id: acme.id })).body;
    expect((await call('POST', `/public/v2/areas/${area.id}/employees`, [{ employee_id: eve.id }])).status).to.equal(200);
    expect((await call('POST', `/public/v2/access_levels/${day.id}/areas`, [{ area_id: area.id }])).body).to.deep.equal([
      { access_level_id: day.id, area_id: area.id },
    ]);
    await call('POST', `/public/v2/access_levels/${night.id}/employees`, [{ employee_id: eve.id }]);

    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: device.serial_number, family: 'acc', pollIntervalMs: 50 });
    terminal.start();
    try {
      await waitUntil(
        'the person is synced to the controller',
        async () => (await sql('select sync_status from device_user where device_id = ?', [device.id]))[0]?.sync_status,
        (v) => v === 'synced',
      );
      expect([...terminal.store.authorizations.values()].map((a) => [a.timezoneId, a.doorId]).sort()).to.deep.equal([
        ['1', '1'],
        ['2', '1'],
      ]);
      const mark = await lastCommandId(device.id);
      await call('DELETE', `/public/v2/access_levels/${night.id}/employees`, [{ employee_id: eve.id }]);
      await waitUntil(
        'three commands were queued and the person is synced',
        async () =>
          (await commandsOf(device.id, mark)).length >= 3 &&
          (await sql('select sync_status from device_user where device_id = ?', [device.id]))[0]?.sync_status === 'synced',
      );
      const commands = (await commandsOf(device.id, mark)).map((c) => c.command);
      expect(commands).to.include('DATA DELETE userauthorize Pin=6001\tAuthorizeTimezoneId=2');
      expect(commands).to.include('DATA DELETE timezone TimezoneId=2');
      await waitUntil(
        'the controller holds one authorization',
        async () => terminal.store.authorizations.size,
        (v) => v === 1,
      );
      expect([...terminal.store.authorizations.values()].map((a) => a.timezoneId)).to.deep.equal(['1']);
    } finally {
      await terminal.stop();
    }
  });

  it('a door the terminal no longer reports, and an area deleted, take away the rights they gave at once', async () => {
    const acme = await company('ACS10');
    const panel = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: acme.id });
    const session = await registerAccessTerminal(t.url, panel.serial_number, 'DeviceType=acc,LockCount=2');
    const doors = (await call('GET', `/public/v2/devices/${panel.id}/doors`)).body;
    const always = (await call('GET', `/public/v2/access_schedules?company_id=${acme.id}`)).body[0];
    const ada = await createEmployee(t.url, ws.key, acme.id, { pin: '7001' });
    const bob = await createEmployee(t.url, ws.key, acme.id, { pin: '7002' });
    const hall = (await call('POST', '/public/v2/areas', { name: 'Hall', code: 'HALL10', company_id: acme.id })).body;
    await call('POST', `/public/v2/areas/${hall.id}/employees`, [{ employee_id: bob.id }]);
    const second = (await call('POST', '/public/v2/access_levels', { company_id: acme.id, name: 'Door 2', schedule_id: always.id, door_ids: [doors[1].id] }))
      .body;
    const first = (await call('POST', '/public/v2/access_levels', { company_id: acme.id, name: 'Door 1', schedule_id: always.id, door_ids: [doors[0].id] }))
      .body;
    await call('POST', `/public/v2/access_levels/${second.id}/employees`, [{ employee_id: ada.id }]);
    await call('POST', `/public/v2/access_levels/${first.id}/areas`, [{ area_id: hall.id }]);
    const present = async (employeeId: number) =>
      (await sql('select present from device_user where device_id = ? and employee_id = ?', [panel.id, employeeId]))[0]?.present;
    expect([await present(ada.id), await present(bob.id)]).to.deep.equal([true, true]);

    // The controller now reports one lock: door 2 and with it Ada's only right there are gone.
    await iclock(t.url, 'POST', `/iclock/registry?SN=${panel.serial_number}`, 'DeviceType=acc,LockCount=1', session.cookie);
    expect(await present(ada.id)).to.equal(false);
    // Deleting the area ends Bob's level membership through it, and his place on the panel.
    expect((await call('DELETE', `/public/v2/areas/${hall.id}`)).status).to.equal(200);
    expect(await present(bob.id)).to.equal(false);
  });

  it("the company's holidays reach the terminals that hold schedules, and the controller opens by the holiday type's intervals on them", async () => {
    const acme = await company('ACS5');
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: acme.id, time_zone: 'UTC' });
    const [door] = (await call('GET', `/public/v2/devices/${device.id}/doors`)).body;
    const kim = await createEmployee(t.url, ws.key, acme.id, { pin: '7001' });
    // A holiday known before the terminal holds any schedule is sent with its first schedule.
    await call('POST', '/public/v2/holidays', { company_id: acme.id, date: '2026-11-23', name: 'Founders day', holiday_type: 2 });
    const schedule = (
      await call('POST', '/public/v2/access_schedules', {
        company_id: acme.id,
        name: 'Weekdays, short holidays',
        intervals: officeHours,
        holiday_intervals: [{ holiday_type: 2, start_time: '10:00', end_time: '11:00' }],
      })
    ).body;
    const level = (await call('POST', '/public/v2/access_levels', { company_id: acme.id, name: 'Staff', schedule_id: schedule.id, door_ids: [door.id] })).body;
    await call('POST', `/public/v2/access_levels/${level.id}/employees`, [{ employee_id: kim.id }]);
    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: device.serial_number, family: 'acc', pollIntervalMs: 50, enforceAccess: true });
    const denied = await subscribe(t.app, ws.id, ws.key, `subscription { accessDenied(deviceId: ${device.id}) { denial { reason eventCode } } }`);
    const punches = await subscribe(t.app, ws.id, ws.key, `subscription { punchCreated(deviceId: ${device.id}) { punch { localTime } } }`);
    terminal.start();
    try {
      await waitUntil(
        'the person is synced to the controller',
        async () => (await sql('select sync_status from device_user where device_id = ?', [device.id]))[0]?.sync_status,
        (v) => v === 'synced',
      );
      expect((await commandsOf(device.id)).map((c) => c.command)).to.include('DATA UPDATE holiday Holiday=20261123\tHolidayType=2\tLoop=2');
      // Monday 23 November is a holiday: 09:00 (office hours on a Monday) is refused, 10:30 opens.
      terminal.punch({ pin: '7001', at: new Date('2026-11-23T09:00:00Z') });
      terminal.punch({ pin: '7001', at: new Date('2026-11-23T10:30:00Z') });
      expect((await denied.waitFor(1))[0].denial).to.deep.equal({ reason: 'outside_schedule', eventCode: 23 });
      expect((await punches.waitFor(1))[0].punch).to.deep.equal({ localTime: '2026-11-23 10:30:00' });

      // Holidays created, moved and deleted later follow.
      const mark = await lastCommandId(device.id);
      const created = (await call('POST', '/public/v2/holidays', { company_id: acme.id, date: '2026-12-25', name: 'Christmas', holiday_type: 1 })).body;
      await call('PUT', `/public/v2/holidays/${created.id}`, { date: '2026-12-26' });
      await call('DELETE', `/public/v2/holidays/${created.id}`);
      expect((await commandsOf(device.id, mark)).map((c) => c.command)).to.deep.equal([
        'DATA UPDATE holiday Holiday=20261225\tHolidayType=1\tLoop=2',
        'DATA DELETE holiday Holiday=20261225',
        'DATA UPDATE holiday Holiday=20261226\tHolidayType=1\tLoop=2',
        'DATA DELETE holiday Holiday=20261226',
      ]);
      await waitUntil(
        'the controller dropped the removed holiday and holds the added one',
        async () => !terminal.store.holidays.has('20261226') && terminal.store.holidays.get('20261123') === 2,
      );
    } finally {
      await denied.close();
      await punches.close();
      await terminal.stop();
    }
  });
});
