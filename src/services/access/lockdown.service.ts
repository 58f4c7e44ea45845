// Lockdowns and evacuations: a set of doors of one company locked (every credential refused) or
// held open, delivered door by door as `CONTROL DEVICE` operations 06 (lock) and 07 (emergency
// open) in the command queue's interactive lane, ahead of everything but other door commands.
// Each door follows its command: `pending` until the controller answers, then `confirmed` or
// `failed` (and why); a release sends the opposite operation (`releasing` → `released`, or
// `release_failed`). Every change is one `lockdown.updated` event. While a door is locked down a
// remote unlock is refused (`assertDoorCommandAllowed`), unless an `admin` key asks to override.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Lockdown, LockdownDoor } from '../../entities';
import { DeviceMode } from '../../entities/device.entity';
import { DomainError } from '../../errors/domain-error';
import { emergencyOpenDoorCommand, lockDownDoorCommand, openDoorCommand } from '../../protocol';
import { recordEvents, type NewEvent } from '../../events/outbox';
import { hasScope, workspaceOf, withEm, type RequestContext } from '../../context/request-context';
import { enqueueCommands, type NewCommand, type TerminalCommandRef } from '../commands/command-queue';
import type { Page, PageRequest } from '../common/pagination';
import { FieldChecker, limits } from '../common/validation';
import { LOCK_SPACES } from '../../kernel/lock-keys';

export const LOCKDOWN_MODES = ['lockdown', 'evacuate'] as const;
export type LockdownMode = (typeof LOCKDOWN_MODES)[number];
/** The command kinds of a lockdown: the lock (or emergency open) and its release. */
export const LOCKDOWN_COMMAND_KINDS = ['lockdown_apply', 'lockdown_release'] as const;
/** At most this many doors named in one request (a company or an area may have more). */
export const MAX_LOCKDOWN_DOOR_IDS = 1000;

export interface CreateLockdownInput {
  companyId?: number | null;
  areaId?: number | null;
  doorIds?: number[] | null;
  mode?: string | null;
  reason?: string | null;
  /** Mode `lockdown`: an access level whose members are still let through. */
  overrideAccessLevelId?: number | null;
}

export interface LockdownDoorView {
  doorId: number;
  deviceId: number;
  door: number;
  state: string;
  detail: string | null;
  returnCode: number | null;
  confirmedAt: Date | null;
  updatedAt: Date;
}

export interface LockdownView {
  id: number;
  companyId: number;
  scope: string;
  areaId: number | null;
  mode: string;
  reason: string;
  status: string;
  createdAt: Date;
  releasedAt: Date | null;
  doors: LockdownDoorView[];
  doorsPending: number;
  doorsConfirmed: number;
  doorsFailed: number;
  overrideAccessLevelId: number | null;
}

type DoorTarget = { door_id: number; device_id: number; number: number; company_id: number; mode_type: string };

function check(input: CreateLockdownInput): void {
  const check = new FieldChecker();
  const scopes = [input.companyId, input.areaId, input.doorIds].filter((v) => v != null).length;
  if (scopes !== 1) check.add('companyId', 'one_scope_required', 'Give exactly one scope: companyId, areaId or doorIds.');
  if (input.doorIds != null) {
    if (input.doorIds.length === 0) check.add('doorIds', 'blank', 'doorIds must name at least one door.');
    if (input.doorIds.length > MAX_LOCKDOWN_DOOR_IDS) check.add('doorIds', 'too_many_items', `doorIds may name at most ${MAX_LOCKDOWN_DOOR_IDS} doors.`);
  }
  if (input.mode == null) check.add('mode', 'required', 'mode is required.');
  else if (!LOCKDOWN_MODES.includes(input.mode as LockdownMode)) check.add('mode', 'invalid_value', `mode must be one of ${LOCKDOWN_MODES.join(', ')}.`);
  check.text('reason', input.reason, { max: limits.reason, required: true });
  if (input.overrideAccessLevelId != null && input.mode === 'evacuate')
    check.add('overrideAccessLevelId', 'not_allowed', 'overrideAccessLevelId applies to mode lockdown: an evacuation lets everyone through.');
  check.done();
}

