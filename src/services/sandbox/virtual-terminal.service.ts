// Virtual terminals (docs/sandbox.md): every device of a sandbox is one. Their settings (the punch
// schedule) and triggers (a punch, a stranger's badge, a door alarm now) through the API, and what
// the process that plays them reads and keeps (src/workers/sandbox-terminals.ts).
import type { EntityManager } from '@mikro-orm/postgresql';
import { Device, Employee, VirtualTerminal, VirtualTerminalTrigger, Workspace } from '../../entities';
import { DeviceMode } from '../../entities/device.entity';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import { FieldChecker } from '../common/validation';
import { getDevice } from '../terminals/device.service';
import { checkSchedule, defaultSchedule, nextStep, realAt, simulatedAt, type PatternTime, type VirtualSchedule } from './virtual-schedule';

/** What the API shows of a virtual terminal. */
export interface VirtualTerminalView {
  deviceId: number;
  device: Device;
  enabled: boolean;
  punchesPerHour: number | null;
  dailyPattern: PatternTime[] | null;
  speed: number;
  scheduleStartedAt: Date;
  /** The schedule's simulated clock now. */
  simulatedTime: Date;
  /** The real time the schedule's next step is due (a daily pattern: its first person's); null while disabled. */
  nextStepAt: Date | null;
}

export interface VirtualTerminalInput {
  enabled?: boolean | null;
  punchesPerHour?: number | null;
  dailyPattern?: PatternTime[] | null;
  speed?: number | null;
}

export const TRIGGER_ACTIONS = ['punch', 'unknown_badge', 'forced_open', 'held_open', 'close_door'] as const;
export type TriggerAction = (typeof TRIGGER_ACTIONS)[number];
/** Triggers one terminal may have waiting for the process that plays it. */
export const MAX_PENDING_TRIGGERS = 100;

export interface VirtualTerminalTriggerInput {
  action: string;
  /** Whose punch or badge (`punch`); absent: the next person of the schedule's turn. */
  employeeId?: number | null;
}

/** The caller's workspace, which must be a sandbox (403 `sandbox_only` otherwise). */
export async function requireSandbox(ctx: RequestContext): Promise<Workspace> {
  const workspace = await ctx.em.findOneOrFail(Workspace, workspaceOf(ctx));
  if (!workspace.sandbox) {
    throw new DomainError('sandbox_only', 'This workspace is live: virtual terminals and resets exist only in sandbox workspaces (tg_test_ keys).');
  }
  return workspace;
}

function scheduleOf(device: Device, settings: VirtualTerminal | null): VirtualSchedule & { enabled: boolean } {
  const defaults = defaultSchedule(device.modeType === DeviceMode.acc ? 'acc' : 'att');
  return {
    enabled: settings?.enabled ?? true,
    punchesPerHour: settings ? (settings.punchesPerHour ?? null) : defaults.punchesPerHour,
    dailyPattern: settings ? (settings.dailyPattern ?? null) : defaults.dailyPattern,
    speed: settings?.speed ?? defaults.speed,
    // A device without settings plays the defaults from its creation.
    startedAt: (settings?.scheduleStartedAt ?? device.createdAt).getTime(),
    timeZone: device.timeZone,
  };
}

function view(device: Device, settings: VirtualTerminal | null, now: Date): VirtualTerminalView {
  const schedule = scheduleOf(device, settings);
  const simulatedNow = simulatedAt(schedule, now.getTime());
  return {
    deviceId: device.id,
    device,
    enabled: schedule.enabled,
    punchesPerHour: schedule.punchesPerHour,
    dailyPattern: schedule.dailyPattern,
    speed: schedule.speed,
    scheduleStartedAt: new Date(schedule.startedAt),
    simulatedTime: new Date(simulatedNow),
    nextStepAt: schedule.enabled ? new Date(Math.max(now.getTime(), realAt(schedule, nextStep(schedule, simulatedNow, 1).at))) : null,
  };
}

