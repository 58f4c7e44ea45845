import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';

export interface GraphQLClientOptions {
  /** The service's address, e.g. `https://timegate.example.com`; the endpoint is `<baseUrl>/graphql`. */
  baseUrl: string;
  /** An API key: `tg_live_…`, or `tg_test_…` for a sandbox workspace. */
  apiKey: string;
  fetch?: typeof fetch;
}

/** One entry of a GraphQL answer's `errors`, with the service's error code (docs/errors.md). */
export interface GraphQLErrorEntry {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

/** A GraphQL answer with errors (or a non-JSON answer): `errors` as the service sent them. */
export class GraphQLRequestError extends Error {
  constructor(
    readonly status: number,
    readonly errors: GraphQLErrorEntry[],
  ) {
    super(errors.map((e) => (e.extensions?.code ? `${e.extensions.code}: ${e.message}` : e.message)).join('; ') || `HTTP ${status}`);
    this.name = 'GraphQLRequestError';
  }

  /** The first error's code (`not_found`, `validation_failed`, ...). */
  get code(): string | undefined {
    return this.errors[0]?.extensions?.code;
  }
}

export interface GraphQLClient {
  /** Runs a typed document (src/generated/graphql.ts) and answers its data; throws GraphQLRequestError on errors. */
  request<TResult, TVariables extends Record<string, unknown>>(document: TypedDocumentNode<TResult, TVariables>, variables?: TVariables): Promise<TResult>;
}

export function createGraphQLClient(options: GraphQLClientOptions): GraphQLClient {
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/graphql`;
  const doFetch = options.fetch ?? fetch;
  return {
    async request(document, variables) {
      const response = await doFetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${options.apiKey}` },
        body: JSON.stringify({ query: print(document), variables: variables ?? {} }),
      });
      const text = await response.text();
      let body: { data?: unknown; errors?: GraphQLErrorEntry[] };
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        throw new GraphQLRequestError(response.status, [{ message: text.slice(0, 500) }]);
      }
      if (body.errors?.length || body.data == null) throw new GraphQLRequestError(response.status, body.errors ?? []);
      return body.data as never;
    },
  };
}
