import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './generated/openapi';

export type { paths, components, operations } from './generated/openapi';

export interface RestClientOptions {
  /** The service's address, e.g. `https://timegate.example.com` (no trailing path). */
  baseUrl: string;
  /** An API key: `tg_live_…`, or `tg_test_…` for a sandbox workspace. */
  apiKey: string;
  /** Another fetch (tests, proxies); default: the global fetch. */
  fetch?: ClientOptions['fetch'];
}

/**
 * A REST client typed by the service's OpenAPI document (openapi.json): every path, parameter,
 * body and answer is checked at compile time.
 *
 *   const { data, error } = await rest.GET('/public/v2/employees/{id}', { params: { path: { id: 21 } } });
 *
 * Answers are typed as the JSON the client reads: a route that can also answer CSV (timesheets,
 * `Accept: text/csv`) has its JSON type as `data`; read the CSV with `parseAs: 'text'` (a string).
 */
export function createRestClient(options: RestClientOptions): Client<paths, 'application/json'> {
  return createClient<paths, 'application/json'>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
