// Security PUSH session token: after registration every request carries
// `Cookie: token=<md5hex(RegistryCode + SerialNumber + SessionID)>` (SEC-DOC §7.5, order as written).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Lower-case hex MD5 of RegistryCode + SerialNumber + SessionID. */
export function sessionToken(registryCode: string, serialNumber: string, sessionId: string): string {
  return createHash('md5')
    .update(registryCode + serialNumber + sessionId, 'utf8')
    .digest('hex');
}

/** The `token` value of a Cookie header, or null. */
export function tokenFromCookie(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim().toLowerCase() === 'token') return part.slice(at + 1).trim();
  }
  return null;
}

/**
 * True when `presented` (a token or a whole Cookie header) equals the expected token.
 * Hex case is ignored; malformed tokens (not 32 hex chars) are rejected; constant-time compare.
 */
export function checkSessionToken(presented: string | undefined, registryCode: string, serialNumber: string, sessionId: string): boolean {
  if (!presented) return false;
  const token = (presented.includes('=') ? tokenFromCookie(presented) : presented.trim())?.toLowerCase() ?? '';
  if (!/^[0-9a-f]{32}$/.test(token)) return false;
  return timingSafeEqual(Buffer.from(token), Buffer.from(sessionToken(registryCode, serialNumber, sessionId)));
}

/** A new RegistryCode (≤ 32 chars; alphanumeric so it needs no escaping anywhere). */
export function newRegistryCode(): string {
  return randomBytes(8).toString('hex');
}

/** A new SessionID: 32 upper-case hex chars, the shape of the vendor example. */
export function newSessionId(): string {
  return randomBytes(16).toString('hex').toUpperCase();
}

/**
 * True when the handshake's `pushcommkey` (ATT-DOC, "Initialization information exchange": the
 * ciphertext that binds a terminal to its server) equals the one set for the device. Compared in
 * constant time over their SHA-256, so neither the value nor its length leaks through timing.
 */
export function checkPushCommKey(presented: string | undefined | null, expected: string): boolean {
  if (presented == null || presented === '') return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
