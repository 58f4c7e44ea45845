// One webhook POST over node:http(s), dialling the address resolveTarget checked (not a second DNS
// answer), with an overall timeout and at most 1 KB of the response kept.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { hostOf, resolveTarget } from './address-policy';

export interface WebhookResponse {
  status: number;
  excerpt: string;
  /** The receiver's `Retry-After` header, as sent (seconds or an HTTP date). */
  retryAfter: string | null;
}

const EXCERPT_BYTES = 1024;

/** The receiver did not answer within the timeout (told apart from connection errors in metrics). */
export class WebhookTimeout extends Error {}

export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<WebhookResponse> {
  const target = new URL(url);
  const signal = AbortSignal.timeout(options.timeoutMs);
  // The DNS lookup counts against the timeout too: a name whose server never answers must not hold a slot.
  const resolved = await new Promise<Awaited<ReturnType<typeof resolveTarget>>>((resolve, reject) => {
    const onAbort = () => reject(new WebhookTimeout(`timed out after ${options.timeoutMs} ms (resolving ${hostOf(target)})`));
    signal.addEventListener('abort', onAbort, { once: true });
    resolveTarget(hostOf(target), options.allowPrivate)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
  const lookup: LookupFunction = (_host, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [resolved]);
    else callback(null, resolved.address, resolved.family);
  };
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise<WebhookResponse>((resolve, reject) => {
    const request = transport.request(
      target,
      { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() }, lookup, signal },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          const retryAfter = response.headers['retry-after'];
          resolve({
            status: response.statusCode ?? 0,
            excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
            retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
          });
          response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= EXCERPT_BYTES) finish();
        });
        response.on('end', finish);
        response.on('error', reject);
      },
    );
    request.on('error', (error) => reject(signal.aborted ? new WebhookTimeout(`timed out after ${options.timeoutMs} ms`) : error));
    request.end(body);
  });
}
