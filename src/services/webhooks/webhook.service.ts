// Webhook endpoints and their deliveries. Sending is the worker's job (src/events/webhook-worker);
// here: the rules for targets, event types and secrets, the test event and manual redelivery.
import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../entities';
import { WebhookDeliveryStatus } from '../../entities/webhook-delivery.entity';
import { DomainError } from '../../errors/domain-error';
import { AddressRefused, hostOf, resolveTarget } from '../../events/address-policy';
import { eventRowHolding } from '../../events/event-batch';
import { EVENT_TYPES, TEST_EVENT_TYPE, type EventType } from '../../events/event-types';
import { recordEvents, WEBHOOK_CHANNEL } from '../../events/outbox';
import { generateWebhookSecret } from '../../events/webhook-signature';
import { workspaceOf, type RequestContext, withEm } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { FieldChecker, limits } from '../common/validation';

export interface WebhookEndpointInput {
  url?: string | null;
  eventTypes?: string[] | null;
  description?: string | null;
  /** Setting true again after an automatic disable clears `disabledReason` and the failure streak. */
  enabled?: boolean | null;
}

/** An endpoint as created or rotated: the secret is in this result only. */
export type EndpointWithSecret = WebhookEndpoint & { secretOnce: string };

export type DeliveryView = WebhookDelivery & { eventType: string; attempts: WebhookAttempt[] };

async function checkInput(ctx: RequestContext, input: WebhookEndpointInput, creating: boolean): Promise<void> {
  const check = new FieldChecker();
  check.text('url', input.url, { max: limits.url, required: creating });
  check.text('description', input.description, { max: limits.description });
  if (creating && (input.eventTypes == null || input.eventTypes.length === 0)) check.add('eventTypes', 'required', 'Give at least one event type.');
  if (input.eventTypes != null) {
    if (input.eventTypes.length === 0) check.add('eventTypes', 'required', 'Give at least one event type.');
    for (const type of input.eventTypes) {
      if (!EVENT_TYPES.includes(type as EventType))
        check.add('eventTypes', 'unknown_event_type', `Unknown event type "${type}"; the types are ${EVENT_TYPES.join(', ')}.`);
    }
  }
  if (input.url != null && check.problems.every((p) => p.field !== 'url')) {
    const problem = await urlProblem(input.url, ctx.config.webhookAllowPrivate);
    if (problem) check.add('url', problem.code, problem.message);
  }
  check.done();
}

/** http/https only; without TIMEGATE_WEBHOOK_ALLOW_PRIVATE, no private, loopback or link-local target. */
async function urlProblem(raw: string, allowPrivate: boolean): Promise<{ code: string; message: string } | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { code: 'invalid_url', message: 'url must be an absolute http:// or https:// URL.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { code: 'invalid_url', message: `url must use http or https, not ${url.protocol.replace(':', '')}.` };
  if (url.username || url.password) return { code: 'invalid_url', message: 'url must not contain credentials; authenticate the requests with the signature.' };
  if (allowPrivate) return null;
  try {
    await resolveTarget(hostOf(url), false);
    return null;
  } catch (error) {
    if (error instanceof AddressRefused) return { code: 'private_address', message: `url must reach a public address: ${error.message}.` };
    return { code: 'unresolvable_host', message: `url's host ${hostOf(url)} cannot be resolved.` };
  }
}

async function findEndpoint(ctx: RequestContext, id: number): Promise<WebhookEndpoint> {
  const endpoint = await ctx.em.findOne(WebhookEndpoint, { id, workspaceId: workspaceOf(ctx) });
  if (!endpoint) throw DomainError.notFound('Webhook endpoint', id);
  return endpoint;
}

const withSecret = (endpoint: WebhookEndpoint): EndpointWithSecret => Object.assign(endpoint, { secretOnce: endpoint.secret });

