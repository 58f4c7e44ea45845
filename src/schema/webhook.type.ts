import { GraphQLSafeInt } from 'graphql-scalars';
import { ArgsType, Field, InputType, Int, registerEnumType } from 'type-graphql';
import { ObjectType } from './object-type';
import { WebhookDeliveryStatus } from '../entities/webhook-delivery.entity';
import { Connection, ConnectionArgs } from './connection';
import { Bounded, maxChars } from './bounds';

registerEnumType(WebhookDeliveryStatus, {
  name: 'WebhookDeliveryStatus',
  description: '`pending` (waiting for its next attempt), `succeeded` (a 2xx answer), `failed` (retries exhausted).',
  valuesConfig: {
    pending: { description: 'Waiting for its next attempt.' },
    succeeded: { description: 'The endpoint answered 2xx.' },
    failed: { description: 'Every retry failed; redeliverWebhook sends it again.' },
  },
});

@ObjectType('WebhookEndpoint', { description: 'A URL that receives the events of the chosen types, signed per Standard Webhooks.' })
export class WebhookEndpointType {
  @Field(() => Int, { description: "The webhook endpoint's id, given by the service when it was created and never reused." }) id!: number;
  @Field({ description: 'The http(s) URL the events are POSTed to.' }) url!: string;
  @Field({ description: 'What the endpoint is for, as its owner wrote it.' }) description!: string;
  @Field(() => [String], {
    description:
      'The event types sent to the endpoint: attendance.created, door.opened, device.online, device.offline, door.action.updated, attendance.day.updated, door.alarm, door.alarm.cleared, access.denied, device.action.updated, device.clock_skew, lockdown.updated, linkage.triggered.',
  })
  eventTypes!: string[];
  @Field({ description: 'Whether events are sent; a disabled endpoint gets none and keeps its deliveries.' }) enabled!: boolean;
  @Field(() => String, { nullable: true, description: 'Why the service disabled the endpoint (continued failure).' }) disabledReason?: string | null;
  @Field(() => String, { nullable: true, description: 'The signing secret (`whsec_...`): only in the create and rotate responses.' }) secret?: string | null;
  @Field({ description: 'When the webhook endpoint was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the webhook endpoint was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('WebhookEndpointConnection', {
  description:
    'A page of webhook endpoints: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class WebhookEndpointConnection extends Connection(WebhookEndpointType) {}

@ObjectType('WebhookAttempt', { description: 'One HTTP request of a delivery.' })
export class WebhookAttemptType {
  @Field(() => GraphQLSafeInt, { description: 'A 64-bit id (see the `SafeInt` scalar).' }) id!: number;
  @Field({ description: 'When the attempt was made (an ISO 8601 date-time in UTC).' }) attemptedAt!: Date;
  @Field(() => Int, { nullable: true, description: 'Null when no response came (timeout, connection error, refused address).' }) statusCode?: number | null;
  @Field(() => Int, { description: 'How long the endpoint took to answer, in milliseconds.' }) durationMs!: number;
  @Field(() => String, { nullable: true, description: 'The first 1 KB of the response body.' }) responseExcerpt?: string | null;
  @Field(() => String, { nullable: true, description: 'Why the attempt failed (a timeout, a refused connection); null when an answer came.' }) error?:
    string | null;
  @Field({ description: 'Whether the endpoint answered 2xx.' }) succeeded!: boolean;
}

@ObjectType('WebhookDelivery', { description: 'One event for one endpoint, with every attempt.' })
export class WebhookDeliveryType {
  @Field(() => GraphQLSafeInt, { description: 'A 64-bit id (see the `SafeInt` scalar).' }) id!: number;
  @Field(() => Int, { description: 'The id of the endpoint the delivery is for.' }) endpointId!: number;
  @Field({ description: 'The `id` of the webhook body and the `webhook-id` header (`evt_...`).' }) eventId!: string;
  @Field({ description: 'The type of the event delivered (`punch.created`...).' }) eventType!: string;
  @Field(() => WebhookDeliveryStatus, { description: '`pending`, `succeeded` or `failed`.' }) status!: WebhookDeliveryStatus;
  @Field(() => Int, { description: 'Attempts that ended, each listed in `attempts` (one in flight counts once it ends).' }) attemptCount!: number;
  @Field(() => Date, { nullable: true, description: 'When the next attempt is due (pending only).' }) nextAttemptAt?: Date | null;
  @Field({ description: 'When the webhook delivery was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When it succeeded or failed for good (an ISO 8601 date-time in UTC); null while pending.' })
  completedAt?: Date | null;
  @Field(() => [WebhookAttemptType], { description: 'Each attempt, oldest first.' }) attempts!: WebhookAttemptType[];
}

@ObjectType('WebhookDeliveryConnection', {
  description:
    'A page of webhook deliveries: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class WebhookDeliveryConnection extends Connection(WebhookDeliveryType) {}

@ArgsType()
export class WebhookDeliveriesArgs extends ConnectionArgs {
  @Field(() => Int, { description: 'Only the deliveries of this endpoint (its id).' }) endpointId!: number;
}

@InputType({ description: 'The fields of a new webhook endpoint.' })
export class CreateWebhookEndpointInput {
  @Bounded('url') @Field({ description: 'http:// or https://.' }) url!: string;
  @Bounded('eventType', { items: 'eventTypes' })
  @Field(() => [String], {
    description: `The event types to send (\`punch.created\`...), ${maxChars('eventType')} each; an unknown one is refused (\`unknown_event_type\`).`,
  })
  eventTypes!: string[];
  @Bounded('description')
  @Field({ nullable: true, description: `What the endpoint is for: optional, ${maxChars('description')} (\`too_long\`).` })
  description?: string;
  @Field({ nullable: true, description: 'Default true.' }) enabled?: boolean;
}

@InputType({ description: "The new values of a webhook endpoint's fields; a field left out (where it may be) keeps its value." })
export class UpdateWebhookEndpointInput {
  @Bounded('url')
  @Field({
    nullable: true,
    description: `The URL to POST events to, ${maxChars('url')}; an absolute http(s) URL without credentials (\`invalid_url\`) that does not reach a private address (\`private_address\`). Left out: unchanged.`,
  })
  url?: string;
  @Bounded('eventType', { items: 'eventTypes' })
  @Field(() => [String], {
    nullable: true,
    description: `The event types to send, ${maxChars('eventType')} each; an unknown one is refused (\`unknown_event_type\`). Left out: unchanged.`,
  })
  eventTypes?: string[];
  @Bounded('description')
  @Field({ nullable: true, description: `What the endpoint is for, ${maxChars('description')} (\`too_long\`). Left out: unchanged.` })
  description?: string;
  @Field({ nullable: true, description: 'true re-enables an endpoint the service disabled (and clears disabledReason).' }) enabled?: boolean;
}
