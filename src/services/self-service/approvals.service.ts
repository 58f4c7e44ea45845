// Managers in self-service (docs/self-service.md): an employee made approver of areas decides the
// absence requests and punch corrections of those areas' employees (their reports) in the app, when
// their company has `manager_approvals` on, with the decision rules of the `approve` scope: approve
// or reject a pending request, never their own. Who approves which area is set with `write`.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AbsenceRequest, Area, Company, Employee, PunchCorrection } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { employeeOf, workspaceOf, type EmployeePrincipal, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { intArray } from '../common/sql-arrays';
import { FieldChecker, limits } from '../common/validation';
import { decideAbsenceRequestIn, listAbsenceRequestsIn, REQUEST_STATES } from '../leave/absence-request.service';
import { decidePunchCorrectionIn, listPunchCorrectionsIn } from '../leave/punch-correction.service';

/** Whether the employee approves any area. */
export async function isApprover(em: EntityManager, employeeId: number): Promise<boolean> {
  const [row] = await em.execute<{ one: number }[]>('select 1 as one from area_approver where employee_id = ? limit 1', [employeeId]);
  return row !== undefined;
}

// --- Set by the workspace (`write`) ------------------------------------------------------------

async function areaOf(ctx: RequestContext, areaId: number): Promise<Area> {
  const area = await ctx.em.findOne(Area, { id: areaId, workspaceId: workspaceOf(ctx) });
  if (!area) throw DomainError.notFound('Area', areaId);
  return area;
}

/** The ids of the area's approvers, ascending. */
export async function areaApprovers(ctx: RequestContext, areaId: number): Promise<number[]> {
  const area = await areaOf(ctx, areaId);
  const rows = await ctx.em.execute<{ employee_id: number }[]>('select employee_id from area_approver where area_id = ? order by employee_id', [area.id]);
  return rows.map((r) => r.employee_id);
}

/** Makes exactly these employees (of the area's company) the area's approvers; an empty list leaves it without. */
export async function setAreaApprovers(ctx: RequestContext, areaId: number, employeeIds: number[]): Promise<number[]> {
  const check = new FieldChecker();
  if (employeeIds.length > limits.bulkItems) check.add('employeeIds', 'too_many_items', `employeeIds may hold at most ${limits.bulkItems} ids.`);
  if (employeeIds.some((id) => !Number.isInteger(id) || id < 1 || id > 2_147_483_647))
    check.add('employeeIds', 'out_of_range', 'employeeIds must hold ids from 1 to 2147483647.');
  check.done();
  const area = await areaOf(ctx, areaId);
  const wanted = [...new Set(employeeIds)];
  return ctx.em.transactional(async (em) => {
    // The area row is locked: two changes of one area's approvers do not interleave.
    await em.execute('select id from area where id = ? for update', [area.id]);
    const found = await em.execute<{ id: number }[]>('select id from employee where company_id = ? and id = any(?::int[]) and deleted_at is null', [
      area.companyId,
      intArray(wanted),
    ]);
    const missing = wanted.filter((id) => !found.some((row) => row.id === id));
    if (missing.length > 0) {
      throw DomainError.field(
        'employeeIds',
        'not_found',
        `employeeIds: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not of company ${area.companyId}.`,
      );
    }
    await em.execute('delete from area_approver where area_id = ? and not (employee_id = any(?::int[]))', [area.id, intArray(wanted)]);
    if (wanted.length > 0) {
      await em.execute(
        `insert into area_approver (area_id, employee_id, created_at) select ?, unnest(?::int[]), ? on conflict (area_id, employee_id) do nothing`,
        [area.id, intArray(wanted), ctx.now()],
      );
    }
    return [...wanted].sort((a, b) => a - b);
  });
}

// --- The manager (an employee principal) -------------------------------------------------------

/** The manager's reports: the live employees of the areas they approve, themself excepted. Refuses one who approves nothing. */
async function reportsOf(ctx: RequestContext, me: EmployeePrincipal): Promise<number[]> {
  const company = await ctx.em.findOneOrFail(Company, { id: me.companyId, workspaceId: me.workspaceId });
  if (!company.managerApprovals) throw new DomainError('forbidden', 'Your company decides requests with HR, not in self-service (manager approvals are off).');
  if (!(await isApprover(ctx.em, me.employeeId))) throw new DomainError('forbidden', 'You are not an approver of any area: you decide no requests.');
  const rows = await ctx.em.execute<{ id: number }[]>(
    `select distinct e.id from area_approver a join area_employee ae on ae.area_id = a.area_id join employee e on e.id = ae.employee_id
     where a.employee_id = ? and e.id <> ? and e.deleted_at is null order by e.id`,
    [me.employeeId, me.employeeId],
  );
  return rows.map((r) => r.id);
}

/** The manager's reports by name (what the app shows beside their requests). */
export async function myReports(ctx: RequestContext): Promise<Employee[]> {
  const me = employeeOf(ctx);
  const ids = await reportsOf(ctx, me);
  return ids.length === 0
    ? []
    : ctx.em.find(Employee, { id: { $in: ids }, workspaceId: me.workspaceId }, { orderBy: { lastname: 'asc', name: 'asc', id: 'asc' } });
}

function checkState(state: string | null | undefined): void {
  if (state != null && !(REQUEST_STATES as readonly string[]).includes(state)) {
    throw DomainError.field('state', 'invalid_value', `state must be one of ${REQUEST_STATES.join(', ')}.`);
  }
}

/** The reports' absence requests (pending unless `state` says otherwise), by start date. */
export async function reportAbsenceRequests(ctx: RequestContext, state: string | null | undefined, page: PageRequest): Promise<Page<AbsenceRequest>> {
  checkState(state);
  const me = employeeOf(ctx);
  const reports = await reportsOf(ctx, me);
  return listAbsenceRequestsIn(ctx, me.workspaceId, { employeeIds: reports, state: state ?? 'pending' }, page);
}

export async function reportPunchCorrections(ctx: RequestContext, state: string | null | undefined, page: PageRequest): Promise<Page<PunchCorrection>> {
  checkState(state);
  const me = employeeOf(ctx);
  const reports = await reportsOf(ctx, me);
  return listPunchCorrectionsIn(ctx, me.workspaceId, { employeeIds: reports, state: state ?? 'pending' }, page);
}

/** A request of someone who is not the manager's report is not found (their own included). */
function ofReports(reports: number[], resource: string) {
  return (request: { id: number; employeeId: number }) => {
    if (!reports.includes(request.employeeId)) throw DomainError.notFound(resource, request.id);
  };
}

export type ManagerDecision = 'approve' | 'reject';

/** Approves or rejects a report's pending absence request, as an `approve` key would. */
export async function decideReportAbsenceRequest(ctx: RequestContext, id: number, decision: ManagerDecision, comment?: string | null): Promise<AbsenceRequest> {
  const me = employeeOf(ctx);
  const reports = await reportsOf(ctx, me);
  return decideAbsenceRequestIn(ctx, me.workspaceId, id, decision, comment, ofReports(reports, 'AbsenceRequest'));
}

/** Approves or rejects a report's pending punch correction, as an `approve` key would. */
export async function decideReportPunchCorrection(
  ctx: RequestContext,
  id: number,
  decision: ManagerDecision,
  comment?: string | null,
): Promise<PunchCorrection> {
  const me = employeeOf(ctx);
  const reports = await reportsOf(ctx, me);
  return decidePunchCorrectionIn(ctx, me.workspaceId, id, decision, comment, ofReports(reports, 'PunchCorrection'));
}
