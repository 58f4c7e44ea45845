// Absence requests and their decisions. A request is filed (pending) by any `write` key, on behalf of
// an employee; an `approve` (or `admin`) key approves or rejects it; the requester cancels it while
// pending, an approver after approval (its days revert). Every change is an `absence_request.updated`
// event, and a decision that changes days recomputes them at once (`attendance.day.updated`).
// Amounts are charged per workday of the employee's schedule: holidays and rest days inside the
// range cost nothing (the attendance engine's scheduled minutes decide which days are workdays).
import { LockMode } from '@mikro-orm/core';
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { AbsenceRequest, AbsenceType, Employee } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { recordEvents } from '../../events/outbox';
import { refreshDays, takeAttendanceLock } from '../attendance/day-store';
import { type WantedDays, want } from '../attendance/day-inputs';
import { hasScope, withEm, workspaceOf, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { FieldChecker, limits } from '../common/validation';
import { balancesOf } from './absence-balance';
import { minutesBetween } from '../attendance/day-absences';
import { checkTransition, decisionData, pendingDecision, recordDecision, type DecisionVerb } from './request-decision';

export const ABSENCE_REQUEST_EVENT = 'absence_request.updated';
export const REQUEST_STATES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
const TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

export interface AbsenceRequestInput {
  employeeId?: number | null;
  absenceTypeId?: number | null;
  startDate?: string | null;
  endDate?: string | null;
  halfDay?: string | null;
  startTime?: string | null;
  endTime?: string | null;
  note?: string | null;
}

export interface AbsenceRequestFilter {
  companyId?: number | null;
  employeeId?: number | null;
  absenceTypeId?: number | null;
  state?: string | null;
  /** Requests touching this range (inclusive). */
  startDate?: string | null;
  endDate?: string | null;
}

const iso = (at: Date | null | undefined) => (at ? new Date(at).toISOString() : null);
const total = (amounts: Record<string, number>) => Object.values(amounts).reduce((sum, n) => sum + n, 0);

/** A request as events carry it (snake_case, ISO times). */
export function absenceRequestData(request: AbsenceRequest): Record<string, unknown> {
  return {
    id: request.id,
    company_id: request.companyId,
    employee_id: request.employeeId,
    absence_type_id: request.absenceTypeId,
    start_date: request.startDate,
    end_date: request.endDate,
    half_day: request.halfDay ?? null,
    start_time: request.startTime ?? null,
    end_time: request.endTime ?? null,
    note: request.note ?? null,
    state: request.decision.state,
    amount: total(request.amounts),
    ...decisionData(request.decision),
    created_at: iso(request.createdAt),
    updated_at: iso(request.updatedAt),
  };
}

/** The total a request charges, in its type's unit (GraphQL and REST `amount`). */
export const amountOf = (request: AbsenceRequest) => total(request.amounts);

export async function getAbsenceRequest(ctx: RequestContext, id: number): Promise<AbsenceRequest> {
  const request = await ctx.em.findOne(AbsenceRequest, { id, workspaceId: workspaceOf(ctx) });
  if (!request) throw DomainError.notFound('AbsenceRequest', id);
  return request;
}

export async function listAbsenceRequests(ctx: RequestContext, filter: AbsenceRequestFilter, page: PageRequest): Promise<Page<AbsenceRequest>> {
  return listAbsenceRequestsIn(ctx, workspaceOf(ctx), filter, page);
}

/**
 * The list in a workspace the caller has already decided on: self-service (services/self-service)
 * passes its employee's workspace and always their own id (or their reports') as the filter.
 */
export async function listAbsenceRequestsIn(
  ctx: RequestContext,
  workspaceId: number,
  filter: AbsenceRequestFilter & { employeeIds?: number[] | null },
  page: PageRequest,
): Promise<Page<AbsenceRequest>> {
  const check = new FieldChecker();
  check.date('startDate', filter.startDate);
  check.date('endDate', filter.endDate);
  if (filter.state != null && !(REQUEST_STATES as readonly string[]).includes(filter.state)) {
    check.add('state', 'invalid_value', `state must be one of ${REQUEST_STATES.join(', ')}.`);
  }
  check.done();
  const where: FilterQuery<AbsenceRequest> = { workspaceId };
  if (filter.companyId != null) where.companyId = filter.companyId;
  if (filter.employeeId != null) where.employeeId = filter.employeeId;
  if (filter.employeeIds != null) where.employeeId = { $in: filter.employeeIds };
  if (filter.absenceTypeId != null) where.absenceTypeId = filter.absenceTypeId;
  if (filter.state != null) where.decision = { state: filter.state };
  if (filter.startDate != null) where.endDate = { $gte: filter.startDate };
  if (filter.endDate != null) where.startDate = { $lte: filter.endDate };
  const [items, totalCount] = await ctx.em.findAndCount(AbsenceRequest, where, {
    orderBy: { startDate: 'asc', id: 'asc' },
    offset: page.offset,
    limit: page.limit,
  });
  return { items, totalCount, offset: page.offset };
}

function checkInput(input: AbsenceRequestInput): void {
  const check = new FieldChecker();
  if (input.employeeId == null) check.add('employeeId', 'required', 'employeeId is required.');
  if (input.absenceTypeId == null) check.add('absenceTypeId', 'required', 'absenceTypeId is required.');
  const datesOk = check.date('startDate', input.startDate, { required: true }) && check.date('endDate', input.endDate, { required: true });
  if (datesOk) check.span({ start: 'startDate', end: 'endDate' }, input.startDate!, input.endDate!);
  if (input.halfDay != null && input.halfDay !== 'am' && input.halfDay !== 'pm') check.add('halfDay', 'invalid_value', 'halfDay must be "am" or "pm".');
  for (const field of ['startTime', 'endTime'] as const) {
    if (input[field] != null && !TIME.test(input[field]!)) check.add(field, 'invalid_time', `${field} must be a time of day "HH:MM" from 00:00 to 23:59.`);
  }
  check.text('note', input.note, { max: limits.note });
  check.done();
}

/** What the type allows: half days of one date for day types, hours (start before end) for hourly ones. */
function checkAgainstType(input: AbsenceRequestInput, type: AbsenceType): void {
  const check = new FieldChecker();
  if (type.unit === 'day') {
    for (const field of ['startTime', 'endTime'] as const) {
      if (input[field] != null)
        check.add(field, 'not_allowed', `${field} is for hourly absence types; "${type.code}" is counted in days (use halfDay for half a day).`);
    }
    if (input.halfDay != null && input.startDate !== input.endDate)
      check.add('halfDay', 'not_allowed', 'A half day is one date: startDate and endDate must be equal.');
  } else {
    if (input.halfDay != null) check.add('halfDay', 'not_allowed', `halfDay is for absence types counted in days; "${type.code}" is counted in hours.`);
    if (input.startTime == null) check.add('startTime', 'required', `startTime is required: "${type.code}" is counted in hours.`);
    if (input.endTime == null) check.add('endTime', 'required', `endTime is required: "${type.code}" is counted in hours.`);
    if (input.startTime != null && input.endTime != null && minutesBetween(input.startTime, input.endTime) <= 0) {
      check.add('endTime', 'reversed_interval', 'endTime must be after startTime (an hourly absence lies within one day).');
    }
  }
  check.done();
}

/** Refuses a change to days of a locked pay period (the exported payroll must not move). */
async function refuseLockedPeriod(em: EntityManager, companyId: number, startDate: string, endDate: string): Promise<void> {
  const [locked] = await em.execute<{ id: number; start_date: string; end_date: string }[]>(
    `select id, start_date::text, end_date::text from pay_period where company_id = ? and locked_at is not null and start_date <= ?::date and end_date >= ?::date limit 1`,
    [companyId, endDate, startDate],
  );
  if (locked)
    throw new DomainError(
      'period_locked',
      `Pay period ${locked.id} (${locked.start_date} to ${locked.end_date}) is locked; an admin must unlock it before absences in it change.`,
    );
}

/**
 * What the request charges per calendar year: for each workday of the range (a day whose computed
 * scheduled minutes are above zero, so neither a holiday nor a rest day), one day, half a day, or
 * the request's hours. The days are brought up to date first, in the caller's transaction.
 */
async function chargedAmounts(ctx: RequestContext, employeeId: number, input: AbsenceRequestInput, type: AbsenceType): Promise<Record<string, number>> {
  const em = ctx.em;
  await takeAttendanceLock(em);
  const wanted: WantedDays = new Map();
  want(wanted, employeeId, input.startDate!, input.endDate!);
  await refreshDays(ctx, wanted, { announceNew: false });
  const days = await em.execute<{ date: string }[]>(
    `select date::text from attendance_day where employee_id = ? and date between ?::date and ?::date and scheduled_minutes > 0`,
    [employeeId, input.startDate, input.endDate],
  );
  const perDay = type.unit === 'hour' ? minutesBetween(input.startTime!, input.endTime!) / 60 : input.halfDay ? 0.5 : 1;
  const amounts: Record<string, number> = {};
  for (const { date } of days) amounts[date.slice(0, 4)] = (amounts[date.slice(0, 4)] ?? 0) + perDay;
  return amounts;
}

/** Refuses a request beyond what remains of the type's allowance in any of its years (unless the type allows negative balances). */
async function checkBalance(em: EntityManager, employee: Employee, type: AbsenceType, amounts: Record<string, number>): Promise<void> {
  if (type.annualAllowance == null || type.allowNegative) return;
  for (const [year, amount] of Object.entries(amounts)) {
    const [balance] = await balancesOf(em, employee, [type], Number(year));
    if (amount > balance!.remaining!) {
      throw new DomainError(
        'insufficient_balance',
        `This request takes ${amount} ${type.unit}(s) of "${type.code}" in ${year}; ${balance!.remaining} remain (allowance ${balance!.allowance}, carried over ${balance!.carriedOver}, taken ${balance!.taken}, pending ${balance!.pending}).`,
      );
    }
  }
}

/** Recomputes the request's days now (announcing each one that changes) in the caller's transaction. */
async function recomputeDays(ctx: RequestContext, request: AbsenceRequest): Promise<void> {
  await takeAttendanceLock(ctx.em);
  const wanted: WantedDays = new Map();
  want(wanted, request.employeeId, request.startDate, request.endDate);
  await refreshDays(ctx, wanted, { announceNew: true });
}

export async function createAbsenceRequest(ctx: RequestContext, input: AbsenceRequestInput): Promise<AbsenceRequest> {
  return fileAbsenceRequest(ctx, workspaceOf(ctx), input);
}

/** Files a request in a workspace the caller has already decided on (self-service: the employee's own, for themself). */
export async function fileAbsenceRequest(ctx: RequestContext, workspaceId: number, input: AbsenceRequestInput): Promise<AbsenceRequest> {
  checkInput(input);
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    // One employee's requests are created one at a time: two overlapping ones cannot both pass the
    // check. FOR NO KEY UPDATE, not FOR UPDATE: the attendance worker, holding the attendance lock
    // this transaction waits for below, stores days whose foreign-key check takes FOR KEY SHARE on
    // this row, which FOR UPDATE would block (a deadlock).
    const [locked] = await em.execute<{ id: number }[]>(`select id from employee where id = ? and workspace_id = ? and deleted_at is null for no key update`, [
      input.employeeId,
      workspaceId,
    ]);
    const employee = locked ? await em.findOne(Employee, { id: locked.id, workspaceId }) : null;
    if (!employee) throw DomainError.field('employeeId', 'not_found', `Employee ${input.employeeId} does not exist in this workspace.`);
    const type = await em.findOne(AbsenceType, { id: input.absenceTypeId!, workspaceId });
    if (!type) throw DomainError.field('absenceTypeId', 'not_found', `Absence type ${input.absenceTypeId} does not exist in this workspace.`);
    if (type.companyId !== employee.companyId) {
      throw DomainError.field('absenceTypeId', 'company_mismatch', `Absence type ${type.id} belongs to another company than employee ${employee.id}.`);
    }
    checkAgainstType(input, type);
    await refuseLockedPeriod(em, employee.companyId, input.startDate!, input.endDate!);
    const clash = await em.findOne(AbsenceRequest, {
      employeeId: employee.id,
      decision: { state: { $in: ['pending', 'approved'] } },
      startDate: { $lte: input.endDate! },
      endDate: { $gte: input.startDate! },
    });
    if (clash) {
      throw DomainError.field(
        'startDate',
        'overlapping',
        `Absence request ${clash.id} (${clash.decision.state}, ${clash.startDate} to ${clash.endDate}) already covers some of these dates.`,
      );
    }
    const amounts = await chargedAmounts(tx, employee.id, input, type);
    if (Object.keys(amounts).length === 0) {
      throw DomainError.field(
        'startDate',
        'no_workdays',
        `${input.startDate} to ${input.endDate} holds no workday of the employee (only rest days and holidays): there is nothing to request.`,
      );
    }
    await checkBalance(em, employee, type, amounts);
    const request = em.create(AbsenceRequest, {
      workspaceId,
      companyId: employee.companyId,
      employeeId: employee.id,
      absenceTypeId: type.id,
      startDate: input.startDate!,
      endDate: input.endDate!,
      halfDay: input.halfDay ?? null,
      startTime: input.startTime ?? null,
      endTime: input.endTime ?? null,
      note: input.note ?? null,
      decision: pendingDecision(ctx),
      amounts,
    } as AbsenceRequest);
    await em.persist(request).flush();
    await recordEvents(tx, [{ workspaceId, type: ABSENCE_REQUEST_EVENT, data: absenceRequestData(request) }]);
    return request;
  });
}