export async function createWebhookEndpoint(ctx: RequestContext, input: WebhookEndpointInput): Promise<EndpointWithSecret> {
  const workspaceId = workspaceOf(ctx);
  await checkInput(ctx, input, true);
  const now = ctx.now();
  const endpoint = ctx.em.create(WebhookEndpoint, {
    workspaceId,
    url: input.url!,
    description: input.description ?? '',
    eventTypes: [...new Set(input.eventTypes!)],
    secret: generateWebhookSecret(),
    enabled: input.enabled ?? true,
    createdAt: now,
    updatedAt: now,
  } as WebhookEndpoint);
  ctx.em.persist(endpoint);
  await ctx.em.flush();
  return withSecret(endpoint);
}

export async function listWebhookEndpoints(ctx: RequestContext, page: PageRequest): Promise<Page<WebhookEndpoint>> {
  const [items, totalCount] = await ctx.em.findAndCount(
    WebhookEndpoint,
    { workspaceId: workspaceOf(ctx) },
    { orderBy: { id: 'asc' }, offset: page.offset, limit: page.limit },
  );
  return { items, totalCount, offset: page.offset };
}

export const getWebhookEndpoint = findEndpoint;

export async function updateWebhookEndpoint(ctx: RequestContext, id: number, input: WebhookEndpointInput): Promise<WebhookEndpoint> {
  const endpoint = await findEndpoint(ctx, id);
  await checkInput(ctx, input, false);
  if (input.url != null) endpoint.url = input.url;
  if (input.description != null) endpoint.description = input.description;
  if (input.eventTypes != null) endpoint.eventTypes = [...new Set(input.eventTypes)];
  if (input.enabled != null) {
    if (input.enabled && !endpoint.enabled) {
      endpoint.disabledReason = null;
      endpoint.failingSince = null;
    }
    endpoint.enabled = input.enabled;
  }
  endpoint.updatedAt = ctx.now();
  await ctx.em.flush();
  return endpoint;
}

/** Deletes the endpoint with its deliveries and their attempts. */
export async function deleteWebhookEndpoint(ctx: RequestContext, id: number): Promise<WebhookEndpoint> {
  const endpoint = await findEndpoint(ctx, id);
  await ctx.em.nativeDelete(WebhookEndpoint, { id: endpoint.id });
  return endpoint;
}

/** A new secret replaces the old one at once (the next attempt is signed with it). */
export async function rotateWebhookSecret(ctx: RequestContext, id: number): Promise<EndpointWithSecret> {
  const endpoint = await findEndpoint(ctx, id);
  endpoint.secret = generateWebhookSecret();
  endpoint.updatedAt = ctx.now();
  await ctx.em.flush();
  return withSecret(endpoint);
}

/** Queues a `webhook.test` event for this endpoint only; the worker sends it like any delivery. */
export async function testWebhookEndpoint(ctx: RequestContext, id: number): Promise<DeliveryView> {
  const endpoint = await findEndpoint(ctx, id);
  // A disabled endpoint gets no deliveries, a test neither (docs/events.md).
  if (!endpoint.enabled) throw DomainError.field('id', 'endpoint_disabled', `Webhook endpoint ${endpoint.id} is disabled: enable it first.`);
  const [eventId] = await ctx.em.transactional((em) =>
    recordEvents(
      withEm(ctx, em),
      [{ workspaceId: endpoint.workspaceId, type: TEST_EVENT_TYPE, data: { endpoint_id: endpoint.id, message: 'A test event sent from Timegate.' } }],
      { onlyEndpointId: endpoint.id },
    ),
  );
  const delivery = await ctx.em.findOneOrFail(WebhookDelivery, { eventId: eventId!, endpointId: endpoint.id });
  return (await views(ctx, [delivery]))[0]!;
}

/** Newest first, each with its attempts (oldest first). */
export async function listWebhookDeliveries(ctx: RequestContext, endpointId: number, page: PageRequest): Promise<Page<DeliveryView>> {
  const endpoint = await findEndpoint(ctx, endpointId);
  const [items, totalCount] = await ctx.em.findAndCount(
    WebhookDelivery,
    { endpointId: endpoint.id },
    { orderBy: { id: 'desc' }, offset: page.offset, limit: page.limit },
  );
  return { items: await views(ctx, items), totalCount, offset: page.offset };
}

