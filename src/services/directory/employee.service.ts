import { AccessLevelEmployee, AreaEmployee, Assignment, Company, Employee, EmployeePhoto, EmployeeTemplate, FaceEnrollment } from '../../entities';
import { EMPLOYEE_SEARCH_TEXT } from '../../entities/employee.entity';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext, withEm } from '../../context/request-context';
import { recomputeDeviceUsers } from '../sync/device-user.service';
import { attachRecordsOfPin } from '../terminals/terminal-ingest.service';
import type { Page, PageRequest } from '../common/pagination';
import { uniqueViolationToDomainError } from '../common/unique-violation';
import { FieldChecker, limits } from '../common/validation';
import { lockWorkspace } from '../common/workspace-lock';
import { findOwned } from '../common/owned';
import { intArray } from '../common/sql-arrays';
import { executePrepared } from '../../db/prepared-statement';
import { employeeAreaIds } from './area.service';
import { markDaysStale } from '../attendance/day-store';
import { visitorPinInUse } from '../access/visitor-pass.service';

export interface EmployeeInput {
  companyId?: number;
  name?: string | null;
  lastname?: string | null;
  code?: string | null;
  pin?: string | null;
  email?: string | null;
  isActive?: boolean | null;
  /** First and last day of employment (`YYYY-MM-DD`, inclusive); null: open. */
  employmentStartDate?: string | null;
  employmentEndDate?: string | null;
}

export interface EmployeeFilter {
  companyId?: number;
  isActive?: boolean;
  /** Case-insensitive substring of name, last name, code, pin or e-mail. */
  search?: string;
  /** Only these employees (at most limits.bulkItems ids): names for the ids another list returns. */
  ids?: number[];
}

const uniqueFields = {
  employee_workspace_code_unique: { field: 'code', message: 'Another employee of this workspace already has this code.' },
  employee_company_pin_unique: { field: 'pin', message: 'Another employee of this company already has this pin.' },
};

function checkEmployee(input: EmployeeInput, creating: boolean): void {
  const check = new FieldChecker();
  const required = (field: keyof EmployeeInput) => creating || input[field] !== undefined;
  if (creating && input.companyId === undefined) check.add('companyId', 'required', 'companyId is required.');
  check.text('name', input.name, { max: limits.personName, required: required('name') });
  check.text('lastname', input.lastname, { max: limits.personName, required: required('lastname') });
  check.text('code', input.code, { max: limits.employeeCode, required: required('code') });
  check.pin('pin', input.pin);
  check.email('email', input.email);
  const start = input.employmentStartDate != null && check.date('employmentStartDate', input.employmentStartDate);
  const end = input.employmentEndDate != null && check.date('employmentEndDate', input.employmentEndDate);
  if (start && end && input.employmentEndDate! < input.employmentStartDate!) {
    check.add('employmentEndDate', 'before_start_date', 'employmentEndDate must not be before employmentStartDate.');
  }
  check.done();
}

export function getEmployee(ctx: RequestContext, id: number): Promise<Employee> {
  return findOwned(ctx, Employee, id, 'Employee');
}

/**
 * An employee as the read operations (`employee`, `employees`) return it: its columns and its area
 * ids, read in ONE statement and without entity hydration. These are the hottest reads of both
 * APIs; MikroORM's `findOne` (query builder, hydration, identity map) plus a second round trip for
 * the area ids cost more than the whole baseline request (docs/decisions.md, "REST read speed").
 * Writes still load managed entities through `getEmployee`.
 */
export interface EmployeeView {
  id: number;
  companyId: number;
  name: string;
  lastname: string;
  code: string;
  pin: string | null;
  email: string | null;
  isActive: boolean;
  employmentStartDate: string | null;
  employmentEndDate: string | null;
  createdAt: Date;
  updatedAt: Date;
  areaIds: number[];
}

interface EmployeeViewRow {
  id: number;
  company_id: number;
  name: string;
  lastname: string;
  code: string;
  pin: string | null;
  email: string | null;
  is_active: boolean;
  employment_start_date: string | null;
  employment_end_date: string | null;
  created_at: string | Date;
  updated_at: string | Date;
  area_ids: number[];
  total_count?: string | number;
}