/** The sandbox's virtual terminals (its devices), by device id. */
export async function listVirtualTerminals(ctx: RequestContext): Promise<VirtualTerminalView[]> {
  const workspace = await requireSandbox(ctx);
  const devices = await ctx.em.find(Device, { workspaceId: workspace.id }, { orderBy: { id: 'asc' } });
  const settings = await ctx.em.find(VirtualTerminal, { workspaceId: workspace.id });
  const byDevice = new Map(settings.map((s) => [s.deviceId, s]));
  return devices.map((device) => view(device, byDevice.get(device.id) ?? null, ctx.now()));
}

/** A device of the caller's workspace (404 otherwise, as for any id), which must be a sandbox's. */
async function virtualDevice(ctx: RequestContext, deviceId: number): Promise<Device> {
  const device = await getDevice(ctx, deviceId);
  await requireSandbox(ctx);
  return device;
}

export async function getVirtualTerminal(ctx: RequestContext, deviceId: number): Promise<VirtualTerminalView> {
  const device = await virtualDevice(ctx, deviceId);
  return view(device, await ctx.em.findOne(VirtualTerminal, { deviceId }), ctx.now());
}

/**
 * Changes a virtual terminal's schedule. Fields left out keep their value; `punchesPerHour` and
 * `dailyPattern` each replace the other. Every change starts the simulated clock again at the real
 * time, so the new schedule's first step comes next (a rate's first punch at once).
 */
export async function updateVirtualTerminal(ctx: RequestContext, deviceId: number, input: VirtualTerminalInput): Promise<VirtualTerminalView> {
  const device = await getDevice(ctx, deviceId);
  // Each field on its own first: a value out of its range is that field's error in any workspace.
  const check = new FieldChecker();
  if (input.punchesPerHour != null && input.dailyPattern != null) {
    check.add('dailyPattern', 'not_allowed', 'Give punchesPerHour or dailyPattern, not both: each replaces the other.');
  }
  if (input.speed != null) checkSchedule(check, { punchesPerHour: 1, dailyPattern: null, speed: input.speed });
  if (input.punchesPerHour != null) checkSchedule(check, { punchesPerHour: input.punchesPerHour, dailyPattern: null, speed: 1 });
  if (input.dailyPattern != null) checkSchedule(check, { punchesPerHour: null, dailyPattern: input.dailyPattern, speed: 1 });
  check.done();
  await requireSandbox(ctx);
  const stored = await ctx.em.findOne(VirtualTerminal, { deviceId });
  const current = scheduleOf(device, stored);
  const next = {
    punchesPerHour: input.dailyPattern != null ? null : (input.punchesPerHour ?? current.punchesPerHour),
    dailyPattern: input.punchesPerHour != null ? null : (input.dailyPattern ?? current.dailyPattern),
    speed: input.speed ?? current.speed,
  };
  // Switching a pattern off without a rate in its place: the rate of a new terminal.
  if (next.punchesPerHour === null && next.dailyPattern === null)
    next.punchesPerHour = defaultSchedule(device.modeType === DeviceMode.acc ? 'acc' : 'att').punchesPerHour;
  checkSchedule(check, next);
  check.done();
  const settings = stored ?? ctx.em.create(VirtualTerminal, { deviceId, workspaceId: device.workspaceId } as VirtualTerminal);
  settings.enabled = input.enabled ?? current.enabled;
  settings.punchesPerHour = next.punchesPerHour;
  settings.dailyPattern = next.dailyPattern?.map(({ time, punchState }) => ({ time, punchState })) ?? null;
  settings.speed = next.speed;
  settings.scheduleStartedAt = ctx.now();
  ctx.em.persist(settings);
  await ctx.em.flush();
  return view(device, settings, ctx.now());
}

