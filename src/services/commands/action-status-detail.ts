// Why a door action or device action is where it is (`status_detail`), one code from a documented
// list (docs/device-operations.md, "Status details"), null when nothing needs saying. The codes of a
// concluded action are stored with it; the codes of a waiting one describe its terminal now and are
// computed when the action is read (a terminal coming back online changes them without a write).

export const STATUS_DETAILS = [
  'device_pending',
  'device_offline',
  'no_answer',
  'device_refused',
  'deadline_passed',
  'awaiting_clock_reading',
  'clock_skew_after_sync',
  'clock_not_read',
] as const;
export type StatusDetail = (typeof STATUS_DETAILS)[number];

/**
 * The SQL of a command's detail (`c` the command): expired → `deadline_passed`; failed with the
 * terminal's code → `device_refused`, failed without one (every delivery timed out) → `no_answer`;
 * queued again after a delivery that got no answer → `no_answer` (it goes out again).
 */
export const COMMAND_DETAIL_SQL = `case
  when c.status = 'expired' then 'deadline_passed'
  when c.status = 'failed' and c.return_code is null then 'no_answer'
  when c.status = 'failed' then 'device_refused'
  when c.status = 'queued' and c.attempts > 0 then 'no_answer'
  else null end`;

/** The detail of a concluded or retried command, as COMMAND_DETAIL_SQL. */
export function commandDetail(command: { status: string; return_code: number | null; attempts: number }): StatusDetail | null {
  if (command.status === 'expired') return 'deadline_passed';
  if (command.status === 'failed') return command.return_code === null ? 'no_answer' : 'device_refused';
  if (command.status === 'queued' && command.attempts > 0) return 'no_answer';
  return null;
}

/** What a queued action waits for, from its terminal's status: never connected, or offline now. */
export function waitingDetail(actionStatus: string, deviceStatus: string): StatusDetail | null {
  if (actionStatus !== 'queued') return null;
  if (deviceStatus === 'pending') return 'device_pending';
  if (deviceStatus === 'offline') return 'device_offline';
  return null;
}

/** The detail shown: the stored one, else what a waiting action waits for. */
export function shownDetail(stored: string | null | undefined, actionStatus: string, deviceStatus: string): string | null {
  return stored ?? waitingDetail(actionStatus, deviceStatus);
}
