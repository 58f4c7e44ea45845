import { formatLocalTime } from '../../protocol/time';
import { punchData } from '../../events/event-payloads';
import { batchDataSql, MAX_SPAN } from '../../events/event-batch';
import { outboxTail, recordEvents } from '../../events/outbox';
import { executePrepared } from '../../db/prepared-statement';
import { intArray } from '../common/sql-arrays';
import { Company, Device, Employee, Punch } from '../../entities';
import { PunchRecordType } from '../../entities/punch.entity';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext, withEm } from '../../context/request-context';
import { isoDateMessage, isoToInstant, readIsoDate, startOfNextDay, type IsoDate } from '../../kernel/iso-date';
import type { Page, PageRequest } from '../common/pagination';
import { FieldChecker, limits } from '../common/validation';
import { readFromReplica } from '../common/replica-read';
import { verificationStateExists } from './verification-state.service';

/** A punch to store, as the terminal service or a manual entry describes it. */
export interface NewPunch {
  companyId: number;
  employeeId: number | null;
  deviceId: number | null;
  deviceSerial: string;
  pin: string;
  /** Truncated to whole seconds before storing (terminal clock resolution). */
  punchTime: Date;
  localTime: string;
  timeZone: string;
  punchState: string;
  verifyType: string | null;
  verifyCode: number | null;
  recordType: PunchRecordType;
  workCode: string | null;
  deviceRecordIndex: number | null;
  receivedAt: Date;
  /** A phone punch's position, accuracy, geofence and whether it waited offline (docs/self-service.md). */
  location?: PunchLocation | null;
  /** The approved punch correction that makes this manual punch. */
  correctionId?: number | null;
}

/** Where a phone punch was made: the position the phone reported and the geofence it was inside. */
export interface PunchLocation {
  latitude: number;
  longitude: number;
  accuracyM: number;
  geofenceId: number;
  offlineQueued: boolean;
}

export interface RecordedPunches {
  /** Rows this call created, in input order. */
  inserted: Punch[];
  /** For every input that was already stored (earlier, concurrently, or earlier in the batch): the stored row, in input order. */
  duplicates: Punch[];
}

// Bounded so that one statement stays well under PostgreSQL's 65535 bind parameters (16 per row).
const INSERT_CHUNK = 2000;

const keyOf = (p: { deviceSerial: string; pin: string; punchTime: Date }) => `${p.deviceSerial}\u0000${p.pin}\u0000${p.punchTime.getTime()}`;

/**
 * The order every writer inserts punches in (serial, pin, time), so that two overlapping batches
 * take their index locks in the same order and cannot deadlock each other. A comparison, not a key
 * string per punch: terminal uploads sort a hundred punches each.
 */
function byPunchKey(a: { pin: string; punchTime: Date; deviceSerial?: string }, b: { pin: string; punchTime: Date; deviceSerial?: string }): number {
  if (a.deviceSerial !== b.deviceSerial) return a.deviceSerial! < b.deviceSerial! ? -1 : 1;
  if (a.pin !== b.pin) return a.pin < b.pin ? -1 : 1;
  return a.punchTime.getTime() - b.punchTime.getTime();
}

const indexKeyOf = (p: { deviceSerial: string; deviceRecordIndex?: number | null }) =>
  p.deviceRecordIndex == null ? null : `${p.deviceSerial}\u0000#${p.deviceRecordIndex}`;

/** Counts punches stored (never duplicates), once their transaction committed. */
export function countPunches(ctx: RequestContext, source: 'device' | 'manual' | 'mobile', count: number): void {
  if (count > 0) ctx.metrics?.punchesIngested.inc({ source }, count);
}

/**
 * Stores a batch of punches idempotently, with an `attendance.created` event per inserted row: one
 * multi-row `insert ... on conflict do nothing returning *` against both keys — (workspace, device
 * serial, pin, punch time) and, for access-control records, (workspace, device serial, record
 * index) — then one select for the
 * inputs that were not inserted. No select-then-insert, so concurrent senders of the same record
 * cannot both insert it. Callers have validated the rows (the terminal parser, `createPunch`).
 * `inserted.length + duplicates.length === punches.length`.
 */
