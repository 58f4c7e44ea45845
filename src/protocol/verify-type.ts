// Code tables for verify modes (ATTLOG field 4, rtlog `verifytype`) and rtlog event codes.
// Raw codes are always kept by the parsers; these maps are for display and coarse routing only,
// because older "Clock" firmware numbers verify modes differently (PROTOCOL.md).

// ATT-DOC Appendix 7 = SEC-DOC 附录3. '+' = all required, '/' = any of.
import type { DoorState } from './door-state';

const VERIFY_NAMES: Record<number, string> = {
  0: 'any',
  1: 'fingerprint',
  2: 'pin',
  3: 'password',
  4: 'card',
  5: 'fingerprint/password',
  6: 'fingerprint/card',
  7: 'card/password',
  8: 'pin+fingerprint',
  9: 'fingerprint+password',
  10: 'card+fingerprint',
  11: 'card+password',
  12: 'fingerprint+password+card',
  13: 'pin+fingerprint+password',
  14: 'pin+fingerprint/card+fingerprint',
  15: 'face',
  16: 'face+fingerprint',
  17: 'face+password',
  18: 'face+card',
  19: 'face+fingerprint+card',
  20: 'face+fingerprint+password',
  21: 'vein',
  22: 'vein+password',
  23: 'vein+card',
  24: 'vein+password+card',
  25: 'palm',
  26: 'palm+card',
  27: 'palm+face',
  28: 'palm+fingerprint',
  29: 'palm+fingerprint+face',
  200: 'other',
};

/** The name of a verify code (current PUSH numbering), e.g. `card+fingerprint`, `fingerprint/password`, `face`; unknown codes map to `other`. */
export function verifyTypeName(code: number): string {
  return VERIFY_NAMES[code] ?? 'other';
}

/** Coarse classification of an rtlog `event` code, enough for the service to route it. */
export type RtlogEventClass = 'access-granted' | 'access-denied' | 'door' | 'alarm' | 'device' | 'unknown';

const GRANTED = new Set([0, 1, 2, 3, 4, 5, 14, 15, 16, 17, 18, 19, 207, 208, 232]);
const DENIED = new Set([20, 21, 22, 23, 24, 25, 26, 27, 29, 30, 34, 38, 39, 41, 44, 45]);
const DOOR = new Set([8, 9, 12, 13, 200, 201, 202, 204, 205, 255]);
const ALARM = new Set([28, 100, 101, 102, 103, 106, 107]);
const DEVICE = new Set([6, 7, 105, 206, 214, 220, 221]);

/**
 * Classify an rtlog event code (SEC-DOC 附录2). Extended ranges: 6000–6999 are alarms; 4000–4999
 * ("extended normal") and 5000–5999 ("extended abnormal") are firmware-specific and stay `unknown`.
 */
export function classifyRtlogEvent(event: number): RtlogEventClass {
  if (GRANTED.has(event)) return 'access-granted';
  if (DENIED.has(event)) return 'access-denied';
  if (DOOR.has(event)) return 'door';
  if (ALARM.has(event) || (event >= 6000 && event <= 6999)) return 'alarm';
  if (DEVICE.has(event)) return 'device';
  return 'unknown';
}

/** A door alarm, in API spelling. */
export type DoorAlarmKind = 'forced_open' | 'held_open' | 'tamper' | 'duress' | 'power' | 'battery';

/** rtlog alarm codes (SEC-DOC appendix 2): 28 door-open timeout, 100 tamper, 101/103 duress, 102 opened accidentally, 106 battery, 107 mains. */
const ALARM_KINDS: Record<number, DoorAlarmKind> = {
  28: 'held_open',
  100: 'tamper',
  101: 'duress',
  102: 'forced_open',
  103: 'duress',
  106: 'battery',
  107: 'power',
};

/** The alarm an rtlog event raises, or null. */
export function rtlogAlarmKind(event: number): DoorAlarmKind | null {
  return ALARM_KINDS[event] ?? null;
}