/** The present doors of the scope, locked (`for update`) so that two lockdowns of one door cannot both start. */
async function targetsOf(
  em: EntityManager,
  workspaceId: number,
  input: CreateLockdownInput,
): Promise<{ companyId: number; scope: string; doors: DoorTarget[] }> {
  const select = `select d.id as door_id, d.device_id, d.number, v.company_id, v.mode_type from door d join device v on v.id = d.device_id
    where d.workspace_id = ? and d.present and`;
  const order = 'order by d.device_id, d.number for update of d';
  if (input.companyId != null) {
    const [company] = await em.execute<{ id: number }[]>('select id from company where id = ? and workspace_id = ?', [input.companyId, workspaceId]);
    if (!company) throw DomainError.field('companyId', 'not_found', `No company ${input.companyId} in this workspace.`);
    return {
      companyId: input.companyId,
      scope: 'company',
      doors: await em.execute<DoorTarget[]>(`${select} v.company_id = ? ${order}`, [workspaceId, input.companyId]),
    };
  }
  if (input.areaId != null) {
    const [area] = await em.execute<{ company_id: number }[]>('select company_id from area where id = ? and workspace_id = ?', [input.areaId, workspaceId]);
    if (!area) throw DomainError.field('areaId', 'not_found', `No area ${input.areaId} in this workspace.`);
    return {
      companyId: area.company_id,
      scope: 'area',
      doors: await em.execute<DoorTarget[]>(`${select} v.area_id = ? ${order}`, [workspaceId, input.areaId]),
    };
  }
  const ids = [...new Set(input.doorIds!)];
  const doors = await em.execute<DoorTarget[]>(`${select} d.id = any(?::int[]) ${order}`, [workspaceId, `{${ids.join(',')}}`]);
  const missing = ids.filter((id) => !doors.some((d) => d.door_id === id));
  if (missing.length > 0) throw DomainError.field('doorIds', 'not_found', `No door ${missing.slice(0, 10).join(', ')} in this workspace.`);
  const companies = new Set(doors.map((d) => d.company_id));
  if (companies.size > 1) throw DomainError.field('doorIds', 'company_mismatch', 'The doors of one lockdown belong to devices of one company.');
  return { companyId: doors[0]!.company_id, scope: 'doors', doors };
}

function applyCommand(mode: string, door: number): string {
  return mode === 'lockdown' ? lockDownDoorCommand(door, true) : emergencyOpenDoorCommand(door, true);
}

function releaseCommand(mode: string, door: number): string {
  return mode === 'lockdown' ? lockDownDoorCommand(door, false) : emergencyOpenDoorCommand(door, false);
}

function doorView(row: LockdownDoor): LockdownDoorView {
  return {
    doorId: row.doorId,
    deviceId: row.deviceId,
    door: row.doorNumber,
    state: row.state,
    detail: row.detail ?? null,
    returnCode: row.returnCode ?? null,
    confirmedAt: row.confirmedAt ?? null,
    updatedAt: row.updatedAt,
  };
}

function view(lockdown: Lockdown, doors: LockdownDoor[]): LockdownView {
  const count = (states: string[]) => doors.filter((d) => states.includes(d.state)).length;
  return {
    id: lockdown.id,
    companyId: lockdown.companyId,
    scope: lockdown.scope,
    areaId: lockdown.areaId ?? null,
    mode: lockdown.mode,
    reason: lockdown.reason,
    status: lockdown.status,
    createdAt: lockdown.createdAt,
    releasedAt: lockdown.releasedAt ?? null,
    doors: doors.sort((a, b) => a.deviceId - b.deviceId || a.doorNumber - b.doorNumber).map(doorView),
    doorsPending: count(['pending', 'releasing']),
    doorsConfirmed: count(['confirmed', 'released']),
    doorsFailed: count(['failed', 'release_failed']),
    overrideAccessLevelId: lockdown.overrideAccessLevelId ?? null,
  };
}

const iso = (value: Date | null | undefined) => (value == null ? null : new Date(value).toISOString());

