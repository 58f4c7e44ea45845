// Repeated queries over POST /graphql, answered without Apollo Server's request pipeline.
//
// Clients send the same few documents again and again (a dashboard's list, a poll); Apollo parses
// (from its cache), re-runs its plugin hooks, clones the context, negotiates and re-serialises for
// each of them, about 0.4 ms per request on the reference machine: a third of a 100-employee list.
// A query document that Apollo validated and began to execute (so it parsed, passed every
// validation rule and every plugin's `didResolveOperation` check) is remembered here; the same
// text sent again is executed directly by its compiled function (src/graphql/compiled-execution.ts)
// after the checks that depend on the request: the key (context), the cost with these variables,
// and unstorable strings in these variables.
//
// Only a clean success is answered here. Anything else (an unknown document, a mutation, a batch,
// extensions, an Accept header this path does not serve plainly, a refused key, a check that
// fails, a result with errors) goes on to Apollo, which answers it as it always did, with its error
// formatting and status codes. Queries read; running one again on Apollo's path changes nothing.
import { boundedCache } from '../kernel/cache';
import type { ApolloServerPlugin } from '@apollo/server';
import type { DocumentNode } from 'graphql';
import type { NextFunction, Request, Response } from 'express';
import type { CompiledOperations } from './compiled-execution';
import type { ContextFactory } from '../services/identity/request-context-factory';
import type { Metrics } from '../observability/metrics';
import type { costLimit } from './operation-limits';
import { unstorableInput } from './graphql-rules';

/** Documents remembered, least recently used dropped first. */
const MAX_REMEMBERED = 500;

/** Apollo's content type for each Accept value this path answers (no Accept: application/json). A Map: any header value is a safe key. */
const CONTENT_TYPES = new Map<string, string>([
  ['', 'application/json; charset=utf-8'],
  ['*/*', 'application/json; charset=utf-8'],
  ['application/json', 'application/json; charset=utf-8'],
  ['application/graphql-response+json', 'application/graphql-response+json; charset=utf-8'],
]);

interface Remembered {
  source: string;
  document: DocumentNode;
  operationName: string | null;
}

export class RepeatedQueries {
  private readonly remembered = boundedCache<string, Remembered>(MAX_REMEMBERED);

  constructor(
    private readonly deps: {
      operations: CompiledOperations;
      contextFactory: ContextFactory;
      costLimit: ReturnType<typeof costLimit>;
      metrics?: Metrics;
    },
  ) {}

  /** Apollo plugin: remembers each query document that reached execution (every check passed). */
  plugin(): ApolloServerPlugin {
    return {
      requestDidStart: async () => ({
        executionDidStart: async ({ request, document, operation }) => {
          if (operation.operation !== 'query' || typeof request.query !== 'string' || request.extensions) return;
          const key = keyOf(request.query, request.operationName);
          if (this.remembered.has(key)) return;
          this.remembered.set(key, { source: request.query, document, operationName: request.operationName ?? null });
        },
      }),
    };
  }

  /** Express handler in front of Apollo's (after the JSON body parser). */
  readonly handler = (req: Request, res: Response, next: NextFunction): void => {
    // A failure here (the database, say) is Apollo's to answer, like anything else not answered here.
    void this.answer(req, res)
      .catch(() => false)
      .then((answered) => {
        this.deps.metrics?.graphqlRequests.inc({ path: answered ? 'repeated' : 'apollo' });
        if (!answered && !res.headersSent) next();
      });
  };

  /** True when the request was answered here; false sends it on to Apollo. */
  private async answer(req: Request, res: Response): Promise<boolean> {
    const contentType = CONTENT_TYPES.get(req.headers.accept ?? '');
    const body: unknown = req.body;
    if (req.method !== 'POST' || !contentType || !isPlainRequest(body)) return false;
    const known = this.remembered.get(keyOf(body.query, body.operationName));
    if (!known) return false;
    const variables = body.variables ?? {};
    if (this.deps.costLimit(known.document, variables, known.operationName ?? undefined)) return false;
    if (unstorableInput(known.document, variables)) return false;
    let context;
    try {
      context = await this.deps.contextFactory({ authorization: req.headers.authorization, requestId: res.locals.requestId });
    } catch {
      return false;
    }
    const result = await this.deps.operations.execute(known, context, variables);
    if (result.errors || result.data == null) return false;
    res.status(200).setHeader('Content-Type', contentType);
    // Apollo's serialisation (the result object, then a newline), sent as its Express integration sends it.
    res.send(`${JSON.stringify({ data: result.data })}\n`);
    return true;
  }
}

function keyOf(query: string, operationName: string | null | undefined): string {
  return `${operationName ?? ''}\n${query}`;
}

/** `{ query, variables?, operationName? }` and nothing else (extensions, batches and GET go to Apollo). */
function isPlainRequest(body: unknown): body is { query: string; variables?: Record<string, unknown> | null; operationName?: string | null } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  for (const key in body) if (key !== 'query' && key !== 'variables' && key !== 'operationName') return false;
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== 'string') return false;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return false;
  return operationName == null || typeof operationName === 'string';
}
