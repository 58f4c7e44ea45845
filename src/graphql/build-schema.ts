import 'reflect-metadata';
import { createPubSub } from '@graphql-yoga/subscription';
import { printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { resolvers } from '../resolvers';
import { auditMutations } from './audit-mutations';
import { authChecker } from './auth-checker';
import { DateTimeISO } from '../schema/date-time-scalar';

/** Builds the executable GraphQL schema from the resolvers (the one schema both APIs run). */
export async function buildTimegateSchema(): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers,
    authChecker,
    scalarsMap: [{ type: Date, scalar: DateTimeISO }],
    // Input rules live in the services; class-validator is not used.
    validate: false,
    // type-graphql insists on a PubSub once there are subscriptions; ours use `subscribe` functions
    // over the outbox feed (replay + live), so this one never carries anything.
    pubSub: createPubSub(),
  });
  return auditMutations(schema);
}

/** The SDL committed as schema.graphql; a test fails when the two differ. */
export function schemaSdl(schema: GraphQLSchema): string {
  return `${printSchema(schema)}\n`;
}