/** The `lockdown.updated` payload: the lockdown, its counts, and the door that changed (null for the lockdown itself). */
function updatedEvent(lockdown: LockdownView, change: 'created' | 'door' | 'released', door: LockdownDoorView | null): NewEvent {
  const doorData = (d: LockdownDoorView) => ({
    door_id: d.doorId,
    device_id: d.deviceId,
    door: d.door,
    state: d.state,
    detail: d.detail,
    return_code: d.returnCode,
    confirmed_at: iso(d.confirmedAt),
  });
  return {
    workspaceId: 0,
    type: 'lockdown.updated',
    data: {
      lockdown_id: lockdown.id,
      company_id: lockdown.companyId,
      scope: lockdown.scope,
      area_id: lockdown.areaId,
      mode: lockdown.mode,
      reason: lockdown.reason,
      status: lockdown.status,
      change,
      door: door ? doorData(door) : null,
      doors_total: lockdown.doors.length,
      doors_pending: lockdown.doorsPending,
      doors_confirmed: lockdown.doorsConfirmed,
      doors_failed: lockdown.doorsFailed,
      created_at: iso(lockdown.createdAt),
      released_at: iso(lockdown.releasedAt),
    },
  };
}

async function load(em: EntityManager, workspaceId: number, id: number): Promise<{ lockdown: Lockdown; doors: LockdownDoor[] }> {
  const lockdown = await em.findOne(Lockdown, { id, workspaceId }, { disableIdentityMap: true });
  if (!lockdown) throw DomainError.notFound('Lockdown', id);
  const doors = await em.find(LockdownDoor, { lockdownId: id }, { disableIdentityMap: true });
  return { lockdown, doors };
}

/**
 * Starts a lockdown or an evacuation: every present door of the scope gets its command in the
 * interactive lane (door priority), all in one transaction with the first `lockdown.updated`.
 * Doors of attendance terminals (no lock-down operation) are `failed` with `unsupported_by_device`
 * at once. A door already in an active lockdown refuses the new one (409 `lockdown_active`).
 */
export async function createLockdown(ctx: RequestContext, input: CreateLockdownInput): Promise<LockdownView> {
  const workspaceId = workspaceOf(ctx);
  return startLockdown(ctx, workspaceId, input, ctx.principal.kind === 'workspace' ? ctx.principal.keyId : null);
}

/**
 * `createLockdown` for a workspace named by the caller: an API request, or a linkage rule run by
 * the terminal ingestion (inside its transaction: this one is then a savepoint, so that a refused
 * lockdown leaves the ingestion intact).
 */
