// The console is a client of Timegate's own GraphQL API: queries and mutations over HTTP,
// subscriptions over graphql-ws on the same origin, both with the API key, or with the single
// sign-on session's cookie (the browser sends it) and its CSRF token.
import { Client, fetchExchange, mapExchange, subscriptionExchange, type CombinedError } from '@urql/core';
import { createClient as createWsClient } from 'graphql-ws';

export type Credential = { kind: 'key'; key: string } | { kind: 'session'; csrfToken: string };

/** The API client of one sign-in; `close()` ends its WebSocket and silences it once that sign-in is over. */
export interface ApiClient {
  client: Client;
  close(): void;
}

export function createApiClient(credential: Credential, onUnauthenticatedNow: () => void): ApiClient {
  let closed = false;
  // A sign-out closes this client: its socket, closed by the service afterwards, must not sign out again.
  const onUnauthenticated = () => {
    if (!closed) onUnauthenticatedNow();
  };
  const url = `${location.origin}/graphql`;
  const headers: Record<string, string> = credential.kind === 'key' ? { authorization: `Bearer ${credential.key}` } : { 'x-csrf-token': credential.csrfToken };
  const ws = createWsClient({
    url: url.replace(/^http/, 'ws'),
    connectionParams: credential.kind === 'key' ? { authorization: `Bearer ${credential.key}` } : { csrfToken: credential.csrfToken },
    retryAttempts: Infinity,
    shouldRetry: () => true,
    on: {
      closed: (event) => {
        // 4401/4403: the key was refused (revoked while the console was open) or the session ended.
        const code = (event as CloseEvent | undefined)?.code;
        if (code === 4401 || code === 4403) onUnauthenticated();
      },
    },
  });
  const client = new Client({
    url,
    requestPolicy: 'cache-and-network',
    // POST only: GET requests would need Apollo's CSRF pre-flight header.
    preferGetMethod: false,
    fetchOptions: () => ({ headers, credentials: 'same-origin' }),
    exchanges: [
      // Any answer saying the credential is no longer valid (a session expired or ended elsewhere,
      // a key revoked) signs the console out, whichever page asked.
      mapExchange({
        onResult(result) {
          if (errorCode(result.error) === 'unauthenticated') onUnauthenticated();
        },
      }),
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
  return {
    client,
    close: () => {
      closed = true;
      void ws.dispose();
    },
  };
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
