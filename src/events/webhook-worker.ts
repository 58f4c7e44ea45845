// Sends due webhook deliveries from a continuous pool of requests (TIMEGATE_WEBHOOK_CONCURRENCY per
// process, TIMEGATE_WEBHOOK_ENDPOINT_CONCURRENCY per endpoint, half the pool at most per workspace,
// workspaces served in turn). Claiming is one statement with `for update skip locked` that also
// pushes the row's due time past a lease, so with several processes each delivery is sent by one of
// them; if that process dies mid-request, the lease runs out and another sends it (at least once).
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { PeriodicJobs } from '../jobs/periodic-jobs';
import { eventRowHolding } from './event-batch';
import { publicEventId } from './event-types';
import type { Metrics } from '../observability/metrics';
import { failSpan, inSpan, injectTraceContext, linksTo, SpanKind } from '../observability/tracing';
import { postWebhook, WebhookTimeout } from './webhook-http';
import { signWebhook } from './webhook-signature';

interface Claimed {
  id: number;
  endpoint_id: number;
  attempt_count: number;
  give_up_at: Date;
  /** Until when this process holds the delivery (the claim's lease): no other process sends it before. */
  lease_until: Date;
  url: string;
  secret: string;
  event_id: string;
  workspace_id: number;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
  /** The traceparent of the span that caused the event (event.trace), or null. */
  trace: string | null;
}

interface Outcome {
  statusCode: number | null;
  excerpt: string | null;
  error: string | null;
  durationMs: number;
  succeeded: boolean;
  /** The label of timegate_webhook_attempts_total. */
  kind: 'success' | 'http_error' | 'timeout' | 'network_error';
  /** A 429 or 503 that said when to come back. */
  retryAfterMs?: number;
}

const MAX_DELAY_MS = 12 * 3_600_000;
/** While the database is unreachable, a sent attempt's record is tried again this often (within the lease). */
const RECORD_RETRY_MS = 500;

/** `Retry-After` as milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: Date): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now.getTime());
}

/** Exponential backoff with ±20% jitter: base, 2 x base, 4 x base, ... capped at 12 hours. */
export function retryDelayMs(attempt: number, baseSeconds: number, random = Math.random()): number {
  const delay = Math.min(baseSeconds * 1000 * 2 ** Math.max(0, attempt - 1), MAX_DELAY_MS);
  return Math.round(delay * (0.8 + 0.4 * random));
}

export class WebhookWorker {
  /** Requests in flight in this process, and how many of them each endpoint and workspace holds. */
  private readonly inFlight = new Set<Promise<void>>();
  private readonly busyEndpoints = new Map<number, number>();
  private readonly busyWorkspaces = new Map<number, number>();
  private claiming: Promise<number> | null = null;
  private claimAgain = false;
  private attemptsMade = 0;
  private stopped = false;

  constructor(private readonly deps: { orm: MikroORM; config: Config; logger: Logger; now: () => Date; metrics?: Metrics }) {}

  /** The poll that picks up retries coming due runs on the process's job runner (failures show in /readyz). */
  registerJobs(jobs: PeriodicJobs): void {
    jobs.add('webhooks', this.deps.config.webhookPollMs, () => this.runOnce());
  }

  /** New deliveries may be due: fill the free slots now (never waits for requests in flight). */
  kick(): void {
    if (this.stopped) return;
    this.fill().catch((err) => this.deps.logger.error({ err }, 'claiming webhook deliveries failed'));
  }

  /**
   * Sends every delivery due now (by the injected clock), including retries that come due, and
   * resolves when none is due or in flight any more, with the number of attempts made meanwhile
   * (by this call or by kicks). Tests and the periodic poll call it.
   */
  async runOnce(): Promise<number> {
    const before = this.attemptsMade;
    for (;;) {
      const claimed = await this.fill();
      if (this.inFlight.size === 0 && claimed === 0) break;
      if (this.inFlight.size > 0) await Promise.race(this.inFlight);
    }
    return this.attemptsMade - before;
  }

