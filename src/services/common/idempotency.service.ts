import crypto from 'node:crypto';
import { DomainError } from '../../errors/domain-error';
import type { RequestContext } from '../../context/request-context';

export type IdempotencyDecision = { kind: 'proceed' } | { kind: 'replay'; status: number; body: unknown };

/**
 * SHA-256 of the method, path and body. The body is canonical JSON (object keys sorted at every
 * level): the same request with its fields in another order is the same request, not a 409.
 */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return crypto
    .createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The workspace and API key a record belongs to: only that key's requests see it. */
function owner(ctx: RequestContext): { workspaceId: number; apiKeyId: number } {
  if (ctx.principal.kind !== 'workspace' || ctx.principal.keyId === null) throw new DomainError('forbidden', 'Idempotency-Key needs a workspace API key.');
  return { workspaceId: ctx.principal.workspaceId, apiKeyId: ctx.principal.keyId };
}

/**
 * Claims an Idempotency-Key for this request (insert-on-conflict, so two concurrent requests with one
 * key cannot both proceed), or returns the stored response to replay. Records are per API key: the
 * same Idempotency-Key sent with another API key is another record, so a stored response is only
 * ever replayed to the key that was authorised to receive it. Records older than the TTL are
 * replaced as if they never existed, and a record still running past its lease (its process died
 * mid-request, nothing was stored) is taken over by the retry.
 */
export async function beginIdempotent(ctx: RequestContext, key: string, fingerprint: string, ttlHours: number): Promise<IdempotencyDecision> {
  const { workspaceId, apiKeyId } = owner(ctx);
  const conn = ctx.em.getConnection();
  const leaseSeconds = ctx.config.idempotencyLeaseSeconds;
  await conn.execute(
    `delete from idempotency_record where workspace_id = ? and api_key_id = ? and key = ?
       and (created_at < now() - make_interval(hours => ?) or (status is null and lease_until < now()))`,
    [workspaceId, apiKeyId, key, ttlHours],
  );
  const claimed = await conn.execute<{ id: number }[]>(
    `insert into idempotency_record (workspace_id, api_key_id, key, request_hash, created_at, lease_until)
     values (?, ?, ?, ?, now(), now() + make_interval(secs => ?))
     on conflict (workspace_id, api_key_id, key) do nothing returning id`,
    [workspaceId, apiKeyId, key, fingerprint, leaseSeconds],
  );
  if (claimed.length > 0) return { kind: 'proceed' };
  const [stored] = await conn.execute<{ request_hash: string; status: number | null; response_body: unknown }[]>(
    'select request_hash, status, response_body from idempotency_record where workspace_id = ? and api_key_id = ? and key = ?',
    [workspaceId, apiKeyId, key],
  );
  if (!stored) return beginIdempotent(ctx, key, fingerprint, ttlHours);
  if (stored.request_hash !== fingerprint) {
    throw new DomainError('idempotency_conflict', 'This Idempotency-Key was already used with a different request; use a new key.');
  }
  if (stored.status === null) {
    throw new DomainError('idempotency_conflict', 'A request with this Idempotency-Key is still being processed; retry shortly.');
  }
  return { kind: 'replay', status: stored.status, body: stored.response_body };
}

/** Outcomes that are not the request's result but a refusal to run it: never stored, never replayed. */
// `device_queue_full` is a refusal for now (retry after Retry-After): a retry with the key must run again.
const NOT_RUN = new Set(['unauthenticated', 'forbidden', 'device_queue_full']);

/**
 * Stores the response to replay. Server errors, and refusals of the key itself (nothing ran; a
 * later request, perhaps with a key that may, must run), release the record instead.
 */
export async function finishIdempotent(ctx: RequestContext, key: string, status: number, body: unknown, errorCode?: string): Promise<void> {
  const { workspaceId, apiKeyId } = owner(ctx);
  const conn = ctx.em.getConnection();
  if (status >= 500 || (errorCode !== undefined && NOT_RUN.has(errorCode))) {
    await conn.execute('delete from idempotency_record where workspace_id = ? and api_key_id = ? and key = ? and status is null', [workspaceId, apiKeyId, key]);
    return;
  }
  await conn.execute(
    'update idempotency_record set status = ?, response_body = ?::jsonb, lease_until = null where workspace_id = ? and api_key_id = ? and key = ?',
    [status, JSON.stringify(body), workspaceId, apiKeyId, key],
  );
}
