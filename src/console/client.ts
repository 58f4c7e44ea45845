// The console is a client of Timegate's own GraphQL API: queries and mutations over HTTP,
// subscriptions over graphql-ws on the same origin, both with the API key.
import { Client, fetchExchange, subscriptionExchange, type CombinedError } from '@urql/core';
import { createClient as createWsClient } from 'graphql-ws';

export function createApiClient(key: string, onUnauthenticated: () => void): Client {
  const url = `${location.origin}/graphql`;
  const ws = createWsClient({
    url: url.replace(/^http/, 'ws'),
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: Infinity,
    shouldRetry: () => true,
    on: {
      closed: (event) => {
        // 4401/4403: the key was refused (revoked while the console was open).
        const code = (event as CloseEvent | undefined)?.code;
        if (code === 4401 || code === 4403) onUnauthenticated();
      },
    },
  });
  return new Client({
    url,
    requestPolicy: 'cache-and-network',
    // POST only: GET requests would need Apollo's CSRF pre-flight header.
    preferGetMethod: false,
    fetchOptions: () => ({ headers: { authorization: `Bearer ${key}` } }),
    exchanges: [
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
}

/** The GraphQL error code (`extensions.code`), or `network` when the request did not get through. */
export function errorCode(error: CombinedError | undefined): string | null {
  if (!error) return null;
  if (error.networkError) return 'network';
  return (error.graphQLErrors[0]?.extensions?.code as string | undefined) ?? 'error';
}

export function errorMessage(error: CombinedError | undefined): string | null {
  if (!error) return null;
  return error.graphQLErrors[0]?.message ?? error.networkError?.message ?? error.message;
}