  /** Stops taking deliveries; resolves when the requests in flight have finished and been recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.claiming?.catch(() => undefined);
    await Promise.all(this.inFlight);
  }

  /**
   * A continuous pool: claims due deliveries into the free slots and starts each request at once;
   * every request that ends frees its slot and claims again. No delivery waits for another (a
   * batch used to wait for its slowest request). Claims made while one is running are coalesced.
   * Resolves with the number of deliveries claimed.
   */
  private fill(): Promise<number> {
    if (this.claiming) {
      this.claimAgain = true;
      return this.claiming;
    }
    const run = (async () => {
      let claimedTotal = 0;
      do {
        this.claimAgain = false;
        const free = this.deps.config.webhookConcurrency - this.inFlight.size;
        if (free <= 0 || this.stopped) break;
        const claimed = await this.claim(free);
        for (const delivery of claimed) this.start(delivery);
        claimedTotal += claimed.length;
        // A full claim may have left more due: look again while slots are free.
        if (claimed.length === free) this.claimAgain = true;
      } while (this.claimAgain && !this.stopped);
      return claimedTotal;
    })();
    this.claiming = run;
    void run
      .finally(() => {
        if (this.claiming === run) this.claiming = null;
      })
      .catch(() => undefined);
    return run;
  }

  private start(delivery: Claimed): void {
    const count = (map: Map<number, number>, key: number, by: number) => {
      const n = (map.get(key) ?? 0) + by;
      if (n > 0) map.set(key, n);
      else map.delete(key);
    };
    count(this.busyEndpoints, delivery.endpoint_id, 1);
    count(this.busyWorkspaces, delivery.workspace_id, 1);
    const request: Promise<void> = this.send(delivery).finally(() => {
      count(this.busyEndpoints, delivery.endpoint_id, -1);
      count(this.busyWorkspaces, delivery.workspace_id, -1);
      this.inFlight.delete(request);
      this.attemptsMade += 1;
      this.kick();
    });
    this.inFlight.add(request);
  }

  /**
   * Claims up to `limit` due deliveries, fairly: each enabled endpoint offers its oldest due
   * deliveries up to its free share (TIMEGATE_WEBHOOK_ENDPOINT_CONCURRENCY minus what it has in
   * flight here), each workspace at most half the pool, and the workspaces take turns (round-robin
   * by rank within the workspace, oldest first). One workspace's slow receiver therefore holds at
   * most its own share of the pool, never everyone's.
   */
  private async claim(limit: number): Promise<Claimed[]> {
    const { config, now } = this.deps;
    const at = now();
    const lease = new Date(at.getTime() + config.webhookTimeoutMs + 60_000);
    const workspaceCap = Math.max(1, Math.floor(config.webhookConcurrency / 2));
    const ints = (values: Iterable<number>) => `{${[...values].join(',')}}`;
    return this.deps.orm.em
      .fork()
      .getConnection()
      .execute<Claimed[]>(
        `with busy_endpoint as (select * from unnest(?::int[], ?::int[]) as b(endpoint_id, n)),
       busy_workspace as (select * from unnest(?::int[], ?::int[]) as b(workspace_id, n)),
       offered as (
         select d.id, w.workspace_id, d.next_attempt_at
         from webhook_endpoint w
         left join busy_endpoint be on be.endpoint_id = w.id
         cross join lateral (
           select d2.id, d2.next_attempt_at from webhook_delivery d2
           where d2.endpoint_id = w.id and d2.status = 'pending' and d2.next_attempt_at <= ?::timestamptz
           order by d2.next_attempt_at, d2.id
           limit greatest(0, ?::int - coalesce(be.n, 0))
           for update of d2 skip locked) d
         where w.enabled),
       ranked as (
         select o.id, o.next_attempt_at, row_number() over (partition by o.workspace_id order by o.next_attempt_at, o.id) as turn, coalesce(bw.n, 0) as busy
         from offered o left join busy_workspace bw on bw.workspace_id = o.workspace_id),
       picked as (
         select id from ranked where turn <= ?::int - busy order by turn, next_attempt_at, id limit ?),
       claimed as (
         update webhook_delivery d set next_attempt_at = ?::timestamptz, attempt_count = d.attempt_count + 1
         from picked where d.id = picked.id
         returning d.*)
       select c.id, c.endpoint_id, c.attempt_count, c.give_up_at, c.next_attempt_at as lease_until, w.url, w.secret, c.event_id,
              e.workspace_id, e.type, e.event_data as data, e.created_at, e.trace
       from claimed c join webhook_endpoint w on w.id = c.endpoint_id join ${eventRowHolding('e', 'c.event_id', { payload: true })}
       order by c.event_id`,
        [
          ints(this.busyEndpoints.keys()),
          ints(this.busyEndpoints.values()),
          ints(this.busyWorkspaces.keys()),
          ints(this.busyWorkspaces.values()),
          at,
          config.webhookEndpointConcurrency,
          workspaceCap,
          limit,
          lease,
        ],
      );
  }

