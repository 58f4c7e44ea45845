// Self-service (docs/self-service.md): what an employee sees and asks for themself, through
// /public/v2/me/*, GraphQL `me` and the app at /me. Every operation here takes its employee from the
// caller (`employeeOf`: an employee token or a self-service session, nothing else) and passes that
// employee's workspace and id to the capabilities below as the only scope: an employee reads their
// own days, balances, requests, corrections and punches, files and cancels their own pending
// requests, and can name nobody else (another's request is not found). Approving stays with the
// `approve` scope and with managers (approvals.service.ts).
import { AbsenceRequest, AbsenceType, Company, Employee, PunchCorrection, VerificationState } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { employeeOf, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import type { DayView } from '../attendance/day-record';
import { listTimesheetDaysIn } from '../attendance/timesheet.service';
import { listPunchesIn, type PunchView } from '../attendance/punch.service';
import {
  absenceBalancesIn,
  decideAbsenceRequestIn,
  fileAbsenceRequest,
  listAbsenceRequestsIn,
  type AbsenceRequestFilter,
  type AbsenceRequestInput,
} from '../leave/absence-request.service';
import {
  decidePunchCorrectionIn,
  filePunchCorrection,
  listPunchCorrectionsIn,
  type PunchCorrectionFilter,
  type PunchCorrectionInput,
} from '../leave/punch-correction.service';
import type { Geofence } from '../../entities';
import { fencesOfEmployee } from './geofence.service';
import { isApprover } from './approvals.service';

export interface MyProfile {
  employee: Employee;
  company: Company;
  /** The fences the employee may punch inside (none while the company has mobile punch off). */
  geofences: Geofence[];
  /** The workspace's punch states (what a punch button may send). */
  verificationStates: VerificationState[];
  /** The absence types of the employee's company (what a request may ask for). */
  absenceTypes: AbsenceType[];
  /** True when the employee decides requests of areas (their company has manager approvals on). */
  approver: boolean;
}

export async function myProfile(ctx: RequestContext): Promise<MyProfile> {
  const me = employeeOf(ctx);
  const em = ctx.em;
  const employee = await em.findOneOrFail(Employee, { id: me.employeeId, workspaceId: me.workspaceId });
  const company = await em.findOneOrFail(Company, { id: employee.companyId, workspaceId: me.workspaceId });
  return {
    employee,
    company,
    geofences: company.mobilePunch ? await fencesOfEmployee(em, employee) : [],
    verificationStates: await em.find(VerificationState, { workspaceId: me.workspaceId }, { orderBy: { value: 'asc', id: 'asc' } }),
    absenceTypes: await em.find(AbsenceType, { workspaceId: me.workspaceId, companyId: employee.companyId }, { orderBy: { id: 'asc' } }),
    approver: company.managerApprovals && (await isApprover(em, me.employeeId)),
  };
}

/** The employee's days of a date range (at most 366 days): the rows /public/v2/timesheets gives. */
export async function myTimesheet(ctx: RequestContext, range: { startDate: string; endDate: string }, page: PageRequest): Promise<Page<DayView>> {
  const me = employeeOf(ctx);
  return listTimesheetDaysIn(ctx, me.workspaceId, { startDate: range.startDate, endDate: range.endDate, employeeId: me.employeeId }, page);
}

/** The employee's punches of a range (newest first): every source, voided ones included. */
export async function myPunches(ctx: RequestContext, range: { startDate?: string; endDate?: string }, page: PageRequest): Promise<Page<PunchView>> {
  const me = employeeOf(ctx);
  return listPunchesIn(ctx, me.workspaceId, { startDate: range.startDate, endDate: range.endDate, employeeId: me.employeeId }, page);
}

export async function myAbsenceBalances(ctx: RequestContext, year?: number | null) {
  const me = employeeOf(ctx);
  return absenceBalancesIn(ctx, me.workspaceId, me.employeeId, year);
}

type OwnFilter<T> = Omit<T, 'companyId' | 'employeeId'>;

export async function myAbsenceRequests(ctx: RequestContext, filter: OwnFilter<AbsenceRequestFilter>, page: PageRequest): Promise<Page<AbsenceRequest>> {
  const me = employeeOf(ctx);
  return listAbsenceRequestsIn(ctx, me.workspaceId, { ...filter, employeeId: me.employeeId }, page);
}

/** Files an absence request for the employee themself (pending; a manager or an `approve` key decides it). */
export async function fileMyAbsenceRequest(ctx: RequestContext, input: Omit<AbsenceRequestInput, 'employeeId'>): Promise<AbsenceRequest> {
  const me = employeeOf(ctx);
  return fileAbsenceRequest(ctx, me.workspaceId, { ...input, employeeId: me.employeeId });
}

/** Refuses, as not found, a request of anyone but the caller: an employee names nobody else. */
function ownedBy(employeeId: number, resource: string) {
  return (request: { id: number; employeeId: number }) => {
    if (request.employeeId !== employeeId) throw DomainError.notFound(resource, request.id);
  };
}

/** Cancels one of the employee's own pending absence requests (an approved one only an approver cancels). */
export async function cancelMyAbsenceRequest(ctx: RequestContext, id: number, comment?: string | null): Promise<AbsenceRequest> {
  const me = employeeOf(ctx);
  return decideAbsenceRequestIn(ctx, me.workspaceId, id, 'cancel', comment, ownedBy(me.employeeId, 'AbsenceRequest'));
}

export async function myPunchCorrections(ctx: RequestContext, filter: OwnFilter<PunchCorrectionFilter>, page: PageRequest): Promise<Page<PunchCorrection>> {
  const me = employeeOf(ctx);
  return listPunchCorrectionsIn(ctx, me.workspaceId, { ...filter, employeeId: me.employeeId }, page);
}

/** Files a punch correction for the employee themself: punches to add, or one of their own punches to void. */
export async function fileMyPunchCorrection(ctx: RequestContext, input: Omit<PunchCorrectionInput, 'employeeId'>): Promise<PunchCorrection> {
  const me = employeeOf(ctx);
  return filePunchCorrection(ctx, me.workspaceId, { ...input, employeeId: me.employeeId });
}

export async function cancelMyPunchCorrection(ctx: RequestContext, id: number, comment?: string | null): Promise<PunchCorrection> {
  const me = employeeOf(ctx);
  return decidePunchCorrectionIn(ctx, me.workspaceId, id, 'cancel', comment, ownedBy(me.employeeId, 'PunchCorrection'));
}
