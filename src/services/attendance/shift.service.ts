import type { FilterQuery } from '@mikro-orm/postgresql';
import { flushWithStaleMarks, markDaysStale } from './day-store';
import { Company, ScheduleOverride, Shift, ShiftAssignment, Workspace } from '../../entities';
import { ShiftPairing } from '../../entities/shift.entity';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, withEm, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { FieldChecker, isValidTimeZone, limits } from '../common/validation';
import { checkPayPolicy, mergePayPolicy, type PayPolicyInput } from './pay-policy-input';
import { COMPANY_ONLY_KEYS } from './pay-rules';

const ROUNDING_MODES = ['nearest', 'down', 'up'];
const RECORDED_BREAK_RULES = ['replaces', 'adds', 'tops_up'];

export interface ShiftInput {
  companyId?: number | null;
  name?: string | null;
  startTime?: string | null;
  endTime?: string | null;
  timeZone?: string | null;
  workdays?: number[] | null;
  breakMinutes?: number | null;
  breakAfterMinutes?: number | null;
  graceInMinutes?: number | null;
  graceOutMinutes?: number | null;
  checkInBeforeMinutes?: number | null;
  checkOutAfterMinutes?: number | null;
  pairing?: ShiftPairing | null;
  isDefault?: boolean | null;
  roundingMinutes?: number | null;
  roundingMode?: string | null;
  recordedBreak?: string | null;
  /** Overrides of the company's pay policy; a key set to null inherits the company's value again. */
  payPolicy?: PayPolicyInput | null;
  flexible?: boolean | null;
  coreStart?: string | null;
  coreEnd?: string | null;
  requiredMinutes?: number | null;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
/** The minute fields, each with its default and its largest value. */
const MINUTE_FIELDS = {
  breakMinutes: { default: 0, max: 720 },
  breakAfterMinutes: { default: 360, max: 1440 },
  graceInMinutes: { default: 0, max: 720 },
  graceOutMinutes: { default: 0, max: 720 },
  checkInBeforeMinutes: { default: 240, max: 720 },
  checkOutAfterMinutes: { default: 240, max: 720 },
} as const;
const DEFAULT_WORKDAYS = [1, 2, 3, 4, 5];

function checkShift(input: ShiftInput, creating: boolean): void {
  const check = new FieldChecker();
  check.text('name', input.name, { max: limits.shiftName, required: creating || input.name !== undefined });
  if (creating && input.companyId == null) check.add('companyId', 'required', 'companyId is required.');
  for (const field of ['startTime', 'endTime'] as const) {
    const value = input[field];
    if (value == null) {
      if (creating || value !== undefined) check.add(field, 'required', `${field} is required.`);
    } else if (!TIME.test(value)) {
      check.add(field, 'invalid_time', `${field} must be a time of day "HH:MM" from 00:00 to 23:59 (got "${value}").`);
    }
  }
  if (input.timeZone != null && !isValidTimeZone(input.timeZone)) {
    check.add('timeZone', 'invalid_time_zone', `timeZone must be an IANA time zone name such as "Europe/Berlin" (got "${input.timeZone}").`);
  }
  if (input.workdays != null) {
    const valid =
      input.workdays.length > 0 &&
      input.workdays.every((d) => Number.isInteger(d) && d >= 1 && d <= 7) &&
      new Set(input.workdays).size === input.workdays.length;
    if (!valid) check.add('workdays', 'invalid_workdays', 'workdays must list ISO weekdays from 1 (Monday) to 7 (Sunday), each once, at least one.');
  }
  for (const [field, rule] of Object.entries(MINUTE_FIELDS) as [keyof typeof MINUTE_FIELDS, { max: number }][]) {
    const value = input[field];
    if (value != null && (!Number.isInteger(value) || value < 0 || value > rule.max))
      check.add(field, 'out_of_range', `${field} must be a whole number of minutes from 0 to ${rule.max}.`);
  }
  if (input.roundingMinutes != null && (!Number.isInteger(input.roundingMinutes) || input.roundingMinutes < 1 || input.roundingMinutes > 60)) {
    check.add('roundingMinutes', 'out_of_range', 'roundingMinutes must be a whole number of minutes from 1 to 60 (null: no rounding, seconds are dropped).');
  }
  if (input.roundingMode != null && !ROUNDING_MODES.includes(input.roundingMode))
    check.add('roundingMode', 'invalid_value', 'roundingMode must be `nearest`, `down` or `up`.');
  if (input.recordedBreak != null && !RECORDED_BREAK_RULES.includes(input.recordedBreak)) {
    check.add('recordedBreak', 'invalid_value', 'recordedBreak must be `replaces`, `adds` or `tops_up`.');
  }
  checkPayPolicy(check, 'payPolicy', input.payPolicy);
  for (const field of ['coreStart', 'coreEnd'] as const) {
    const value = input[field];
    if (value != null && !TIME.test(value)) check.add(field, 'invalid_time', `${field} must be a time of day "HH:MM" from 00:00 to 23:59 (got "${value}").`);
  }
  if (input.requiredMinutes != null && (!Number.isInteger(input.requiredMinutes) || input.requiredMinutes < 0 || input.requiredMinutes > 1440)) {
    check.add('requiredMinutes', 'out_of_range', 'requiredMinutes must be a whole number of minutes from 0 to 1440 (null: the shift length minus its break).');
  }
  // A week spans shifts (weekly overtime), and the export has one rate per code: the company's alone.
  for (const key of COMPANY_ONLY_KEYS) {
    if (input.payPolicy?.[key] !== undefined) check.add(`payPolicy.${key}`, 'not_allowed', `${key} is set on the company's pay policy, not on a shift.`);
  }
  check.done();
}

/** Core hours come as a pair (both or neither). */
function checkCore(shift: Shift): void {
  if ((shift.coreStart == null) !== (shift.coreEnd == null))
    throw DomainError.field(shift.coreStart == null ? 'coreStart' : 'coreEnd', 'required', 'Core hours need both coreStart and coreEnd.');
}

function mergedPolicy(input: ShiftInput, stored: Record<string, unknown>): Record<string, unknown> {
  const check = new FieldChecker();
  const merged = mergePayPolicy(check, 'payPolicy', stored, input.payPolicy);
  check.done();
  return merged;
}

export async function getShift(ctx: RequestContext, id: number): Promise<Shift> {
  const shift = await ctx.em.findOne(Shift, { id, workspaceId: workspaceOf(ctx) });
  if (!shift) throw DomainError.notFound('Shift', id);
  return shift;
}

export async function listShifts(ctx: RequestContext, filter: { companyId?: number }, page: PageRequest): Promise<Page<Shift>> {
  const where: FilterQuery<Shift> = { workspaceId: workspaceOf(ctx) };
  if (filter.companyId != null) where.companyId = filter.companyId;
  const [items, totalCount] = await ctx.em.findAndCount(Shift, where, { orderBy: { id: 'asc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}

/** A company has at most one default shift: making one the default unsets the previous one. */
async function clearOtherDefaults(ctx: RequestContext, companyId: number, exceptId: number | null): Promise<void> {
  await ctx.em.nativeUpdate(Shift, { companyId, isDefault: true, ...(exceptId !== null ? { id: { $ne: exceptId } } : {}) }, { isDefault: false });
}

export async function createShift(ctx: RequestContext, input: ShiftInput): Promise<Shift> {
  checkShift(input, true);
  const workspaceId = workspaceOf(ctx);
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const company = await em.findOne(Company, { id: input.companyId!, workspaceId });
    if (!company) throw DomainError.field('companyId', 'not_found', `Company ${input.companyId} does not exist in this workspace.`);
    const workspace = await em.findOneOrFail(Workspace, { id: workspaceId });
    if (input.isDefault) await clearOtherDefaults(tx, company.id, null);
    const shift = em.create(Shift, {
      workspaceId,
      companyId: company.id,
      name: input.name!,
      startTime: input.startTime!,
      endTime: input.endTime!,
      timeZone: input.timeZone ?? workspace.timeZone,
      workdays: [...(input.workdays ?? DEFAULT_WORKDAYS)].sort((a, b) => a - b),
      breakMinutes: input.breakMinutes ?? MINUTE_FIELDS.breakMinutes.default,
      breakAfterMinutes: input.breakAfterMinutes ?? MINUTE_FIELDS.breakAfterMinutes.default,
      graceInMinutes: input.graceInMinutes ?? MINUTE_FIELDS.graceInMinutes.default,
      graceOutMinutes: input.graceOutMinutes ?? MINUTE_FIELDS.graceOutMinutes.default,
      checkInBeforeMinutes: input.checkInBeforeMinutes ?? MINUTE_FIELDS.checkInBeforeMinutes.default,
      checkOutAfterMinutes: input.checkOutAfterMinutes ?? MINUTE_FIELDS.checkOutAfterMinutes.default,
      pairing: input.pairing ?? ShiftPairing.first_last,
      isDefault: input.isDefault ?? false,
      roundingMinutes: input.roundingMinutes ?? null,
      roundingMode: input.roundingMode ?? 'nearest',
      recordedBreak: input.recordedBreak ?? 'tops_up',
      payPolicy: mergedPolicy(input, {}),
      flexible: input.flexible ?? false,
      coreStart: input.coreStart ?? null,
      coreEnd: input.coreEnd ?? null,
      requiredMinutes: input.requiredMinutes ?? null,
    } as Shift);
    checkCore(shift);
    await em.persist(shift).flush();
    // A new default shift applies to every employee of the company without an assignment.
    if (shift.isDefault) await markDaysStale(em, { companyId: company.id }, null, null);
    return shift;
  });
}

/** Changes a shift; it stays in its company (`companyId` is not an update field). */
export async function updateShift(ctx: RequestContext, id: number, input: Omit<ShiftInput, 'companyId'>): Promise<Shift> {
  checkShift(input, false);
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const shift = await getShift(tx, id);
    if (input.isDefault) await clearOtherDefaults(tx, shift.companyId, shift.id);
    const { workdays, payPolicy, roundingMinutes, coreStart, coreEnd, requiredMinutes, ...rest } = input;
    for (const [key, value] of Object.entries(rest)) if (value != null) (shift as unknown as Record<string, unknown>)[key] = value;
    // null turns rounding off again, removes a core time or the required minutes.
    if (roundingMinutes !== undefined) shift.roundingMinutes = roundingMinutes;
    if (coreStart !== undefined) shift.coreStart = coreStart;
    if (coreEnd !== undefined) shift.coreEnd = coreEnd;
    if (requiredMinutes !== undefined) shift.requiredMinutes = requiredMinutes;
    checkCore(shift);
    if (payPolicy != null) shift.payPolicy = mergedPolicy(input, shift.payPolicy);
    if (workdays != null) shift.workdays = [...workdays].sort((a, b) => a - b);
    await em.flush();
    // Any stored day of the company may be this shift's (or the default's): all are recomputed, locked periods excepted.
    await markDaysStale(em, { companyId: shift.companyId }, null, null);
    return shift;
  });
}

/** A shift still assigned to someone is not deleted (its days would silently change). */
export async function deleteShift(ctx: RequestContext, id: number): Promise<Shift> {
  const shift = await getShift(ctx, id);
  const assigned = await ctx.em.count(ShiftAssignment, { shiftId: shift.id });
  if (assigned > 0) throw new DomainError('resource_in_use', `Shift ${id} has ${assigned} assignment${assigned === 1 ? '' : 's'}; delete or move them first.`);
  // A roster's entries and schedule overrides name shifts too: deleting one would silently change their days.
  const [rostered] = await ctx.em.execute<{ id: number }[]>(`select id from roster where company_id = ? and days @> ?::jsonb limit 1`, [
    shift.companyId,
    JSON.stringify([shift.id]),
  ]);
  if (rostered) throw new DomainError('resource_in_use', `Shift ${id} is in roster ${rostered.id}; take it out of the roster first.`);
  const overrides = await ctx.em.count(ScheduleOverride, { shiftId: shift.id });
  if (overrides > 0)
    throw new DomainError(
      'resource_in_use',
      `Shift ${id} is named by ${overrides} schedule override${overrides === 1 ? '' : 's'}; delete or change them first.`,
    );
  const snapshot = { ...shift };
  ctx.em.remove(shift);
  await flushWithStaleMarks(ctx.em, [{ scope: { companyId: shift.companyId }, from: null, to: null }]);
  return Object.assign(new Shift(), snapshot);
}
