import crypto from 'node:crypto';
import { DomainError } from '../errors/domain-error';
import { workspaceOf, type RequestContext } from './context';

export type IdempotencyDecision =
  | { kind: 'proceed' }
  | { kind: 'replay'; status: number; body: unknown };

export function requestFingerprint(method: string, path: string, body: unknown): string {
  return crypto.createHash('sha256').update(`${method} ${path}\n${JSON.stringify(body ?? null)}`).digest('hex');
}

/**
 * Claims an Idempotency-Key for this request (insert-on-conflict, so two concurrent requests with one
 * key cannot both proceed), or returns the stored response to replay. Records older than the TTL
 * are replaced as if they never existed.
 */
export async function beginIdempotent(ctx: RequestContext, key: string, fingerprint: string, ttlHours: number): Promise<IdempotencyDecision> {
  const workspaceId = workspaceOf(ctx);
  const conn = ctx.em.getConnection();
  await conn.execute(
    `delete from idempotency_record where workspace_id = ? and key = ? and created_at < now() - make_interval(hours => ?)`,
    [workspaceId, key, ttlHours],
  );
  const claimed = await conn.execute<{ id: number }[]>(
    `insert into idempotency_record (workspace_id, key, request_hash, created_at) values (?, ?, ?, now())
     on conflict (workspace_id, key) do nothing returning id`,
    [workspaceId, key, fingerprint],
  );
  if (claimed.length > 0) return { kind: 'proceed' };
  const [stored] = await conn.execute<{ request_hash: string; status: number | null; response_body: unknown }[]>(
    'select request_hash, status, response_body from idempotency_record where workspace_id = ? and key = ?',
    [workspaceId, key],
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

/** Stores the response to replay. Server errors release the key instead, so a retry runs again. */
export async function finishIdempotent(ctx: RequestContext, key: string, status: number, body: unknown): Promise<void> {
  const conn = ctx.em.getConnection();
  if (status >= 500) {
    await conn.execute('delete from idempotency_record where workspace_id = ? and key = ? and status is null', [workspaceOf(ctx), key]);
    return;
  }
  await conn.execute('update idempotency_record set status = ?, response_body = ?::jsonb where workspace_id = ? and key = ?', [
    status,
    JSON.stringify(body),
    workspaceOf(ctx),
    key,
  ]);
}
