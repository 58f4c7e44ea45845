import type { FilterQuery } from '@mikro-orm/core';
import { AreaEmployee, Assignment, Company, Employee } from '../entities';
import { DomainError } from '../errors/domain-error';
import { workspaceOf, type RequestContext } from './context';
import { recomputeDeviceUsers } from './device-user.service';
import { attachRecordsOfPin } from './terminal-ingest.service';
import type { Page, PageRequest } from './pagination';
import { uniqueViolationToDomainError } from './unique-violation';
import { FieldChecker, limits } from './validation';
import { lockWorkspace } from './workspace.service';

export interface EmployeeInput {
  companyId?: number;
  name?: string | null;
  lastname?: string | null;
  code?: string | null;
  pin?: string | null;
  email?: string | null;
  isActive?: boolean | null;
}

export interface EmployeeFilter {
  companyId?: number;
  isActive?: boolean;
  /** Case-insensitive substring of name, last name, code, pin or e-mail. */
  search?: string;
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
  check.done();
}

export async function getEmployee(ctx: RequestContext, id: number): Promise<Employee> {
  const employee = await ctx.em.findOne(Employee, { id, workspaceId: workspaceOf(ctx) });
  if (!employee) throw DomainError.notFound('Employee', id);
  return employee;
}

export async function listEmployees(ctx: RequestContext, filter: EmployeeFilter, page: PageRequest): Promise<Page<Employee>> {
  const where: FilterQuery<Employee> = { workspaceId: workspaceOf(ctx) };
  if (filter.companyId !== undefined) where.companyId = filter.companyId;
  if (filter.isActive !== undefined) where.isActive = filter.isActive;
  if (filter.search) {
    const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.$or = [{ name: { $ilike: like } }, { lastname: { $ilike: like } }, { code: { $ilike: like } }, { pin: { $ilike: like } }, { email: { $ilike: like } }];
  }
  const [items, totalCount] = await ctx.em.findAndCount(Employee, where, { orderBy: { id: 'asc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
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
  }
  problems.done();
}

export async function createEmployee(ctx: RequestContext, input: EmployeeInput): Promise<Employee> {
  checkEmployee(input, true);
  const workspaceId = workspaceOf(ctx);
  try {
    return await ctx.em.transactional(async (em) => {
      const txCtx = { ...ctx, em };
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
      const txCtx = { ...ctx, em };
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
      await em.flush();
      // Terminal records of a pin nobody held belong to whoever holds it now.
      if (companyChanged || input.pin !== undefined) await attachRecordsOfPin(txCtx, employee);
      if (companyChanged) {
        await em.nativeDelete(Assignment, { employeeId: id });
        await em.nativeDelete(AreaEmployee, { employeeId: id });
      }
      await recomputeDeviceUsers(em, { employeeIds: [id] }, ctx.now());
      return employee;
    });
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
}

/** Its assignments and memberships go with it; its desired-state rows stay, marked for removal. */
export async function deleteEmployee(ctx: RequestContext, id: number): Promise<Employee> {
  return ctx.em.transactional(async (em) => {
    await lockWorkspace(em, workspaceOf(ctx));
    const employee = await getEmployee({ ...ctx, em }, id);
    const snapshot = { ...employee };
    await em.remove(employee).flush();
    await recomputeDeviceUsers(em, { employeeIds: [id] }, ctx.now());
    return Object.assign(new Employee(), snapshot);
  });
}
