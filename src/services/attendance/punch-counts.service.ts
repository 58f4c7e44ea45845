// Punches per hour of one local day in the workspace's zone: the overview's hour chart, counted in
// the database (a busy day holds far more punches than one page of the punch list).
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import { FieldChecker } from '../common/validation';
import { addDays } from '../../kernel/calendar-date';
import { localTimeToInstant } from '../../kernel/local-time';

/**
 * 24 counts, hour 0 to 23 of `date` in the workspace's zone (of one company when given), every
 * stored punch (voided ones too, as the punch list shows them). A day with a DST change counts
 * the repeated hour in one bar and leaves the skipped one empty.
 */
export async function punchCountsByHour(ctx: RequestContext, date: string, companyId?: number | null): Promise<number[]> {
  const workspaceId = workspaceOf(ctx);
  const check = new FieldChecker();
  check.date('date', date, { required: true });
  check.done();
  const [workspace] = await ctx.em.execute<{ time_zone: string }[]>('select time_zone from workspace where id = ?', [workspaceId]);
  const zone = workspace!.time_zone;
  const conditions = ['p.workspace_id = ?', 'p.punch_time >= ?', 'p.punch_time < ?'];
  // The day's instants: an index range on punch_time (and the month's partition only).
  const from = localTimeToInstant(`${date} 00:00:00`, zone);
  const until = localTimeToInstant(`${addDays(date, 1)} 00:00:00`, zone);
  const params: unknown[] = [zone, workspaceId, from, until];
  if (companyId != null) {
    const [company] = await ctx.em.execute('select 1 from company where id = ? and workspace_id = ?', [companyId, workspaceId]);
    if (!company) throw DomainError.notFound('Company', companyId);
    conditions.push('p.company_id = ?');
    params.push(companyId);
  }
  const rows = await ctx.em.execute<{ hour: number; count: number }[]>(
    `select extract(hour from p.punch_time at time zone ?)::int as hour, count(*)::int as count
     from punch p where ${conditions.join(' and ')} group by 1`,
    params,
  );
  const counts = Array.from({ length: 24 }, () => 0);
  for (const row of rows) counts[row.hour] = row.count;
  return counts;
}
