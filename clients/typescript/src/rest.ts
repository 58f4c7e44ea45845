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
 */
export function createRestClient(options: RestClientOptions): Client<paths> {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
