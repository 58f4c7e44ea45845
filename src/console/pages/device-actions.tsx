// A terminal's actions for the fleet engineer: every action with what it found and why it is where
// it is (`statusDetail`), the buttons to start one, a backfill for a date range, and clear logs
// behind a confirmation that explains the service's guard; and why a terminal is not online.
import { useEffect, useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { ConfirmButton, Empty, ErrorNote, Section, StatusBadge } from '../components';
import { today, when } from '../format';
import { DeviceActionsDocument, DeviceLastFailureDocument, StartDeviceActionDocument, type DeviceActionsQuery } from '../gql';

const FINAL = ['succeeded', 'failed', 'expired'];

const ACTIONS: Array<[string, string]> = [
  ['info.refresh', 'Read info'],
  ['attendance.count', 'Count records'],
  ['users.reconcile', 'Check users'],
  ['clock.sync', 'Set clock'],
  ['reboot', 'Reboot'],
];

type Action = DeviceActionsQuery['deviceActions']['nodes'][number];

/** Why the action is where it is, in words (the API's `statusDetail`). */
export function detailText(a: Pick<Action, 'statusDetail' | 'result'>): string {
  switch (a.statusDetail) {
    case 'device_pending':
      return 'waiting for a terminal that has never connected';
    case 'device_offline':
      return 'waiting: the terminal is offline';
    case 'no_answer':
      return 'the terminal fetched it and did not answer';
    case 'device_refused':
      return `the terminal refused it${a.result?.returnCode !== null && a.result?.returnCode !== undefined ? ` (return code ${a.result.returnCode})` : ''}`;
    case 'deadline_passed':
      return 'not delivered before its deadline';
    case 'awaiting_clock_reading':
      return 'clock set; waiting for a record to measure it';
    case 'clock_skew_after_sync':
      return `clock still off after setting it${a.result?.skewAfter !== null && a.result?.skewAfter !== undefined ? ` (${a.result.skewAfter} s)` : ''}`;
    case 'clock_not_read':
      return 'clock set, but no record came to measure it';
    default:
      return '';
  }
}

/** What an action found, in a few words. */
export function outcome(a: Action): string {
  const r = a.result;
  if (!r) return '';
  if (a.type === 'attendance.backfill') return `${r.windows ?? 0} queries, ${r.recordsReceived ?? 0} records found, ${r.punchesNew ?? 0} new punches`;
  if (r.matched !== null && r.matched !== undefined)
    return `terminal ${r.deviceRecords}, Timegate ${r.timegateRecords}${r.matched ? '' : ' (mismatch: run a backfill)'}`;
  if (r.complete)
    return `${r.usersReported} users; ${r.missingOnDevice?.length ?? 0} missing, ${r.unexpectedOnDevice?.length ?? 0} unexpected${r.fixed ? `, ${r.fixed} fixed` : ''}`;
  if (r.skewBefore !== null && r.skewBefore !== undefined)
    return `clock was off by ${r.skewBefore} s${r.skewAfter !== null && r.skewAfter !== undefined ? `, now ${r.skewAfter} s` : ''}`;
  return '';
}

const range = (a: Action) => (a.options.startDate ? ` ${a.options.startDate} to ${a.options.endDate}` : '');

export function DeviceActions({ deviceId, attendance }: { deviceId: number; attendance: boolean }) {
  const canWrite = useAllowed('write');
  const [actions, refresh] = useQuery({ query: DeviceActionsDocument, variables: { deviceId } });
  const [starting, start] = useMutation(StartDeviceActionDocument);
  const [backfill, setBackfill] = useState({ startDate: `${today().slice(0, 7)}-01`, endDate: today() });
  const list = actions.data?.deviceActions.nodes ?? [];
  const busy = list.some((a) => !FINAL.includes(a.status));
  useEffect(() => {
    const timer = setInterval(() => refresh({ requestPolicy: 'network-only' }), busy ? 700 : 5000);
    return () => clearInterval(timer);
  }, [deviceId, busy]);
  const run = async (type: string, options?: { startDate: string; endDate: string }) => {
    await start({ deviceId, input: options ? { type, options } : { type } });
    refresh({ requestPolicy: 'network-only' });
  };
  return (
    <Section title="Device actions">
      {canWrite && (
        <>
          <p class="inline-form">
            {ACTIONS.filter(([type]) => attendance || type !== 'attendance.count').map(([type, label]) => (
              <button type="button" disabled={starting.fetching} onClick={() => run(type)}>
                {label}
              </button>
            ))}
          </p>
          {attendance && (
            <>
              <form
                class="inline-form"
                aria-label="Backfill"
                onSubmit={(e) => {
                  e.preventDefault();
                  run('attendance.backfill', backfill);
                }}
              >
                <p class="field">
                  <label for="backfill-from">Backfill from</label>
                  <input
                    id="backfill-from"
                    type="date"
                    value={backfill.startDate}
                    onInput={(e) => setBackfill({ ...backfill, startDate: (e.target as HTMLInputElement).value })}
                    required
                  />
                </p>
                <p class="field">
                  <label for="backfill-to">Backfill to</label>
                  <input
                    id="backfill-to"
                    type="date"
                    value={backfill.endDate}
                    onInput={(e) => setBackfill({ ...backfill, endDate: (e.target as HTMLInputElement).value })}
                    required
                  />
                </p>
                <button type="submit" disabled={starting.fetching}>
                  Backfill
                </button>
              </form>
              <p class="hint">A backfill asks the terminal for its records of these days again (31 days a query) and stores the ones Timegate missed.</p>
              <p class="inline-form">
                <ConfirmButton
                  label="Clear logs"
                  title="Clear the terminal's attendance records?"
                  confirm="Clear logs"
                  disabled={starting.fetching}
                  onConfirm={() => run('logs.clear')}
                >
                  <p>The terminal deletes its attendance records for good. Timegate allows this only when no punch can be lost:</p>
                  <ul>
                    <li>
                      it needs the terminal's own record count from the last hour: run <strong>Read info</strong> (or <strong>Count records</strong> over every
                      day it may hold) first;
                    </li>
                    <li>
                      it refuses when Timegate holds fewer of the terminal's records than it counted, and says how many would be lost and of which days (run a{' '}
                      <strong>Backfill</strong> of those days, then count again).
                    </li>
                  </ul>
                </ConfirmButton>
              </p>
            </>
          )}
        </>
      )}
      <ErrorNote message={errorMessage(starting.error)} />
      {list.length === 0 ? (
        <Empty>No actions yet.</Empty>
      ) : (
        <table class="fold-on-phone actions-table">
          <thead>
            <tr>
              <th scope="col">Action</th>
              <th scope="col">Status</th>
              <th scope="col">Why</th>
              <th scope="col">Result</th>
              <th scope="col">Started</th>
              <th scope="col">Ended</th>
            </tr>
          </thead>
          <tbody>
            {[...list].reverse().map((a) => (
              <tr data-action={a.actionId}>
                <td>
                  {a.type}
                  {range(a)}
                </td>
                <td>
                  <StatusBadge status={a.status} />
                </td>
                <td data-label="Why" class="action-detail">
                  {detailText(a) || '—'}
                </td>
                <td data-label="Result">{outcome(a) || '—'}</td>
                <td data-label="Started">{when(a.createdAt)}</td>
                <td data-label="Ended">{a.completedAt ? when(a.completedAt) : `expires ${when(a.expiresAt)}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

function ago(iso: string): string {
  const minutes = Math.round((Date.now() - Date.parse(iso)) / 60_000);
  if (minutes < 1) return 'less than a minute ago';
  if (minutes < 120) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

/** Why the terminal is not online: its last contact and the last command it refused. */
export function WhyNotOnline({ device }: { device: { id: number; status: string; lastSeenAt?: string | null } }) {
  const [failure] = useQuery({ query: DeviceLastFailureDocument, variables: { deviceId: device.id } });
  const last = failure.data?.deviceCommands.nodes[0];
  return (
    <>
      <dt>Last contact</dt>
      <dd>{device.lastSeenAt ? `${when(device.lastSeenAt)} (${ago(device.lastSeenAt)})` : 'never'}</dd>
      {device.status !== 'online' && (
        <>
          <dt>Why not online</dt>
          <dd class="why">
            {device.status === 'pending'
              ? 'It has never called in: set this server as its cloud server address on the terminal, with this serial number.'
              : `It stopped calling in ${device.lastSeenAt ? ago(device.lastSeenAt) : ''}: check its power and network; commands wait until it is back.`}
          </dd>
        </>
      )}
      <dt>Last error</dt>
      <dd>
        {last
          ? `${last.verb} refused${last.returnCode !== null && last.returnCode !== undefined ? ` with return code ${last.returnCode}` : ''}, ${when(last.completedAt ?? last.createdAt)}`
          : 'none recorded'}
      </dd>
    </>
  );
}
