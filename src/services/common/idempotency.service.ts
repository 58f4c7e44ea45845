import crypto from 'node:crypto';
import { DomainError } from '../../errors/domain-error';
import { withEm, type RequestContext } from '../../context/request-context';

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
async function beginIdempotent(ctx: RequestContext, key: string, fingerprint: string, ttlHours: number): Promise<IdempotencyDecision> {
  const { workspaceId, apiKeyId } = owner(ctx);
  // The EntityManager's execute, not its connection's: it runs in the transaction runIdempotent opened.
  const conn = ctx.em;
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
async function finishIdempotent(ctx: RequestContext, key: string, status: number, body: unknown, errorCode?: string): Promise<void> {
  const { workspaceId, apiKeyId } = owner(ctx);
  const conn = ctx.em;
  if (status >= 500 || (errorCode !== undefined && NOT_RUN.has(errorCode))) {
    await conn.execute('delete from idempotency_record where workspace_id = ? and api_key_id = ? and key = ? and status is null', [workspaceId, apiKeyId, key]);
    return;
  }
  await conn.execute(
    'update idempotency_record set status = ?, response_body = ?::jsonb, lease_until = null where workspace_id = ? and api_key_id = ? and key = ?',
    [status, JSON.stringify(body), workspaceId, apiKeyId, key],
  );
}

/** What a request with an Idempotency-Key answers: its own outcome, or the stored one replayed. */
export interface IdempotentOutcome {
  status: number;
  body: unknown;
  /** The refusal or error the outcome is (its body is the error's body). */
  error?: DomainError;
  replayed: boolean;
}

/** Carries an outcome out of a transaction that must roll back. */
class Undo extends Error {
  constructor(readonly outcome: Omit<IdempotentOutcome, 'replayed'>) {
    super('undo');
  }
}

/**
 * Runs `operation` under an Idempotency-Key in ONE transaction with the key's record: the claim,
 * the operation's changes and the stored response commit together, or none of them does. A retry
 * therefore finds either the stored response (the first request committed, even if its answer
 * was lost: the connection cut by a database failover after the COMMIT reached the standby) or
 * no record at all (nothing was applied), never an applied change without its response. The
 * operation runs in a savepoint: when it fails, its changes are undone and its outcome stored
 * (a domain error is replayed like a success); a server error or a refusal of the key itself
 * rolls everything back, the claim included, so a retry runs again. A concurrent request with the
 * same key waits for the first one's COMMIT on the record's unique key, then replays its answer.
 */
export async function runIdempotent(
  ctx: RequestContext,
  key: string,
  fingerprint: string,
  ttlHours: number,
  operation: (tx: RequestContext) => Promise<Omit<IdempotentOutcome, 'replayed'>>,
): Promise<IdempotentOutcome> {
  const inTransaction = (em: RequestContext['em']): RequestContext => ({ ...withEm(ctx, em), loaders: new Map() });
  try {
    return await ctx.em.transactional(async (em) => {
      const tx = inTransaction(em);
      const decision = await beginIdempotent(tx, key, fingerprint, ttlHours);
      if (decision.kind === 'replay') return { status: decision.status, body: decision.body, replayed: true };
      const outcome = await em
        .transactional(async (inner) => {
          const result = await operation(inTransaction(inner));
          if (result.status >= 400) throw new Undo(result);
          return result;
        })
        .catch((error: unknown) => {
          if (error instanceof Undo) return error.outcome;
          throw error;
        });
      if (outcome.status >= 500 || (outcome.error !== undefined && NOT_RUN.has(outcome.error.code))) throw new Undo(outcome);
      await finishIdempotent(tx, key, outcome.status, outcome.body, outcome.error?.code);
      return { ...outcome, replayed: false };
    });
  } catch (error) {
    if (error instanceof Undo) return { ...error.outcome, replayed: false };
    throw error;
  }
}