/**
 * Approves, rejects or cancels a request (the resolver checks the scope of approve and reject).
 * Pending → approved | rejected | cancelled; approved → cancelled, by an approver only. A decision
 * on a locked period's days is refused; one on a request already decided is `invalid_transition`.
 */
export async function decideAbsenceRequest(ctx: RequestContext, id: number, decision: DecisionVerb, comment?: string | null): Promise<AbsenceRequest> {
  return decideAbsenceRequestIn(ctx, workspaceOf(ctx), id, decision, comment);
}

/**
 * The decision in a workspace the caller has already decided on. `mayDecide` sees the locked request
 * first and refuses what this caller may not decide (self-service: a request of someone else is not
 * found; a manager decides only their reports'); the rules of the transition stay the same.
 */
export async function decideAbsenceRequestIn(
  ctx: RequestContext,
  workspaceId: number,
  id: number,
  decision: DecisionVerb,
  comment?: string | null,
  mayDecide: (request: AbsenceRequest) => Promise<void> | void = () => undefined,
): Promise<AbsenceRequest> {
  const check = new FieldChecker();
  check.text('comment', comment, { max: limits.comment });
  check.done();
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const request = await em.findOne(AbsenceRequest, { id, workspaceId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!request) throw DomainError.notFound('AbsenceRequest', id);
    await mayDecide(request);
    const from = checkTransition(request.decision, decision, decision === 'cancel' ? ['pending', 'approved'] : ['pending'], `Absence request ${id}`);
    if (decision === 'cancel' && from === 'approved' && !(ctx.principal.kind === 'workspace' && hasScope(ctx.principal.scopes, 'approve'))) {
      throw new DomainError('forbidden', 'Cancelling an approved absence needs the "approve" scope: its days revert.');
    }
    const touchesDays = decision === 'approve' || from === 'approved';
    if (touchesDays) await refuseLockedPeriod(em, request.companyId, request.startDate, request.endDate);
    recordDecision(ctx, request.decision, decision, comment);
    await em.flush();
    if (touchesDays) await recomputeDays(tx, request);
    await recordEvents(tx, [{ workspaceId, type: ABSENCE_REQUEST_EVENT, data: absenceRequestData(request) }]);
    return request;
  });
}

/** An employee's balances for a year (default: the current year), one row per absence type of their company. */
export async function absenceBalances(ctx: RequestContext, employeeId: number, year?: number | null) {
  return absenceBalancesIn(ctx, workspaceOf(ctx), employeeId, year);
}

/** The balances in a workspace the caller has already decided on (self-service: the employee's own). */
export async function absenceBalancesIn(ctx: RequestContext, workspaceId: number, employeeId: number, year?: number | null) {
  const check = new FieldChecker();
  if (year != null && (!Number.isInteger(year) || year < 1900 || year > 2199)) check.add('year', 'out_of_range', 'year must be from 1900 to 2199.');
  check.done();
  const employee = await ctx.em.findOne(Employee, { id: employeeId, workspaceId });
  if (!employee) throw DomainError.notFound('Employee', employeeId);
  const types = await ctx.em.find(AbsenceType, { companyId: employee.companyId }, { orderBy: { id: 'asc' } });
  return balancesOf(ctx.em, employee, types, year ?? ctx.now().getUTCFullYear());
}
