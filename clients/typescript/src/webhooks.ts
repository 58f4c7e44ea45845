import { createHmac, timingSafeEqual } from 'node:crypto';

/** Why a webhook delivery was refused: answer it with a 4xx and do not act on it. */
export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: 'missing_header' | 'invalid_secret' | 'invalid_timestamp' | 'timestamp_out_of_tolerance' | 'invalid_signature',
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface VerifyWebhookOptions {
  /** How far (seconds) `webhook-timestamp` may be from now, either way: replay protection. Default 300. */
  toleranceSeconds?: number;
  /** The current time (tests). */
  now?: Date;
}

/** A verified delivery: its id (`evt_<cursor>`, the same on every retry: deduplicate on it), time and parsed body. */
export interface VerifiedWebhook<T = unknown> {
  id: string;
  timestamp: Date;
  payload: T;
}

type Headers = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(headers: Headers, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies a Standard Webhooks delivery (https://www.standardwebhooks.com/) as Timegate signs it:
 * `webhook-signature` holds one or more `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`,
 * keyed with the base64-decoded part of the `whsec_…` secret. Pass the body exactly as received
 * (a string or the raw bytes, never re-serialised JSON). Throws WebhookVerificationError; answers the
 * parsed body.
 */
export function verifyWebhook<T = unknown>(
  secret: string,
  headers: Headers,
  rawBody: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): VerifiedWebhook<T> {
  if (!secret.startsWith('whsec_')) throw new WebhookVerificationError('invalid_secret', 'a webhook secret starts with whsec_');
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  if (key.length === 0) throw new WebhookVerificationError('invalid_secret', 'the webhook secret holds no key');
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('missing_header', 'webhook-id, webhook-timestamp and webhook-signature are required');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp is not a Unix time in seconds');
  const sentAt = Number(timestamp);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - sentAt) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('timestamp_out_of_tolerance', 'webhook-timestamp is too far from the current time');
  }
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('invalid_signature', 'no webhook-signature entry matches the body');
  return { id, timestamp: new Date(sentAt * 1000), payload: JSON.parse(body.toString('utf8')) as T };
}