export async function startLockdown(
  ctx: RequestContext,
  workspaceId: number,
  input: CreateLockdownInput,
  requestedByKeyId: number | null,
): Promise<LockdownView> {
  check(input);
  const now = ctx.now();
  return ctx.em.transactional(async (em) => {
    const { companyId, scope, doors } = await targetsOf(em, workspaceId, input);
    if (doors.length === 0)
      throw DomainError.field(input.doorIds ? 'doorIds' : input.areaId != null ? 'areaId' : 'companyId', 'no_doors', 'The scope has no doors.');
    const busy = await em.execute<{ door_id: number; lockdown_id: number }[]>(
      `select ld.door_id, ld.lockdown_id from lockdown_door ld join lockdown l on l.id = ld.lockdown_id
       where l.status = 'active' and ld.door_id = any(?::int[]) limit 10`,
      [`{${doors.map((d) => d.door_id).join(',')}}`],
    );
    if (busy.length > 0) {
      throw new DomainError(
        'lockdown_active',
        `Door ${busy.map((b) => b.door_id).join(', ')} is already in active lockdown ${busy[0]!.lockdown_id}: release it first.`,
      );
    }
    if (input.overrideAccessLevelId != null) {
      const [level] = await em.execute<{ company_id: number }[]>('select company_id from access_level where id = ? and workspace_id = ?', [
        input.overrideAccessLevelId,
        workspaceId,
      ]);
      if (!level) throw DomainError.field('overrideAccessLevelId', 'not_found', `No access level ${input.overrideAccessLevelId} in this workspace.`);
      if (level.company_id !== companyId)
        throw DomainError.field(
          'overrideAccessLevelId',
          'company_mismatch',
          `Access level ${input.overrideAccessLevelId} belongs to another company than the doors.`,
        );
    }
    const lockdown = em.create(Lockdown, {
      workspaceId,
      companyId,
      overrideAccessLevelId: input.overrideAccessLevelId ?? null,
      scope,
      areaId: input.areaId ?? null,
      mode: input.mode!,
      reason: input.reason!.trim(),
      status: 'active',
      requestedByKeyId,
      createdAt: now,
    } as Lockdown);
    em.persist(lockdown);
    await em.flush();
    const supported = doors.filter((d) => d.mode_type === DeviceMode.acc);
    const commands: NewCommand[] = supported.map((d) => ({
      workspaceId,
      deviceId: d.device_id,
      kind: 'lockdown_apply',
      command: applyCommand(lockdown.mode, d.number),
      lane: 'interactive',
      door: true,
      reference: `lockdown:${lockdown.id}`,
    }));
    const queued = await enqueueCommands(em, commands, now);
    const commandOf = new Map(supported.map((d, i) => [d.door_id, queued[i]!.id]));
    const rows = doors.map((d) =>
      em.create(LockdownDoor, {
        lockdownId: lockdown.id,
        workspaceId,
        doorId: d.door_id,
        deviceId: d.device_id,
        doorNumber: d.number,
        state: commandOf.has(d.door_id) ? 'pending' : 'failed',
        detail: commandOf.has(d.door_id) ? null : 'unsupported_by_device',
        commandId: commandOf.get(d.door_id) ?? null,
        updatedAt: now,
      } as LockdownDoor),
    );
    em.persist(rows);
    await em.flush();
    const result = view(lockdown, rows);
    await recordEvents(withEm(ctx, em), [{ ...updatedEvent(result, 'created', null), workspaceId }]);
    return result;
  });
}

export async function getLockdown(ctx: RequestContext, id: number): Promise<LockdownView> {
  const { lockdown, doors } = await load(ctx.em, workspaceOf(ctx), id);
  return view(lockdown, doors);
}

export interface LockdownFilter {
  companyId?: number | null;
  status?: string | null;
}

/** Lockdowns of the workspace, newest first. */
export async function listLockdowns(ctx: RequestContext, filter: LockdownFilter, page: PageRequest): Promise<Page<LockdownView>> {
  const workspaceId = workspaceOf(ctx);
  if (filter.status != null && !['active', 'released'].includes(filter.status))
    throw DomainError.field('status', 'invalid_value', 'status must be active or released.');
  const where = {
    workspaceId,
    ...(filter.companyId != null ? { companyId: filter.companyId } : {}),
    ...(filter.status != null ? { status: filter.status } : {}),
  };
  const [items, totalCount] = await ctx.em.findAndCount(Lockdown, where, {
    orderBy: { id: 'desc' },
    offset: page.offset,
    limit: page.limit,
    disableIdentityMap: true,
  });
  const doors = items.length === 0 ? [] : await ctx.em.find(LockdownDoor, { lockdownId: { $in: items.map((l) => l.id) } }, { disableIdentityMap: true });
  return {
    items: items.map((l) =>
      view(
        l,
        doors.filter((d) => d.lockdownId === l.id),
      ),
    ),
    totalCount,
    offset: page.offset,
  };
}

/**
 * Ends a lockdown: each door that got (or is still waiting for) its command gets the opposite one
 * (`releasing`); a door that never had one (`unsupported_by_device`) is `released` at once. A
 * released lockdown is answered as it is (idempotent).
 */
