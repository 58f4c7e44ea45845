// Punch corrections: "he forgot to clock out on Tuesday" as a request an approver decides. A `write`
// key files it (the punches to add, one or a forgotten week, or a punch to void); an `approve` (or
// `admin`) key approves or rejects it. Approval creates the manual punches, linked to the correction
// (which names the approver), or voids the punch, and recomputes the days at once, announcing each
// day that changes (`attendance.day.updated`); rejection changes nothing. Each filing and decision is
// a `punch_correction.updated` event. Nothing in a locked pay period is corrected (`period_locked`).
import { LockMode } from '@mikro-orm/core';
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { formatLocalTime } from '../../protocol/time';
import { Employee, Punch, PunchCorrection, Workspace } from '../../entities';
import type { CorrectionPunch } from '../../entities/punch-correction.entity';
import { PunchRecordType } from '../../entities/punch.entity';
import { DomainError } from '../../errors/domain-error';
import { recordEvents } from '../../events/outbox';
import { addDays } from '../../kernel/calendar-date';
import { refreshDays, takeAttendanceLock } from '../attendance/day-store';
import { want, type WantedDays } from '../attendance/day-inputs';
import { withEm, workspaceOf, type RequestContext } from '../../context/request-context';
import { isoDateMessage, isoToInstant, readIsoDate } from '../../kernel/iso-date';
import type { Page, PageRequest } from '../common/pagination';
import { recordPunches } from '../attendance/punch.service';
import { FieldChecker, limits } from '../common/validation';
import { verificationStateExists } from '../attendance/verification-state.service';
import { REQUEST_STATES } from './absence-request.service';
import { checkTransition, decisionData, pendingDecision, recordDecision, type DecisionVerb } from './request-decision';

export const PUNCH_CORRECTION_EVENT = 'punch_correction.updated';
/** The most punches one correction adds: a forgotten month of four punches a day. */
export const MAX_CORRECTION_PUNCHES = 124;

export interface PunchCorrectionInput {
  employeeId?: number | null;
  reason?: string | null;
  /** One punch to add. */
  punchTime?: string | null;
  punchState?: string | null;
  /** Several punches to add (bulk). */
  punches?: { punchTime?: string | null; punchState?: string | null }[] | null;
  /** A punch to void instead. */
  voidPunchId?: number | null;
}

export interface PunchCorrectionFilter {
  companyId?: number | null;
  employeeId?: number | null;
  state?: string | null;
  /** Corrections touching this range of local dates (inclusive). */
  startDate?: string | null;
  endDate?: string | null;
}

const iso = (at: Date | null | undefined) => (at ? new Date(at).toISOString() : null);

/** A correction as events carry it (snake_case, ISO times). */
export function punchCorrectionData(correction: PunchCorrection): Record<string, unknown> {
  return {
    id: correction.id,
    company_id: correction.companyId,
    employee_id: correction.employeeId,
    punches: correction.punches,
    void_punch_id: correction.voidPunchId == null ? null : Number(correction.voidPunchId),
    created_punch_ids: correction.createdPunchIds,
    first_date: correction.firstDate,
    last_date: correction.lastDate,
    reason: correction.reason,
    state: correction.decision.state,
    ...decisionData(correction.decision),
    created_at: iso(correction.createdAt),
    updated_at: iso(correction.updatedAt),
  };
}

export async function getPunchCorrection(ctx: RequestContext, id: number): Promise<PunchCorrection> {
  const correction = await ctx.em.findOne(PunchCorrection, { id, workspaceId: workspaceOf(ctx) });
  if (!correction) throw DomainError.notFound('PunchCorrection', id);
  return correction;
}

export async function listPunchCorrections(ctx: RequestContext, filter: PunchCorrectionFilter, page: PageRequest): Promise<Page<PunchCorrection>> {
  return listPunchCorrectionsIn(ctx, workspaceOf(ctx), filter, page);
}

