// Builds each request a terminal sends, with the query parameters and headers of the captured
// traffic (fixtures 07, 25-40): attendance devices send no Content-Type; security devices send
// `application/push;charset=UTF-8` and, once a session exists, `Cookie: token=<md5>`.
import type { TerminalFamily } from './command-executor';
import type { OutgoingRequest } from './http-transport';
import { buildQuery } from './wire-format';

export const USER_AGENT = 'iClock Proxy/1.09';

export interface RequestContext {
  serialNumber: string;
  family: TerminalFamily;
  /**
   * `device`: the Connection header firmware sends (`close` on attendance, `starting` on
   * security). `keep-alive`: let the HTTP agent reuse sockets, for large simulated fleets.
   */
  connection: 'device' | 'keep-alive';
  /** Session cookie value once the security handshake has produced one. */
  token?: string;
}

export function deviceHeaders(ctx: RequestContext, opts: { contentType: boolean }): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  if (ctx.family === 'att') {
    headers.push(['User-Agent', USER_AGENT], ['Accept', '*/*'], ['Accept-Encoding', 'gzip']);
    if (ctx.connection === 'device') headers.push(['Connection', 'close']);
    return headers;
  }
  if (ctx.token !== undefined) headers.push(['Cookie', `token=${ctx.token}`]);
  headers.push(['User-Agent', USER_AGENT]);
  // Node keeps the socket for any Connection value but `close`, so `starting` stays reusable.
  if (ctx.connection === 'device') headers.push(['Connection', 'starting']);
  headers.push(['Accept', 'application/push'], ['Accept-Charset', 'UTF-8'], ['Accept-Language', 'zh-CN']);
  if (opts.contentType) headers.push(['Content-Type', 'application/push;charset=UTF-8']);
  return headers;
}

const get = (ctx: RequestContext, path: string, params: Array<[string, string]>, contentType: boolean): OutgoingRequest => ({
  method: 'GET',
  path: `${path}?${buildQuery([['SN', ctx.serialNumber], ...params])}`,
  headers: deviceHeaders(ctx, { contentType }),
});

const post = (ctx: RequestContext, path: string, params: Array<[string, string]>, body: string): OutgoingRequest => ({
  method: 'POST',
  path: `${path}?${buildQuery([['SN', ctx.serialNumber], ...params])}`,
  headers: deviceHeaders(ctx, { contentType: true }),
  body,
});

/** Attendance handshake: `options=all&pushver=..&language=..&DeviceType=att&PushOptionsFlag=1`. */
export function attendanceHandshake(ctx: RequestContext, pushVersion: string, language: number): OutgoingRequest {
  return get(
    ctx,
    '/iclock/cdata',
    [
      ['options', 'all'],
      ['pushver', pushVersion],
      ['language', String(language)],
      ['DeviceType', 'att'],
      ['PushOptionsFlag', '1'],
    ],
    false,
  );
}

/** Security handshake (fx 32): no Content-Type and no cookie yet. */
export function accessHandshake(ctx: RequestContext, pushVersion: string): OutgoingRequest {
  return get(
    ctx,
    '/iclock/cdata',
    [
      ['options', 'all'],
      ['pushver', pushVersion],
      ['DeviceType', 'acc'],
    ],
    false,
  );
}

export function registry(ctx: RequestContext, capabilityLine: string): OutgoingRequest {
  return post(ctx, '/iclock/registry', [], capabilityLine);
}

/** `POST /iclock/push` with an empty body, as the vendor example does (fx 34). */
export function pushConfig(ctx: RequestContext): OutgoingRequest {
  return post(ctx, '/iclock/push', [], '');
}

/** Command poll / heartbeat; attendance terminals add `INFO=` now and then (fx 27). */
export function getRequest(ctx: RequestContext, info?: string): OutgoingRequest {
  return get(ctx, '/iclock/getrequest', info === undefined ? [] : [['INFO', info]], ctx.family === 'acc');
}

/** `POST /iclock/cdata?SN=..&<params>`: params carry `table=` and `Stamp=` or `tablename=`/`count=`. */
export function dataUpload(ctx: RequestContext, params: Array<[string, string]>, body: string): OutgoingRequest {
  const req = post(ctx, '/iclock/cdata', params, body);
  if (ctx.family === 'att') req.headers = deviceHeaders(ctx, { contentType: false });
  return req;
}

/** Security PUSH answer to a `DATA QUERY`: `POST /iclock/querydata?type=tabledata&cmdid=…&tablename=…&count=…&packcnt=1&packidx=1` (fx 38). */
export function queryData(ctx: RequestContext, params: Array<[string, string]>, body: string): OutgoingRequest {
  return post(ctx, '/iclock/querydata', params, body);
}

export function commandResults(ctx: RequestContext, body: string): OutgoingRequest {
  const req = post(ctx, '/iclock/devicecmd', [], body);
  if (ctx.family === 'att') req.headers = deviceHeaders(ctx, { contentType: false });
  return req;
}
