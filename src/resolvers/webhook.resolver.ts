import { GraphQLSafeInt } from 'graphql-scalars';
import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { WebhookEndpoint } from '../entities';
import { publicEventId } from '../events/event-types';
import { ConnectionArgs, pageRequest, toConnection } from '../schema/connection';
import {
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
  WebhookDeliveriesArgs,
  WebhookDeliveryConnection,
  WebhookDeliveryType,
  WebhookEndpointConnection,
  WebhookEndpointType,
} from '../schema/webhook.type';
import type { RequestContext } from '../context/request-context';
import * as webhooks from '../services/webhooks/webhook.service';

/** The secret leaves the service only in create and rotate answers. */
const endpointOut = (endpoint: WebhookEndpoint & { secretOnce?: string }): WebhookEndpointType => ({ ...endpoint, secret: endpoint.secretOnce ?? null });

const deliveryOut = (delivery: webhooks.DeliveryView): WebhookDeliveryType => ({
  ...delivery,
  eventId: publicEventId(String(delivery.eventId)),
  nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt : null,
});

/** Webhooks receive every event of the workspace, so managing and reading them takes `admin`. */
@Resolver(() => WebhookEndpointType)
export class WebhookResolver {
  @Authorized('admin')
  @Query(() => WebhookEndpointConnection, { description: "The workspace's webhook endpoints, a page at a time (`first`, `after`)." })
  async webhookEndpoints(@Ctx() ctx: RequestContext, @Args() page: ConnectionArgs) {
    const result = await webhooks.listWebhookEndpoints(ctx, pageRequest(page));
    return toConnection({ ...result, items: result.items.map(endpointOut) });
  }

  @Authorized('admin')
  @Query(() => WebhookEndpointType, { description: 'The webhook endpoint with this id; one of another workspace, or none, answers `not_found`.' })
  async webhookEndpoint(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The webhook endpoint's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return endpointOut(await webhooks.getWebhookEndpoint(ctx, id));
  }

  @Authorized('admin')
  @Query(() => WebhookDeliveryConnection, { description: 'Deliveries of an endpoint, newest first, with every attempt.' })
  async webhookDeliveries(@Ctx() ctx: RequestContext, @Args() { endpointId, ...page }: WebhookDeliveriesArgs) {
    const result = await webhooks.listWebhookDeliveries(ctx, endpointId, pageRequest(page));
    return toConnection({ ...result, items: result.items.map(deliveryOut) });
  }

  @Authorized('admin')
  @Mutation(() => WebhookEndpointType, { description: 'Creates an endpoint; its `secret` is in this response only.' })
  async createWebhookEndpoint(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateWebhookEndpointInput,
  ) {
    return endpointOut(await webhooks.createWebhookEndpoint(ctx, input));
  }

  @Authorized('admin')
  @Mutation(() => WebhookEndpointType, {
    description:
      'Changes a webhook endpoint and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing changes.',
  })
  async updateWebhookEndpoint(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The webhook endpoint's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateWebhookEndpointInput,
  ) {
    return endpointOut(await webhooks.updateWebhookEndpoint(ctx, id, input));
  }

  @Authorized('admin')
  @Mutation(() => WebhookEndpointType, { description: 'Deletes the endpoint and its delivery history.' })
  async deleteWebhookEndpoint(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The webhook endpoint's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return endpointOut(await webhooks.deleteWebhookEndpoint(ctx, id));
  }

  @Authorized('admin')
  @Mutation(() => WebhookEndpointType, { description: 'Replaces the signing secret at once; the new `secret` is in this response only.' })
  async rotateWebhookSecret(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The webhook endpoint's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return endpointOut(await webhooks.rotateWebhookSecret(ctx, id));
  }

  @Authorized('admin')
  @Mutation(() => WebhookDeliveryType, { description: 'Queues a `webhook.test` event for this endpoint; follow it with webhookDeliveries.' })
  async testWebhookEndpoint(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The webhook endpoint's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return deliveryOut(await webhooks.testWebhookEndpoint(ctx, id));
  }

  @Authorized('admin')
  @Mutation(() => WebhookDeliveryType, { description: 'Sends a delivery again (same event id), with a new retry window.' })
  async redeliverWebhook(
    @Ctx() ctx: RequestContext,
    @Arg('deliveryId', () => GraphQLSafeInt, { description: 'The id of the delivery to send again; a disabled endpoint refuses it (`endpoint_disabled`).' })
    deliveryId: number,
  ) {
    return deliveryOut(await webhooks.redeliverWebhook(ctx, deliveryId));
  }
}