/** What happens at the terminal now, for the process that plays it (it takes the trigger within TIMEGATE_SANDBOX_POLL_MS). */
export async function triggerVirtualTerminal(ctx: RequestContext, deviceId: number, input: VirtualTerminalTriggerInput): Promise<VirtualTerminalTrigger> {
  // The device and the input are checked first (404, 422 in any workspace), then the workspace's kind.
  const device = await getDevice(ctx, deviceId);
  const check = new FieldChecker();
  const action = input.action as TriggerAction;
  if (!TRIGGER_ACTIONS.includes(action)) {
    check.add('action', 'invalid_value', `action must be one of ${TRIGGER_ACTIONS.join(', ')} (got "${String(input.action).slice(0, 32)}").`);
  } else if (action !== 'punch' && device.modeType !== DeviceMode.acc) {
    check.add('action', 'unsupported_by_device', `${action} happens at access controllers; device ${deviceId} is a time clock (punch only).`);
  }
  if (input.employeeId != null && action !== 'punch') check.add('employeeId', 'not_allowed', 'employeeId goes with the punch action only.');
  check.done();
  let pin: string | null = null;
  if (input.employeeId != null) {
    const employee = await ctx.em.findOne(Employee, { id: input.employeeId, workspaceId: workspaceOf(ctx) });
    if (!employee) throw DomainError.field('employeeId', 'not_found', `Employee ${input.employeeId} does not exist in this workspace.`);
    if (!employee.pin) throw DomainError.field('employeeId', 'employee_has_no_pin', `Employee ${input.employeeId} has no pin: a terminal cannot know them.`);
    pin = employee.pin;
  }
  await requireSandbox(ctx);
  return ctx.em.transactional(async (em) => {
    // The device row's lock: concurrent triggers count one after the other against the bound.
    await em.execute('select id from device where id = ? for no key update', [deviceId]);
    const [row] = await em.execute<{ n: number }[]>('select count(*)::int as n from virtual_terminal_trigger where device_id = ?', [deviceId]);
    if (row!.n >= MAX_PENDING_TRIGGERS) {
      throw new DomainError(
        'device_queue_full',
        `This virtual terminal already has ${row!.n} triggers waiting (the limit is ${MAX_PENDING_TRIGGERS}); nothing was queued. Retry in a second.`,
        [],
        1,
      );
    }
    const trigger = em.create(VirtualTerminalTrigger, {
      workspaceId: device.workspaceId,
      deviceId,
      action,
      pin,
      createdAt: ctx.now(),
    } as VirtualTerminalTrigger);
    em.persist(trigger);
    await em.flush();
    return trigger;
  });
}

// ---- for the process that plays the terminals -------------------------------------------------

/** A virtual terminal as its player needs it, without what it only needs at start (`startState`). */
export interface VirtualTerminalRow {
  deviceId: number;
  workspaceId: number;
  serialNumber: string;
  family: 'att' | 'acc';
  timeZone: string;
  schedule: VirtualSchedule & { enabled: boolean };
  /** Changes whenever the schedule does (the progress the player saves belongs to one version). */
  settingsVersion: string;
  /** The pins of the active people of the device's company (who may present a badge at a controller). */
  companyPins: string[];
}

interface DeviceSettingsRow {
  id: number;
  workspace_id: number;
  serial_number: string;
  mode_type: string;
  time_zone: string;
  created_at: Date;
  enabled: boolean | null;
  punches_per_hour: number | null;
  daily_pattern: PatternTime[] | null;
  speed: number | null;
  schedule_started_at: Date | null;
  pins: string[];
}

