import { createAlwaysSchedule } from '../access/access-schedule.service';
import { seedAbsenceTypes } from '../leave/absence-type.service';
import { Area, Company, Device, Employee, Punch } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext, withEm } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { uniqueViolationToDomainError } from '../common/unique-violation';
import { FieldChecker, limits } from '../common/validation';
import { lockWorkspace } from '../common/workspace-lock';
import { checkPayPolicy, mergePayPolicy, type PayPolicyInput } from '../attendance/pay-policy-input';
import { markDaysStale } from '../attendance/day-store';

export interface CompanyInput {
  name?: string | null;
  code?: string | null;
  /** The overtime and premium policy: a key left out keeps its value, null resets it to the default. */
  payPolicy?: PayPolicyInput | null;
  /** Self-service settings (docs/self-service.md): a key left out keeps its value. */
  settings?: CompanySettingsInput | null;
}

export interface CompanySettingsInput {
  /** Employees may punch from their phones inside the company's geofences. */
  mobilePunch?: boolean | null;
  /** The worst accuracy, in metres, a phone punch may have (5 to 5,000; default 100). */
  mobilePunchAccuracyM?: number | null;
  /** Employees made approvers of areas decide their reports' requests in the self-service app. */
  managerApprovals?: boolean | null;
}

/** A company's settings as both APIs show them. */
export function companySettings(company: Company) {
  return { mobilePunch: company.mobilePunch, mobilePunchAccuracyM: company.mobilePunchAccuracyM, managerApprovals: company.managerApprovals };
}

/** The range of `mobilePunchAccuracyM`: a phone's GPS is rarely better than 5 m; a cell-tower fix is kilometres. */
export const ACCURACY_LIMIT_RANGE = { min: 5, max: 5000 } as const;

function checkSettings(check: FieldChecker, settings: CompanySettingsInput | null | undefined): void {
  if (settings == null) return;
  const accuracy = settings.mobilePunchAccuracyM;
  if (
    accuracy !== undefined &&
    (accuracy === null || !Number.isInteger(accuracy) || accuracy < ACCURACY_LIMIT_RANGE.min || accuracy > ACCURACY_LIMIT_RANGE.max)
  ) {
    check.add(
      'settings.mobilePunchAccuracyM',
      'out_of_range',
      `settings.mobilePunchAccuracyM must be a whole number of metres from ${ACCURACY_LIMIT_RANGE.min} to ${ACCURACY_LIMIT_RANGE.max}.`,
    );
  }
  for (const field of ['mobilePunch', 'managerApprovals'] as const) {
    if (settings[field] === null) check.add(`settings.${field}`, 'required', `settings.${field} must be true or false.`);
  }
}

function applySettings(company: Company, settings: CompanySettingsInput | null | undefined): void {
  if (settings?.mobilePunch != null) company.mobilePunch = settings.mobilePunch;
  if (settings?.mobilePunchAccuracyM != null) company.mobilePunchAccuracyM = settings.mobilePunchAccuracyM;
  if (settings?.managerApprovals != null) company.managerApprovals = settings.managerApprovals;
}

const uniqueFields = {
  company_workspace_code_unique: { field: 'code', message: 'Another company of this workspace already has this code.' },
};

function checkCompany(input: CompanyInput, creating: boolean): void {
  const check = new FieldChecker();
  check.text('name', input.name, { max: limits.companyName, required: creating || input.name !== undefined });
  check.text('code', input.code, { max: limits.companyCode, required: creating || input.code !== undefined });
  checkPayPolicy(check, 'payPolicy', input.payPolicy);
  checkSettings(check, input.settings);
  check.done();
}

function mergedPolicy(stored: Record<string, unknown>, input: PayPolicyInput | null | undefined): Record<string, unknown> {
  const check = new FieldChecker();
  const merged = mergePayPolicy(check, 'payPolicy', stored, input);
  check.done();
  return merged;
}

/** The company with this id in the caller's workspace; a foreign id is as unknown as a missing one. */
export async function getCompany(ctx: RequestContext, id: number): Promise<Company> {
  const company = await ctx.em.findOne(Company, { id, workspaceId: workspaceOf(ctx) });
  if (!company) throw DomainError.notFound('Company', id);
  return company;
}

