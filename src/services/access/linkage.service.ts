// Linkage rules: a door event on a controller (or one of its doors) — forced open, held open,
// duress, or N refusals within M minutes — starts actions: a lockdown (or evacuation) of a scope,
// a pulse of an auxiliary output of the controller, and always a `linkage.triggered` event
// (webhooks). The service runs them when the controller's rtlog records arrive (in the ingestion's
// transaction), not the controller: docs/access-control-operations.md says what a controller's
// own linkage table could do instead.
import { Door, LinkageRule } from '../../entities';
import { DeviceMode } from '../../entities/device.entity';
import { DomainError } from '../../errors/domain-error';
import { classifyRtlogEvent, pulseAuxOutputCommand } from '../../protocol';
import { recordEvents, type NewEvent } from '../../events/outbox';
import { requireScopeFor, workspaceOf, type RequestContext } from '../../context/request-context';
import { enqueueCommands } from '../commands/command-queue';
import type { Page, PageRequest } from '../common/pagination';
import { FieldChecker, limits } from '../common/validation';
import { LOCKDOWN_MODES, startLockdown } from './lockdown.service';

export const LINKAGE_TRIGGERS = ['forced_open', 'held_open', 'duress', 'refusals'] as const;
export type LinkageTrigger = (typeof LINKAGE_TRIGGERS)[number];

/** rtlog codes of each alarm trigger (SEC-DOC appendix 2): 102 opened accidentally, 28 open too long, 101/103 duress. */
const TRIGGER_CODES: Record<Exclude<LinkageTrigger, 'refusals'>, number[]> = { forced_open: [102], held_open: [28], duress: [101, 103] };
/** Command kind of an aux-output pulse (no outcome handler: the `linkage.triggered` event says it was queued). */
export const LINKAGE_AUX_COMMAND_KIND = 'linkage_aux_output';

export interface CreateLinkageRuleInput {
  name?: string | null;
  trigger?: string | null;
  /** The controller: any of its doors. */
  deviceId?: number | null;
  /** Or one door. */
  doorId?: number | null;
  refusalCount?: number | null;
  refusalWindowMinutes?: number | null;
  lockdownMode?: string | null;
  lockdownAreaId?: number | null;
  lockdownDoorIds?: number[] | null;
  auxOutput?: number | null;
  auxOutputSeconds?: number | null;
}

function check(input: CreateLinkageRuleInput): void {
  const check = new FieldChecker();
  check.text('name', input.name, { max: limits.accessName, required: true });
  if (input.trigger == null) check.add('trigger', 'required', 'trigger is required.');
  else if (!LINKAGE_TRIGGERS.includes(input.trigger as LinkageTrigger))
    check.add('trigger', 'invalid_value', `trigger must be one of ${LINKAGE_TRIGGERS.join(', ')}.`);
  if ((input.deviceId == null) === (input.doorId == null))
    check.add('deviceId', 'one_scope_required', 'Give exactly one of deviceId (any door of the controller) and doorId.');
  const between = (field: keyof CreateLinkageRuleInput, value: number | null | undefined, min: number, max: number) => {
    if (value != null && (!Number.isInteger(value) || value < min || value > max))
      check.add(field, 'out_of_range', `${field} must be an integer from ${min} to ${max}.`);
  };
  if (input.trigger === 'refusals') {
    if (input.refusalCount == null) check.add('refusalCount', 'required', 'refusalCount is required for the refusals trigger.');
    if (input.refusalWindowMinutes == null) check.add('refusalWindowMinutes', 'required', 'refusalWindowMinutes is required for the refusals trigger.');
    between('refusalCount', input.refusalCount, 1, 1000);
    between('refusalWindowMinutes', input.refusalWindowMinutes, 1, 1440);
  } else {
    if (input.refusalCount != null) check.add('refusalCount', 'not_allowed', 'refusalCount applies to the refusals trigger only.');
    if (input.refusalWindowMinutes != null) check.add('refusalWindowMinutes', 'not_allowed', 'refusalWindowMinutes applies to the refusals trigger only.');
  }
  if (input.lockdownMode != null && !LOCKDOWN_MODES.includes(input.lockdownMode as never))
    check.add('lockdownMode', 'invalid_value', `lockdownMode must be one of ${LOCKDOWN_MODES.join(', ')}.`);
  if (input.lockdownMode == null && (input.lockdownAreaId != null || input.lockdownDoorIds != null))
    check.add('lockdownMode', 'required', 'A lockdown scope needs lockdownMode.');
  if (input.lockdownAreaId != null && input.lockdownDoorIds != null)
    check.add('lockdownAreaId', 'one_scope_required', 'Give at most one of lockdownAreaId and lockdownDoorIds (neither: the whole company).');
  if (input.lockdownDoorIds != null && (input.lockdownDoorIds.length === 0 || input.lockdownDoorIds.length > 1000))
    check.add('lockdownDoorIds', 'out_of_range', 'lockdownDoorIds names 1 to 1000 doors.');
  between('auxOutput', input.auxOutput, 1, 255);
  between('auxOutputSeconds', input.auxOutputSeconds, 1, 254);
  if ((input.auxOutput == null) !== (input.auxOutputSeconds == null)) check.add('auxOutputSeconds', 'required', 'auxOutput and auxOutputSeconds go together.');
  check.done();
}

