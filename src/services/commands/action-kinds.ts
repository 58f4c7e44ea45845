// The fixed sets of operations on a terminal, shared by the services that run them and by the REST
// body schemas that refuse anything else (and state the sets in the OpenAPI document).

/** What a device action does (docs/device-operations.md). */
export const DEVICE_ACTION_TYPES = [
  'info.refresh',
  'reboot',
  'attendance.count',
  'attendance.backfill',
  'logs.clear',
  'clock.sync',
  'users.reconcile',
] as const;

/** What a door action asks of the lock. */
export type DoorActionKind = 'unlock' | 'hold_open' | 'close' | 'cancel_alarm';
export const DOOR_ACTION_KINDS: readonly DoorActionKind[] = ['unlock', 'hold_open', 'close', 'cancel_alarm'];