export async function releaseLockdown(ctx: RequestContext, id: number): Promise<LockdownView> {
  const workspaceId = workspaceOf(ctx);
  const now = ctx.now();
  return ctx.em.transactional(async (em) => {
    const [own] = await em.execute<{ id: number }[]>('select id from lockdown where id = ? and workspace_id = ?', [id, workspaceId]);
    if (!own) throw DomainError.notFound('Lockdown', id);
    await lockLockdownCounts(em, [id]);
    await em.execute('select id from lockdown where id = ? for update', [id]);
    const { lockdown, doors } = await load(em, workspaceId, id);
    if (lockdown.status === 'released') return view(lockdown, doors);
    lockdown.status = 'released';
    lockdown.releasedAt = now;
    const sent = doors.filter((d) => d.commandId != null);
    const queued = await enqueueCommands(
      em,
      sent.map((d) => ({
        workspaceId,
        deviceId: d.deviceId,
        kind: 'lockdown_release',
        command: releaseCommand(lockdown.mode, d.doorNumber),
        lane: 'interactive',
        door: true,
        reference: `lockdown:${id}`,
      })),
      now,
    );
    sent.forEach((d, i) => Object.assign(d, { state: 'releasing', detail: null, returnCode: null, commandId: queued[i]!.id, updatedAt: now }));
    for (const d of doors) if (d.commandId == null) Object.assign(d, { state: 'released', updatedAt: now });
    await em.execute('update lockdown set status = ?, released_at = ? where id = ?', ['released', now, id]);
    for (const d of doors) {
      await em.execute('update lockdown_door set state = ?, detail = ?, return_code = ?, command_id = ?, updated_at = ? where id = ?', [
        d.state,
        d.detail ?? null,
        d.returnCode ?? null,
        d.commandId ?? null,
        now,
        d.id,
      ]);
    }
    const result = view(lockdown, doors);
    await recordEvents(withEm(ctx, em), [{ ...updatedEvent(result, 'released', null), workspaceId }]);
    return result;
  });
}

type CommandRow = { id: number; kind: string; status: string; return_code: number | null; completed_at: Date | string | null };

/**
 * Whether a command's status gives its door a new state or detail. A command merely sent changes
 * nothing to tell (a door re-sent after a restart keeps its detail until answered).
 */
function changesDoor(command: CommandRow, door: { state: string; detail?: string | null }): boolean {
  const next = nextState(command.kind, command);
  return !(next.state === door.state && (next.detail === (door.detail ?? null) || next.state === 'pending'));
}

/** The door's state after its command changed: the apply step, or the release step. */
function nextState(kind: string, command: CommandRow): { state: string; detail: string | null } {
  const release = kind === 'lockdown_release';
  if (command.status === 'succeeded') return { state: release ? 'released' : 'confirmed', detail: null };
  if (command.status === 'failed')
    return { state: release ? 'release_failed' : 'failed', detail: command.return_code == null ? 'no_answer' : 'device_refused' };
  if (command.status === 'expired') return { state: release ? 'release_failed' : 'failed', detail: 'expired' };
  return { state: release ? 'releasing' : 'pending', detail: null };
}

/**
 * Before commands are concluded (a terminal's results, the sweep): the lockdowns waiting on those
 * commands, locked (advisory, which draws no transaction id) in id order. Two doors counted at once
 * (two controllers answering, or an answer and a timeout) are then counted one after the other, and
 * the second count's event is also the later one in the outbox.
 */
export async function lockLockdownsOfCommands(em: EntityManager, commands: readonly TerminalCommandRef[]): Promise<void> {
  // Command ids are letters and digits (ATT-DOC §12); anything else answers no command of ours.
  const valid = commands.filter((c) => /^[A-Za-z0-9]{1,16}$/.test(c.commandId));
  if (valid.length === 0) return;
  const waiting = await em.execute<{ lockdown_id: number }[]>(
    `select distinct ld.lockdown_id from unnest(?::int[], ?::text[]) as a(device_id, command_id)
     join device_command c on c.device_id = a.device_id and c.command_id = a.command_id
     join lockdown_door ld on ld.command_id = c.id
     order by ld.lockdown_id`,
    [`{${valid.map((c) => c.deviceId).join(',')}}`, `{${valid.map((c) => c.commandId).join(',')}}`],
  );
  await lockLockdownCounts(
    em,
    waiting.map((w) => w.lockdown_id),
  );
}