/**
 * A rule whose actions act on doors (a lockdown or evacuation, an auxiliary output pulse) does what
 * `doors:unlock` does, unattended: creating or deleting it needs that scope as well as
 * `doors:manage` (an evacuation rule of a `doors:manage` key was an evacuation it could not start).
 */
function requireActionScope(ctx: RequestContext, rule: { lockdownMode?: string | null; auxOutput?: number | null }, verb: string): void {
  if (rule.lockdownMode != null) {
    const effect = rule.lockdownMode === 'evacuate' ? 'evacuates (opens) doors' : 'locks doors down';
    requireScopeFor(ctx, 'doors:unlock', `${verb} a linkage rule that ${effect}`);
  }
  if (rule.auxOutput != null) requireScopeFor(ctx, 'doors:unlock', `${verb} a linkage rule that pulses an auxiliary output of the controller`);
}

/** Creates a rule on an access controller (or one of its doors) of the caller's workspace. */
export async function createLinkageRule(ctx: RequestContext, input: CreateLinkageRuleInput): Promise<LinkageRule> {
  check(input);
  requireActionScope(ctx, input, 'Creating');
  const workspaceId = workspaceOf(ctx);
  let deviceId = input.deviceId ?? null;
  let doorNumber: number | null = null;
  if (input.doorId != null) {
    const door = await ctx.em.findOne(Door, { id: input.doorId, workspaceId });
    if (!door) throw DomainError.field('doorId', 'not_found', `No door ${input.doorId} in this workspace.`);
    deviceId = door.deviceId;
    doorNumber = door.number;
  }
  const [device] = await ctx.em.execute<{ company_id: number; mode_type: string }[]>(
    'select company_id, mode_type from device where id = ? and workspace_id = ?',
    [deviceId, workspaceId],
  );
  if (!device) throw DomainError.field('deviceId', 'not_found', `No device ${deviceId} in this workspace.`);
  if (device.mode_type !== DeviceMode.acc) {
    throw DomainError.field(
      'deviceId',
      'unsupported_by_device',
      'Linkage rules need an access controller: attendance terminals report no door alarms or refusals in a real-time log.',
    );
  }
  if (input.lockdownAreaId != null) {
    const [area] = await ctx.em.execute<{ company_id: number }[]>('select company_id from area where id = ? and workspace_id = ?', [
      input.lockdownAreaId,
      workspaceId,
    ]);
    if (!area) throw DomainError.field('lockdownAreaId', 'not_found', `No area ${input.lockdownAreaId} in this workspace.`);
    if (area.company_id !== device.company_id)
      throw DomainError.field('lockdownAreaId', 'company_mismatch', "The area belongs to another company than the rule's controller.");
  }
  if (input.lockdownDoorIds != null) {
    const ids = [...new Set(input.lockdownDoorIds)];
    const rows = await ctx.em.execute<{ id: number; company_id: number }[]>(
      'select d.id, v.company_id from door d join device v on v.id = d.device_id where d.workspace_id = ? and d.id = any(?::int[])',
      [workspaceId, `{${ids.join(',')}}`],
    );
    if (rows.length !== ids.length) throw DomainError.field('lockdownDoorIds', 'not_found', 'A door of lockdownDoorIds is not in this workspace.');
    if (rows.some((r) => r.company_id !== device.company_id))
      throw DomainError.field('lockdownDoorIds', 'company_mismatch', "The doors belong to devices of the rule's company.");
  }
  const rule = ctx.em.create(LinkageRule, {
    workspaceId,
    companyId: device.company_id,
    name: input.name!.trim(),
    trigger: input.trigger!,
    deviceId: deviceId!,
    doorId: input.doorId ?? null,
    doorNumber,
    refusalCount: input.refusalCount ?? null,
    refusalWindowMinutes: input.refusalWindowMinutes ?? null,
    lockdownMode: input.lockdownMode ?? null,
    lockdownAreaId: input.lockdownAreaId ?? null,
    lockdownDoorIds: input.lockdownDoorIds ? [...new Set(input.lockdownDoorIds)] : null,
    auxOutput: input.auxOutput ?? null,
    auxOutputSeconds: input.auxOutputSeconds ?? null,
    createdAt: ctx.now(),
  } as LinkageRule);
  ctx.em.persist(rule);
  await ctx.em.flush();
  return rule;
}