/**
 * Sends the delivery again as soon as the worker runs (same event id, so receivers can de-duplicate),
 * whatever its state, with a new retry window.
 */
export async function redeliverWebhook(ctx: RequestContext, deliveryId: number): Promise<DeliveryView> {
  const delivery = await ctx.em.findOne(WebhookDelivery, { id: deliveryId, workspaceId: workspaceOf(ctx) });
  if (!delivery) throw DomainError.notFound('Webhook delivery', deliveryId);
  const endpoint = await findEndpoint(ctx, delivery.endpointId);
  if (!endpoint.enabled) throw DomainError.field('endpointId', 'endpoint_disabled', `Webhook endpoint ${endpoint.id} is disabled: enable it first.`);
  const now = ctx.now();
  // Every column written, not a flush of those that differ from the row as read: a delivery read
  // `pending` that a worker completed meanwhile would keep `succeeded` (unchanged from `pending` as
  // far as the flush knew) and the redelivery asked for would never be sent.
  await ctx.em.execute('update webhook_delivery set status = ?, next_attempt_at = ?, give_up_at = ?, completed_at = null where id = ?', [
    WebhookDeliveryStatus.pending,
    now,
    new Date(now.getTime() + ctx.config.webhookRetryHours * 3_600_000),
    delivery.id,
  ]);
  await ctx.em.refresh(delivery);
  // Wake the webhook workers of every process.
  await ctx.em.execute("select pg_notify(?, '')", [WEBHOOK_CHANNEL]);
  return (await views(ctx, [delivery]))[0]!;
}

async function views(ctx: RequestContext, deliveries: WebhookDelivery[]): Promise<DeliveryView[]> {
  if (deliveries.length === 0) return [];
  const ids = deliveries.map((d) => d.id);
  const attempts = await ctx.em.find(WebhookAttempt, { deliveryId: { $in: ids } }, { orderBy: { id: 'asc' } });
  const types = await ctx.em.execute<{ id: string; type: string }[]>(
    `select d.id, e.type from webhook_delivery d join ${eventRowHolding('e', 'd.event_id', { payload: false })} where d.id in (${ids.map(() => '?').join(', ')})`,
    ids,
  );
  // node-pg reads the 64-bit id as a string.
  const typeOf = new Map(types.map((t) => [Number(t.id), t.type]));
  // A copy, not the managed entity: `attemptCount` here counts the attempts that ended (those listed),
  // while the row's counter also counts one a worker has started (it drives the backoff) and must
  // never be flushed back with the listed number.
  return deliveries.map((d) => {
    const listed = attempts.filter((a) => a.deliveryId === d.id);
    return { ...d, attemptCount: listed.length, eventType: typeOf.get(d.id) ?? '', attempts: listed };
  });
}

/**
 * How long, in seconds, the oldest due delivery of an enabled endpoint has waited for its attempt
 * (the operations gauge timegate_webhook_backlog_seconds); 0 when none waits. A delivery being
 * sent is not due (its claim moved its due time past the lease), nor is one waiting for a retry.
 */
export async function webhookBacklogSeconds(em: EntityManager, now: Date): Promise<number> {
  const [row] = await em.execute<{ seconds: number | null }[]>(
    `select extract(epoch from (?::timestamptz - min(d.next_attempt_at)))::float8 as seconds
     from webhook_endpoint w cross join lateral (
       select d.next_attempt_at from webhook_delivery d
       where d.endpoint_id = w.id and d.status = 'pending' and d.next_attempt_at <= ?::timestamptz
       order by d.next_attempt_at limit 1) d
     where w.enabled`,
    [now, now],
  );
  return Math.max(0, row?.seconds ?? 0);
}
