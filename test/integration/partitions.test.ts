import { expect } from 'chai';
import pino from 'pino';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { createApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { ormOptions } from '../../src/db/orm-config';
import { ensurePartitions, listPartitions } from '../../src/db/partitions';
import { freshDatabaseUrl } from '../support/database';
import { createCompany, createDevice, createEmployee, createWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { createTerminalDevice, iclock } from '../support/terminal';
import { MASTER_KEY, startTestApp, type TestApp } from '../support/test-app';
import { waitForLockWait } from '../support/service-process';

/** The migration before the one that partitions the history tables. */
const PREVIOUS_VERSION = 'Migration20261125155600';

describe('partitioned history and 64-bit punch ids', () => {
  let t: TestApp;
  let clock = Date.parse('2026-03-15T10:00:00Z');
  const now = () => new Date(clock);
  before(async () => {
    t = await startTestApp({ TIMEGATE_EVENT_PURGE_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' }, 'partitions', { now });
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const partitionOf = async (table: string, id: number | string) =>
    (await sql(`select tableoid::regclass::text as part from ${table} where id = ?`, [id]))[0]?.part;

  /** A workspace with one employee (pin) and one device; `punchAt` records a manual punch through REST. */
  async function punchingWorkspace(pin: string) {
    const ws = await createWorkspace(t.url, { maxCompanies: 5 });
    const company = await createCompany(t.url, ws.key);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin });
    const device = await createDevice(t.url, ws.key, company.id);
    const punchAt = (time: string) =>
      rest(t.url, 'POST', '/public/v2/punches', {
        key: ws.key,
        body: { employee_id: employee.id, device_id: device.id, company_id: company.id, punch_time: time, punch_state: '0' },
      });
    return { ws, punchAt };
  }

  it('the service creates last month to three months ahead at start, for punch, event, audit_event and webhook_attempt', async () => {
    for (const table of ['punch', 'event', 'audit_event', 'webhook_attempt']) {
      const parts = await listPartitions(t.app.database.orm.em.fork(), table);
      expect(parts, table).to.include.members([
        `${table}_y2026m02`,
        `${table}_y2026m03`,
        `${table}_y2026m04`,
        `${table}_y2026m05`,
        `${table}_y2026m06`,
        `${table}_default`,
      ]);
    }
  });

  it('a punch of a month without a partition waits in the default one and moves to its month when that is created', async () => {
    const { ws, punchAt } = await punchingWorkspace('4401');
    const created = await punchAt('2026-08-10T07:59:00Z');
    expect(created.status).to.equal(201);
    expect(await partitionOf('punch', created.body.id)).to.equal('punch_default');

    clock = Date.parse('2026-07-20T10:00:00Z');
    const made = await t.app.housekeeping.ensurePartitions();
    expect(made).to.include('punch_y2026m08');
    expect(await partitionOf('punch', created.body.id)).to.equal('punch_y2026m08');
    expect((await sql('select count(*)::int as n from punch_default'))[0].n, 'nothing left behind').to.equal(0);
    const read = await rest(t.url, 'GET', `/public/v2/punches/${created.body.id}`, { key: ws.key });
    expect(read.status).to.equal(200);
    expect(read.body).to.deep.include({ id: created.body.id, punch_time: '2026-08-10T07:59:00.000Z' });
    // The same punch again is still recognised in its new partition.
    const again = await punchAt('2026-08-10T07:59:00Z');
    expect(again.status).to.equal(200);
    expect(again.body.id).to.equal(created.body.id);
  });

  it('a row written to the default partition while its month is being created moves with the others; the attach never meets it', async () => {
    const { punchAt } = await punchingWorkspace('4402');
    const created = await punchAt('2029-02-10T08:00:00Z');
    expect(created.status).to.equal(201);
    // A writer in the middle of its transaction: another punch of February 2029, not yet committed.
    const writer = new pg.Client({ connectionString: t.config.databaseUrl! });
    await writer.connect();
    try {
      await writer.query('begin');
      const copy = await writer.query(
        `insert into punch select (jsonb_populate_record(null::punch, to_jsonb(p) || jsonb_build_object('id', nextval(pg_get_serial_sequence('punch', 'id')), 'punch_time', '2029-02-11T08:00:00Z'))).* from punch p where p.id = $1 returning id`,
        [created.body.id],
      );
      // February is the first month this run creates (last month of March), so nothing before it takes the locks.
      const making = ensurePartitions(t.app.database.orm.em.fork(), new Date('2029-03-15T00:00:00Z'));
      await waitForLockWait(t.config.databaseUrl!, '%lock table "punch_default"%');
      await writer.query('commit');
      expect(await making).to.include('punch_y2029m02');
      expect(await partitionOf('punch', created.body.id)).to.equal('punch_y2029m02');
      expect(await partitionOf('punch', copy.rows[0].id)).to.equal('punch_y2029m02');
    } finally {
      await writer.end();
    }
  });

  it('several processes creating the same partitions at once make each exactly once', async () => {
    const at = new Date('2027-05-03T00:00:00Z');
    const runs = await Promise.all([0, 1, 2, 3].map(() => ensurePartitions(t.app.database.orm.em.fork(), at)));
    const made = runs.flat();
    expect(made.filter((name) => name === 'punch_y2027m08')).to.have.length(1);
    expect(new Set(made).size, 'no partition made twice').to.equal(made.length);
    expect(await listPartitions(t.app.database.orm.em.fork(), 'event')).to.include.members(['event_y2027m04', 'event_y2027m08']);
  });

  it('a start whose partition maintenance cannot get its locks still serves; the next run creates the months', async function () {
    this.timeout(30_000);
    const blocker = new pg.Client({ connectionString: t.config.databaseUrl! });
    await blocker.connect();
    let second: App | null = null;
    try {
      await blocker.query('begin');
      await blocker.query('lock table punch_default in access exclusive mode');
      const later = () => new Date('2031-06-15T10:00:00Z');
      second = await createApp(t.config, { logger: pino({ level: 'silent' }), now: later });
      expect((await fetch(`${second.url}/healthz`)).status).to.equal(200);
      expect(await listPartitions(t.app.database.orm.em.fork(), 'punch')).to.not.include('punch_y2031m06');
      await blocker.query('rollback');
      expect(await second.housekeeping.ensurePartitions()).to.include('punch_y2031m06');
    } finally {
      await blocker.end();
      await second?.stop();
    }
  });

  it('retention drops event months once they are wholly past it, with their webhook deliveries; stray old rows of the default partition go too', async () => {
    const { ws, punchAt } = await punchingWorkspace('5501');
    const endpoint = await rest(t.url, 'POST', '/public/v2/webhooks', {
      key: ws.key,
      body: { url: 'http://127.0.0.1:9/hook', event_types: ['attendance.created'] },
    });
    expect(endpoint.status, endpoint.text).to.equal(201);
    clock = Date.parse('2026-09-12T10:00:00Z');
    await t.app.housekeeping.ensurePartitions();
    const punch = await punchAt('2026-09-12T09:00:00Z');
    expect(punch.status).to.equal(201);
    const [event] = await sql(`select id, tableoid::regclass::text as part from event where workspace_id = ? and type = 'attendance.created'`, [ws.id]);
    expect(event.part).to.equal('event_y2026m09');
    expect((await sql('select count(*)::int as n from webhook_delivery where event_id = ?', [event.id]))[0].n).to.equal(1);
    await sql(`insert into event (id, workspace_id, type, data, created_at) values (42, ?, 'company.created', '{}', '2019-01-01T00:00:00Z')`, [ws.id]);
    expect(await partitionOf('event', 42)).to.equal('event_default');
    // Batch rows (src/events/event-batch.ts): deliveries of their later events go with them too.
    const batch = '{"common": {}, "keys": ["id"], "rows": [[1], [2], [3]]}';
    await sql(
      `insert into event (id, workspace_id, type, data, created_at, span) values (5000, ?, 'attendance.created', ?::jsonb, '2026-09-12T09:30:00Z', 3)`,
      [ws.id, batch],
    );
    await sql(`insert into event (id, workspace_id, type, data, created_at, span) values (60, ?, 'attendance.created', ?::jsonb, '2019-01-01T00:00:00Z', 3)`, [
      ws.id,
      batch,
    ]);
    for (const eventId of [5001, 5002, 62]) {
      await sql(
        `insert into webhook_delivery (workspace_id, endpoint_id, event_id, next_attempt_at, give_up_at, created_at) values (?, ?, ?, now(), now(), now())`,
        [ws.id, endpoint.body.id, eventId],
      );
    }
    const batchDeliveries = async (ids: number[]) => (await sql(`select count(*)::int as n from webhook_delivery where event_id in (${ids.join(', ')})`))[0].n;
    // Webhook attempts: one in September (its delivery's month), one stray in the default partition.
    const [delivery] = await sql(`select id from webhook_delivery where event_id = ?`, [event.id]);
    const attempt = async (at: string) =>
      (await sql(`insert into webhook_attempt (delivery_id, attempted_at, duration_ms, succeeded) values (?, ?, 5, false) returning id`, [delivery.id, at]))[0]
        .id;
    const september = await attempt('2026-09-12T09:00:05Z');
    const stray = await attempt('2019-01-01T00:00:00Z');
    expect(await partitionOf('webhook_attempt', september)).to.equal('webhook_attempt_y2026m09');
    expect(await partitionOf('webhook_attempt', stray)).to.equal('webhook_attempt_default');

    clock = Date.parse('2026-10-07T23:00:00Z'); // September ended 6 days 23 hours ago
    await t.app.housekeeping.purge();
    expect(await partitionOf('event', event.id), 'kept: September is not yet 7 days past').to.equal('event_y2026m09');
    expect(await partitionOf('event', 42), 'a default-partition row past the retention').to.equal(undefined);
    expect(await batchDeliveries([62]), "a stray batch row's deliveries").to.equal(0);
    expect(await batchDeliveries([5001, 5002]), "September's batch is kept with its deliveries").to.equal(2);
    expect(await partitionOf('webhook_attempt', september), 'kept with its month').to.equal('webhook_attempt_y2026m09');
    expect(await partitionOf('webhook_attempt', stray), 'a default-partition attempt past the retention').to.equal(undefined);

    clock = Date.parse('2026-10-08T00:01:00Z');
    const purged = await t.app.housekeeping.purge();
    expect(purged).to.be.greaterThan(0);
    expect(await batchDeliveries([5001, 5002]), "the batch's deliveries went with its month").to.equal(0);
    expect(await listPartitions(t.app.database.orm.em.fork(), 'event')).to.not.include('event_y2026m09');
    expect((await sql('select count(*)::int as n from webhook_delivery where event_id = ?', [event.id]))[0].n).to.equal(0);
    expect(await listPartitions(t.app.database.orm.em.fork(), 'webhook_attempt')).to.not.include('webhook_attempt_y2026m09');
    expect(await listPartitions(t.app.database.orm.em.fork(), 'webhook_attempt'), 'later months stay').to.include('webhook_attempt_y2026m10');
    expect(await listPartitions(t.app.database.orm.em.fork(), 'punch'), 'punches are history: never dropped').to.include('punch_y2026m09');
  });

  it('finished device commands nothing reads any more move to the partitioned command log archive, listed as before; its retention drops old months', async () => {
    clock = Date.parse('2026-11-20T10:00:00Z');
    await t.app.housekeeping.ensurePartitions();
    expect(await listPartitions(t.app.database.orm.em.fork(), 'device_command_archive')).to.include.members([
      'device_command_archive_y2026m11',
      'device_command_archive_y2027m02',
      'device_command_archive_default',
    ]);
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id);
    const command = async (commandId: string, text: string, status: string, completedAt: string | null, reference: string | null = null) =>
      (
        await sql(
          `insert into device_command (workspace_id, device_id, command_id, command, kind, status, return_code, attempts, reference, created_at, sent_at, completed_at)
           values (?, ?, ?, ?, 'user_sync', ?, ?, 1, ?, '2026-09-30T10:00:00Z', ?, ?) returning id`,
          [ws.id, device.id, commandId, text, status, status === 'failed' ? -1 : 0, reference, completedAt, completedAt],
        )
      )[0].id as number;
    const old = await command('C1', 'DATA UPDATE USERINFO PIN=7\tName=Secret Person', 'succeeded', '2026-11-01T08:00:00Z');
    const recent = await command('C2', 'DATA UPDATE USERINFO PIN=8\tName=Recent', 'failed', '2026-11-19T08:00:00Z');
    const queued = await command('C3', 'DATA DELETE USERINFO PIN=9', 'queued', null);
    const partOfAction = await command('C4', 'CONTROL DEVICE 01010105', 'succeeded', '2026-11-01T08:00:00Z', 'device_action:da_1');
    await command('C5', 'CONTROL DEVICE 01010106', 'sent', null, 'device_action:da_1');
    const ofDoorAction = await command('C6', 'CONTROL DEVICE 01010105', 'succeeded', '2026-11-01T08:00:00Z');
    await sql(
      `insert into door_action (action_id, workspace_id, device_id, command_id, door, duration, status, created_at, expires_at) values ('da_door', ?, ?, ?, 1, 5, 'succeeded', now(), now())`,
      [ws.id, device.id, ofDoorAction],
    );
    const stray = await command('C7', 'CLEAR LOG', 'expired', '2025-12-31T20:00:00Z');
    const list = async (status?: string[]) =>
      (
        await gqlData(
          t.url,
          ws.key,
          'query ($d: Int!, $s: [String!]) { deviceCommands(deviceId: $d, status: $s) { totalCount nodes { id verb status completedAt } } }',
          {
            d: device.id,
            s: status ?? null,
          },
        )
      ).deviceCommands;
    const before = await list();

    const moved = await t.app.housekeeping.archiveCommands();
    expect(moved).to.deep.equal({ archived: 2, dropped: 0 });
    const live = (await sql('select id from device_command where device_id = ? order by id', [device.id])).map((r: { id: number }) => r.id);
    expect(live, 'recent, queued, in an action still in flight, or read by a door action: kept').to.deep.equal([
      recent,
      queued,
      partOfAction,
      partOfAction + 1,
      ofDoorAction,
    ]);
    expect(await partitionOf('device_command_archive', old)).to.equal('device_command_archive_y2026m11');
    expect(await partitionOf('device_command_archive', stray)).to.equal('device_command_archive_default');
    const columns = (await sql(`select column_name from information_schema.columns where table_name = 'device_command_archive'`)).map(
      (r: { column_name: string }) => r.column_name,
    );
    expect(columns, "the archive keeps the verb, not the text (a person's name, a template, a photo)").to.include('verb').and.not.include('command');
    expect((await sql('select verb from device_command_archive where id = ?', [old]))[0].verb).to.equal('DATA UPDATE USERINFO');
    // The list reads both tables: the same commands, in the same order, with the same verbs.
    expect(await list()).to.deep.equal(before);
    expect(before.totalCount).to.equal(7);
    expect((await list(['succeeded'])).nodes.map((n: { id: number }) => n.id)).to.deep.equal([ofDoorAction, partOfAction, old]);
    expect((await list(['expired'])).nodes.map((n: { verb: string }) => n.verb)).to.deep.equal(['CLEAR LOG']);
    expect(await t.app.housekeeping.archiveCommands(), 'a second run finds nothing new').to.deep.equal({ archived: 0, dropped: 0 });

    // A year on, the archive months wholly past the retention (365 days) go, the default partition's old rows too.
    clock = Date.parse('2027-12-15T10:00:00Z');
    await t.app.housekeeping.ensurePartitions();
    // The recent failure is past the archive age by now: it moves, and goes with November.
    expect(await t.app.housekeeping.archiveCommands()).to.deep.equal({ archived: 1, dropped: 3 });
    expect(await listPartitions(t.app.database.orm.em.fork(), 'device_command_archive')).to.not.include('device_command_archive_y2026m11');
    expect(await partitionOf('device_command_archive', stray)).to.equal(undefined);
    expect(
      (await list()).nodes.map((n: { id: number }) => n.id),
      'the live commands stay',
    ).to.deep.equal([ofDoorAction, partOfAction + 1, partOfAction, queued]);
  });

  it('punch ids past 2^31 (and far past it) go through the terminal protocol, REST and GraphQL unchanged', async () => {
    clock = Date.parse('2026-11-10T10:00:00Z');
    await t.app.housekeeping.ensurePartitions();
    const ws = await createWorkspace(t.url, { maxCompanies: 5 });
    const company = await createCompany(t.url, ws.key);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: '7001' });
    const device = await createDevice(t.url, ws.key, company.id, { time_zone: 'UTC' });
    const bigIds: number[] = [];
    for (const [start, time] of [
      [2 ** 31 + 5, '2026-11-10 08:00:00'],
      [2 ** 40 + 7, '2026-11-10 17:00:00'],
    ] as const) {
      await sql(`select setval('punch_id_seq', ?, false)`, [start]);
      const upload = await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, `7001\t${time}\t0\t1\t0\t0\t0\n`);
      expect(upload.text).to.equal('OK: 1');
      bigIds.push(start);
    }
    const list = await rest(t.url, 'GET', `/public/v2/punches?employee_id=${employee.id}`, { key: ws.key });
    expect(list.status, list.text).to.equal(200);
    expect(list.body.map((p: any) => p.id).sort()).to.deep.equal(bigIds.sort());
    const one = await rest(t.url, 'GET', `/public/v2/punches/${2 ** 40 + 7}`, { key: ws.key });
    expect(one.status).to.equal(200);
    expect(one.body.id).to.equal(2 ** 40 + 7);

    const data = await gqlData(t.url, ws.key, 'query ($id: SafeInt!) { punch(id: $id) { id pin } }', { id: 2 ** 40 + 7 });
    expect(data.punch).to.deep.equal({ id: 2 ** 40 + 7, pin: '7001' });
    const literal = await gqlData(t.url, ws.key, `{ punch(id: ${2 ** 31 + 5}) { id } }`);
    expect(literal.punch.id).to.equal(2 ** 31 + 5);
    const tooBig = await gql(t.url, ws.key, `{ punch(id: ${2 ** 53}) { id } }`);
    expect(tooBig.errors?.[0]?.extensions?.code).to.equal('GRAPHQL_VALIDATION_FAILED');

    const voided = await rest(t.url, 'POST', `/public/v2/punches/${2 ** 31 + 5}/void`, { key: ws.key, body: { reason: 'test' } });
    expect(voided.status).to.equal(200);
    expect(voided.body.voided_at).to.be.a('string');
    const missing = await rest(t.url, 'GET', `/public/v2/punches/${2 ** 53}`, { key: ws.key });
    expect(missing.status).to.equal(404);
    expect(missing.body.error.message)
      .to.include(String(2 ** 53))
      .and.include(String(Number.MAX_SAFE_INTEGER));

    // The day's punch ids (64-bit array) as both APIs give them.
    const day = await rest(t.url, 'GET', `/public/v2/timesheets?employee_id=${employee.id}&start_date=2026-11-10&end_date=2026-11-10`, { key: ws.key });
    expect(day.status, day.text).to.equal(200);
    expect(day.body[0].punch_ids).to.deep.equal([2 ** 40 + 7]);

    // Door events (access-control terminals' rtlog) have 64-bit ids too.
    const access = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: company.id, time_zone: 'UTC' });
    await sql(`select setval('door_event_id_seq', ?, false)`, [2 ** 40 + 9]);
    const rtlog = await iclock(
      t.url,
      'POST',
      `/iclock/cdata?SN=${access.serial_number}&table=rtlog`,
      'time=2026-11-10 09:00:00\tpin=7001\tcardno=0\teventaddr=1\tevent=0\tinoutstatus=0\tverifytype=1\tindex=77\n',
    );
    expect(rtlog.text).to.equal('OK');
    const doorEvents = await gqlData(t.url, ws.key, 'query ($d: Int!) { doorEvents(deviceId: $d) { nodes { id deviceRecordIndex employeeId } } }', {
      d: access.id,
    });
    expect(doorEvents.doorEvents.nodes).to.deep.equal([{ id: 2 ** 40 + 9, deviceRecordIndex: 77, employeeId: employee.id }]);
  });

  it('migrates a database of the previous version in place: rows, ids and sequences kept, months partitioned, odd times in the default partition', async () => {
    const url = await freshDatabaseUrl('partition-upgrade');
    const orm = await MikroORM.init(ormOptions(url));
    try {
      await orm.migrator.up({ to: PREVIOUS_VERSION });
      const conn = orm.em.fork().getConnection();
      const columns = `(workspace_id, company_id, device_serial, pin, punch_time, local_time, time_zone, punch_state, record_type, received_at)`;
      for (const [pin, time] of [
        ['1', '2026-01-05T08:00:00Z'],
        ['2', '2026-01-05T17:00:00Z'],
        ['3', '2025-06-30T23:59:59Z'],
        ['4', '1999-12-31T23:00:00Z'],
        ['5', '2031-01-01T00:00:00Z'],
      ]) {
        await conn.execute(`insert into punch ${columns} values (1, 1, 'OLD1', ?, ?, '2026-01-05 08:00:00', 'UTC', '0', 'device', now())`, [pin, time]);
      }
      await conn.execute(
        `insert into event (id, workspace_id, type, data, created_at) values (1000, 1, 'company.created', '{"id": 1}', '2026-01-05T08:00:00Z')`,
      );
      await conn.execute(
        `insert into audit_event (workspace_id, operation, arguments, outcome, request_id, created_at) values (1, 'createCompany', '{}', 'ok', 'r1', '2026-01-05T08:00:00Z')`,
      );
      const before = await conn.execute(`select id, pin, punch_time from punch order by id`);
      expect(before.map((row: any) => row.id)).to.deep.equal([1, 2, 3, 4, 5]);

      await orm.migrator.up();
      const after = await conn.execute(`select id::int as id, pin, punch_time, tableoid::regclass::text as part from punch order by id`);
      expect(after.map((row: any) => [row.id, row.pin, row.part])).to.deep.equal([
        [1, '1', 'punch_y2026m01'],
        [2, '2', 'punch_y2026m01'],
        [3, '3', 'punch_y2025m06'],
        [4, '4', 'punch_default'],
        [5, '5', 'punch_default'],
      ]);
      expect(after.map((row: any) => new Date(row.punch_time).toISOString())).to.deep.equal(before.map((row: any) => new Date(row.punch_time).toISOString()));
      const [types] = await conn.execute(
        `select (select data_type from information_schema.sequences where sequence_name = 'punch_id_seq') as seq,
                (select data_type from information_schema.columns where table_name = 'punch' and column_name = 'id') as id,
                (select udt_name from information_schema.columns where table_name = 'attendance_day' and column_name = 'punch_ids') as day_ids,
                (select relkind from pg_class where relname = 'punch') as kind`,
      );
      expect(types).to.deep.equal({ seq: 'bigint', id: 'bigint', day_ids: '_int8', kind: 'p' });
      expect(await conn.execute(`select tableoid::regclass::text as part from event where id = 1000`)).to.deep.equal([{ part: 'event_y2026m01' }]);
      expect(await conn.execute(`select operation, tableoid::regclass::text as part from audit_event`)).to.deep.equal([
        { operation: 'createCompany', part: 'audit_event_y2026m01' },
      ]);
    } finally {
      await orm.close(true);
    }

    // The upgraded database serves: new punches continue the sequence, the old ones read back.
    const config = loadConfig({
      DATABASE_URL: url,
      PORT: '0',
      HOST: '127.0.0.1',
      TIMEGATE_MASTER_KEY: MASTER_KEY,
      LOG_LEVEL: 'silent',
      TIMEGATE_RATE_LIMIT_BURST: '1000000',
    });
    const app = await createApp(config, { logger: pino({ level: 'silent' }) });
    try {
      const key = app.bootstrapKey!;
      const company = await createCompany(app.url, key);
      const employee = await createEmployee(app.url, key, company.id, { pin: '9' });
      const device = await createDevice(app.url, key, company.id);
      const old = await rest(app.url, 'GET', '/public/v2/punches/3', { key });
      expect(old.status).to.equal(200);
      expect(old.body).to.deep.include({ id: 3, pin: '3', punch_time: '2025-06-30T23:59:59.000Z' });
      const created = await rest(app.url, 'POST', '/public/v2/punches', {
        key,
        body: { employee_id: employee.id, device_id: device.id, company_id: company.id, punch_time: new Date().toISOString(), punch_state: '0' },
      });
      expect(created.status).to.equal(201);
      expect(created.body.id).to.equal(6);
    } finally {
      await app.stop();
    }
  });

  it('migrates webhook deliveries and attempts in place: ids kept and 64-bit, attempts partitioned by month, the cascade kept', async () => {
    const url = await freshDatabaseUrl('attempt-upgrade');
    const orm = await MikroORM.init(ormOptions(url));
    try {
      await orm.migrator.up({ to: 'Migration20261125192443' });
      const conn = orm.em.fork().getConnection();
      const [ws] = await conn.execute(`insert into workspace (name, created_at, updated_at) values ('Old', now(), now()) returning id`);
      const [endpoint] = await conn.execute(
        `insert into webhook_endpoint (workspace_id, url, event_types, secret, created_at, updated_at) values (?, 'https://hooks.example.com/x', '{attendance.created}', 'whsec_x', now(), now()) returning id`,
        [ws.id],
      );
      const [delivery] = await conn.execute(
        `insert into webhook_delivery (workspace_id, endpoint_id, event_id, next_attempt_at, give_up_at, created_at) values (?, ?, 1000, now(), now(), now()) returning id`,
        [ws.id, endpoint.id],
      );
      for (const at of ['2026-01-05T08:00:00Z', '2026-02-01T00:00:00Z', '1999-01-01T00:00:00Z']) {
        await conn.execute(`insert into webhook_attempt (delivery_id, attempted_at, duration_ms, succeeded) values (?, ?, 10, false)`, [delivery.id, at]);
      }

      await orm.migrator.up();
      const rows = await conn.execute(`select id::int as id, delivery_id::int as delivery, tableoid::regclass::text as part from webhook_attempt order by id`);
      expect(rows).to.deep.equal([
        { id: 1, delivery: delivery.id, part: 'webhook_attempt_y2026m01' },
        { id: 2, delivery: delivery.id, part: 'webhook_attempt_y2026m02' },
        { id: 3, delivery: delivery.id, part: 'webhook_attempt_default' },
      ]);
      const [types] = await conn.execute(
        `select (select data_type from information_schema.sequences where sequence_name = 'webhook_attempt_id_seq') as attempt_seq,
                (select data_type from information_schema.sequences where sequence_name = 'webhook_delivery_id_seq') as delivery_seq,
                (select data_type from information_schema.columns where table_name = 'webhook_delivery' and column_name = 'id') as delivery_id,
                (select data_type from information_schema.columns where table_name = 'webhook_attempt' and column_name = 'delivery_id') as attempt_delivery_id,
                (select relkind from pg_class where relname = 'webhook_attempt') as kind`,
      );
      expect(types).to.deep.equal({ attempt_seq: 'bigint', delivery_seq: 'bigint', delivery_id: 'bigint', attempt_delivery_id: 'bigint', kind: 'p' });
      const [next] = await conn.execute(
        `insert into webhook_attempt (delivery_id, attempted_at, duration_ms, succeeded) values (?, now(), 1, true) returning id::int as id`,
        [delivery.id],
      );
      expect(next.id, 'the sequence continues').to.equal(4);
      await conn.execute('delete from webhook_delivery where id = ?', [delivery.id]);
      expect(await conn.execute('select count(*)::int as n from webhook_attempt'), 'attempts go with their delivery').to.deep.equal([{ n: 0 }]);
    } finally {
      await orm.close(true);
    }
  });
});
