/** Small real-HTTP clients for the tests: REST calls and GraphQL operations over fetch. */
export interface RestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RestOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as is instead of JSON.stringify(body). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export async function rest<T = any>(baseUrl: string, method: string, path: string, options: RestOptions = {}): Promise<RestResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(baseUrl + path, { method, headers, body });
  const text = await response.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

export interface GraphQLResponse<T = any> {
  status: number;
  data: T | null;
  errors?: { message: string; extensions?: { code?: string; details?: { field: string; code: string; message: string }[] } }[];
}

export async function gql<T = any>(baseUrl: string, key: string | null, query: string, variables: Record<string, unknown> = {}): Promise<GraphQLResponse<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${baseUrl}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  const body = (await response.json()) as { data?: T | null; errors?: GraphQLResponse['errors'] };
  return { status: response.status, data: body.data ?? null, errors: body.errors };
}

/** The GraphQL data, or a thrown error naming the GraphQL errors. */
export async function gqlData<T = any>(baseUrl: string, key: string | null, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await gql<T>(baseUrl, key, query, variables);
  if (result.errors?.length || !result.data) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
  return result.data;
}
