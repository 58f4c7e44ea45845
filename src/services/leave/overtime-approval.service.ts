// Overtime approvals: for a company whose pay policy has `overtimeRequiresApproval`, an employee's
// overtime on a day counts only once an approver approves it. A `write` key files an approval
// request for an employee and date (pending); an `approve` (or `admin`) key approves it (optionally
// capping the minutes that count) or rejects it, and may change that decision later; or approves or
// rejects a whole period at once (a company's or some employees' days with pending overtime). Each decision
// recomputes the days at once (`attendance.day.updated`) and is an `overtime_approval.updated`
// event; nothing in a locked pay period is decided (`period_locked`). What an approval does to a
// day is pay-rules.ts `applyOvertimeApproval`.
import { LockMode } from '@mikro-orm/core';
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { Company, Employee, OvertimeApproval } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { recordEvents } from '../../events/outbox';
import { refreshDays, takeAttendanceLock } from '../attendance/day-store';
import { want, type WantedDays } from '../attendance/day-inputs';
import { prepareTimesheet } from '../attendance/timesheet.service';
import { MAX_BULK_ITEMS } from '../common/bulk-input';
import { withEm, workspaceOf, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { intArray } from '../common/sql-arrays';
import { FieldChecker, limits } from '../common/validation';
import { checkTransition, decisionData, keyOf, pendingDecision, recordDecision } from './request-decision';

export const OVERTIME_APPROVAL_EVENT = 'overtime_approval.updated';
export const OVERTIME_APPROVAL_STATES = ['pending', 'approved', 'rejected'] as const;
export type OvertimeDecision = 'approve' | 'reject';
/** The most minutes an approval may cap a day's overtime at: a whole day. */
const MAX_MINUTES = 1440;

export interface OvertimeApprovalInput {
  employeeId?: number | null;
  date?: string | null;
  note?: string | null;
}

export interface OvertimeApprovalFilter {
  companyId?: number | null;
  employeeId?: number | null;
  state?: string | null;
  /** Approvals of dates in this range (inclusive). */
  startDate?: string | null;
  endDate?: string | null;
}

export interface OvertimePeriodInput {
  /** The company's employees (with employeeIds: only those, which must be of the company). */
  companyId?: number | null;
  employeeIds?: number[] | null;
  startDate?: string | null;
  endDate?: string | null;
  comment?: string | null;
}

const iso = (at: Date | null | undefined) => (at ? new Date(at).toISOString() : null);

/** An approval as events carry it (snake_case, ISO times). */
export function overtimeApprovalData(approval: OvertimeApproval): Record<string, unknown> {
  return {
    id: approval.id,
    company_id: approval.companyId,
    employee_id: approval.employeeId,
    date: approval.date,
    state: approval.decision.state,
    minutes: approval.minutes ?? null,
    note: approval.note ?? null,
    ...decisionData(approval.decision),
    created_at: iso(approval.createdAt),
    updated_at: iso(approval.updatedAt),
  };
}

export async function getOvertimeApproval(ctx: RequestContext, id: number): Promise<OvertimeApproval> {
  const approval = await ctx.em.findOne(OvertimeApproval, { id, workspaceId: workspaceOf(ctx) });
  if (!approval) throw DomainError.notFound('OvertimeApproval', id);
  return approval;
}

export async function listOvertimeApprovals(ctx: RequestContext, filter: OvertimeApprovalFilter, page: PageRequest): Promise<Page<OvertimeApproval>> {
  const check = new FieldChecker();
  check.date('startDate', filter.startDate);
  check.date('endDate', filter.endDate);
  if (filter.state != null && !(OVERTIME_APPROVAL_STATES as readonly string[]).includes(filter.state)) {
    check.add('state', 'invalid_value', `state must be one of ${OVERTIME_APPROVAL_STATES.join(', ')}.`);
  }
  check.done();
  const where: FilterQuery<OvertimeApproval> = { workspaceId: workspaceOf(ctx) };
  if (filter.companyId != null) where.companyId = filter.companyId;
  if (filter.employeeId != null) where.employeeId = filter.employeeId;
  if (filter.state != null) where.decision = { state: filter.state };
  if (filter.startDate != null || filter.endDate != null) {
    where.date = { ...(filter.startDate != null ? { $gte: filter.startDate } : {}), ...(filter.endDate != null ? { $lte: filter.endDate } : {}) };
  }
  const [items, totalCount] = await ctx.em.findAndCount(OvertimeApproval, where, {
    orderBy: { date: 'asc', id: 'asc' },
    offset: page.offset,
    limit: page.limit,
  });
  return { items, totalCount, offset: page.offset };
}

/** Refuses a decision on days of a locked pay period of one of the companies (the exported payroll must not move). */
async function refuseLocked(em: EntityManager, companyIds: number[], startDate: string, endDate: string): Promise<void> {
  const [locked] = await em.execute<{ id: number; start_date: string; end_date: string }[]>(
    `select id, start_date::text, end_date::text from pay_period
     where company_id = any(?::int[]) and locked_at is not null and start_date <= ?::date and end_date >= ?::date order by start_date limit 1`,
    [intArray(companyIds), endDate, startDate],
  );
  if (locked)
    throw new DomainError(
      'period_locked',
      `Pay period ${locked.id} (${locked.start_date} to ${locked.end_date}) is locked; an admin must unlock it before its overtime is decided.`,
    );
}

/** Recomputes the employees' dates now (announcing each day that changes), in the caller's transaction. */
async function recompute(ctx: RequestContext, days: { employeeId: number; date: string }[]): Promise<void> {
  if (days.length === 0) return;
  await takeAttendanceLock(ctx.em);
  const wanted: WantedDays = new Map();
  for (const { employeeId, date } of days) want(wanted, employeeId, date, date);
  await refreshDays(ctx, wanted, { announceNew: true });
}

/** Files a pending approval request for an employee's overtime on a date (any `write` key). */
export async function createOvertimeApproval(ctx: RequestContext, input: OvertimeApprovalInput): Promise<OvertimeApproval> {
  const check = new FieldChecker();
  if (input.employeeId == null) check.add('employeeId', 'required', 'employeeId is required.');
  check.date('date', input.date, { required: true });
  check.text('note', input.note, { max: limits.note });
  check.done();
  const workspaceId = workspaceOf(ctx);
  const employee = await ctx.em.findOne(Employee, { id: input.employeeId!, workspaceId, deletedAt: null });
  if (!employee) throw DomainError.field('employeeId', 'not_found', `Employee ${input.employeeId} does not exist in this workspace.`);
  return ctx.em.transactional(async (em) => {
    await refuseLocked(em, [employee.companyId], input.date!, input.date!);
    const existing = await em.findOne(OvertimeApproval, { employeeId: employee.id, date: input.date! });
    if (existing) {
      throw DomainError.field(
        'date',
        'already_taken',
        `Overtime approval ${existing.id} (${existing.decision.state}) already covers employee ${employee.id} on ${input.date}; decide that one.`,
      );
    }
    const approval = em.create(OvertimeApproval, {
      workspaceId,
      companyId: employee.companyId,
      employeeId: employee.id,
      date: input.date!,
      decision: pendingDecision(ctx),
      minutes: null,
      note: input.note ?? null,
    } as OvertimeApproval);
    await em.persist(approval).flush();
    await recordEvents(withEm(ctx, em), [{ workspaceId, type: OVERTIME_APPROVAL_EVENT, data: overtimeApprovalData(approval) }]);
    return approval;
  });
}

/**
 * Approves or rejects an approval (the resolver checks the `approve` scope). Approve: from pending or
 * rejected, with `minutes` capping what counts (null: all of the day's overtime). Reject: from pending
 * or approved. The same decision again is `invalid_transition`; a date in a locked period `period_locked`.
 */
export async function decideOvertimeApproval(
  ctx: RequestContext,
  id: number,
  decision: OvertimeDecision,
  options: { comment?: string | null; minutes?: number | null } = {},
): Promise<OvertimeApproval> {
  const check = new FieldChecker();
  check.text('comment', options.comment, { max: limits.comment });
  if (options.minutes != null && (!Number.isInteger(options.minutes) || options.minutes < 0 || options.minutes > MAX_MINUTES)) {
    check.add('minutes', 'out_of_range', `minutes must be a whole number from 0 to ${MAX_MINUTES} (null: all of the day's overtime).`);
  }
  check.done();
  const workspaceId = workspaceOf(ctx);
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const approval = await em.findOne(OvertimeApproval, { id, workspaceId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!approval) throw DomainError.notFound('OvertimeApproval', id);
    checkTransition(approval.decision, decision, 'changeable', `Overtime approval ${id}`);
    await refuseLocked(em, [approval.companyId], approval.date, approval.date);
    recordDecision(ctx, approval.decision, decision, options.comment);
    approval.minutes = decision === 'approve' ? (options.minutes ?? null) : null;
    await em.flush();
    await recompute(tx, [{ employeeId: approval.employeeId, date: approval.date }]);
    await recordEvents(tx, [{ workspaceId, type: OVERTIME_APPROVAL_EVENT, data: overtimeApprovalData(approval) }]);
    return approval;
  });
}

