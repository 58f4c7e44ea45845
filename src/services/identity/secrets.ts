// The secrets Timegate hands out (API keys, employee tokens, invitation links): random, shown once,
// stored only as a hash.
import crypto from 'node:crypto';

const SECRET_LENGTH = 40;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `prefix` + 40 base62 characters (about 238 bits) from the system CSPRNG, without modulo bias. */
export function randomSecret(prefix: string): string {
  let secret = '';
  while (secret.length < SECRET_LENGTH) {
    for (const byte of crypto.randomBytes(64)) {
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += BASE62[byte % 62];
    }
  }
  return prefix + secret;
}

/** Secrets carry ~238 bits of entropy, so a plain SHA-256 is a safe, fast one-way hash for lookup. */
export function hashKey(key: string): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}
