// Lockdowns in words (modes, door states, why a door failed) and which doors are locked down now,
// kept current by the `lockdownUpdated` subscription, for the lockdowns page and the door board.
import { useEffect, useRef } from 'preact/hooks';
import { useQuery, useSubscription } from '@urql/preact';
import { ActiveLockdownsDocument, LockdownFeedDocument } from './gql';

export const MODE_LABELS: Record<string, string> = { lockdown: 'Lockdown', evacuate: 'Evacuation' };

/** A lockdown door's state as an operator reads it. */
export const DOOR_STATE_LABELS: Record<string, string> = {
  pending: 'waiting for the controller',
  confirmed: 'confirmed',
  failed: 'failed',
  releasing: 'releasing',
  released: 'released',
  release_failed: 'release failed',
};

/** The badge colour of a lockdown door's state. */
export function doorStateTone(state: string): string {
  if (state === 'pending' || state === 'releasing') return 'pending';
  if (state === 'failed' || state === 'release_failed') return 'failed';
  return 'succeeded';
}

/** Why a lockdown door failed, from the API's `detail` and the controller's return code. */
export function failureReason(detail: string | null | undefined, returnCode: number | null | undefined): string {
  switch (detail) {
    case 'unsupported_by_device':
      return 'this terminal cannot lock its doors (attendance terminal)';
    case 'device_refused':
      return `the controller refused the command${returnCode === null || returnCode === undefined ? '' : ` (code ${returnCode})`}`;
    case 'no_answer':
      return 'the controller took the command and never answered';
    case 'expired':
      return 'the command expired before the controller took it';
    case null:
    case undefined:
      return '';
    default:
      return detail.replaceAll('_', ' ');
  }
}

export interface DoorLockdown {
  lockdownId: number;
  mode: string;
  reason: string;
  state: string;
}

/** The doors of active lockdowns (door id → its lockdown and state), read again on every lockdown event. */
export function useDoorLockdowns(): Map<number, DoorLockdown> {
  const [active, refresh] = useQuery({ query: ActiveLockdownsDocument, requestPolicy: 'network-only' });
  const due = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(due.current ?? undefined), []);
  useSubscription({ query: LockdownFeedDocument, variables: {} }, (_, event) => {
    if (!due.current)
      due.current = setTimeout(() => {
        due.current = null;
        refresh({ requestPolicy: 'network-only' });
      }, 150);
    return event;
  });
  const doors = new Map<number, DoorLockdown>();
  for (const l of active.data?.lockdowns.nodes ?? [])
    for (const d of l.doors) if (d.state !== 'released') doors.set(d.doorId, { lockdownId: l.id, mode: l.mode, reason: l.reason, state: d.state });
  return doors;
}
