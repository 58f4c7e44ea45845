// Whether a request can show it comes from the terminal whose serial it carries (docs/security.md,
// "Terminals"). The PUSH protocol has two such proofs: the Security PUSH session token
// (`Cookie: token=md5(RegistryCode + SN + SessionID)`, known only to the terminal we registered) and
// the vendor's `pushcommkey` (sent in the handshake, compared with the value an admin set). On top
// of either, a device may restrict where its requests come from (allowed source CIDRs).
import crypto from 'node:crypto';
import { cidrMatcher } from '../kernel/source-address';
import type { TerminalDevice } from '../services/terminals/terminal.service';
import { checkPushCommKey, checkSessionToken, tokenFromCookie, type IclockQuery } from '../protocol';

/** `valid`: the session's token; `missing`: no token cookie; `wrong`: another (or malformed) token, or a token where no session exists. */
export type TokenState = 'valid' | 'missing' | 'wrong';
/** `not_set`: the device has no PushCommKey; else whether the request carries it. */
export type CommKeyState = 'not_set' | 'valid' | 'missing' | 'wrong';

export interface TerminalProof {
  token: TokenState;
  commKey: CommKeyState;
  /** A valid session token or the device's PushCommKey: the request comes from the terminal. */
  proven: boolean;
}

export function terminalProof(device: TerminalDevice, serialNumber: string, cookie: string | undefined, query: IclockQuery): TerminalProof {
  const presented = tokenFromCookie(cookie);
  let token: TokenState = 'missing';
  if (presented !== null) {
    const valid =
      device.registryCode !== null && device.sessionId !== null && checkSessionToken(presented, device.registryCode, serialNumber, device.sessionId);
    token = valid ? 'valid' : 'wrong';
  }
  let commKey: CommKeyState = 'not_set';
  if (device.pushCommKey !== null) {
    const carried = query.get('pushcommkey');
    commKey = carried === undefined || carried === '' ? 'missing' : checkPushCommKey(carried, device.pushCommKey) ? 'valid' : 'wrong';
  }
  return { token, commKey, proven: token === 'valid' || commKey === 'valid' };
}

// One matcher per allow-list array: the cached device row keeps the same array until it is reloaded.
const matchers = new WeakMap<readonly string[], (address: string) => boolean>();

/** Whether the device accepts requests from this address (no allow-list: any address). */
export function sourceAllowed(device: TerminalDevice, address: string): boolean {
  const list = device.allowedSourceCidrs;
  if (list === null || list.length === 0) return true;
  let match = matchers.get(list);
  if (!match) matchers.set(list, (match = cidrMatcher(list)));
  return match(address);
}

/**
 * Whether a request carries this process's sandbox proof (docs/sandbox.md): only the virtual
 * terminals this process plays know it, so a real terminal calling with a sandbox serial never gets
 * in. No proof configured: nothing matches.
 */
export function sandboxProofValid(presented: string | string[] | undefined, proof: string | null | undefined): boolean {
  if (!proof || typeof presented !== 'string') return false;
  const left = Buffer.from(presented);
  const right = Buffer.from(proof);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