/** Every device of these sandboxes with its settings (the defaults where it has none). */
export async function virtualTerminalsOf(em: EntityManager, workspaceIds: readonly number[]): Promise<VirtualTerminalRow[]> {
  if (workspaceIds.length === 0) return [];
  const rows = await em.execute<DeviceSettingsRow[]>(
    `select d.id, d.workspace_id, d.serial_number, d.mode_type, d.time_zone, d.created_at,
            v.enabled, v.punches_per_hour, v.daily_pattern, v.speed, v.schedule_started_at,
            array(select e.pin from employee e where e.company_id = d.company_id and e.is_active and e.deleted_at is null and e.pin is not null order by e.pin) as pins
       from device d
       join workspace w on w.id = d.workspace_id and w.sandbox
       left join virtual_terminal v on v.device_id = d.id
      where d.workspace_id = any(?::int[])
      order by d.id`,
    [`{${workspaceIds.join(',')}}`],
  );
  return rows.map((r) => {
    const device = { id: r.id, modeType: r.mode_type as DeviceMode, timeZone: r.time_zone, createdAt: new Date(r.created_at) } as Device;
    const settings =
      r.schedule_started_at === null
        ? null
        : ({
            enabled: r.enabled,
            punchesPerHour: r.punches_per_hour,
            dailyPattern: r.daily_pattern,
            speed: Number(r.speed),
            scheduleStartedAt: new Date(r.schedule_started_at),
          } as VirtualTerminal);
    const schedule = scheduleOf(device, settings);
    return {
      deviceId: r.id,
      workspaceId: r.workspace_id,
      serialNumber: r.serial_number,
      family: r.mode_type === DeviceMode.acc ? 'acc' : 'att',
      timeZone: r.time_zone,
      schedule,
      settingsVersion: JSON.stringify([
        schedule.enabled,
        schedule.punchesPerHour,
        schedule.dailyPattern,
        schedule.speed,
        schedule.startedAt,
        schedule.timeZone,
      ]),
      companyPins: r.pins,
    };
  });
}

/** What a virtual terminal starts from: its saved memory, its pairing, and the last record index Timegate holds of it. */
export async function startState(
  em: EntityManager,
  deviceId: number,
): Promise<{ snapshot: Record<string, unknown> | null; registryCode: string | null; sessionId: string | null; lastRecordIndex: number } | null> {
  const [row] = await em.execute<{ snapshot: Record<string, unknown> | null; registry_code: string | null; session_id: string | null; last_index: number }[]>(
    `select v.snapshot, d.registry_code, d.session_id,
            (select coalesce(max(e.device_record_index), 0) from door_event e where e.workspace_id = d.workspace_id and e.device_serial = d.serial_number)::int as last_index
       from device d left join virtual_terminal v on v.device_id = d.id
      where d.id = ?`,
    [deviceId],
  );
  if (!row) return null;
  return { snapshot: row.snapshot, registryCode: row.registry_code, sessionId: row.session_id, lastRecordIndex: row.last_index };
}

/** Saves what a virtual terminal keeps between processes (nothing when its device is gone). */
export async function saveVirtualTerminalState(em: EntityManager, deviceId: number, snapshot: Record<string, unknown>, now: Date): Promise<void> {
  await em.execute(
    `insert into virtual_terminal (device_id, workspace_id, enabled, punches_per_hour, daily_pattern, speed, schedule_started_at, snapshot, updated_at)
     select d.id, d.workspace_id, true, case when d.mode_type = 'acc' then 12 else 60 end, null, 1, d.created_at, ?::jsonb, ?
       from device d where d.id = ?
     on conflict (device_id) do update set snapshot = excluded.snapshot`,
    [JSON.stringify(snapshot), now, deviceId],
  );
}

/** Takes (deletes) the waiting triggers of these devices, oldest first. */
export async function takeTriggers(
  em: EntityManager,
  deviceIds: readonly number[],
): Promise<Array<{ deviceId: number; action: TriggerAction; pin: string | null }>> {
  if (deviceIds.length === 0) return [];
  const rows = await em.execute<{ id: number; device_id: number; action: TriggerAction; pin: string | null }[]>(
    'delete from virtual_terminal_trigger where device_id = any(?::int[]) returning id, device_id, action, pin',
    [`{${deviceIds.join(',')}}`],
  );
  return rows.sort((a, b) => a.id - b.id).map((r) => ({ deviceId: r.device_id, action: r.action, pin: r.pin }));
}
