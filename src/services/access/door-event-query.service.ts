// Door events across devices: the rtlog records stored by the terminal ingestion, filtered by
// company, door, device, class, refusal reason, person and time range, newest first.
import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Door, DoorEvent } from '../../entities';
import { DoorEventClass } from '../../entities/door-event.entity';
import { DomainError } from '../../errors/domain-error';
import { DENIAL_REASONS, RTLOG_DENIAL_REASONS, rtlogCodesOfReason, type DenialReason } from '../../protocol';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import { isoDateMessage, isoToInstant, readIsoDate, startOfNextDay, type IsoDate } from '../../kernel/iso-date';
import type { Page, PageRequest } from '../common/pagination';
import { FieldChecker } from '../common/validation';
import { readFromReplica } from '../common/replica-read';

export interface DoorEventFilter {
  companyId?: number | null;
  deviceId?: number | null;
  /** A door record's id: its device and number. */
  doorId?: number | null;
  eventClass?: DoorEventClass | null;
  eventCode?: number | null;
  /** A refusal reason (only refusals have one). */
  reason?: string | null;
  employeeId?: number | null;
  /** ISO 8601 date or date-time, inclusive; without offset read in the workspace zone. */
  startDate?: string | null;
  /** ISO 8601 date (the whole day) or date-time (inclusive). */
  endDate?: string | null;
}

const DATE_HELP = 'an ISO 8601 date (2024-07-28) or date-time (2024-07-28T08:30:00, optionally with Z or an offset such as -03:00)';

/** The refusal reason of a stored event: null unless it is a refusal. */
export function doorEventReason(event: Pick<DoorEvent, 'eventClass' | 'eventCode' | 'reason'>): DenialReason | null {
  if (event.eventClass !== DoorEventClass.denied) return null;
  return (event.reason as DenialReason | null | undefined) ?? RTLOG_DENIAL_REASONS[event.eventCode] ?? 'other';
}

async function timeRange(ctx: RequestContext, filter: DoorEventFilter, check: FieldChecker): Promise<{ $gte?: Date; $lt?: Date; $lte?: Date } | null> {
  const read = (field: 'startDate' | 'endDate'): IsoDate | null => {
    const text = filter[field];
    if (text == null) return null;
    const result = readIsoDate(text);
    if (!result.ok) check.add(field, result.code, isoDateMessage(field, result.code, DATE_HELP));
    return result.ok ? result.value : null;
  };
  const start = read('startDate');
  const end = read('endDate');
  check.done();
  if (!start && !end) return null;
  const [workspace] = await ctx.em.execute<{ time_zone: string }[]>('select time_zone from workspace where id = ?', [workspaceOf(ctx)]);
  const zone = workspace!.time_zone;
  const from = start ? isoToInstant(start.kind === 'date' ? { kind: 'local', local: start.local } : start, zone) : null;
  // A bare end date includes that whole day; an end date-time is inclusive.
  const until = end ? (end.kind === 'date' ? { $lt: startOfNextDay(end.local, zone) } : { $lte: isoToInstant(end, zone) }) : null;
  const untilAt = until ? (until.$lt ?? until.$lte)! : null;
  if (from && untilAt && (until!.$lt ? untilAt <= from : untilAt < from))
    throw DomainError.field('endDate', 'before_start_date', 'endDate must not be before startDate.');
  return { ...(from ? { $gte: from } : {}), ...until };
}

/**
 * Door events of the caller's workspace, newest first (then highest id). Filters combine (and);
 * a door, device or company of another workspace simply matches nothing. `reason: other` is a
 * refusal whose code is outside the vendor's table.
 */
/** Terminal event codes are below 10,000 (the vendor's extended ranges end at 6999; 200-range door events). */
const MAX_EVENT_CODE = 9999;

/**
 * `options.count` false (the caller reads no total): the matches are not counted, and the page's
 * `totalCount` is only what the page proves (its offset and items, plus one when another page
 * follows), enough for `hasNextPage`.
 */
export async function queryDoorEvents(
  ctx: RequestContext,
  filter: DoorEventFilter,
  page: PageRequest,
  options: { count: boolean } = { count: true },
): Promise<Page<DoorEvent>> {
  const workspaceId = workspaceOf(ctx);
  const check = new FieldChecker();
  if (filter.reason != null && !DENIAL_REASONS.includes(filter.reason as DenialReason)) {
    check.add('reason', 'invalid_value', `reason must be one of ${DENIAL_REASONS.join(', ')}.`);
  }
  if (filter.eventCode != null && (filter.eventCode < 0 || filter.eventCode > MAX_EVENT_CODE)) {
    check.add('eventCode', 'out_of_range', `eventCode must be a terminal event code from 0 to ${MAX_EVENT_CODE}.`);
  }
  const time = await timeRange(ctx, filter, check);
  const where: FilterQuery<DoorEvent>[] = [{ workspaceId }];
  if (filter.companyId != null) where.push({ companyId: filter.companyId });
  if (filter.deviceId != null) where.push({ deviceId: filter.deviceId });
  if (filter.employeeId != null) where.push({ employeeId: filter.employeeId });
  if (filter.eventClass != null) where.push({ eventClass: filter.eventClass });
  if (filter.eventCode != null) where.push({ eventCode: filter.eventCode });
  if (time) where.push({ time });
  // The rest only reads: it may come from the read replica (src/db/read-replica.ts).
  return readFromReplica(ctx, workspaceId, 'door_events', ({ em }) => doorEventPage(em, workspaceId, filter, where, page, options));
}

async function doorEventPage(
  em: EntityManager,
  workspaceId: number,
  filter: DoorEventFilter,
  where: FilterQuery<DoorEvent>[],
  page: PageRequest,
  options: { count: boolean },
): Promise<Page<DoorEvent>> {
  if (filter.doorId != null) {
    const door = await em.findOne(Door, { id: filter.doorId, workspaceId }, { fields: ['deviceId', 'number'] });
    if (!door) return { items: [], totalCount: 0, offset: page.offset };
    where.push({ deviceId: door.deviceId, door: door.number });
  }
  if (filter.reason != null) {
    const reason = filter.reason as DenialReason;
    const known = Object.keys(RTLOG_DENIAL_REASONS).map(Number);
    // The stored reason where there is one; refusals stored before reasons were: the code's.
    where.push({
      eventClass: DoorEventClass.denied,
      $or: [{ reason }, { reason: null, eventCode: reason === 'other' ? { $nin: known } : { $in: rtlogCodesOfReason(reason) } }],
    });
  }
  const orderBy = [{ time: 'desc' as const }, { id: 'desc' as const }];
  if (!options.count) {
    // One row more than the page says whether another page follows, without counting every match.
    const rows = await em.find(DoorEvent, { $and: where }, { orderBy, offset: page.offset, limit: page.limit + 1 });
    const items = rows.slice(0, page.limit);
    return { items, totalCount: page.offset + rows.length, offset: page.offset };
  }
  const [items, totalCount] = await em.findAndCount(DoorEvent, { $and: where }, { orderBy, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}