const EMPLOYEE_VIEW_COLUMNS = `e.id, e.company_id, e.name, e.lastname, e.code, e.pin, e.email, e.is_active,
  e.employment_start_date::text, e.employment_end_date::text, e.created_at, e.updated_at,
  array(select ae.area_id from area_employee ae where ae.employee_id = e.id order by ae.area_id) as area_ids`;

function toEmployeeView(ctx: RequestContext, row: EmployeeViewRow): EmployeeView {
  // The same parser MikroORM hydrates timestamptz columns with (the driver returns them as text).
  const platform = ctx.em.getPlatform();
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    lastname: row.lastname,
    code: row.code,
    pin: row.pin,
    email: row.email,
    isActive: row.is_active,
    employmentStartDate: row.employment_start_date,
    employmentEndDate: row.employment_end_date,
    createdAt: platform.parseDate(row.created_at as string) as Date,
    updatedAt: platform.parseDate(row.updated_at as string) as Date,
    areaIds: row.area_ids,
  };
}

/**
 * Employees as the API shows them, with their area ids: the area-id lookups of all of them are one
 * query (employeeAreaIds batches them through DataLoader).
 */
export async function employeeViews(ctx: RequestContext, list: readonly Employee[]): Promise<EmployeeView[]> {
  const areaIds = await Promise.all(list.map((employee) => employeeAreaIds(ctx, employee)));
  return list.map((e, index) => ({
    id: e.id,
    companyId: e.companyId,
    name: e.name,
    lastname: e.lastname,
    code: e.code,
    pin: e.pin ?? null,
    email: e.email ?? null,
    isActive: e.isActive,
    employmentStartDate: e.employmentStartDate ?? null,
    employmentEndDate: e.employmentEndDate ?? null,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    areaIds: areaIds[index]!,
  }));
}

/** One employee of the caller's workspace with its area ids (one query), or `not_found`. */
export async function readEmployee(ctx: RequestContext, id: number): Promise<EmployeeView> {
  // Prepared once per connection: the hottest REST read skips PostgreSQL's parse and plan.
  const rows = await executePrepared<EmployeeViewRow>(
    ctx,
    `select ${EMPLOYEE_VIEW_COLUMNS} from employee e where e.workspace_id = ?::int and e.id = ?::int and e.deleted_at is null`,
    [workspaceOf(ctx), id],
  );
  if (rows.length === 0) throw DomainError.notFound('Employee', id);
  return toEmployeeView(ctx, rows[0]!);
}

/**
 * A page of the workspace's employees with their area ids and the total count, in one query
 * (`count(*) over ()`); only a page past the end (or of size 0) needs a second query for the count.
 */
export async function listEmployees(ctx: RequestContext, filter: EmployeeFilter, page: PageRequest): Promise<Page<EmployeeView>> {
  // A search holds no control character (nor the separator of EMPLOYEE_SEARCH_TEXT) and is bounded.
  const check = new FieldChecker();
  check.text('search', filter.search, { max: limits.search });
  check.done();
  const conditions = ['e.workspace_id = ?', 'e.deleted_at is null'];
  const params: unknown[] = [workspaceOf(ctx)];
  if (filter.companyId !== undefined) {
    conditions.push('e.company_id = ?');
    params.push(filter.companyId);
  }
  if (filter.isActive !== undefined) {
    conditions.push('e.is_active = ?');
    params.push(filter.isActive);
  }
  if (filter.ids !== undefined) {
    if (filter.ids.length > limits.bulkItems) {
      throw DomainError.field('ids', 'too_many_items', `ids may hold at most ${limits.bulkItems} ids (got ${filter.ids.length}); split the request.`);
    }
    conditions.push('e.id = any(?::int[])');
    params.push(intArray(filter.ids));
  }
  if (filter.search) {
    const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // The expression of the trigram index: one index scan instead of five columns read in every row.
    conditions.push(`${EMPLOYEE_SEARCH_TEXT} ilike ?`);
    params.push(like);
  }
  const where = conditions.join(' and ');
  const rows = await ctx.em.execute<EmployeeViewRow[]>(
    `select ${EMPLOYEE_VIEW_COLUMNS}, count(*) over () as total_count from employee e where ${where} order by e.id limit ? offset ?`,
    [...params, page.limit, page.offset],
  );
  let totalCount: number;
  if (rows.length > 0) totalCount = Number(rows[0]!.total_count);
  else {
    const [count] = await ctx.em.execute<{ count: string | number }[]>(`select count(*) as count from employee e where ${where}`, params);
    totalCount = Number(count!.count);
  }
  return { items: rows.map((row) => toEmployeeView(ctx, row)), totalCount, offset: page.offset };
}