  /**
   * One attempt, traced as `webhook.deliver`: a trace of its own, linked to the span that caused the
   * event; the POST carries this trace's `traceparent` so the receiver can continue it.
   */
  private send(delivery: Claimed): Promise<void> {
    return inSpan(
      'webhook.deliver',
      {
        root: true,
        kind: SpanKind.PRODUCER,
        links: linksTo([delivery.trace]),
        attributes: {
          'timegate.webhook.delivery_id': delivery.id,
          'timegate.webhook.endpoint_id': delivery.endpoint_id,
          'timegate.webhook.attempt': delivery.attempt_count,
          'timegate.event.type': delivery.type,
          'timegate.event.id': publicEventId(String(delivery.event_id)),
          'timegate.workspace_id': delivery.workspace_id,
        },
      },
      async (span) => {
        const outcome = await this.attempt(delivery);
        if (span) {
          if (outcome.statusCode !== null) span.setAttribute('http.response.status_code', outcome.statusCode);
          if (!outcome.succeeded) failSpan(span, new Error(outcome.error ?? outcome.kind));
        }
        await this.recordDurably(delivery, outcome);
      },
    );
  }

  private async attempt(delivery: Claimed): Promise<Outcome> {
    const { config, now } = this.deps;
    const id = publicEventId(String(delivery.event_id));
    const body = JSON.stringify({
      id,
      type: delivery.type,
      created_at: new Date(delivery.created_at).toISOString(),
      workspace_id: delivery.workspace_id,
      data: delivery.data,
    });
    const timestamp = Math.floor(now().getTime() / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Timegate-Webhooks/1',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(delivery.secret, id, timestamp, body),
    };
    injectTraceContext(headers);
    const started = performance.now();
    let outcome: Outcome;
    try {
      const response = await postWebhook(delivery.url, headers, body, { timeoutMs: config.webhookTimeoutMs, allowPrivate: config.webhookAllowPrivate });
      const succeeded = response.status >= 200 && response.status < 300;
      outcome = {
        statusCode: response.status,
        excerpt: response.excerpt,
        error: succeeded ? null : `HTTP ${response.status}`,
        durationMs: 0,
        succeeded,
        kind: succeeded ? 'success' : 'http_error',
      };
      if (response.status === 429 || response.status === 503) outcome.retryAfterMs = retryAfterMs(response.retryAfter, now());
    } catch (error) {
      const kind = error instanceof WebhookTimeout ? 'timeout' : 'network_error';
      outcome = { statusCode: null, excerpt: null, error: (error as Error).message || String(error), durationMs: 0, succeeded: false, kind };
    }
    outcome.durationMs = Math.round(performance.now() - started);
    this.deps.metrics?.webhookAttempts.inc({ outcome: outcome.kind });
    if (outcome.succeeded) {
      // Event to accepted delivery (the webhook SLI of docs/operations.md): a first attempt's delay is all ours.
      const seconds = Math.max(0, now().getTime() - new Date(delivery.created_at).getTime()) / 1000;
      this.deps.metrics?.webhookDelivery.observe({ attempt: delivery.attempt_count <= 1 ? 'first' : 'retry' }, seconds);
    }
    return outcome;
  }

