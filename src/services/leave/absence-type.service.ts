// A company's absence types: what people may be away for, paid or not, counted in days or hours,
// with a yearly allowance. Every company starts with vacation, sick and unpaid (editable).
import type { EntityManager } from '@mikro-orm/core';
import type { FilterQuery } from '@mikro-orm/postgresql';
import { AbsenceRequest, AbsenceType, Company } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { uniqueViolationToDomainError } from '../common/unique-violation';
import { FieldChecker, limits } from '../common/validation';
import { PAY_CODES } from '../attendance/pay-rules';

export const ABSENCE_UNITS = ['day', 'hour'] as const;
/** The largest allowance or carry-over cap, in days or hours (a year's hours, 8,784, fit). */
const MAX_AMOUNT = 10_000;
const COLOR = /^#[0-9A-Fa-f]{6}$/;

export interface AbsenceTypeInput {
  companyId?: number | null;
  name?: string | null;
  code?: string | null;
  paid?: boolean | null;
  unit?: string | null;
  annualAllowance?: number | null;
  carryOver?: number | null;
  allowNegative?: boolean | null;
  color?: string | null;
}

/** The types a new company starts with. Sick leave has no allowance to run out of. */
export const DEFAULT_ABSENCE_TYPES = [
  { name: 'Vacation', code: 'VAC', paid: true, unit: 'day', annualAllowance: 25, carryOver: 5, allowNegative: false, color: '#2E86DE' },
  { name: 'Sick', code: 'SICK', paid: true, unit: 'day', annualAllowance: null, carryOver: 0, allowNegative: false, color: '#E67E22' },
  { name: 'Unpaid', code: 'UNPAID', paid: false, unit: 'day', annualAllowance: null, carryOver: 0, allowNegative: false, color: '#95A5A6' },
] as const;

const CODE_TAKEN = 'This company already has an absence type with this code.';
const uniqueFields = { absence_type_company_code_unique: { field: 'code', message: CODE_TAKEN } };

/** Persists the default types of a company being created (the caller flushes). */
export function seedAbsenceTypes(em: EntityManager, company: Company): void {
  for (const type of DEFAULT_ABSENCE_TYPES)
    em.persist(em.create(AbsenceType, { ...type, workspaceId: company.workspaceId, companyId: company.id } as AbsenceType));
}

function checkType(input: AbsenceTypeInput, creating: boolean): void {
  const check = new FieldChecker();
  if (creating && input.companyId == null) check.add('companyId', 'required', 'companyId is required.');
  check.text('name', input.name, { max: limits.absenceTypeName, required: creating || input.name !== undefined });
  check.text('code', input.code, { max: limits.absenceCode, required: creating || input.code !== undefined });
  // Paid leave is booked under its code beside the work codes (timesheet summary, payroll export): it must not read as one.
  if (typeof input.code === 'string' && (PAY_CODES as readonly string[]).includes(input.code.trim().toLowerCase()))
    check.add('code', 'invalid_value', `"${input.code}" is a work pay code; an absence type needs a code of its own (VAC, SICK).`);
  if (input.unit != null && !(ABSENCE_UNITS as readonly string[]).includes(input.unit)) check.add('unit', 'invalid_value', 'unit must be "day" or "hour".');
  for (const field of ['annualAllowance', 'carryOver'] as const) {
    const value = input[field];
    if (value != null && (!Number.isFinite(value) || value < 0 || value > MAX_AMOUNT || Math.round(value * 2) !== value * 2)) {
      check.add(field, 'out_of_range', `${field} must be a number of days or hours from 0 to ${MAX_AMOUNT}, in halves.`);
    }
  }
  if (input.color != null && !COLOR.test(input.color)) check.add('color', 'invalid_value', 'color must be "#RRGGBB".');
  check.done();
}

