// Sends due webhook deliveries. Claiming is one statement with `for update skip locked` that also
// pushes the row's due time past a lease, so with several processes each delivery is sent by one of
// them; if that process dies mid-request, the lease runs out and another sends it (at least once).
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { PeriodicJobs } from '../jobs/periodic-jobs';
import { publicEventId } from './event-types';
import type { Metrics } from '../observability/metrics';
import { postWebhook, WebhookTimeout } from './webhook-http';
import { signWebhook } from './webhook-signature';

interface Claimed {
  id: number;
  endpoint_id: number;
  attempt_count: number;
  give_up_at: Date;
  url: string;
  secret: string;
  event_id: string;
  workspace_id: number;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
}

interface Outcome {
  statusCode: number | null;
  excerpt: string | null;
  error: string | null;
  durationMs: number;
  succeeded: boolean;
  /** The label of timegate_webhook_attempts_total. */
  kind: 'success' | 'http_error' | 'timeout' | 'network_error';
}

const MAX_DELAY_MS = 12 * 3_600_000;

/** Exponential backoff with ±20% jitter: base, 2 x base, 4 x base, ... capped at 12 hours. */
export function retryDelayMs(attempt: number, baseSeconds: number, random = Math.random()): number {
  const delay = Math.min(baseSeconds * 1000 * 2 ** Math.max(0, attempt - 1), MAX_DELAY_MS);
  return Math.round(delay * (0.8 + 0.4 * random));
}

export class WebhookWorker {
  private chain: Promise<number> = Promise.resolve(0);
  private queued = false;
  private stopped = false;

  constructor(private readonly deps: { orm: MikroORM; config: Config; logger: Logger; now: () => Date; metrics?: Metrics }) {}

  /** The poll that picks up retries coming due runs on the process's job runner (failures show in /readyz). */
  registerJobs(jobs: PeriodicJobs): void {
    jobs.add('webhooks', this.deps.config.webhookPollMs, () => this.runOnce());
  }

  /** Schedules a run soon (coalesced: at most one run waits behind the current one). */
  kick(): void {
    if (this.stopped || this.queued) return;
    this.queued = true;
    this.runOnce().catch((err) => this.deps.logger.error({ err }, 'webhook delivery run failed'));
  }

  /**
   * Sends every delivery due now (by the injected clock), including retries that come due, until
   * none is left; runs of one process never overlap. Resolves with the number of attempts made.
   */
  runOnce(): Promise<number> {
    this.chain = this.chain.catch(() => 0).then(() => {
      this.queued = false;
      return this.drain();
    });
    return this.chain;
  }