export async function recordPunches(ctx: RequestContext, workspaceId: number, punches: readonly NewPunch[]): Promise<RecordedPunches> {
  // One transaction: the punches and their `attendance.created` events commit (or roll back) together.
  return ctx.em.transactional((em) => insertPunches(withEm(ctx, em), workspaceId, punches));
}

/**
 * Locks the company, device and employee rows the punches name, once each, for the rest of the
 * transaction, and fails when one is gone: `punch` has no foreign keys (see the Punch entity), so
 * this is what keeps a concurrent delete from leaving a punch that names a deleted row. Devices FOR
 * SHARE (a delete or a move to another company waits), companies and employees FOR KEY SHARE.
 */
async function lockPunchReferences(ctx: RequestContext, workspaceId: number, punches: readonly NewPunch[]): Promise<void> {
  const ids = (pick: (p: NewPunch) => number | null | undefined) => [...new Set(punches.map(pick).filter((id): id is number => id != null))];
  const tables = [
    { field: 'companyId', entity: 'Company', table: 'company', lock: 'key share', ids: ids((p) => p.companyId) },
    { field: 'deviceId', entity: 'Device', table: 'device', lock: 'share', ids: ids((p) => p.deviceId) },
    { field: 'employeeId', entity: 'Employee', table: 'employee', lock: 'key share', ids: ids((p) => p.employeeId) },
  ] as const;
  for (const { field, entity, table, lock, ids: wanted } of tables) {
    if (wanted.length === 0) continue;
    const rows = await ctx.em.execute<{ id: number }[]>(`select id from ${table} where workspace_id = ? and id = any(?::int[]) order by id for ${lock}`, [
      workspaceId,
      intArray(wanted),
    ]);
    const found = new Set(rows.map((r) => r.id));
    const missing = wanted.find((id) => !found.has(id));
    // Deleted since the caller checked it: the same answer as if it had been gone then.
    if (missing !== undefined) throw DomainError.field(field, 'not_found', `${entity} ${missing} does not exist in this workspace.`);
  }
}

async function insertPunches(ctx: RequestContext, workspaceId: number, punches: readonly NewPunch[]): Promise<RecordedPunches> {
  const em = ctx.em;
  await lockPunchReferences(ctx, workspaceId, punches);
  const normalized = punches.map((p) => ({ ...p, punchTime: new Date(Math.floor(p.punchTime.getTime() / 1000) * 1000) }));
  const knex = em.getKnex();
  const insertedByKey = new Map<string, Punch>();
  // Rows go in key order (byPunchKey); results are matched back to the inputs by key.
  const ordered = [...normalized].sort(byPunchKey);
  for (let start = 0; start < ordered.length; start += INSERT_CHUNK) {
    const rows = ordered.slice(start, start + INSERT_CHUNK).map((p) => punchRow(workspaceId, p, p.punchTime));
    // No conflict target: a conflict on either unique key means "already stored".
    const query = knex('punch').insert(rows).onConflict().ignore().returning('*');
    for (const row of await em.execute<Record<string, unknown>[]>(query)) {
      const punch = em.map(Punch, row);
      insertedByKey.set(keyOf(punch), punch);
    }
  }
  const storedByKey = new Map<string, Punch>();
  const missing = normalized.filter((p) => !insertedByKey.has(keyOf(p)));
  if (missing.length > 0) {
    // The conflicting rows are committed by now: the insert waited for any transaction holding them.
    const indexed = missing.filter((p) => p.deviceRecordIndex != null);
    const query = knex('punch')
      .select('*')
      .where('workspace_id', workspaceId)
      .where((q) => {
        q.whereIn(
          ['device_serial', 'pin', 'punch_time'],
          missing.map((p) => [p.deviceSerial, p.pin, p.punchTime]),
        );
        if (indexed.length > 0)
          q.orWhereIn(
            ['device_serial', 'device_record_index'],
            indexed.map((p) => [p.deviceSerial, p.deviceRecordIndex!]),
          );
      });
    for (const row of await em.execute<Record<string, unknown>[]>(query)) {
      const punch = em.map(Punch, row);
      storedByKey.set(keyOf(punch), punch);
      const byIndex = indexKeyOf(punch);
      if (byIndex) storedByKey.set(byIndex, punch);
    }
  }
  const inserted: Punch[] = [];
  const duplicates: Punch[] = [];
  for (const p of normalized) {
    const key = keyOf(p);
    const fresh = insertedByKey.get(key);
    if (fresh) {
      inserted.push(fresh);
      // A later input with the same key repeats this one: it is a duplicate of the row just made.
      insertedByKey.delete(key);
      storedByKey.set(key, fresh);
      const byIndex = indexKeyOf(fresh);
      if (byIndex) storedByKey.set(byIndex, fresh);
      continue;
    }
    const byIndex = indexKeyOf(p);
    const stored = storedByKey.get(key) ?? (byIndex ? storedByKey.get(byIndex) : undefined);
    if (!stored) throw new Error(`punch ${key} conflicted but cannot be read back`);
    duplicates.push(stored);
  }
  // Only new rows: a re-sent record emits nothing. Last statement, after every punch lock is taken.
  await recordEvents(
    ctx,
    inserted.map((punch) => ({ workspaceId, type: 'attendance.created', data: punchData(punch) })),
  );
  return { inserted, duplicates };
}

