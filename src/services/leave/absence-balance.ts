// Absence balances: per type and calendar year, what an employee is allowed, carried over, has taken
// (approved) and has asked for (pending), and what remains. Amounts are in the type's unit. A request
// stores what it charges per year (`amounts`), so a balance is a sum and never recomputes a schedule.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AbsenceType } from '../../entities';

/** One type's balance for one year, as the service returns it (camelCase). */
export interface BalanceView {
  absenceTypeId: number;
  year: number;
  unit: string;
  /** Null: the type tracks no allowance (taken and pending are still counted). */
  allowance: number | null;
  carriedOver: number;
  taken: number;
  pending: number;
  /** allowance + carriedOver − taken − pending; null without an allowance. */
  remaining: number | null;
}

/** Sums of one employee's approved and pending requests per type and year, for the years asked. */
async function usage(em: EntityManager, employeeId: number, years: number[]) {
  const rows = await em.execute<{ absence_type_id: number; year: string; state: string; amount: number }[]>(
    `select r.absence_type_id, a.key as year, r.state, sum(a.value::float8)::float8 as amount
     from absence_request r cross join lateral jsonb_each_text(r.amounts) a
     where r.employee_id = ? and r.state in ('approved', 'pending') and a.key = any(?::text[])
     group by 1, 2, 3`,
    [employeeId, `{${years.join(',')}}`],
  );
  return (typeId: number, year: number, state: 'approved' | 'pending') =>
    rows.find((r) => r.absence_type_id === typeId && Number(r.year) === year && r.state === state)?.amount ?? 0;
}

/**
 * The balances of one employee for `year`, one row per type. Carried over: what remained of the
 * year before (its allowance less what was taken in it), up to the type's cap, for an employee who
 * was employed before the year began (someone hired this year has no last year); a carry-over is
 * not carried again.
 */
export async function balancesOf(
  em: EntityManager,
  employee: { id: number; createdAt: Date },
  types: readonly AbsenceType[],
  year: number,
): Promise<BalanceView[]> {
  const employeeId = employee.id;
  const hadLastYear = new Date(employee.createdAt).toISOString().slice(0, 10) < `${year}-01-01`;
  const used = await usage(em, employeeId, [year - 1, year]);
  return types.map((type) => {
    const allowance = type.annualAllowance ?? null;
    const carried = allowance === null || !hadLastYear ? 0 : Math.min(type.carryOver, Math.max(0, allowance - used(type.id, year - 1, 'approved')));
    const taken = used(type.id, year, 'approved');
    const pending = used(type.id, year, 'pending');
    return {
      absenceTypeId: type.id,
      year,
      unit: type.unit,
      allowance,
      carriedOver: carried,
      taken,
      pending,
      remaining: allowance === null ? null : allowance + carried - taken - pending,
    };
  });
}