export async function listCompanies(ctx: RequestContext, page: PageRequest): Promise<Page<Company>> {
  const [items, totalCount] = await ctx.em.findAndCount(
    Company,
    { workspaceId: workspaceOf(ctx) },
    { orderBy: { id: 'asc' }, offset: page.offset, limit: page.limit },
  );
  return { items, totalCount, offset: page.offset };
}

async function ensureCodeFree(ctx: RequestContext, code: string, exceptId?: number): Promise<void> {
  const other = await ctx.em.findOne(Company, { workspaceId: workspaceOf(ctx), code });
  if (other && other.id !== exceptId) throw DomainError.field('code', 'already_taken', uniqueFields.company_workspace_code_unique.message);
}

export async function createCompany(ctx: RequestContext, input: CompanyInput): Promise<Company> {
  checkCompany(input, true);
  const workspaceId = workspaceOf(ctx);
  try {
    return await ctx.em.transactional(async (em) => {
      const workspace = await lockWorkspace(em, workspaceId);
      const count = await em.count(Company, { workspaceId });
      if (count >= workspace.maxCompanies) {
        throw new DomainError(
          'plan_limit_reached',
          `This workspace's plan allows ${workspace.maxCompanies} ${workspace.maxCompanies === 1 ? 'company' : 'companies'}; ask the operator to raise the limit.`,
        );
      }
      await ensureCodeFree(withEm(ctx, em), input.code!);
      const company = em.create(Company, { workspaceId, name: input.name!, code: input.code!, payPolicy: mergedPolicy({}, input.payPolicy) } as Company);
      applySettings(company, input.settings);
      em.persist(company);
      await em.flush();
      createAlwaysSchedule(em, company);
      seedAbsenceTypes(em, company);
      await em.flush();
      return company;
    });
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
}

export async function updateCompany(ctx: RequestContext, id: number, input: CompanyInput): Promise<Company> {
  checkCompany(input, false);
  const company = await getCompany(ctx, id);
  if (input.code != null && input.code !== company.code) await ensureCodeFree(ctx, input.code, id);
  if (input.name != null) company.name = input.name;
  if (input.code != null) company.code = input.code;
  applySettings(company, input.settings);
  const policyChanged = input.payPolicy != null && JSON.stringify(mergedPolicy(company.payPolicy, input.payPolicy)) !== JSON.stringify(company.payPolicy);
  if (policyChanged) company.payPolicy = mergedPolicy(company.payPolicy, input.payPolicy);
  try {
    if (policyChanged) {
      // A policy change is a rule change: every unlocked day of the company is recomputed (and announced when it changes).
      await ctx.em.transactional(async (em) => {
        await em.flush();
        await markDaysStale(em, { companyId: company.id }, null, null);
      });
    } else {
      await ctx.em.flush();
    }
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
  return company;
}

/**
 * Refused while the company still owns employees, devices or areas, or has punches: punches are
 * never deleted through the API (attendance history), and each names its company.
 */
export async function deleteCompany(ctx: RequestContext, id: number): Promise<Company> {
  const company = await getCompany(ctx, id);
  const employees = await ctx.em.count(Employee, { companyId: id });
  const devices = await ctx.em.count(Device, { companyId: id });
  const areas = await ctx.em.count(Area, { companyId: id });
  if (employees > 0 || devices > 0 || areas > 0) {
    throw new DomainError(
      'resource_in_use',
      `Company ${id} still owns ${employees} employee(s), ${devices} device(s) and ${areas} area(s); delete or move them first.`,
    );
  }
  if ((await ctx.em.count(Punch, { companyId: id })) > 0) {
    throw new DomainError('resource_in_use', `Company ${id} has punches; attendance history is kept, so the company cannot be deleted.`);
  }
  // Deleted employees with history (stored attendance days) are kept as well, and name their company.
  if ((await ctx.em.count(Employee, { companyId: id }, { filters: false })) > 0) {
    throw new DomainError('resource_in_use', `Company ${id} has attendance history of deleted employees; it is kept, so the company cannot be deleted.`);
  }
  const snapshot = { ...company };
  await ctx.em.remove(company).flush();
  return Object.assign(new Company(), snapshot);
}