/** rtlog 7: the controller's alarms were cancelled (all of the door's, or the terminal's with door 0). */
export const RTLOG_ALARM_CANCELLED = 7;
/** rtlog 201: the door closed, which ends a held-open alarm. */
export const RTLOG_DOOR_CLOSED = 201;

/** The rtstate alarm flags of a door as alarm kinds (reader tamper counts as tamper; duress by password or finger alike). */
export function rtstateAlarmKinds(flags: DoorState['alarms']): DoorAlarmKind[] {
  const kinds = new Set<DoorAlarmKind>();
  if (flags.accidentalOpen) kinds.add('forced_open');
  if (flags.doorOpenTimeout) kinds.add('held_open');
  if (flags.tamper || flags.readerTamper) kinds.add('tamper');
  if (flags.duressPassword || flags.duressFingerprint) kinds.add('duress');
  if (flags.mainsLost) kinds.add('power');
  if (flags.batteryLost) kinds.add('battery');
  return [...kinds].sort();
}

/** Why a controller refused someone, in API spelling (docs/access-control-operations.md has the table). */
export type DenialReason =
  | 'interval_too_short'
  | 'outside_schedule'
  | 'anti_passback'
  | 'interlock'
  | 'multi_person_wait'
  | 'not_registered'
  | 'expired'
  | 'wrong_password'
  | 'card_lost'
  | 'blacklisted'
  | 'wrong_verify_mode'
  | 'background_verification_failed'
  | 'background_verification_timeout'
  | 'lockdown'
  | 'other';

/**
 * Every refusal code of the vendor's rtlog table (the Security PUSH document, appendix 2) with its
 * reason. 21 (door inactive time zone), 22 (illegal time zone) and 23 ("access denied", what
 * terminals send for a person without a valid time-zone authorisation) are all `outside_schedule`;
 * 27 (card) and 34 (fingerprint) are both `not_registered`. Any other code the terminal classes as
 * a refusal (a newer firmware's) is `other`, with its raw code kept beside it.
 */
export const RTLOG_DENIAL_REASONS: Readonly<Record<number, DenialReason>> = Object.freeze({
  20: 'interval_too_short',
  21: 'outside_schedule',
  22: 'outside_schedule',
  23: 'outside_schedule',
  24: 'anti_passback',
  25: 'interlock',
  26: 'multi_person_wait',
  27: 'not_registered',
  29: 'expired',
  30: 'wrong_password',
  34: 'not_registered',
  38: 'card_lost',
  39: 'blacklisted',
  41: 'wrong_verify_mode',
  44: 'background_verification_failed',
  45: 'background_verification_timeout',
});

/** The reason of an rtlog refusal code; `other` for a code outside the vendor's table. */
export function rtlogDenialReason(event: number): DenialReason {
  return RTLOG_DENIAL_REASONS[event] ?? 'other';
}

/** The rtlog codes that carry this reason (for filtering stored events by reason); empty for `other`. */
export function rtlogCodesOfReason(reason: DenialReason): number[] {
  return Object.entries(RTLOG_DENIAL_REASONS)
    .filter(([, r]) => r === reason)
    .map(([code]) => Number(code));
}

/**
 * Codes a door locked down with `CONTROL DEVICE 06` refuses with: the vendor's table has no code of
 * its own for it, so a controller logs its generic refusals (the "access denied" family). Such a
 * refusal at a door locked down at that moment is given the reason `lockdown` by the service
 * (`lockdownReason`), which knows the door's state; the code alone cannot say it.
 */
export const LOCKDOWN_REFUSAL_CODES: readonly number[] = Object.freeze([21, 22, 23]);

/** The reason of a refusal at a door locked down at that moment: `lockdown` for the generic refusals, else the code's own. */
export function lockdownReason(event: number): DenialReason {
  return LOCKDOWN_REFUSAL_CODES.includes(event) ? 'lockdown' : rtlogDenialReason(event);
}

/** Every reason in API spelling: the table's, `lockdown` (the service's), `other` last. */
export const DENIAL_REASONS: readonly DenialReason[] = Object.freeze([...new Set(Object.values(RTLOG_DENIAL_REASONS)), 'lockdown', 'other'] as DenialReason[]);
