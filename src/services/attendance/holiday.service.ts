import type { FilterQuery } from '@mikro-orm/postgresql';
import { flushWithStaleMarks, type StaleMark } from './day-store';
import { queueHolidayChange } from '../sync/access-sync.service';
import { Company, Holiday } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { uniqueViolationToDomainError } from '../common/unique-violation';
import { FieldChecker, limits } from '../common/validation';

export interface HolidayInput {
  companyId?: number | null;
  date?: string | null;
  name?: string | null;
  holidayType?: number | null;
}

const DATE_TAKEN = 'This company already has a holiday on this date.';
const uniqueFields = { holiday_company_date_unique: { field: 'date', message: DATE_TAKEN } };

function checkHoliday(input: HolidayInput, creating: boolean): void {
  const check = new FieldChecker();
  check.text('name', input.name, { max: limits.holidayName, required: creating || input.name !== undefined });
  if (creating && input.companyId == null) check.add('companyId', 'required', 'companyId is required.');
  check.date('date', input.date, { required: creating || input.date !== undefined });
  if (input.holidayType != null && (!Number.isInteger(input.holidayType) || input.holidayType < 1 || input.holidayType > 3)) {
    check.add('holidayType', 'out_of_range', 'holidayType must be 1, 2 or 3.');
  }
  check.done();
}

/** A holiday changes the attendance day of its date (the date a shift starts on) for the whole company. */
const aroundDate = (companyId: number, date: string): StaleMark => ({ scope: { companyId }, from: date, to: date });

export async function getHoliday(ctx: RequestContext, id: number): Promise<Holiday> {
  const holiday = await ctx.em.findOne(Holiday, { id, workspaceId: workspaceOf(ctx) });
  if (!holiday) throw DomainError.notFound('Holiday', id);
  return holiday;
}

export async function listHolidays(ctx: RequestContext, filter: { companyId?: number }, page: PageRequest): Promise<Page<Holiday>> {
  const where: FilterQuery<Holiday> = { workspaceId: workspaceOf(ctx) };
  if (filter.companyId != null) where.companyId = filter.companyId;
  const [items, totalCount] = await ctx.em.findAndCount(Holiday, where, { orderBy: { date: 'asc', id: 'asc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}

async function ensureDateFree(ctx: RequestContext, companyId: number, date: string, exceptId?: number): Promise<void> {
  const other = await ctx.em.findOne(Holiday, { companyId, date });
  if (other && other.id !== exceptId) throw DomainError.field('date', 'already_taken', DATE_TAKEN);
}

export async function createHoliday(ctx: RequestContext, input: HolidayInput): Promise<Holiday> {
  checkHoliday(input, true);
  const workspaceId = workspaceOf(ctx);
  if (!(await ctx.em.findOne(Company, { id: input.companyId!, workspaceId }))) {
    throw DomainError.field('companyId', 'not_found', `Company ${input.companyId} does not exist in this workspace.`);
  }
  await ensureDateFree(ctx, input.companyId!, input.date!);
  const holiday = ctx.em.create(Holiday, {
    workspaceId,
    companyId: input.companyId!,
    date: input.date!,
    name: input.name!,
    holidayType: input.holidayType ?? 1,
  } as Holiday);
  try {
    ctx.em.persist(holiday);
    await flushWithStaleMarks(ctx.em, [aroundDate(holiday.companyId, holiday.date)], (em) =>
      queueHolidayChange(em, holiday.companyId, { written: { date: holiday.date, holidayType: holiday.holidayType } }, ctx.now()),
    );
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
  return holiday;
}

/** Changes a holiday; it stays in its company. */
export async function updateHoliday(ctx: RequestContext, id: number, input: Omit<HolidayInput, 'companyId'>): Promise<Holiday> {
  checkHoliday(input, false);
  const holiday = await getHoliday(ctx, id);
  if (input.date != null && input.date !== holiday.date) await ensureDateFree(ctx, holiday.companyId, input.date, id);
  const marks = [aroundDate(holiday.companyId, holiday.date)];
  const previousDate = holiday.date;
  if (input.date != null) holiday.date = input.date;
  marks.push(aroundDate(holiday.companyId, holiday.date));
  if (input.name != null) holiday.name = input.name;
  if (input.holidayType != null) holiday.holidayType = input.holidayType;
  try {
    await flushWithStaleMarks(ctx.em, marks, (em) =>
      queueHolidayChange(em, holiday.companyId, { removed: previousDate, written: { date: holiday.date, holidayType: holiday.holidayType } }, ctx.now()),
    );
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
  return holiday;
}

export async function deleteHoliday(ctx: RequestContext, id: number): Promise<Holiday> {
  const holiday = await getHoliday(ctx, id);
  const snapshot = { ...holiday };
  ctx.em.remove(holiday);
  await flushWithStaleMarks(ctx.em, [aroundDate(holiday.companyId, holiday.date)], (em) =>
    queueHolidayChange(em, holiday.companyId, { removed: holiday.date }, ctx.now()),
  );
  return Object.assign(new Holiday(), snapshot);
}