/** A company of the caller's workspace, or a field error on `field` (the input names it). */
async function companyOfWorkspace(ctx: RequestContext, companyId: number, field = 'companyId'): Promise<Company> {
  const company = await ctx.em.findOne(Company, { id: companyId, workspaceId: workspaceOf(ctx) });
  if (!company) throw DomainError.field(field, 'not_found', `Company ${companyId} does not exist in this workspace.`);
  return company;
}

async function ensureUnique(ctx: RequestContext, employee: { id?: number; companyId: number; code?: string | null; pin?: string | null }) {
  const workspaceId = workspaceOf(ctx);
  const problems = new FieldChecker();
  if (employee.code != null) {
    const other = await ctx.em.findOne(Employee, { workspaceId, code: employee.code });
    if (other && other.id !== employee.id) problems.add('code', 'already_taken', uniqueFields.employee_workspace_code_unique.message);
  }
  if (employee.pin != null) {
    const other = await ctx.em.findOne(Employee, { companyId: employee.companyId, pin: employee.pin });
    if (other && other.id !== employee.id) problems.add('pin', 'already_taken', uniqueFields.employee_company_pin_unique.message);
    // A live visitor pass holds its pin on the controllers: an employee under it would share its user row.
    else if (await visitorPinInUse(ctx.em, employee.companyId, employee.pin))
      problems.add('pin', 'already_taken', 'A visitor pass of this company holds this pin until it is removed from the controllers.');
  }
  problems.done();
}