  /**
   * Records a sent attempt. When that fails (the database unreachable: a failover in progress), the
   * record is tried again until the claim's lease nears its end: an attempt left unrecorded would be
   * sent again by whichever process claims the delivery after the lease, a duplicate at the receiver.
   */
  private async recordDurably(delivery: Claimed, outcome: Outcome): Promise<void> {
    const at = this.deps.now();
    for (let tries = 1; ; tries += 1) {
      try {
        await this.record(delivery, outcome, at, tries > 1);
        return;
      } catch (err) {
        // Any error is tried again within the lease: a transaction whose connection died mid-way
        // also fails as "Transaction query already complete", which names no connection error.
        const leaseLeft = new Date(delivery.lease_until).getTime() - this.deps.now().getTime();
        if (this.stopped || leaseLeft < 2 * RECORD_RETRY_MS) {
          this.deps.logger.error({ err, deliveryId: delivery.id }, 'recording a webhook attempt failed');
          return;
        }
        if (tries === 1) this.deps.logger.warn({ err, deliveryId: delivery.id }, 'recording a webhook attempt waits for the database');
        await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_MS));
      }
    }
  }

  /**
   * The attempt, the delivery's next state and the endpoint's failure streak, in one transaction.
   * `again`: an earlier try may have committed with its answer lost (the connection cut during a
   * failover); the attempt row of that try, stamped `at`, says so.
   */
  private async record(delivery: Claimed, outcome: Outcome, at: Date, again: boolean): Promise<void> {
    const { config } = this.deps;
    await this.deps.orm.em.fork().transactional(async (em) => {
      // Locks in the order a delete of the endpoint takes them (endpoint, then its deliveries and
      // attempts): recording an attempt while the endpoint is deleted waits or finds it gone, it
      // never deadlocks. FOR NO KEY UPDATE: this transaction updates the endpoint row below.
      const [endpoint] = await em.execute<{ id: number }[]>('select id from webhook_endpoint where id = ? for no key update', [delivery.endpoint_id]);
      if (!endpoint) return; // deleted meanwhile, with its deliveries: nothing left to record
      if (again) {
        const [recorded] = await em.execute<{ found: boolean }[]>(
          'select exists (select 1 from webhook_attempt where delivery_id = ? and attempted_at = ?) as found',
          [delivery.id, at],
        );
        if (recorded?.found) return;
      }
      await em.execute(
        `insert into webhook_attempt (delivery_id, attempted_at, status_code, duration_ms, response_excerpt, error, succeeded) values (?, ?, ?, ?, ?, ?, ?)`,
        [delivery.id, at, outcome.statusCode, outcome.durationMs, outcome.excerpt, outcome.error, outcome.succeeded],
      );
      if (outcome.succeeded) {
        await em.execute(`update webhook_delivery set status = 'succeeded', completed_at = ?, next_attempt_at = ? where id = ?`, [at, at, delivery.id]);
        await em.execute(`update webhook_endpoint set failing_since = null where id = ?`, [delivery.endpoint_id]);
        return;
      }
      if (outcome.statusCode === 410) {
        // 410 Gone: the receiver asks for no more (Standard Webhooks): the delivery ends and the
        // endpoint is disabled at once, until someone enables it again.
        await em.execute(`update webhook_delivery set status = 'failed', completed_at = ?, next_attempt_at = ? where id = ?`, [at, at, delivery.id]);
        await em.execute(
          `update webhook_endpoint set enabled = false, disabled_reason = ?, failing_since = coalesce(failing_since, ?::timestamptz), updated_at = ? where id = ? and enabled`,
          ['Disabled automatically: the endpoint answered 410 Gone (the receiver asked not to be sent more).', at, at, delivery.endpoint_id],
        );
        this.deps.logger.warn({ endpointId: delivery.endpoint_id }, 'webhook endpoint disabled: 410 Gone');
        return;
      }
      const giveUpAt = new Date(delivery.give_up_at).getTime();
      if (at.getTime() >= giveUpAt) {
        await em.execute(`update webhook_delivery set status = 'failed', completed_at = ?, next_attempt_at = ? where id = ?`, [at, at, delivery.id]);
      } else {
        // The receiver's Retry-After (429, 503) is honoured when later than our backoff, within the retry window.
        const backoff = at.getTime() + retryDelayMs(delivery.attempt_count, config.webhookRetryBaseSeconds);
        const asked = outcome.retryAfterMs === undefined ? backoff : at.getTime() + outcome.retryAfterMs;
        const next = new Date(Math.min(Math.max(backoff, asked), giveUpAt));
        await em.execute(`update webhook_delivery set next_attempt_at = ? where id = ?`, [next, delivery.id]);
      }
      const disableBefore = new Date(at.getTime() - config.webhookDisableAfterHours * 3_600_000);
      const reason = `Disabled automatically: every delivery attempt failed for ${config.webhookDisableAfterHours} hours (last error: ${outcome.error}).`;
      const [updated] = await em.execute<{ enabled: boolean }[]>(
        `update webhook_endpoint set
           failing_since = coalesce(failing_since, ?::timestamptz),
           enabled = enabled and not (coalesce(failing_since, ?::timestamptz) <= ?::timestamptz),
           disabled_reason = case when enabled and coalesce(failing_since, ?::timestamptz) <= ?::timestamptz then ? else disabled_reason end,
           updated_at = case when enabled and coalesce(failing_since, ?::timestamptz) <= ?::timestamptz then ?::timestamptz else updated_at end
         where id = ? returning enabled`,
        [at, at, disableBefore, at, disableBefore, reason, at, disableBefore, at, delivery.endpoint_id],
      );
      if (updated && !updated.enabled) this.deps.logger.warn({ endpointId: delivery.endpoint_id }, 'webhook endpoint disabled after continued failure');
    });
  }
}