/**
 * The advisory locks under which a lockdown's doors are counted, in id order: taken by every
 * transaction that changes doors and writes their events, before its first write (see
 * lockLockdownsOfCommands for why).
 */
async function lockLockdownCounts(em: EntityManager, lockdownIds: readonly number[]): Promise<void> {
  for (const id of [...lockdownIds].sort((a, b) => a - b)) await em.execute('select pg_advisory_xact_lock(?, ?)', [LOCK_SPACES.lockdown, id]);
}

/**
 * Outcome handler of the lockdown command kinds (devices/command-engines.ts): the doors waiting on these
 * commands take their new state, and each door that changed is one `lockdown.updated`, in the
 * transaction that changed the commands, in command order. The lockdown row is locked first, so
 * that two controllers answering at once count their doors one after the other.
 */
export async function mirrorLockdownDoors(ctx: RequestContext, commandIds: number[]): Promise<void> {
  if (commandIds.length === 0) return;
  const em = ctx.em;
  const commands = await em.execute<CommandRow[]>(
    `select id, kind, status, return_code, completed_at from device_command where id = any(?::int[]) order by id`,
    [`{${commandIds.join(',')}}`],
  );
  // The doors these commands change. A door's state follows its command alone, and this transaction
  // holds the command's row (it has just changed it), so the state read here without the lockdown's
  // lock is the current one. A command merely sent changes no door: a poll that delivers a lockdown's
  // commands takes no lock, and a hundred doors' deliveries do not wait for each other's commits.
  const byId = new Map(commands.map((c) => [c.id, c]));
  const waiting = await em.execute<{ lockdown_id: number; command_id: number; state: string; detail: string | null }[]>(
    'select lockdown_id, command_id, state, detail from lockdown_door where command_id = any(?::int[])',
    [`{${commands.map((c) => c.id).join(',')}}`],
  );
  const lockdownIds = [...new Set(waiting.filter((door) => changesDoor(byId.get(door.command_id)!, door)).map((door) => door.lockdown_id))].sort(
    (a, b) => a - b,
  );
  if (lockdownIds.length === 0) return;
  await em.execute('select id from lockdown where id = any(?::int[]) order by id for update', [`{${lockdownIds.join(',')}}`]);
  const events: NewEvent[] = [];
  for (const lockdownId of lockdownIds) {
    const lockdown = await em.findOneOrFail(Lockdown, { id: lockdownId }, { disableIdentityMap: true });
    const all = await em.find(LockdownDoor, { lockdownId }, { disableIdentityMap: true });
    for (const command of commands) {
      const door = all.find((d) => d.commandId === command.id);
      if (!door) continue;
      if (!changesDoor(command, door)) continue;
      const next = nextState(command.kind, command);
      const at = command.completed_at ? new Date(command.completed_at) : ctx.now();
      Object.assign(door, { state: next.state, detail: next.detail, returnCode: command.return_code, updatedAt: ctx.now() });
      if (next.state === 'confirmed') door.confirmedAt = at;
      await em.execute('update lockdown_door set state = ?, detail = ?, return_code = ?, confirmed_at = ?, updated_at = ? where id = ?', [
        door.state,
        door.detail ?? null,
        door.returnCode ?? null,
        door.confirmedAt ?? null,
        door.updatedAt,
        door.id,
      ]);
      const current = view(lockdown, [...all]);
      events.push({
        ...updatedEvent(
          current,
          'door',
          current.doors.find((d) => d.doorId === door.doorId)!,
        ),
        workspaceId: lockdown.workspaceId,
      });
    }
  }
  await recordEvents(ctx, events);
}

/** How far before a lockdown's start a refusal's time may lie and still be its own: the controller's clock may run behind. */
const CLOCK_TOLERANCE_MS = 5 * 60_000;

/**
 * The doors of this controller locked down now (an active lockdown of mode `lockdown` the
 * controller confirmed for the door), each with the earliest record time that can belong to it (the
 * lockdown's start, less the clock tolerance). Read when refusals arrive: a generic refusal that
 * arrives while its door is locked down, timed after the lockdown began, is given the reason
 * `lockdown`. Arrival is what decides, not the controller's clock against Timegate's.
 */