export async function getAbsenceType(ctx: RequestContext, id: number): Promise<AbsenceType> {
  const type = await ctx.em.findOne(AbsenceType, { id, workspaceId: workspaceOf(ctx) });
  if (!type) throw DomainError.notFound('AbsenceType', id);
  return type;
}

export async function listAbsenceTypes(ctx: RequestContext, filter: { companyId?: number | null }, page: PageRequest): Promise<Page<AbsenceType>> {
  const where: FilterQuery<AbsenceType> = { workspaceId: workspaceOf(ctx) };
  if (filter.companyId != null) where.companyId = filter.companyId;
  const [items, totalCount] = await ctx.em.findAndCount(AbsenceType, where, {
    orderBy: { companyId: 'asc', id: 'asc' },
    offset: page.offset,
    limit: page.limit,
  });
  return { items, totalCount, offset: page.offset };
}

async function ensureCodeFree(ctx: RequestContext, companyId: number, code: string, exceptId?: number): Promise<void> {
  const other = await ctx.em.findOne(AbsenceType, { companyId, code });
  if (other && other.id !== exceptId) throw DomainError.field('code', 'already_taken', CODE_TAKEN);
}

export async function createAbsenceType(ctx: RequestContext, input: AbsenceTypeInput): Promise<AbsenceType> {
  checkType(input, true);
  const workspaceId = workspaceOf(ctx);
  if (!(await ctx.em.findOne(Company, { id: input.companyId!, workspaceId }))) {
    throw DomainError.field('companyId', 'not_found', `Company ${input.companyId} does not exist in this workspace.`);
  }
  await ensureCodeFree(ctx, input.companyId!, input.code!);
  const type = ctx.em.create(AbsenceType, {
    workspaceId,
    companyId: input.companyId!,
    name: input.name!,
    code: input.code!,
    paid: input.paid ?? true,
    unit: input.unit ?? 'day',
    annualAllowance: input.annualAllowance ?? null,
    carryOver: input.carryOver ?? 0,
    allowNegative: input.allowNegative ?? false,
    color: input.color ?? null,
  } as AbsenceType);
  try {
    await ctx.em.persist(type).flush();
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
  return type;
}

/**
 * Changes a type; it stays in its company. The unit is not changed once requests use the type:
 * their amounts are in it. A changed `paid` or `code` applies to days computed from then on.
 */
export async function updateAbsenceType(ctx: RequestContext, id: number, input: Omit<AbsenceTypeInput, 'companyId'>): Promise<AbsenceType> {
  checkType(input, false);
  const type = await getAbsenceType(ctx, id);
  if (input.unit != null && input.unit !== type.unit && (await ctx.em.count(AbsenceRequest, { absenceTypeId: id })) > 0) {
    throw DomainError.field('unit', 'not_allowed', 'The unit of a type that requests use cannot change: their amounts are in it.');
  }
  if (input.code != null && input.code !== type.code) await ensureCodeFree(ctx, type.companyId, input.code, id);
  for (const field of ['name', 'code', 'paid', 'unit', 'carryOver', 'allowNegative'] as const) {
    if (input[field] != null) (type as unknown as Record<string, unknown>)[field] = input[field];
  }
  // Null clears these two (no allowance tracked, no colour).
  if (input.annualAllowance !== undefined) type.annualAllowance = input.annualAllowance;
  if (input.color !== undefined) type.color = input.color;
  try {
    await ctx.em.flush();
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
  return type;
}

/** Deletes a type no request uses (409 resource_in_use otherwise: the requests and their days keep it). */
export async function deleteAbsenceType(ctx: RequestContext, id: number): Promise<AbsenceType> {
  const type = await getAbsenceType(ctx, id);
  if ((await ctx.em.count(AbsenceRequest, { absenceTypeId: id })) > 0) {
    throw new DomainError('resource_in_use', `Absence type ${id} is used by absence requests; it cannot be deleted.`);
  }
  const snapshot = { ...type };
  await ctx.em.remove(type).flush();
  return Object.assign(new AbsenceType(), snapshot);
}
