// One HTTP exchange as a terminal makes it: raw text body out, raw text reply in, no body
// parsing framework, Content-Length always set (old firmware never sends chunked bodies).
// Written on node:http directly because the headers must be exactly the ones a device sends.
import http from 'node:http';
import https from 'node:https';
import { gunzip } from 'node:zlib';

export interface HttpReply {
  status: number;
  body: string;
}

export interface OutgoingRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/iclock/cdata?SN=...&table=ATTLOG&Stamp=9999`. */
  path: string;
  /** Header name -> value, in the order the device writes them. */
  headers: Array<[string, string]>;
  body?: string;
}

export interface InFlight {
  reply: Promise<HttpReply>;
  /** Tears the request down (going offline / stop); the reply promise then rejects. */
  abort(): void;
}

export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
  ) {
    super(`HTTP ${status} for ${path}`);
  }
}

export function sendRequest(base: URL, request: OutgoingRequest, options: { agent?: http.Agent; timeoutMs: number }): InFlight {
  const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
  // with headers given as an array Node adds no Host header itself; devices send it first (fx 25)
  const headers: Array<[string, string]> = [['Host', base.host], ...request.headers];
  if (request.method === 'POST') headers.push(['Content-Length', String(body?.length ?? 0)]);
  const prefix = base.pathname.replace(/\/+$/, '');
  const transport = base.protocol === 'https:' ? https : http;
  const req = transport.request({
    protocol: base.protocol,
    hostname: base.hostname,
    port: base.port || undefined,
    method: request.method,
    path: prefix + request.path,
    // an array of pairs keeps the device's header order on the wire
    headers: headers.flat(),
    agent: options.agent,
  });
  const reply = new Promise<HttpReply>((resolve, reject) => {
    req.setTimeout(options.timeoutMs, () => req.destroy(new Error(`timeout after ${options.timeoutMs} ms`)));
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const done = (buf: Buffer): void => resolve({ status: res.statusCode ?? 0, body: buf.toString('utf8') });
        // the device advertises gzip (fx 07), so it must cope when a server uses it
        if (res.headers['content-encoding'] === 'gzip') gunzip(raw, (err, out) => (err ? reject(err) : done(out)));
        else done(raw);
      });
    });
  });
  req.end(body);
  return { reply, abort: () => req.destroy(new Error('aborted')) };
}