export async function lockedDownDoors(em: EntityManager, deviceId: number): Promise<Array<{ door: number; since: Date }>> {
  const rows = await em.execute<{ door_number: number; created_at: Date | string }[]>(
    `select ld.door_number, l.created_at from lockdown_door ld join lockdown l on l.id = ld.lockdown_id
      where ld.device_id = ? and l.status = 'active' and l.mode = 'lockdown' and ld.state = 'confirmed'`,
    [deviceId],
  );
  return rows.map((r) => ({ door: r.door_number, since: new Date(new Date(r.created_at).getTime() - CLOCK_TOLERANCE_MS) }));
}

/** How long the lock is released for a member of a lockdown's override level (seconds). */
export const OVERRIDE_OPEN_SECONDS = 5;
/** An override opening not delivered within this time is dropped: the person has left the door. */
const OVERRIDE_DEADLINE_MS = 30_000;
export const LOCKDOWN_OVERRIDE_COMMAND_KIND = 'lockdown_override';

/**
 * The `override` access level of a lockdown, run by the service: a controller locked down with
 * operation 06 refuses everyone, and its tables have no "pass a locked door" right, so a `lockdown`
 * refusal of a member of the lockdown's override level (directly or through an area) is answered
 * with a remote opening of that door (`CONTROL DEVICE 01<door>01<seconds>`, interactive lane, door
 * priority, dropped if not delivered within 30 s). Runs in the transaction that stores the
 * controller's rtlog; a re-sent record is stored once and opens nothing again.
 */
export async function admitLockdownOverrides(
  ctx: RequestContext,
  device: { id: number; workspaceId: number },
  stored: ReadonlyArray<{ door: number | null; employee_id: number | null; reason?: string | null }>,
): Promise<number> {
  const refused = stored.filter((r) => r.reason === 'lockdown' && r.employee_id !== null && r.door !== null);
  if (refused.length === 0) return 0;
  const em = ctx.em;
  const admitted = await em.execute<{ door: number; employee_id: number }[]>(
    `with members as (
       select m.access_level_id, m.employee_id from access_level_employee m
       union all
       select a.access_level_id, ae.employee_id from access_level_area a join area_employee ae on ae.area_id = a.area_id)
     select distinct r.door, r.employee_id
       from jsonb_to_recordset(?::jsonb) as r(door int, employee_id int)
       join lockdown_door ld on ld.device_id = ? and ld.door_number = r.door
       join lockdown l on l.id = ld.lockdown_id and l.status = 'active' and l.mode = 'lockdown' and l.override_access_level_id is not null
       join members m on m.access_level_id = l.override_access_level_id and m.employee_id = r.employee_id`,
    [JSON.stringify(refused.map((r) => ({ door: r.door, employee_id: r.employee_id }))), device.id],
  );
  if (admitted.length === 0) return 0;
  const now = ctx.now();
  await enqueueCommands(
    em,
    admitted.map((a) => ({
      workspaceId: device.workspaceId,
      deviceId: device.id,
      kind: LOCKDOWN_OVERRIDE_COMMAND_KIND,
      command: openDoorCommand(a.door, OVERRIDE_OPEN_SECONDS),
      lane: 'interactive',
      door: true,
      reference: `lockdown_override:${a.employee_id}`,
      deadline: new Date(now.getTime() + OVERRIDE_DEADLINE_MS),
    })),
    now,
  );
  return admitted.length;
}

/**
 * A controller handshook (what it does first after it starts, and after a lost connection): its
 * lock-down and emergency-open states live in its memory, so a restart during a lockdown may have
 * undone them. Every door of it in an active lockdown that the controller had confirmed (or never
 * answered) gets its command again, in the interactive lane with door priority, and goes back to
 * `pending` (detail `controller_restarted`) until the controller confirms it again; each door is one
 * `lockdown.updated`. Doors still waiting for their command, and doors the controller refused, are
 * left alone. One indexed read when the controller has no active lockdown. Returns the doors re-sent.
 */