export async function getLinkageRule(ctx: RequestContext, id: number): Promise<LinkageRule> {
  const rule = await ctx.em.findOne(LinkageRule, { id, workspaceId: workspaceOf(ctx) });
  if (!rule) throw DomainError.notFound('Linkage rule', id);
  return rule;
}

export async function listLinkageRules(
  ctx: RequestContext,
  filter: { companyId?: number | null; deviceId?: number | null },
  page: PageRequest,
): Promise<Page<LinkageRule>> {
  const where = {
    workspaceId: workspaceOf(ctx),
    ...(filter.companyId != null ? { companyId: filter.companyId } : {}),
    ...(filter.deviceId != null ? { deviceId: filter.deviceId } : {}),
  };
  const [items, totalCount] = await ctx.em.findAndCount(LinkageRule, where, { orderBy: { id: 'asc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}

export async function deleteLinkageRule(ctx: RequestContext, id: number): Promise<LinkageRule> {
  const rule = await getLinkageRule(ctx, id);
  requireActionScope(ctx, rule, 'Deleting');
  await ctx.em.remove(rule).flush();
  return rule;
}

/** A newly stored rtlog record, as the ingestion hands it over. */
export interface LinkageRecord {
  door: number | null;
  event_code: number;
  time: Date | string;
}

interface RuleRow {
  id: number;
  workspace_id: number;
  company_id: number;
  name: string;
  trigger: LinkageTrigger;
  door_number: number | null;
  refusal_count: number | null;
  refusal_window_minutes: number | null;
  lockdown_mode: string | null;
  lockdown_area_id: number | null;
  lockdown_door_ids: number[] | null;
  aux_output: number | null;
  aux_output_seconds: number | null;
  last_triggered_at: Date | string | null;
}

function triggerOf(code: number): LinkageTrigger | null {
  if (classifyRtlogEvent(code) === 'access-denied') return 'refusals';
  for (const [trigger, codes] of Object.entries(TRIGGER_CODES)) if (codes.includes(code)) return trigger as LinkageTrigger;
  return null;
}

/**
 * Runs the rules of `device` that its newly stored records trigger (in the ingestion's
 * transaction, `ctx.em`). An alarm trigger fires on every new alarm record of the rule's door (or
 * any door); `refusals` fires when the refusals of the door (or controller) in the window ending at
 * the record reach the count, and then not again until a window has passed since it fired.
 */
export async function runLinkageRules(ctx: RequestContext, device: { id: number; workspaceId: number }, records: readonly LinkageRecord[]): Promise<void> {
  const relevant = records.filter((r) => triggerOf(r.event_code) !== null);
  if (relevant.length === 0) return;
  const em = ctx.em;
  const rules = await em.execute<RuleRow[]>('select * from linkage_rule where device_id = ? order by id for update', [device.id]);
  if (rules.length === 0) return;
  const events: NewEvent[] = [];
  for (const record of relevant) {
    const trigger = triggerOf(record.event_code)!;
    const at = new Date(record.time);
    for (const rule of rules) {
      if (rule.trigger !== trigger || (rule.door_number !== null && rule.door_number !== record.door)) continue;
      if (trigger === 'refusals') {
        const windowMs = rule.refusal_window_minutes! * 60_000;
        if (rule.last_triggered_at && at.getTime() - new Date(rule.last_triggered_at).getTime() < windowMs) continue;
        const [{ n }] = await em.execute<{ n: number }[]>(
          `select count(*)::int as n from door_event where device_id = ? and event_class = 'denied' and time > ? and time <= ? ${rule.door_number !== null ? 'and door = ?' : ''}`,
          [device.id, new Date(at.getTime() - windowMs), at, ...(rule.door_number !== null ? [rule.door_number] : [])],
        );
        if (n < rule.refusal_count!) continue;
      }
      rule.last_triggered_at = at;
      await em.execute('update linkage_rule set last_triggered_at = ? where id = ?', [at, rule.id]);
      events.push(await fire(ctx, device, rule, record, at));
    }
  }
  await recordEvents(ctx, events);
}

async function fire(ctx: RequestContext, device: { id: number; workspaceId: number }, rule: RuleRow, record: LinkageRecord, at: Date): Promise<NewEvent> {
  let lockdownId: number | null = null;
  let lockdownError: string | null = null;
  if (rule.lockdown_mode) {
    const scope = rule.lockdown_door_ids
      ? { doorIds: rule.lockdown_door_ids }
      : rule.lockdown_area_id
        ? { areaId: rule.lockdown_area_id }
        : { companyId: rule.company_id };
    try {
      lockdownId = (await startLockdown(ctx, rule.workspace_id, { ...scope, mode: rule.lockdown_mode, reason: `Linkage rule ${rule.id}: ${rule.name}` }, null))
        .id;
    } catch (error) {
      // A door already locked down (or a scope left without doors): the rule still reports itself.
      if (!(error instanceof DomainError)) throw error;
      lockdownError = error.code === 'validation_failed' ? (error.details[0]?.code ?? error.code) : error.code;
    }
  }
  let auxOutputQueued = false;
  if (rule.aux_output !== null) {
    await enqueueCommands(
      ctx.em,
      [
        {
          workspaceId: rule.workspace_id,
          deviceId: device.id,
          kind: LINKAGE_AUX_COMMAND_KIND,
          command: pulseAuxOutputCommand(rule.aux_output, rule.aux_output_seconds!),
          lane: 'interactive',
          door: true,
          reference: `linkage_rule:${rule.id}`,
        },
      ],
      ctx.now(),
    );
    auxOutputQueued = true;
  }
  return {
    workspaceId: rule.workspace_id,
    type: 'linkage.triggered',
    data: {
      rule_id: rule.id,
      name: rule.name,
      company_id: rule.company_id,
      trigger: rule.trigger,
      device_id: device.id,
      door: record.door,
      event_code: record.event_code,
      at: at.toISOString(),
      lockdown_id: lockdownId,
      lockdown_error: lockdownError,
      aux_output_queued: auxOutputQueued,
    },
  };
}