/** The employees a period approval covers, checked: the company's, or the ones named (of the company, when both are given). */
async function periodEmployees(ctx: RequestContext, input: OvertimePeriodInput): Promise<{ ids: number[]; companyIds: number[] }> {
  const workspaceId = workspaceOf(ctx);
  const em = ctx.em;
  if (input.companyId != null && !(await em.findOne(Company, { id: input.companyId, workspaceId }))) {
    throw DomainError.field('companyId', 'not_found', `Company ${input.companyId} does not exist in this workspace.`);
  }
  if (input.employeeIds == null) {
    const rows = await em.execute<{ id: number }[]>(`select id from employee where company_id = ? and workspace_id = ? order by id`, [
      input.companyId,
      workspaceId,
    ]);
    return { ids: rows.map((r) => r.id), companyIds: [input.companyId!] };
  }
  const rows = await em.execute<{ id: number; company_id: number }[]>(`select id, company_id from employee where id = any(?::int[]) and workspace_id = ?`, [
    intArray(input.employeeIds),
    workspaceId,
  ]);
  const check = new FieldChecker();
  for (const [i, id] of input.employeeIds.entries()) {
    const row = rows.find((r) => r.id === id);
    if (!row) check.add(`employeeIds.${i}`, 'not_found', `Employee ${id} does not exist in this workspace.`);
    else if (input.companyId != null && row.company_id !== input.companyId)
      check.add(`employeeIds.${i}`, 'company_mismatch', `Employee ${id} is not of company ${input.companyId}.`);
  }
  check.done();
  return { ids: [...input.employeeIds].sort((a, b) => a - b), companyIds: [...new Set(rows.map((r) => r.company_id))] };
}

