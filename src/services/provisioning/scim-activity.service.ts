// The last sync of a directory: every request a `scim` key makes to /scim/v2 is noted on the key
// (when, what, and the last one refused or failed, as the directory was told), so an administrator
// sees whether the directory calls, what it last changed and why it last failed, without reading logs.
import { isScimPrincipal, type RequestContext } from '../../context/request-context';

const MAX_REQUEST_TEXT = 300;
const MAX_ERROR_TEXT = 1000;

export interface ScimRequestOutcome {
  method: string;
  /** The path under /scim/v2, without the query (a filter can name people). */
  path: string;
  status: number;
  /** For an error: its `scimType` (if any) and detail, as sent. */
  error?: { scimType: string | null; detail: string };
}

/** Notes one request of a `scim` key; any other caller is not a directory and is not noted. */
export async function recordScimRequest(ctx: RequestContext, outcome: ScimRequestOutcome): Promise<void> {
  if (!isScimPrincipal(ctx.principal) || ctx.principal.keyId === null) return;
  const at = ctx.now();
  const request = `${outcome.method.toUpperCase()} ${outcome.path}`.slice(0, MAX_REQUEST_TEXT);
  const failed = outcome.status >= 400;
  const changed = !failed && outcome.method.toUpperCase() !== 'GET';
  const error = failed ? [outcome.error?.scimType, outcome.error?.detail].filter(Boolean).join(': ').slice(0, MAX_ERROR_TEXT) || null : null;
  await ctx.em.execute(
    `insert into scim_activity (api_key_id, last_request_at, last_request, request_count, last_change_at, last_error_at, last_error_request, last_error_status, last_error)
     values (?, ?, ?, 1, ?, ?, ?, ?, ?)
     on conflict (api_key_id) do update set
       last_request_at = excluded.last_request_at,
       last_request = excluded.last_request,
       request_count = scim_activity.request_count + 1,
       last_change_at = coalesce(excluded.last_change_at, scim_activity.last_change_at),
       last_error_at = coalesce(excluded.last_error_at, scim_activity.last_error_at),
       last_error_request = case when excluded.last_error_at is null then scim_activity.last_error_request else excluded.last_error_request end,
       last_error_status = case when excluded.last_error_at is null then scim_activity.last_error_status else excluded.last_error_status end,
       last_error = case when excluded.last_error_at is null then scim_activity.last_error else excluded.last_error end`,
    [ctx.principal.keyId, at, request, changed ? at : null, failed ? at : null, failed ? request : null, failed ? outcome.status : null, error],
  );
}

export interface ScimSync {
  lastRequestAt: Date | null;
  lastRequest: string | null;
  requestCount: number;
  lastChangeAt: Date | null;
  lastErrorAt: Date | null;
  lastErrorRequest: string | null;
  lastErrorStatus: number | null;
  lastError: string | null;
  users: number;
  activeUsers: number;
  groups: number;
}

const dateOrNull = (value: string | Date | null) => (value === null ? null : new Date(value));

/**
 * A `scim` key's last sync and what its company's directory has provisioned (users, of them active,
 * and groups: the company's, whichever of its keys sent them); null for any other key.
 */
export async function scimSyncOf(ctx: RequestContext, key: { id: number; scopes: string[]; companyId?: number | null }): Promise<ScimSync | null> {
  if (!key.scopes.includes('scim') || key.companyId == null) return null;
  const [row] = await ctx.em.execute<
    {
      last_request_at: string | Date | null;
      last_request: string | null;
      request_count: number | null;
      last_change_at: string | Date | null;
      last_error_at: string | Date | null;
      last_error_request: string | null;
      last_error_status: number | null;
      last_error: string | null;
      users: number;
      active_users: number;
      groups: number;
    }[]
  >(
    `select a.last_request_at, a.last_request, a.request_count, a.last_change_at, a.last_error_at, a.last_error_request, a.last_error_status, a.last_error,
       (select count(*)::int from scim_user u where u.company_id = c.id) as users,
       (select count(*)::int from scim_user u join employee e on e.id = u.employee_id where u.company_id = c.id and e.is_active) as active_users,
       (select count(*)::int from scim_group g where g.company_id = c.id) as groups
     from (select ?::int as id) c left join scim_activity a on a.api_key_id = ?`,
    [key.companyId, key.id],
  );
  return {
    lastRequestAt: dateOrNull(row!.last_request_at),
    lastRequest: row!.last_request,
    requestCount: row!.request_count ?? 0,
    lastChangeAt: dateOrNull(row!.last_change_at),
    lastErrorAt: dateOrNull(row!.last_error_at),
    lastErrorRequest: row!.last_error_request,
    lastErrorStatus: row!.last_error_status,
    lastError: row!.last_error,
    users: row!.users,
    activeUsers: row!.active_users,
    groups: row!.groups,
  };
}