/** The list in a workspace the caller has already decided on (self-service: its employee's own, or their reports'). */
export async function listPunchCorrectionsIn(
  ctx: RequestContext,
  workspaceId: number,
  filter: PunchCorrectionFilter & { employeeIds?: number[] | null },
  page: PageRequest,
): Promise<Page<PunchCorrection>> {
  const check = new FieldChecker();
  check.date('startDate', filter.startDate);
  check.date('endDate', filter.endDate);
  if (filter.state != null && !(REQUEST_STATES as readonly string[]).includes(filter.state)) {
    check.add('state', 'invalid_value', `state must be one of ${REQUEST_STATES.join(', ')}.`);
  }
  check.done();
  const where: FilterQuery<PunchCorrection> = { workspaceId };
  if (filter.companyId != null) where.companyId = filter.companyId;
  if (filter.employeeId != null) where.employeeId = filter.employeeId;
  if (filter.employeeIds != null) where.employeeId = { $in: filter.employeeIds };
  if (filter.state != null) where.decision = { state: filter.state };
  if (filter.startDate != null) where.lastDate = { $gte: filter.startDate };
  if (filter.endDate != null) where.firstDate = { $lte: filter.endDate };
  const [items, totalCount] = await ctx.em.findAndCount(PunchCorrection, where, { orderBy: { id: 'asc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}

/** The punches asked for, checked, as instants (wall-clock times are read in the workspace's zone). */
async function readPunches(ctx: RequestContext, workspaceId: number, input: PunchCorrectionInput, zone: string): Promise<CorrectionPunch[]> {
  const check = new FieldChecker();
  const single = input.punchTime != null || input.punchState != null;
  const items = input.punches ?? (single ? [{ punchTime: input.punchTime, punchState: input.punchState }] : []);
  const prefix = (i: number) => (input.punches ? `punches.${i}.` : '');
  if (input.punches && single) check.add('punches', 'not_allowed', 'Give either punchTime and punchState (one punch) or punches (several), not both.');
  if (input.punches && input.punches.length === 0) check.add('punches', 'empty', 'punches must hold at least one punch.');
  if (items.length > MAX_CORRECTION_PUNCHES) check.add('punches', 'too_many_items', `One correction adds at most ${MAX_CORRECTION_PUNCHES} punches; split it.`);
  check.done();
  const punches: CorrectionPunch[] = [];
  for (const [i, item] of items.entries()) {
    const parsed = typeof item.punchTime === 'string' ? readIsoDate(item.punchTime) : ({ ok: false, code: 'invalid_date' } as const);
    if (!parsed.ok || parsed.value.kind === 'date') {
      const code = parsed.ok ? 'invalid_date' : parsed.code;
      check.add(
        `${prefix(i)}punchTime`,
        code,
        isoDateMessage(`${prefix(i)}punchTime`, code, 'an ISO 8601 date-time (2026-03-03T17:30:00, optionally with Z or an offset)'),
      );
      continue;
    }
    check.text(`${prefix(i)}punchState`, item.punchState, { max: limits.punchState, required: true });
    if (item.punchState != null && item.punchState.trim() !== '' && !(await verificationStateExists(ctx, item.punchState, workspaceId))) {
      check.add(`${prefix(i)}punchState`, 'unknown_state', `punchState "${item.punchState}" is not the value of a verification state of this workspace.`);
    }
    const at = new Date(Math.floor(isoToInstant(parsed.value, zone).getTime() / 1000) * 1000);
    punches.push({ punch_time: at.toISOString(), punch_state: item.punchState ?? '' });
  }
  check.done();
  const seen = new Set(punches.map((p) => p.punch_time));
  if (seen.size !== punches.length) throw DomainError.field('punches', 'duplicate', 'The same punch time is given twice.');
  return punches.sort((a, b) => a.punch_time.localeCompare(b.punch_time));
}

const localDate = (at: Date | string, zone: string) => formatLocalTime(new Date(at), zone).slice(0, 10);

async function refuseLockedDates(em: EntityManager, companyId: number, firstDate: string, lastDate: string): Promise<void> {
  const [locked] = await em.execute<{ id: number; start_date: string; end_date: string }[]>(
    `select id, start_date::text, end_date::text from pay_period where company_id = ? and locked_at is not null and start_date <= ?::date and end_date >= ?::date limit 1`,
    [companyId, lastDate, firstDate],
  );
  if (locked)
    throw new DomainError(
      'period_locked',
      `Pay period ${locked.id} (${locked.start_date} to ${locked.end_date}) is locked; an admin must unlock it before its punches are corrected.`,
    );
}

export async function createPunchCorrection(ctx: RequestContext, input: PunchCorrectionInput): Promise<PunchCorrection> {
  return filePunchCorrection(ctx, workspaceOf(ctx), input);
}

/** Files a correction in a workspace the caller has already decided on (self-service: the employee's own, for themself). */
export async function filePunchCorrection(ctx: RequestContext, workspaceId: number, input: PunchCorrectionInput): Promise<PunchCorrection> {
  const check = new FieldChecker();
  if (input.employeeId == null) check.add('employeeId', 'required', 'employeeId is required.');
  check.text('reason', input.reason, { max: limits.reason, required: true });
  const adds = input.punches != null || input.punchTime != null || input.punchState != null;
  if (adds && input.voidPunchId != null) check.add('voidPunchId', 'not_allowed', 'A correction either adds punches or voids one, not both.');
  if (!adds && input.voidPunchId == null) check.add('punchTime', 'required', 'Give punchTime and punchState (or punches), or voidPunchId.');
  check.done();
  const employee = await ctx.em.findOne(Employee, { id: input.employeeId!, workspaceId });
  if (!employee) throw DomainError.field('employeeId', 'not_found', `Employee ${input.employeeId} does not exist in this workspace.`);
  const zone = (await ctx.em.findOneOrFail(Workspace, { id: workspaceId })).timeZone;
  let punches: CorrectionPunch[] = [];
  let dates: string[];
  if (input.voidPunchId != null) {
    const punch = await ctx.em.findOne(Punch, { id: input.voidPunchId, workspaceId, employeeId: employee.id });
    if (!punch) throw DomainError.field('voidPunchId', 'not_found', `Punch ${input.voidPunchId} of employee ${employee.id} does not exist.`);
    dates = [punch.localTime.slice(0, 10)];
  } else {
    punches = await readPunches(ctx, workspaceId, input, zone);
    dates = punches.map((p) => localDate(p.punch_time, zone));
  }
  const firstDate = [...dates].sort()[0]!;
  const lastDate = [...dates].sort().at(-1)!;
  return ctx.em.transactional(async (em) => {
    await refuseLockedDates(em, employee.companyId, firstDate, lastDate);
    const correction = em.create(PunchCorrection, {
      workspaceId,
      companyId: employee.companyId,
      employeeId: employee.id,
      punches,
      voidPunchId: input.voidPunchId ?? null,
      createdPunchIds: [],
      firstDate,
      lastDate,
      reason: input.reason!,
      decision: pendingDecision(ctx),
    } as unknown as PunchCorrection);
    await em.persist(correction).flush();
    await recordEvents(withEm(ctx, em), [{ workspaceId, type: PUNCH_CORRECTION_EVENT, data: punchCorrectionData(correction) }]);
    return correction;
  });
}

/** Creates the correction's manual punches (linked to it) or voids its punch, in the caller's transaction. */
async function apply(ctx: RequestContext, correction: PunchCorrection, employee: Employee, zone: string): Promise<void> {
  const em = ctx.em;
  if (correction.voidPunchId != null) {
    await em.nativeUpdate(
      Punch,
      { id: Number(correction.voidPunchId), voidedAt: null },
      { voidedAt: ctx.now(), voidReason: `Punch correction ${correction.id}: ${correction.reason}`.slice(0, 500) },
    );
    return;
  }
  // A manual punch without a terminal: no device, the workspace's zone for its wall-clock time.
  const { inserted, duplicates } = await recordPunches(
    ctx,
    correction.workspaceId,
    correction.punches.map((p) => {
      const punchTime = new Date(p.punch_time);
      return {
        companyId: employee.companyId,
        employeeId: employee.id,
        deviceId: null,
        deviceSerial: '',
        pin: employee.pin ?? '',
        punchTime,
        localTime: formatLocalTime(punchTime, zone),
        timeZone: zone,
        punchState: p.punch_state,
        verifyType: 'manual',
        verifyCode: null,
        recordType: PunchRecordType.manual,
        workCode: null,
        deviceRecordIndex: null,
        receivedAt: ctx.now(),
        // The punch names its correction (its event says `correction`); the correction its punches.
        correctionId: correction.id,
      };
    }),
  );
  correction.createdPunchIds = [...inserted, ...duplicates].map((p) => p.id);
}

/**
 * Approves, rejects or cancels a pending correction (the resolver checks the scope: approve and
 * reject need `approve` or `admin`). Anything but a pending correction is `invalid_transition`.
 */
export async function decidePunchCorrection(ctx: RequestContext, id: number, decision: DecisionVerb, comment?: string | null): Promise<PunchCorrection> {
  return decidePunchCorrectionIn(ctx, workspaceOf(ctx), id, decision, comment);
}

/**
 * The decision in a workspace the caller has already decided on; `mayDecide` sees the locked
 * correction first and refuses what this caller may not decide (as decideAbsenceRequestIn).
 */
export async function decidePunchCorrectionIn(
  ctx: RequestContext,
  workspaceId: number,
  id: number,
  decision: DecisionVerb,
  comment?: string | null,
  mayDecide: (correction: PunchCorrection) => Promise<void> | void = () => undefined,
): Promise<PunchCorrection> {
  const check = new FieldChecker();
  check.text('comment', comment, { max: limits.comment });
  check.done();
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const correction = await em.findOne(PunchCorrection, { id, workspaceId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!correction) throw DomainError.notFound('PunchCorrection', id);
    await mayDecide(correction);
    checkTransition(correction.decision, decision, ['pending'], `Punch correction ${id}`);
    if (decision === 'approve') {
      await refuseLockedDates(em, correction.companyId, correction.firstDate, correction.lastDate);
      const employee = await em.findOne(Employee, { id: correction.employeeId, workspaceId });
      if (!employee) throw DomainError.notFound('Employee', correction.employeeId);
      const zone = (await em.findOneOrFail(Workspace, { id: workspaceId })).timeZone;
      await apply(tx, correction, employee, zone);
      // The days now, not when the worker gets to them: the approver sees the result of the decision.
      await takeAttendanceLock(em);
      const wanted: WantedDays = new Map();
      want(wanted, correction.employeeId, addDays(correction.firstDate, -1), addDays(correction.lastDate, 1));
      await refreshDays(tx, wanted, { announceNew: true });
    }
    recordDecision(ctx, correction.decision, decision, comment);
    await em.flush();
    await recordEvents(tx, [{ workspaceId, type: PUNCH_CORRECTION_EVENT, data: punchCorrectionData(correction) }]);
    return correction;
  });
}