export async function createEmployee(ctx: RequestContext, input: EmployeeInput): Promise<Employee> {
  checkEmployee(input, true);
  const workspaceId = workspaceOf(ctx);
  try {
    return await ctx.em.transactional(async (em) => {
      const txCtx = withEm(ctx, em);
      const workspace = await lockWorkspace(em, workspaceId);
      await companyOfWorkspace(txCtx, input.companyId!);
      if ((await em.count(Employee, { workspaceId })) >= workspace.maxEmployees) {
        throw new DomainError('plan_limit_reached', `This workspace's plan allows ${workspace.maxEmployees} employees.`);
      }
      await ensureUnique(txCtx, { companyId: input.companyId!, code: input.code, pin: input.pin });
      const employee = em.create(Employee, {
        workspaceId,
        companyId: input.companyId!,
        name: input.name!,
        lastname: input.lastname!,
        code: input.code!,
        pin: input.pin ?? null,
        email: input.email ?? null,
        isActive: input.isActive ?? true,
        employmentStartDate: input.employmentStartDate ?? null,
        employmentEndDate: input.employmentEndDate ?? null,
      } as Employee);
      em.persist(employee);
      await em.flush();
      await attachRecordsOfPin(txCtx, employee);
      return employee;
    });
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
}

/**
 * Every change that can alter what a terminal holds (pin, name, active flag, company) recomputes
 * the employee's desired device state in the same transaction. Moving to another company ends the
 * employee's direct assignments and area memberships: both were bound to the old company.
 */
export async function updateEmployee(ctx: RequestContext, id: number, input: EmployeeInput): Promise<Employee> {
  checkEmployee(input, false);
  try {
    return await ctx.em.transactional(async (em) => {
      const txCtx = withEm(ctx, em);
      await lockWorkspace(em, workspaceOf(ctx));
      const employee = await getEmployee(txCtx, id);
      const companyId = input.companyId ?? employee.companyId;
      const companyChanged = companyId !== employee.companyId;
      if (companyChanged) await companyOfWorkspace(txCtx, companyId);
      const pin = input.pin === undefined ? employee.pin : input.pin;
      await ensureUnique(txCtx, { id, companyId, code: input.code, pin: companyChanged || input.pin !== undefined ? pin : null });
      employee.companyId = companyId;
      if (input.name != null) employee.name = input.name;
      if (input.lastname != null) employee.lastname = input.lastname;
      if (input.code != null) employee.code = input.code;
      if (input.pin !== undefined) employee.pin = input.pin;
      if (input.email !== undefined) employee.email = input.email;
      if (input.isActive != null) employee.isActive = input.isActive;
      const startDate = input.employmentStartDate === undefined ? (employee.employmentStartDate ?? null) : input.employmentStartDate;
      const endDate = input.employmentEndDate === undefined ? (employee.employmentEndDate ?? null) : input.employmentEndDate;
      if (startDate !== null && endDate !== null && endDate < startDate) {
        throw DomainError.field('employmentEndDate', 'before_start_date', 'employmentEndDate must not be before employmentStartDate.');
      }
      const employmentChanged = startDate !== (employee.employmentStartDate ?? null) || endDate !== (employee.employmentEndDate ?? null);
      employee.employmentStartDate = startDate;
      employee.employmentEndDate = endDate;
      await em.flush();
      // Employment dates decide which days count: the employee's unlocked days are recomputed.
      if (employmentChanged) await markDaysStale(em, { employeeIds: [id] }, null, null);
      // Terminal records of a pin nobody held belong to whoever holds it now.
      if (companyChanged || input.pin !== undefined) await attachRecordsOfPin(txCtx, employee);
      if (companyChanged) {
        await em.nativeDelete(Assignment, { employeeId: id });
        await em.nativeDelete(AreaEmployee, { employeeId: id });
      }
      await recomputeDeviceUsers(em, { employeeIds: [id] }, ctx.now(), ctx.principal);
      return employee;
    });
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
}

/**
 * An employee with history (punches or stored attendance days) is kept, marked deleted
 * (docs/attendance.md, "Deleting an employee"): their punches and days, locked ones included, stay
 * theirs, while they leave every list, lookup and terminal and their code and pin are free again.
 * An employee without history is removed. Either way their assignments, memberships and biometric
 * data go; their desired-state rows stay, marked for removal.
 */
export async function deleteEmployee(ctx: RequestContext, id: number): Promise<Employee> {
  return ctx.em.transactional(async (em) => {
    await lockWorkspace(em, workspaceOf(ctx));
    const employee = await getEmployee(withEm(ctx, em), id);
    const snapshot = { ...employee };
    // A terminal upload naming this employee holds KEY SHARE on the row until it commits: waiting
    // for it here means the history check below sees its punches, and an upload after this
    // transaction no longer matches the employee (deleted_at is set, or the row is gone).
    await em.execute('select 1 from employee where id = ? for update', [id]);
    if (await hasHistory(withEm(ctx, em), id)) {
      await em.nativeDelete(Assignment, { employeeId: id });
      await em.nativeDelete(AreaEmployee, { employeeId: id });
      await em.nativeDelete(AccessLevelEmployee, { employeeId: id });
      await em.nativeDelete(EmployeeTemplate, { employeeId: id });
      await em.nativeDelete(EmployeePhoto, { employeeId: id });
      await em.nativeDelete(FaceEnrollment, { employeeId: id });
      employee.deletedAt = ctx.now();
      employee.isActive = false;
      await em.flush();
    } else {
      await em.remove(employee).flush();
    }
    await recomputeDeviceUsers(em, { employeeIds: [id] }, ctx.now(), ctx.principal);
    return Object.assign(new Employee(), snapshot);
  });
}

/** Whether any punch or stored attendance day names the employee. */
async function hasHistory(ctx: RequestContext, employeeId: number): Promise<boolean> {
  const [row] = await ctx.em.execute<{ found: boolean }[]>(
    `select exists (select 1 from punch where employee_id = ?) or exists (select 1 from attendance_day where employee_id = ?) as found`,
    [employeeId, employeeId],
  );
  return row!.found;
}