export async function reapplyLockdownsAfterHandshake(ctx: RequestContext, deviceId: number): Promise<number> {
  const RESEND = `ld.device_id = ? and l.status = 'active' and (ld.state = 'confirmed' or (ld.state = 'failed' and ld.detail = 'no_answer'))`;
  const [any] = await ctx.em.execute<{ id: number }[]>(`select ld.id from lockdown_door ld join lockdown l on l.id = ld.lockdown_id where ${RESEND} limit 1`, [
    deviceId,
  ]);
  if (!any) return 0;
  const now = ctx.now();
  return ctx.em.transactional(async (em) => {
    const lockdownIds = (
      await em.execute<{ lockdown_id: number }[]>(
        `select distinct ld.lockdown_id from lockdown_door ld join lockdown l on l.id = ld.lockdown_id where ${RESEND} order by ld.lockdown_id`,
        [deviceId],
      )
    ).map((r) => r.lockdown_id);
    // Locked like a door's answer (advisory lock before the first write), so the counts of successive events never go back.
    await lockLockdownCounts(em, lockdownIds);
    await em.execute(`select id from lockdown where id = any(?::int[]) and status = 'active' order by id for update`, [`{${lockdownIds.join(',')}}`]);
    const events: NewEvent[] = [];
    let resent = 0;
    for (const lockdownId of lockdownIds) {
      const lockdown = await em.findOne(Lockdown, { id: lockdownId, status: 'active' }, { disableIdentityMap: true });
      if (!lockdown) continue;
      const all = await em.find(LockdownDoor, { lockdownId }, { disableIdentityMap: true });
      const doors = all.filter((d) => d.deviceId === deviceId && (d.state === 'confirmed' || (d.state === 'failed' && d.detail === 'no_answer')));
      const queued = await enqueueCommands(
        em,
        doors.map((d) => ({
          workspaceId: lockdown.workspaceId,
          deviceId,
          kind: 'lockdown_apply',
          command: applyCommand(lockdown.mode, d.doorNumber),
          lane: 'interactive',
          door: true,
          reference: `lockdown:${lockdownId}`,
        })),
        now,
      );
      for (const [i, door] of doors.entries()) {
        Object.assign(door, { state: 'pending', detail: 'controller_restarted', returnCode: null, commandId: queued[i]!.id, updatedAt: now });
        await em.execute('update lockdown_door set state = ?, detail = ?, return_code = null, command_id = ?, updated_at = ? where id = ?', [
          door.state,
          door.detail,
          door.commandId,
          now,
          door.id,
        ]);
        const current = view(lockdown, [...all]);
        events.push({
          ...updatedEvent(
            current,
            'door',
            current.doors.find((d) => d.doorId === door.doorId)!,
          ),
          workspaceId: lockdown.workspaceId,
        });
      }
      resent += doors.length;
    }
    await recordEvents(withEm(ctx, em), events);
    return resent;
  });
}

/**
 * The refusal of a remote door command that would undo a lockdown: an unlock or hold-open of a
 * door locked down, a close of a door held open for an evacuation. An `admin` key may override.
 */
export async function assertDoorCommandAllowed(ctx: RequestContext, deviceId: number, door: number, action: string, override: boolean): Promise<void> {
  const [active] = await ctx.em.execute<{ lockdown_id: number; mode: string }[]>(
    `select l.id as lockdown_id, l.mode from lockdown_door ld join lockdown l on l.id = ld.lockdown_id
     where ld.device_id = ? and ld.door_number = ? and l.status = 'active' limit 1`,
    [deviceId, door],
  );
  if (!active) return;
  const undoes = active.mode === 'lockdown' ? action === 'unlock' || action === 'hold_open' : action === 'close';
  if (!undoes) return;
  if (override) {
    if (ctx.principal.kind === 'workspace' && hasScope(ctx.principal.scopes, 'admin')) return;
    throw new DomainError('forbidden', 'Overriding a lockdown needs a key with the admin scope.');
  }
  throw new DomainError('lockdown_active', `Door ${door} is in ${active.mode} ${active.lockdown_id}: release it, or override with an admin key.`);
}
