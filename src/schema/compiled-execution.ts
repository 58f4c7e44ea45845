// Compiled execution for /graphql. Apollo Server parses, validates and runs the plugins as usual;
// only the execution of a validated operation is handed to graphql-jit, which compiles each
// document once into a function (the REST routes already run this way). A list of 100 employees
// then costs one function call per field instead of graphql-js's generic walk over the selection.
//
// Apollo Server 4 exposes execution only through its gateway interface: a "gateway" whose load()
// returns the schema and an executor. This one serves our own schema, never a federated one.
import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { GraphQLError, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

/** Documents kept compiled, least recently used dropped first (clients send a bounded set of operations). */
const MAX_COMPILED = 500;

export function compiledExecutionGateway(schema: GraphQLSchema): GatewayInterface {
  const compiled = new Map<string, CompiledQuery>();
  const executor: GatewayExecutor = async (request) => {
    // The source text and the operation name identify the compiled function; variables vary per call.
    const key = `${request.operationName ?? ''}\n${request.source}`;
    let operation = compiled.get(key);
    if (operation) {
      compiled.delete(key);
    } else {
      const result = compileQuery(schema, request.document, request.operationName ?? undefined);
      if (!isCompiledQuery(result)) return result as ExecutionResult;
      operation = result;
      if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    }
    compiled.set(key, operation);
    const result = (await operation.query(undefined, request.context, request.request.variables ?? {})) as ExecutionResult;
    return result.errors ? { ...result, errors: result.errors.map(asGraphQLError) } : result;
  };
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
 * error formatting (and ours, src/schema/format-error.ts) expects graphql-js errors.
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
