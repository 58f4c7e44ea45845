import { GraphQLSafeInt } from 'graphql-scalars';
import { ArgsType, Field, InputType, Int, registerEnumType } from 'type-graphql';
import { ObjectType } from './object-type';
import { WebhookDeliveryStatus } from '../entities/webhook-delivery.entity';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

registerEnumType(WebhookDeliveryStatus, {
  name: 'WebhookDeliveryStatus',
  description: '`pending` (waiting for its next attempt), `succeeded` (a 2xx answer), `failed` (retries exhausted).',
});

@ObjectType('WebhookEndpoint', { description: 'A URL that receives the events of the chosen types, signed per Standard Webhooks.' })
export class WebhookEndpointType {
  @Field(() => Int) id!: number;
  @Field() url!: string;
  @Field() description!: string;
  @Field(() => [String], {
    description:
      'attendance.created, door.opened, device.online, device.offline, door.action.updated, attendance.day.updated, door.alarm, door.alarm.cleared, access.denied, device.action.updated, device.clock_skew, lockdown.updated, linkage.triggered.',
  })
  eventTypes!: string[];
  @Field() enabled!: boolean;
  @Field(() => String, { nullable: true, description: 'Why the service disabled the endpoint (continued failure).' }) disabledReason?: string | null;
  @Field(() => String, { nullable: true, description: 'The signing secret (`whsec_...`): only in the create and rotate responses.' }) secret?: string | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('WebhookEndpointConnection')
export class WebhookEndpointConnection extends Connection(WebhookEndpointType) {}

@ObjectType('WebhookAttempt', { description: 'One HTTP request of a delivery.' })
export class WebhookAttemptType {
  @Field(() => GraphQLSafeInt, { description: 'A 64-bit id (see the `SafeInt` scalar).' }) id!: number;
  @Field() attemptedAt!: Date;
  @Field(() => Int, { nullable: true, description: 'Null when no response came (timeout, connection error, refused address).' }) statusCode?: number | null;
  @Field(() => Int) durationMs!: number;
  @Field(() => String, { nullable: true, description: 'The first 1 KB of the response body.' }) responseExcerpt?: string | null;
  @Field(() => String, { nullable: true }) error?: string | null;
  @Field() succeeded!: boolean;
}

@ObjectType('WebhookDelivery', { description: 'One event for one endpoint, with every attempt.' })
export class WebhookDeliveryType {
  @Field(() => GraphQLSafeInt, { description: 'A 64-bit id (see the `SafeInt` scalar).' }) id!: number;
  @Field(() => Int) endpointId!: number;
  @Field({ description: 'The `id` of the webhook body and the `webhook-id` header (`evt_...`).' }) eventId!: string;
  @Field() eventType!: string;
  @Field(() => WebhookDeliveryStatus) status!: WebhookDeliveryStatus;
  @Field(() => Int, { description: 'Attempts that ended, each listed in `attempts` (one in flight counts once it ends).' }) attemptCount!: number;
  @Field(() => Date, { nullable: true, description: 'When the next attempt is due (pending only).' }) nextAttemptAt?: Date | null;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) completedAt?: Date | null;
  @Field(() => [WebhookAttemptType]) attempts!: WebhookAttemptType[];
}

@ObjectType('WebhookDeliveryConnection')
export class WebhookDeliveryConnection extends Connection(WebhookDeliveryType) {}

@ArgsType()
export class WebhookDeliveriesArgs extends ConnectionArgs {
  @Field(() => Int) endpointId!: number;
}

@InputType()
export class CreateWebhookEndpointInput {
  @Bounded('url') @Field({ description: 'http:// or https://.' }) url!: string;
  @Bounded('eventType', { items: 'eventTypes' }) @Field(() => [String]) eventTypes!: string[];
  @Bounded('description') @Field({ nullable: true }) description?: string;
  @Field({ nullable: true, description: 'Default true.' }) enabled?: boolean;
}

@InputType()
export class UpdateWebhookEndpointInput {
  @Bounded('url') @Field({ nullable: true }) url?: string;
  @Bounded('eventType', { items: 'eventTypes' }) @Field(() => [String], { nullable: true }) eventTypes?: string[];
  @Bounded('description') @Field({ nullable: true }) description?: string;
  @Field({ nullable: true, description: 'true re-enables an endpoint the service disabled (and clears disabledReason).' }) enabled?: boolean;
}
