// Request-line helpers: which iclock endpoint a path names, case-insensitive query parameters,
// and which protocol family a request belongs to.

export type IclockEndpoint = 'cdata' | 'getrequest' | 'devicecmd' | 'ping' | 'registry' | 'push' | 'querydata' | 'rtdata' | 'fdata' | 'exchange' | 'file';

const ENDPOINTS = new Set<IclockEndpoint>(['cdata', 'getrequest', 'devicecmd', 'ping', 'registry', 'push', 'querydata', 'rtdata', 'fdata', 'exchange', 'file']);

/** `/iclock/<letters>`, an optional `.aspx` and trailing slash, then the end or the query. */
const ENDPOINT_PATH = /^\/iclock\/[a-z]+(?:\.aspx)?\/?(?:[?#]|$)/i;
const NAME_START = '/iclock/'.length;

/**
 * The endpoint named by a request path (query string ignored), or null. Accepts any case, a
 * trailing slash (`/iclock/cdata/`) and the `.aspx` suffix of eSSL-branded firmware. Runs on every
 * heartbeat, so it matches without a match array and cuts only the name out.
 */
export function iclockEndpoint(path: string): IclockEndpoint | null {
  if (!ENDPOINT_PATH.test(path)) return null;
  let end = NAME_START;
  while (end < path.length && isLetter(path.charCodeAt(end))) end++;
  const name = path.slice(NAME_START, end).toLowerCase() as IclockEndpoint;
  return ENDPOINTS.has(name) ? name : null;
}

/**
 * The methods terminals use on /iclock endpoints: GET (handshake, polls, pings) and POST (uploads,
 * results, registry). The command poll is only ever a GET and command results only ever a POST
 * (both PUSH documents: "getrequest" uses GET, "devicecmd" uses POST), so each of those two takes
 * its one method; the other endpoints take both, because firmware families differ on them (the
 * vendor's `/iclock/push` example POSTs what its text calls a GET). Anything else gets 405 with
 * the endpoint's list in `Allow`.
 */
export const ICLOCK_METHODS = ['GET', 'POST'] as const;

const ENDPOINT_METHODS: Partial<Record<IclockEndpoint, readonly string[]>> = { getrequest: ['GET'], devicecmd: ['POST'] };

/** The methods `endpoint` answers (its `Allow` header on a 405). */
export function iclockMethods(endpoint: IclockEndpoint): readonly string[] {
  return ENDPOINT_METHODS[endpoint] ?? ICLOCK_METHODS;
}

export function isIclockMethod(method: string | undefined, endpoint?: IclockEndpoint): boolean {
  if (method !== 'GET' && method !== 'POST') return false;
  return endpoint === undefined || iclockMethods(endpoint).includes(method);
}

function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // malformed %-escape: keep what the device sent
  }
}

/**
 * Query parameters with case-insensitive names (`SN`/`sn`, `table`/`Table`). Values are
 * percent-decoded; `+` is kept literally (devices encode spaces as `%20`, and `+` can occur in
 * values). The first occurrence of a name wins. Splits each pair on its FIRST `=`, so the vendor
 * doc's typo `table=tablename=user` yields table = `tablename=user` (see `uploadTable`).
 */
export class IclockQuery {
  private readonly values = new Map<string, string>();

  constructor(search: string) {
    const text = search.startsWith('?') ? search.slice(1) : search.includes('?') ? search.slice(search.indexOf('?') + 1) : search;
    for (const pair of text.split('&')) {
      if (pair === '') continue;
      const at = pair.indexOf('=');
      const name = decodeComponent(at < 0 ? pair : pair.slice(0, at)).toLowerCase();
      // A %00 decodes to a NUL, which no value has a use for and PostgreSQL cannot store: dropped.
      const value = at < 0 ? '' : decodeComponent(pair.slice(at + 1)).replace(/\u0000/g, '');
      if (!this.values.has(name)) this.values.set(name, value);
    }
  }

  /** Value of `name` (any case), or undefined. */
  get(name: string): string | undefined {
    return this.values.get(name.toLowerCase());
  }

  has(name: string): boolean {
    return this.values.has(name.toLowerCase());
  }

  /** Lower-cased name → value. */
  entries(): Map<string, string> {
    return new Map(this.values);
  }
}

/** Parse a query string (with or without leading `?`, or a whole path?query). */
export function queryParams(search: string): IclockQuery {
  return new IclockQuery(search);
}

/** What a `cdata` POST uploads: the table, and for tabledata the real table name and declared count. */
export interface UploadTable {
  /** Lower-cased `table` (`attlog`, `operlog`, `rtlog`, `tabledata`, …), or null. */
  table: string | null;
  /** For `tabledata` (and querydata): lower-cased `tablename`. */
  tablename: string | null;
  /** Declared `count` exactly as sent (the ack must echo it), or null. */
  count: string | null;
}

/** Resolve the upload table, tolerating the `table=tablename=user` spelling of the vendor doc. */
export function uploadTable(query: IclockQuery): UploadTable {
  let table = query.get('table')?.toLowerCase() ?? null;
  let tablename = query.get('tablename')?.toLowerCase() ?? null;
  if (table?.startsWith('tablename=')) {
    tablename ??= table.slice('tablename='.length);
    table = 'tabledata';
  }
  return { table, tablename, count: query.get('count') ?? null };
}

export type ProtocolFamily = 'attendance' | 'access';

/**
 * Which family a request belongs to (PROTOCOL.md): access when `DeviceType=acc` (any case), the
 * endpoint is registry/push/querydata/rtdata, or the table is rtlog/rtstate/tabledata. `pushver=3.x`
 * alone is NOT proof. Attendance otherwise. Callers should remember `access` per device once seen.
 */
export function requestFamily(endpoint: IclockEndpoint | null, query: IclockQuery): ProtocolFamily {
  if (query.get('devicetype')?.toLowerCase() === 'acc') return 'access';
  if (endpoint === 'registry' || endpoint === 'push' || endpoint === 'querydata' || endpoint === 'rtdata') return 'access';
  const { table } = uploadTable(query);
  if (table === 'rtlog' || table === 'rtstate' || table === 'tabledata') return 'access';
  return 'attendance';
}
