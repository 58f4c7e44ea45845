import 'reflect-metadata';
import { createPubSub } from '@graphql-yoga/subscription';
import { printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { resolvers } from '../resolvers';
import { auditWrites } from './audit-middleware';
import { authChecker } from './auth-checker';

/** Builds the executable GraphQL schema from the resolvers (the one schema both APIs run). */
export async function buildTimegateSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers,
    authChecker,
    globalMiddlewares: [auditWrites],
    // Input rules live in the services; class-validator is not used.
    validate: false,
    // type-graphql insists on a PubSub once there are subscriptions; ours use `subscribe` functions
    // over the outbox feed (replay + live), so this one never carries anything.
    pubSub: createPubSub(),
  });
}

/** The SDL committed as schema.graphql; a test fails when the two differ. */
export function schemaSdl(schema: GraphQLSchema): string {
  return `${printSchema(schema)}\n`;
}
