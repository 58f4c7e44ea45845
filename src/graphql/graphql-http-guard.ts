// What POST/GET /graphql must look like before Apollo Server sees it. Apollo refuses the same
// requests itself, but with its own code (`BAD_REQUEST`), a 400 where the REST surface answers 415,
// and without our request id; checked here, they get the codes of docs/errors.md in the GraphQL shape.
import type { NextFunction, Request, Response } from 'express';
import { GraphQLError } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { DomainError } from '../errors/domain-error';
import { sendError } from '../errors/error-response';
import { statusOf } from '../errors/error-codes';
import { isDatabaseUnavailable } from '../errors/database-unavailable';
import type { RequestContext } from '../context/request-context';
import { documentNestsDeeperThan, jsonNestsDeeperThan } from '../kernel/nesting';
import { nestingLimits, nestingTooDeep } from '../services/common/input-limits';
import { documentTooDeep } from './graphql-rules';

const ALLOWED_METHODS = 'GET, POST';
/** Headers a browser cannot send cross-site without a CORS preflight (Apollo's CSRF rule). */
const PREFLIGHT_HEADERS = ['apollo-require-preflight', 'x-apollo-operation-name'];
/** Content types an HTML form can send cross-site without a preflight. */
const SIMPLE_CONTENT_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\b/i;

export function graphqlHttpGuard() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const requestId = res.locals.requestId as string;
    if (req.method === 'OPTIONS') return next();
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.setHeader('Allow', ALLOWED_METHODS);
      return sendError(res, new DomainError('method_not_allowed', `${req.method} is not allowed on /graphql; it allows ${ALLOWED_METHODS}.`), requestId);
    }
    const contentType = req.headers['content-type'] ?? '';
    if (req.method === 'POST' && !/^application\/json\b/i.test(contentType)) {
      return sendError(res, new DomainError('unsupported_media_type', 'Send the GraphQL request as JSON with Content-Type: application/json.'), requestId);
    }
    // A GET carries no body; without a non-simple content type or a preflight header, a page on
    // another site could make a signed-in browser send it (the console's session cookie).
    const preflighted = PREFLIGHT_HEADERS.some((name) => (req.headers[name] ?? '') !== '');
    if (req.method === 'GET' && !preflighted && (contentType === '' || SIMPLE_CONTENT_TYPES.test(contentType))) {
      return sendError(
        res,
        new DomainError(
          'csrf_prevented',
          'A GET request to /graphql must carry an `apollo-require-preflight` or `x-apollo-operation-name` header, or Content-Type: application/json.',
        ),
        requestId,
      );
    }
    next();
  };
}

/**
 * After the body is parsed (a POST body nested too deep was refused from its bytes already): a GET's
 * `variables` and `extensions` (JSON in the query string) nested deeper than `nestingLimits.json`, and
 * a document nested deeper than `nestingLimits.document`, are refused before Apollo parses them:
 * graphql-js parses documents, and coerces variables, by recursion.
 */
export function graphqlNestingGuard() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const requestId = res.locals.requestId as string;
    const source = (req.method === 'GET' ? req.query : req.body) as Record<string, unknown> | undefined;
    if (source === null || typeof source !== 'object' || Array.isArray(source)) return next();
    if (req.method === 'GET') {
      for (const name of ['variables', 'extensions']) {
        const text = source[name];
        if (typeof text === 'string' && jsonNestsDeeperThan(text, nestingLimits.json))
          return sendError(res, nestingTooDeep(`The ${name} parameter`), requestId);
      }
    }
    if (typeof source.query === 'string' && documentNestsDeeperThan(source.query, nestingLimits.document)) return sendError(res, documentTooDeep(), requestId);
    next();
  };
}

/**
 * Apollo plugin: subscriptions run over graphql-ws on the same path; a subscription document sent
 * over HTTP is refused before it runs (Apollo would execute it as a query and fail inside), and every
 * error body over HTTP names the request id, as errors answered before GraphQL runs already do.
 */
export function graphqlHttpErrorsPlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation !== 'subscription') return;
          throw new GraphQLError('Subscriptions run over WebSocket (graphql-ws) on /graphql; POST and GET carry queries and mutations.', {
            extensions: { code: 'unsupported_operation', http: { status: statusOf('unsupported_operation') } },
          });
        },
        // An unexpected error becomes `internal_error` (src/graphql/format-error.ts); the log keeps what it was.
        async didEncounterErrors({ errors, contextValue }) {
          for (const error of errors) {
            const original = error.originalError;
            if (!original || original instanceof GraphQLError || original instanceof DomainError || isDatabaseUnavailable(original)) continue;
            contextValue.logger.error({ err: original, path: error.path }, 'unexpected GraphQL error');
          }
        },
        async willSendResponse({ response, contextValue }) {
          const requestId = contextValue.requestId;
          if (!requestId || response.body.kind !== 'single' || !response.body.singleResult.errors) return;
          response.body.singleResult.errors = response.body.singleResult.errors.map((error) => ({ ...error, extensions: { ...error.extensions, requestId } }));
        },
      };
    },
  };
}
