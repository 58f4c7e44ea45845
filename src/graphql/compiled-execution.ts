// Compiled execution for /graphql. Apollo Server parses, validates and runs the plugins as usual;
// only the execution of a validated operation is handed to graphql-jit, which compiles each
// document once into a function (the REST routes already run this way). A list of 100 employees
// then costs one function call per field instead of graphql-js's generic walk over the selection.
//
// Apollo Server 4 exposes execution only through its gateway interface: a "gateway" whose load()
// returns the schema and an executor. This one serves our own schema, never a federated one.
import { boundedCache } from '../kernel/cache';
import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { RequestContext } from '../context/request-context';
import { inGraphQLSpan, operationOf, tracingEnabled } from '../observability/tracing';

/** Documents kept compiled, least recently used dropped first (clients send a bounded set of operations). */
const MAX_COMPILED = 500;

/**
 * The compiled functions of validated documents, shared by Apollo's executor and the repeated-query
 * path (src/graphql/repeated-queries.ts). Only ever given documents that passed validation.
 */
export class CompiledOperations {
  private readonly compiled = boundedCache<string, CompiledQuery>(MAX_COMPILED);

  constructor(private readonly schema: GraphQLSchema) {}

  async execute(
    operation: { source: string; document: DocumentNode; operationName?: string | null },
    context: RequestContext,
    variables: Record<string, unknown>,
  ): Promise<ExecutionResult> {
    // The source text and the operation name identify the compiled function; variables vary per call.
    const key = `${operation.operationName ?? ''}\n${operation.source}`;
    let compiled = this.compiled.get(key);
    if (!compiled) {
      const result = compileQuery(this.schema, operation.document, operation.operationName ?? undefined);
      if (!isCompiledQuery(result)) return result as ExecutionResult;
      compiled = result;
      this.compiled.set(key, compiled);
    }
    const run = compiled;
    const result = (
      tracingEnabled()
        ? await inGraphQLSpan(operationOf(operation.document, operation.operationName), async () => run.query(undefined, context, variables))
        : await compiled.query(undefined, context, variables)
    ) as ExecutionResult;
    return result.errors ? { ...result, errors: result.errors.map(asGraphQLError) } : result;
  }
}

export function compiledExecutionGateway(schema: GraphQLSchema, operations: CompiledOperations): GatewayInterface {
  const executor: GatewayExecutor = (request) =>
    operations.execute(
      { source: request.source, document: request.document, operationName: request.operationName },
      request.context as unknown as RequestContext,
      request.request.variables ?? {},
    );
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => undefined;
    },
    load: async () => ({ executor }),
    stop: async () => undefined,
  };
}

/**
 * graphql-jit reports errors with its own error class, whose `extensions` may be missing; Apollo's
 * error formatting (and ours, src/graphql/format-error.ts) expects graphql-js errors.
 */
function asGraphQLError(error: GraphQLError): GraphQLError {
  if (error instanceof GraphQLError && error.extensions) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError ?? undefined,
    extensions: error.extensions ?? {},
  });
}
