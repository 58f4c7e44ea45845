// Paging of SCIM lists in SQL: the filter is an SQL condition (scim-filter-sql.ts), PostgreSQL
// counts the matches and returns the ids of one page, and only that page's resources are read. A
// list costs the process one page whatever the company holds (docs/identity.md, "Bounds").
import type { EntityManager } from '@mikro-orm/postgresql';
import { ScimError } from '../../scim/errors';
import type { RequestContext } from '../../context/request-context';
import type { Sql } from './scim-filter-sql';

/** Group references (a Group's members, a User's groups) one list page carries at most: past it the page ends early. */
export const MAX_REFERENCES_PER_PAGE = 10_000;

/**
 * SCIM list queries one process runs at once. A filter no index serves reads the company's rows in
 * PostgreSQL for up to TIMEGATE_SCIM_LIST_TIMEOUT_MS; 16 of them at once held every connection of
 * the pool (DATABASE_POOL_SIZE), and every other workspace's requests, /healthz included, waited
 * for one. Further lists wait their turn holding nothing, first come first served.
 */
export const SCIM_LISTS_AT_ONCE = 2;

let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running < SCIM_LISTS_AT_ONCE) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export interface IdPage<Id> {
  ids: Id[];
  totalResults: number;
}

const QUERY_CANCELED = '57014';

/**
 * The ids of one page (`count` from the 1-based `startIndex`, in `order`) of the rows of `from`
 * matching `where`, and how many match in all. Runs in its turn (SCIM_LISTS_AT_ONCE) and under
 * TIMEGATE_SCIM_LIST_TIMEOUT_MS: a filter PostgreSQL cannot answer in that time is 400 `tooMany`
 * (RFC 7644, section 3.12).
 */
export async function pageOfIds<Id>(
  ctx: RequestContext,
  query: { id: string; from: string; where: Sql; order: string },
  page: { startIndex: number; count: number },
): Promise<IdPage<Id>> {
  try {
    return await inTurn(() =>
      ctx.em.transactional(async (em: EntityManager) => {
        await em.execute(`set local statement_timeout = ${Math.trunc(ctx.config.scimListTimeoutMs)}`);
        const rows = await em.execute<{ id: Id; total: string }[]>(
          `select ${query.id} as id, count(*) over () as total from ${query.from} where ${query.where.sql} order by ${query.order} limit ? offset ?`,
          [...query.where.params, page.count, page.startIndex - 1],
        );
        if (rows.length > 0) return { ids: rows.map((r) => r.id), totalResults: Number(rows[0]!.total) };
        // An empty page (count 0, or past the end) still tells how many match.
        const [counted] = await em.execute<{ total: string }[]>(`select count(*) as total from ${query.from} where ${query.where.sql}`, query.where.params);
        return { ids: [], totalResults: Number(counted!.total) };
      }),
    );
  } catch (error) {
    if ((error as { code?: string }).code === QUERY_CANCELED) {
      throw ScimError.badRequest(
        'tooMany',
        'The filter takes longer than this service evaluates a list; narrow it (userName, externalId, id or displayName eq).',
      );
    }
    throw error;
  }
}

/**
 * The ids of a page kept while their group references (how many each carries) stay within
 * MAX_REFERENCES_PER_PAGE; the first is always kept. RFC 7644 lets a page hold fewer than `count`
 * (the client goes on from `startIndex` + `itemsPerPage`).
 */
export function withinReferenceBudget<Id>(ids: Id[], references: Map<Id, number>): Id[] {
  let total = 0;
  const kept: Id[] = [];
  for (const id of ids) {
    total += references.get(id) ?? 0;
    if (kept.length > 0 && total > MAX_REFERENCES_PER_PAGE) break;
    kept.push(id);
  }
  return kept;
}