  /** Stops taking deliveries; resolves when the requests in flight have finished and been recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.chain.catch(() => undefined);
  }

  private async drain(): Promise<number> {
    let attempts = 0;
    while (!this.stopped) {
      const claimed = await this.claim();
      if (claimed.length === 0) break;
      await Promise.all(claimed.map((delivery) => this.send(delivery)));
      attempts += claimed.length;
    }
    return attempts;
  }

  private async claim(): Promise<Claimed[]> {
    const { config, now } = this.deps;
    const at = now();
    const lease = new Date(at.getTime() + config.webhookTimeoutMs + 60_000);
    return this.deps.orm.em.fork().getConnection().execute<Claimed[]>(
      `with claimed as (
         update webhook_delivery d set next_attempt_at = ?::timestamptz, attempt_count = d.attempt_count + 1
         where d.id in (
           select d2.id from webhook_delivery d2 join webhook_endpoint w on w.id = d2.endpoint_id and w.enabled
           where d2.status = 'pending' and d2.next_attempt_at <= ?::timestamptz
           order by d2.next_attempt_at, d2.id limit ? for update of d2 skip locked)
         returning d.*)
       select c.id, c.endpoint_id, c.attempt_count, c.give_up_at, w.url, w.secret, e.id as event_id, e.workspace_id, e.type, e.data, e.created_at
       from claimed c join webhook_endpoint w on w.id = c.endpoint_id join event e on e.id = c.event_id
       order by c.event_id`,
      [lease, at, config.webhookConcurrency],
    );
  }

  private async send(delivery: Claimed): Promise<void> {
    const { config, now } = this.deps;
    const id = publicEventId(String(delivery.event_id));
    const body = JSON.stringify({ id, type: delivery.type, created_at: new Date(delivery.created_at).toISOString(), workspace_id: delivery.workspace_id, data: delivery.data });
    const timestamp = Math.floor(now().getTime() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Timegate-Webhooks/1',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(delivery.secret, id, timestamp, body),
    };
    const started = performance.now();
    let outcome: Outcome;
    try {
      const response = await postWebhook(delivery.url, headers, body, { timeoutMs: config.webhookTimeoutMs, allowPrivate: config.webhookAllowPrivate });
      const succeeded = response.status >= 200 && response.status < 300;
      outcome = { statusCode: response.status, excerpt: response.excerpt, error: succeeded ? null : `HTTP ${response.status}`, durationMs: 0, succeeded, kind: succeeded ? 'success' : 'http_error' };
    } catch (error) {
      const kind = error instanceof WebhookTimeout ? 'timeout' : 'network_error';
      outcome = { statusCode: null, excerpt: null, error: (error as Error).message || String(error), durationMs: 0, succeeded: false, kind };
    }
    outcome.durationMs = Math.round(performance.now() - started);
    this.deps.metrics?.webhookAttempts.inc({ outcome: outcome.kind });
    await this.record(delivery, outcome).catch((err) => this.deps.logger.error({ err, deliveryId: delivery.id }, 'recording a webhook attempt failed'));
  }

  /** The attempt, the delivery's next state and the endpoint's failure streak, in one transaction. */
  private async record(delivery: Claimed, outcome: Outcome): Promise<void> {
    const { config, now } = this.deps;
    const at = now();
    await this.deps.orm.em.fork().transactional(async (em) => {
      await em.execute(
        `insert into webhook_attempt (delivery_id, attempted_at, status_code, duration_ms, response_excerpt, error, succeeded) values (?, ?, ?, ?, ?, ?, ?)`,
        [delivery.id, at, outcome.statusCode, outcome.durationMs, outcome.excerpt, outcome.error, outcome.succeeded],
      );
      if (outcome.succeeded) {
        await em.execute(`update webhook_delivery set status = 'succeeded', completed_at = ?, next_attempt_at = ? where id = ?`, [at, at, delivery.id]);
        await em.execute(`update webhook_endpoint set failing_since = null where id = ?`, [delivery.endpoint_id]);
        return;
      }
      if (at.getTime() >= new Date(delivery.give_up_at).getTime()) {
        await em.execute(`update webhook_delivery set status = 'failed', completed_at = ?, next_attempt_at = ? where id = ?`, [at, at, delivery.id]);
      } else {
        const next = new Date(at.getTime() + retryDelayMs(delivery.attempt_count, config.webhookRetryBaseSeconds));
        await em.execute(`update webhook_delivery set next_attempt_at = ? where id = ?`, [next, delivery.id]);
      }
      const disableBefore = new Date(at.getTime() - config.webhookDisableAfterHours * 3_600_000);
      const reason = `Disabled automatically: every delivery attempt failed for ${config.webhookDisableAfterHours} hours (last error: ${outcome.error}).`;
      const [endpoint] = await em.execute<{ enabled: boolean }[]>(
        `update webhook_endpoint set
           failing_since = coalesce(failing_since, ?::timestamptz),
           enabled = enabled and not (coalesce(failing_since, ?::timestamptz) <= ?::timestamptz),
           disabled_reason = case when enabled and coalesce(failing_since, ?::timestamptz) <= ?::timestamptz then ? else disabled_reason end,
           updated_at = case when enabled and coalesce(failing_since, ?::timestamptz) <= ?::timestamptz then ?::timestamptz else updated_at end
         where id = ? returning enabled`,
        [at, at, disableBefore, at, disableBefore, reason, at, disableBefore, at, delivery.endpoint_id],
      );
      if (endpoint && !endpoint.enabled) this.deps.logger.warn({ endpointId: delivery.endpoint_id }, 'webhook endpoint disabled after continued failure');
    });
  }
}
