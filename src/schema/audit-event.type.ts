import { ArgsType, Field, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { GraphQLJSON } from 'graphql-scalars';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('AuditEvent', { description: 'One write made through the API.' })
export class AuditEventType {
  @Field(() => String, { description: 'Increasing id (a 64-bit integer as a string).' }) id!: string;
  @Field(() => Int, { nullable: true, description: 'The key that made the change (null: the operator key or a console session).' }) apiKeyId?: number | null;
  @Field(() => String, {
    nullable: true,
    description: "The person who made the change in a console session (single sign-on): the provider's subject (`sub`); null for API keys.",
  })
  actorSubject?: string | null;
  @Field(() => String, { nullable: true, description: "That person's email at sign-in; null for API keys." }) actorEmail?: string | null;
  @Field({ description: 'The mutation, e.g. `createEmployee` (REST routes run mutations too).' }) operation!: string;
  @Field(() => GraphQLJSON, { description: 'The arguments, truncated to 4 KB.' }) arguments!: unknown;
  @Field({ description: '`ok`, or the error code the caller got.' }) outcome!: string;
  @Field({ description: 'The id of the HTTP request that made the change (the `x-request-id` of its answer and of the logs).' }) requestId!: string;
  @Field({ description: 'When the audit event was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
}

@ObjectType('AuditEventConnection', {
  description:
    'A page of audit events: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class AuditEventConnection extends Connection(AuditEventType) {}

@ArgsType()
export class AuditEventsArgs extends ConnectionArgs {
  @Bounded('operation') @Field({ nullable: true, description: 'Only this mutation.' }) operation?: string;
}