/** The columns every writer fills (a terminal's upload leaves the phone columns null). */
const PUNCH_COLUMNS = [
  'workspace_id',
  'company_id',
  'employee_id',
  'device_id',
  'device_serial',
  'pin',
  'punch_time',
  'local_time',
  'time_zone',
  'punch_state',
  'verify_type',
  'verify_code',
  'record_type',
  'work_code',
  'device_record_index',
  'received_at',
].join(', ');

/** An ISO 8601 UTC text of a timestamptz expression, as punchData writes it. */
const isoSql = (expression: string) => `to_char(${expression} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * punchData in SQL over the inserted rows `p` (numbered `n`), per group of up to MAX_SPAN of them:
 * one punch's payload for a group of one (a punch sent as it happens, the usual upload), else the
 * batch form of event-batch.ts. What every punch of the upload shares comes from the device row
 * `dev`, as the punches took it. A test checks that the events read back equal punchData of the
 * stored punches.
 */
const PUNCH_OWN_KEYS = [
  'id',
  'employee_id',
  'pin',
  'punch_time',
  'local_time',
  'punch_state',
  'verify_type',
  'verify_code',
  'work_code',
  'device_record_index',
];
const punchFieldSql = (key: string) => (key === 'punch_time' ? isoSql('p.punch_time') : `p.${key}`);
const PUNCH_COMMON_SQL = `(select jsonb_build_object('company_id', dev.company_id, 'device_id', dev.id, 'device_serial', dev.device_serial,
     'time_zone', dev.time_zone, 'record_type', dev.record_type, 'received_at', ${isoSql('dev.received_at')},
     'source', 'terminal', 'geofence_id', null, 'offline_queued', null) from dev)`;
const PUNCH_GROUP_DATA = batchDataSql(PUNCH_COMMON_SQL, Object.fromEntries(PUNCH_OWN_KEYS.map((k) => [k, punchFieldSql(k)])), 'p.n');

/** The columns of a terminal punch that vary from punch to punch; the others are the upload's. */
const DEVICE_PUNCH_OWN_COLUMNS = ['pin', 'punch_time', 'local_time', 'punch_state', 'verify_type', 'verify_code', 'work_code', 'device_record_index'];

/**
 * PUNCH_COLUMNS of the statement in storeDevicePunches: the punch's own columns from the input row
 * `r`; the workspace, company and device from the locked device row `dev`, with the upload's
 * serial, zone, receipt time and record type; the employee from `emp` (whoever holds the pin, or null).
 */
const DEVICE_PUNCH_SELECT = PUNCH_COLUMNS.split(', ')
  .map((c) => (DEVICE_PUNCH_OWN_COLUMNS.includes(c) ? `r.${c}` : c === 'employee_id' ? 'emp.id' : c === 'device_id' ? 'dev.id' : `dev.${c}`))
  .join(', ');

/** A punch read by a terminal: its device, company, employee, zone and receipt time are the upload's (storeDevicePunches). */
export type DevicePunch = Pick<NewPunch, 'pin' | 'punchTime' | 'localTime' | 'punchState' | 'verifyType' | 'verifyCode' | 'workCode' | 'deviceRecordIndex'>;

/** What every punch of one terminal upload has in common. */
export interface DeviceUpload {
  device: { id: number; workspaceId: number; serialNumber: string; timeZone: string };
  receivedAt: Date;
}

/** The `punch` table row of a new punch (snake_case columns). */
function punchRow(workspaceId: number, p: NewPunch, punchTime: Date) {
  return {
    workspace_id: workspaceId,
    company_id: p.companyId,
    employee_id: p.employeeId ?? null,
    device_id: p.deviceId ?? null,
    device_serial: p.deviceSerial,
    pin: p.pin,
    punch_time: punchTime,
    local_time: p.localTime,
    time_zone: p.timeZone,
    punch_state: p.punchState,
    verify_type: p.verifyType,
    verify_code: p.verifyCode,
    record_type: p.recordType,
    work_code: p.workCode,
    device_record_index: p.deviceRecordIndex,
    received_at: p.receivedAt,
    latitude: p.location?.latitude ?? null,
    longitude: p.location?.longitude ?? null,
    accuracy_m: p.location?.accuracyM ?? null,
    geofence_id: p.location?.geofenceId ?? null,
    offline_queued: p.location?.offlineQueued ?? null,
    correction_id: p.correctionId ?? null,
  };
}

/** The device was deleted while an upload of it was being stored: nothing was stored; the terminal sends it again. */
export class DeviceGone extends Error {
  constructor(deviceId: number) {
    super(`device ${deviceId} was deleted while its upload was being stored; nothing was stored`);
    this.name = 'DeviceGone';
  }
}

/**
 * The terminal ingestion's bulk path: the same idempotent insert as `recordPunches` (no conflict
 * target, so either unique key means "already stored"; rows in key order), but the rows travel as
 * ONE bound JSON parameter, each punch an array of its own columns, and only the number of new rows
 * comes back: no entity mapping and no read-back of duplicates, which cost more than the insert at
 * terminal volumes.
 *
 * Why this form: arrays without key names are a third of the bytes of JSON objects; and
 * `jsonb_array_elements` is always estimated at 100 rows, whatever the upload's size, so the plan
 * PostgreSQL keeps for the prepared statement after five runs (the "generic plan") is the plan each
 * upload would get anyway. One array per column read with `unnest` was estimated from the arrays'
 * lengths: the generic plan, made without them, guessed a few rows and joined in nested loops,
 * which made uploads of 500 lines for 1,000 employees 2.5 times slower (24,416 -> 9,799 punches/s),
 * and planning every upload instead cost a third of the 100-line uploads' throughput. The parameter
 * is read as `jsonb`, parsed once, so a row's fields are taken by index; read as `json`, every `->>`
 * parsed the row's text again (ingestion scenario, two runs each: PostgreSQL CPU per punch 45-51 ->
 * 44 µs, against the baseline 0.62-0.64 -> 0.66-0.67).
 *
 * `punch` has no foreign keys to company, device and employee (docs/decisions.md, "Ingestion:
 * references locked once per upload"); the statement keeps them true itself. It locks the device
 * row (FOR SHARE: a concurrent delete or move waits for the upload, and an upload after a delete
 * finds no row) and takes company and device from it; it finds the employee holding each pin in
 * that company and locks those rows (FOR KEY SHARE: deleting one waits, then nulls its punches).
 * One lock per row per upload, where foreign keys checked and locked per punch.
 *
 * Each created row gets its `attendance.created` event in the same statement, so no transaction is
 * needed (inside one, it joins it). Returns how many rows were created; the others were already
 * stored. Throws DeviceGone when the device row no longer exists.
 */
export async function storeDevicePunches(ctx: RequestContext, upload: DeviceUpload, punches: readonly DevicePunch[]): Promise<number> {
  if (punches.length === 0) return 0;
  const { device } = upload;
  // Only each punch's own columns travel per row; the upload's travel once. In key order (byPunchKey; one serial here).
  const rows = [...punches].sort(byPunchKey);
  // One statement: the punches, their attendance.created events (payload built in SQL, as
  // punchData builds it), webhook deliveries and NOTIFYs. Atomic without a transaction, and no
  // BEGIN/COMMIT round trips. One result row (the count of created punches), or no row at all when
  // the device is gone. Bound parameters, prepared once per connection.
  const tail = outboxTail(ctx, {}, 'select count(p.id)::int as stored from dev left join p on true group by dev.id');
  const result = await executePrepared<{ stored: number }>(
    ctx,
    `with r as materialized (
       select item->>0 as pin, to_timestamp((item->>1)::bigint) as punch_time, item->>2 as local_time, item->>3 as punch_state,
              item->>4 as verify_type, (item->>5)::int as verify_code, item->>6 as work_code, (item->>7)::int as device_record_index, ordinality
       from jsonb_array_elements(?::jsonb) with ordinality as t(item, ordinality)),
     dev as (
       select d.id, d.company_id, d.workspace_id, ?::varchar as device_serial, ?::varchar as time_zone, ?::timestamptz as received_at,
         ?::varchar as record_type
       from device d where d.id = ?::int and d.workspace_id = ?::int for share),
     emp as (select e.id, e.pin from employee e join dev on e.company_id = dev.company_id where e.pin in (select r.pin from r) and e.deleted_at is null for key share of e),
     p as (
       insert into punch (${PUNCH_COLUMNS})
       select ${DEVICE_PUNCH_SELECT} from r cross join dev left join emp on emp.pin = r.pin
       order by r.ordinality
       on conflict do nothing returning id, employee_id, pin, punch_time, local_time, punch_state, verify_type, verify_code, work_code, device_record_index),
     numbered as (select p.*, row_number() over (order by p.id) - 1 as n from p),
     new_events as (
       select (select workspace_id from dev) as workspace_id, p.n / ${MAX_SPAN} as ord, 'attendance.created'::varchar as type,
              ${PUNCH_GROUP_DATA} as data, count(*)::int as span
       from numbered p group by p.n / ${MAX_SPAN}),
     ${tail.sql}`,
    [
      // Each punch as an array of its own columns, in this order (no key names on the wire).
      JSON.stringify(
        // Whole seconds: terminals record seconds, and the idempotence key compares instants.
        rows.map((p) => [
          p.pin,
          Math.floor(p.punchTime.getTime() / 1000),
          p.localTime,
          p.punchState,
          p.verifyType,
          p.verifyCode,
          p.workCode,
          p.deviceRecordIndex,
        ]),
      ),
      device.serialNumber,
      device.timeZone,
      upload.receivedAt,
      PunchRecordType.device,
      device.id,
      device.workspaceId,
      ...tail.params,
    ],
  );
  if (result.length === 0) throw new DeviceGone(device.id);
  return result[0]!.stored;
}

export interface PunchFilter {
  /** ISO 8601; a bare date or a date-time without offset is read in the workspace's zone. */
  startDate?: string;
  /** ISO 8601; a bare date includes that whole day; a date-time is inclusive. */
  endDate?: string;
  employeeId?: number;
  deviceId?: number;
  companyId?: number;
}

export interface ManualPunchInput {
  employeeId: number;
  deviceId: number;
  companyId: number;
  /** ISO 8601 date-time; without offset it is the wall-clock time of the device's zone. */
  punchTime: string;
  punchState: string;
}

export async function getPunch(ctx: RequestContext, id: number): Promise<Punch> {
  const punch = await ctx.em.findOne(Punch, { id, workspaceId: workspaceOf(ctx) });
  if (!punch) throw DomainError.notFound('Punch', id);
  return punch;
}

const DATE_HELP = 'an ISO 8601 date (2024-07-28) or date-time (2024-07-28T08:30:00, optionally with Z or an offset such as -03:00)';

/** A punch as the list returns it: its columns, read without entity hydration. */
export type PunchView = Pick<
  Punch,
  | 'id'
  | 'workspaceId'
  | 'companyId'
  | 'employeeId'
  | 'deviceId'
  | 'deviceSerial'
  | 'pin'
  | 'punchTime'
  | 'localTime'
  | 'timeZone'
  | 'punchState'
  | 'verifyType'
  | 'verifyCode'
  | 'recordType'
  | 'workCode'
  | 'deviceRecordIndex'
  | 'receivedAt'
  | 'voidedAt'
  | 'voidReason'
  | 'correctionId'
  | 'latitude'
  | 'longitude'
  | 'accuracyM'
  | 'geofenceId'
  | 'offlineQueued'
>;

/** The punch columns as PunchView's names (the 64-bit id read as a double: exact below 2^53, as the APIs carry it). */
const PUNCH_VIEW_COLUMNS = `p.id::float8 as "id", p.workspace_id as "workspaceId", p.company_id as "companyId", p.employee_id as "employeeId",
  p.device_id as "deviceId", p.device_serial as "deviceSerial", p.pin, p.punch_time as "punchTime", p.local_time as "localTime",
  p.time_zone as "timeZone", p.punch_state as "punchState", p.verify_type as "verifyType", p.verify_code as "verifyCode",
  p.record_type as "recordType", p.work_code as "workCode", p.device_record_index as "deviceRecordIndex", p.received_at as "receivedAt",
  p.voided_at as "voidedAt", p.void_reason as "voidReason", p.correction_id as "correctionId", p.latitude, p.longitude,
  p.accuracy_m as "accuracyM", p.geofence_id as "geofenceId", p.offline_queued as "offlineQueued"`;

/**
 * Newest first (then highest id), filtered by an instant range and the owners. One statement (the
 * page and its total), without entity hydration: MikroORM's hydration of 100 punches measured 3 ms,
 * four times the query itself, and held the punch list at a quarter of a plain Express + `pg` list.
 */
export async function listPunches(ctx: RequestContext, filter: PunchFilter, page: PageRequest): Promise<Page<PunchView>> {
  return listPunchesIn(ctx, workspaceOf(ctx), filter, page);
}

/** The list in a workspace the caller has already decided on (self-service: always its employee's own punches). */
export async function listPunchesIn(ctx: RequestContext, workspaceId: number, filter: PunchFilter, page: PageRequest): Promise<Page<PunchView>> {
  const check = new FieldChecker();
  const read = (field: 'startDate' | 'endDate'): IsoDate | null => {
    const text = filter[field];
    if (text == null) return null;
    const result = readIsoDate(text);
    if (!result.ok) check.add(field, result.code, isoDateMessage(field, result.code, DATE_HELP));
    return result.ok ? result.value : null;
  };
  const start = read('startDate');
  const end = read('endDate');
  check.done();

  // The whole list may come from the read replica (src/db/read-replica.ts): it only reads.
  return readFromReplica(ctx, workspaceId, 'punches', (reader) => punchPage(reader, workspaceId, filter, page, start, end));
}

async function punchPage(
  ctx: RequestContext,
  workspaceId: number,
  filter: PunchFilter,
  page: PageRequest,
  start: IsoDate | null,
  end: IsoDate | null,
): Promise<Page<PunchView>> {
  const conditions = ['p.workspace_id = ?'];
  const params: unknown[] = [workspaceId];
  if (start || end) {
    const [workspace] = await ctx.em.execute<{ time_zone: string }[]>('select time_zone from workspace where id = ?', [workspaceId]);
    const zone = workspace!.time_zone;
    const from = start ? (start.kind === 'date' ? isoToInstant({ kind: 'local', local: start.local }, zone) : isoToInstant(start, zone)) : null;
    // A bare end date includes that whole day; an end date-time is inclusive.
    const until = end ? (end.kind === 'date' ? { at: startOfNextDay(end.local, zone), op: '<' } : { at: isoToInstant(end, zone), op: '<=' }) : null;
    if (from && until && (until.op === '<' ? until.at <= from : until.at < from)) {
      throw DomainError.field('endDate', 'before_start_date', 'endDate must not be before startDate.');
    }
    if (from) {
      conditions.push('p.punch_time >= ?');
      params.push(from);
    }
    if (until) {
      conditions.push(`p.punch_time ${until.op} ?`);
      params.push(until.at);
    }
  }
  for (const [column, value] of [
    ['employee_id', filter.employeeId],
    ['device_id', filter.deviceId],
    ['company_id', filter.companyId],
  ] as const) {
    if (value === undefined) continue;
    conditions.push(`p.${column} = ?`);
    params.push(value);
  }
  const where = conditions.join(' and ');
  const rows = await ctx.em.execute<(PunchView & { total_count: string })[]>(
    `select ${PUNCH_VIEW_COLUMNS}, count(*) over () as total_count from punch p where ${where} order by p.punch_time desc, p.id desc limit ? offset ?`,
    [...params, page.limit, page.offset],
  );
  let totalCount: number;
  if (rows.length > 0) totalCount = Number(rows[0]!.total_count);
  else {
    // A page past the end: the total from its own count.
    const [count] = await ctx.em.execute<{ count: string }[]>(`select count(*) as count from punch p where ${where}`, params);
    totalCount = Number(count!.count);
  }
  // The driver returns timestamptz as text: parsed as MikroORM hydrates it.
  const platform = ctx.em.getPlatform();
  const date = (value: Date | string | null | undefined) => (value == null ? null : (platform.parseDate(value as string) as Date));
  const items = rows.map(({ total_count: _total, ...punch }): PunchView => ({
    ...punch,
    punchTime: date(punch.punchTime)!,
    receivedAt: date(punch.receivedAt)!,
    voidedAt: date(punch.voidedAt),
  }));
  return { items, totalCount, offset: page.offset };
}

/**
 * A manual punch, "as if made on the terminal": it takes the device's zone, serial and the
 * employee's pin, and goes through the same idempotence key as terminal records. `created` is
 * false when that punch already existed (the stored one is returned).
 */
export async function createPunch(ctx: RequestContext, input: ManualPunchInput): Promise<{ punch: Punch; created: boolean }> {
  const workspaceId = workspaceOf(ctx);
  const check = new FieldChecker();
  const parsed = typeof input.punchTime === 'string' ? readIsoDate(input.punchTime) : ({ ok: false, code: 'invalid_date' } as const);
  const time = parsed.ok && parsed.value.kind !== 'date' ? parsed.value : null;
  if (!time) {
    const code = parsed.ok ? 'invalid_date' : parsed.code;
    check.add(
      'punchTime',
      code,
      isoDateMessage('punchTime', code, 'an ISO 8601 date-time (2024-07-28T08:30:00, optionally with Z or an offset such as -03:00)'),
    );
  }
  check.text('punchState', input.punchState, { max: limits.punchState, required: true });
  const company = await ctx.em.findOne(Company, { id: input.companyId, workspaceId });
  const employee = await ctx.em.findOne(Employee, { id: input.employeeId, workspaceId });
  const device = await ctx.em.findOne(Device, { id: input.deviceId, workspaceId });
  if (!company) check.add('companyId', 'not_found', `Company ${input.companyId} does not exist in this workspace.`);
  if (!employee) check.add('employeeId', 'not_found', `Employee ${input.employeeId} does not exist in this workspace.`);
  if (!device) check.add('deviceId', 'not_found', `Device ${input.deviceId} does not exist in this workspace.`);
  if (company && employee && employee.companyId !== company.id) {
    check.add('employeeId', 'company_mismatch', `Employee ${employee.id} belongs to company ${employee.companyId}, not to company ${company.id}.`);
  }
  if (company && device && device.companyId !== company.id) {
    check.add('deviceId', 'company_mismatch', `Device ${device.id} belongs to company ${device.companyId}, not to company ${company.id}.`);
  }
  if (employee && employee.pin == null) {
    check.add(
      'employeeId',
      'employee_has_no_pin',
      `Employee ${employee.id} has no pin: a punch is recorded under the pin the terminal knows, so give the employee a pin first.`,
    );
  }
  if (check.problems.every((p) => p.field !== 'punchState') && !(await verificationStateExists(ctx, input.punchState))) {
    check.add('punchState', 'unknown_state', `punchState "${input.punchState}" is not the value of a verification state of this workspace.`);
  }
  check.done();

  const zone = device!.timeZone;
  const punchTime = isoToInstant(time!, zone);
  const { inserted, duplicates } = await recordPunches(ctx, workspaceId, [
    {
      companyId: company!.id,
      employeeId: employee!.id,
      deviceId: device!.id,
      deviceSerial: device!.serialNumber,
      pin: employee!.pin!,
      punchTime,
      localTime: formatLocalTime(punchTime, zone),
      timeZone: zone,
      punchState: input.punchState,
      verifyType: 'manual',
      verifyCode: null,
      recordType: PunchRecordType.manual,
      workCode: null,
      deviceRecordIndex: null,
      receivedAt: ctx.now(),
    },
  ]);
  countPunches(ctx, 'manual', inserted.length);
  return inserted.length > 0 ? { punch: inserted[0]!, created: true } : { punch: duplicates[0]!, created: false };
}