/**
 * Approves a period's overtime at once (scope `approve`): every pending approval of the employees'
 * dates in the range, and every day of theirs with pending overtime that has no approval yet (an
 * approval is created, approved). Rejected days stay rejected. All or nothing: a date in a locked
 * period refuses the whole (`period_locked`). Returns the approvals it approved, by employee and date.
 */
export function approveOvertimePeriod(ctx: RequestContext, input: OvertimePeriodInput): Promise<OvertimeApproval[]> {
  return decideOvertimePeriod(ctx, input, 'approved');
}

/**
 * Rejects a period's overtime at once (scope `approve`), the mirror of approveOvertimePeriod: every
 * pending approval in the range, and every day with pending overtime that has no approval yet (an
 * approval is created, rejected: never approved first, so an approver without `write` rejects an
 * unfiled day in one decision). Approved days stay approved. Returns the approvals it rejected.
 */
export function rejectOvertimePeriod(ctx: RequestContext, input: OvertimePeriodInput): Promise<OvertimeApproval[]> {
  return decideOvertimePeriod(ctx, input, 'rejected');
}

/** A period decision: the pending and unfiled days of the range take `target`; decided days keep their decision. */
async function decideOvertimePeriod(ctx: RequestContext, input: OvertimePeriodInput, target: 'approved' | 'rejected'): Promise<OvertimeApproval[]> {
  const check = new FieldChecker();
  const datesOk = check.date('startDate', input.startDate, { required: true }) && check.date('endDate', input.endDate, { required: true });
  if (datesOk) check.span({ start: 'startDate', end: 'endDate' }, input.startDate!, input.endDate!);
  if (input.companyId == null && input.employeeIds == null) check.add('companyId', 'required', 'Give companyId (its employees) or employeeIds, or both.');
  if (input.employeeIds != null) {
    if (input.employeeIds.length === 0) check.add('employeeIds', 'empty', 'employeeIds must name at least one employee.');
    if (input.employeeIds.length > MAX_BULK_ITEMS) check.add('employeeIds', 'too_many_items', `employeeIds names at most ${MAX_BULK_ITEMS} employees.`);
    if (new Set(input.employeeIds).size !== input.employeeIds.length) check.add('employeeIds', 'duplicate', 'employeeIds names an employee twice.');
  }
  check.text('comment', input.comment, { max: limits.comment });
  check.done();
  const { ids, companyIds } = await periodEmployees(ctx, input);
  const { startDate, endDate } = input as { startDate: string; endDate: string };
  const workspaceId = workspaceOf(ctx);
  // Before the decision's transaction: the days' pending overtime must be current (punches not yet taken, stale days).
  if (input.employeeIds == null) await prepareTimesheet(ctx, { startDate, endDate, companyId: input.companyId! });
  else for (const employeeId of ids) await prepareTimesheet(ctx, { startDate, endDate, employeeId });
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const sql = em;
    await refuseLocked(sql, companyIds, startDate, endDate);
    // The writers' lock first: no computation may change the days' pending overtime under us.
    await takeAttendanceLock(sql);
    const now = ctx.now();
    const key = keyOf(ctx);
    const comment = input.comment ?? null;
    const updated = await sql.execute<{ id: number }[]>(
      `update overtime_approval set state = ?, minutes = null, decided_by_key_id = ?, decided_at = ?, decision_comment = ?, updated_at = ?
       where employee_id = any(?::int[]) and date between ?::date and ?::date and state = 'pending' returning id`,
      [target, key, now, comment, now, intArray(ids), startDate, endDate],
    );
    const created = await sql.execute<{ id: number }[]>(
      `insert into overtime_approval (workspace_id, company_id, employee_id, date, state, minutes, requested_by_key_id, decided_by_key_id, decided_at, decision_comment, created_at, updated_at)
       select ?, d.company_id, d.employee_id, d.date, ?, null, ?, ?, ?, ?, ?, ?
       from attendance_day d where d.employee_id = any(?::int[]) and d.date between ?::date and ?::date and d.pending_overtime_minutes > 0
       on conflict (employee_id, date) do nothing returning id`,
      [workspaceId, target, key, key, now, comment, now, now, intArray(ids), startDate, endDate],
    );
    const decidedIds = [...updated, ...created].map((r) => r.id);
    if (decidedIds.length === 0) return [];
    const approvals = await em.find(OvertimeApproval, { id: { $in: decidedIds } }, { orderBy: { employeeId: 'asc', date: 'asc' } });
    await recompute(
      tx,
      approvals.map((a) => ({ employeeId: a.employeeId, date: a.date })),
    );
    await recordEvents(
      tx,
      approvals.map((a) => ({ workspaceId, type: OVERTIME_APPROVAL_EVENT, data: overtimeApprovalData(a) })),
    );
    return approvals;
  });
}
