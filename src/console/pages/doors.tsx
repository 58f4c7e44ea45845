// The security operator's door board: the alarms open now (read from the doors' state, so an alarm
// raised before the page opened is there), every door with its lock and sensor and the commands
// open / hold open / close / cancel alarm, and the last door events with people by name.
import { useEffect, useState } from 'preact/hooks';
import { useClient, useMutation } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { ConfirmButton, Empty, ErrorNote, Section, StatusBadge } from '../components';
import { when } from '../format';
import { DoorActionStatusDocument, OpenDoorDocument } from '../gql';
import { useDirectory, type Directory } from '../people';
import { REASON_LABELS, denialReason, useDoorBoard, type BoardDoor, type BoardEvent } from '../door-board';
import { href } from '../router';
import { DOOR_STATE_LABELS, useDoorLockdowns, type DoorLockdown } from '../lockdown-state';

// `no_answer`: delivered and never answered (the action stays `sent`; the door may have opened).
const FINAL = ['succeeded', 'failed', 'expired', 'no_answer'];

export const alarmLabel = (kind: string) => kind.replaceAll('_', ' ');

/** A door event in words. */
export function describeEvent(e: BoardEvent): string {
  if (e.eventClass === 'granted') return `access granted${e.verifyType ? ` (${e.verifyType})` : ''}`;
  if (e.eventClass === 'denied') return `refused: ${REASON_LABELS[denialReason(e.eventCode)]}`;
  if (e.eventClass === 'door')
    return (
      ({ 200: 'door opened', 201: 'door closed', 8: 'opened remotely', 9: 'opened remotely' } as Record<number, string>)[e.eventCode] ??
      `door event ${e.eventCode}`
    );
  if (e.eventClass === 'alarm')
    return ({ 28: 'alarm: held open', 102: 'alarm: forced open' } as Record<number, string>)[e.eventCode] ?? `alarm (code ${e.eventCode})`;
  return ({ 6: 'linkage triggered', 7: 'alarm cancelled' } as Record<number, string>)[e.eventCode] ?? `${e.eventClass} event ${e.eventCode}`;
}

/** "Front door (Gate controller)": where an event happened. */
export function eventPlace(e: BoardEvent, doors: BoardDoor[], directory: Directory): string {
  const door = doors.find((d) => d.deviceId === e.deviceId && d.number === e.door);
  const device = directory.deviceName(e.deviceId, e.deviceSerial);
  return door ? `${door.name} (${device})` : e.door ? `door ${e.door} (${device})` : device;
}

/** One door command, followed until the controller answers. */
function DoorCommand({
  door,
  action,
  label,
  confirm,
  onDone,
}: {
  door: BoardDoor;
  action: string;
  label: string;
  confirm?: { title: string; text: string; button: string };
  onDone: () => void;
}) {
  const client = useClient();
  const [sending, send] = useMutation(OpenDoorDocument);
  const [status, setStatus] = useState<string | null>(null);
  const [actionId, setActionId] = useState<string | null>(null);
  useEffect(() => {
    if (!actionId || (status && FINAL.includes(status))) return;
    const timer = setInterval(async () => {
      const result = await client.query(DoorActionStatusDocument, { actionId }, { requestPolicy: 'network-only' }).toPromise();
      const found = result.data?.doorAction;
      const next = found && (found.status === 'sent' && found.statusDetail === 'no_answer' ? 'no_answer' : found.status);
      if (next) setStatus(next);
      if (next && FINAL.includes(next)) onDone();
    }, 400);
    return () => clearInterval(timer);
  }, [actionId, status]);
  const run = async () => {
    setStatus(null);
    const result = await send({ doorId: door.id, input: action === 'unlock' ? { action, duration: 5 } : { action } });
    if (result.data) {
      setActionId(result.data.performDoorAction.actionId);
      setStatus(result.data.performDoorAction.status);
    }
  };
  const busy = sending.fetching || (status !== null && !FINAL.includes(status));
  return (
    <span class="door-action">
      {confirm ? (
        <ConfirmButton label={label} labelDetail={door.name} title={confirm.title} confirm={confirm.button} disabled={busy} onConfirm={run}>
          <p>{confirm.text}</p>
        </ConfirmButton>
      ) : (
        <button type="button" class="secondary" disabled={busy} onClick={run}>
          {label}
          <span class="sr-only"> {door.name}</span>
        </button>
      )}
      {status && (
        <span role="status" aria-label={`${label} ${door.name}: ${status}`}>
          <StatusBadge status={status} />
        </span>
      )}
      <ErrorNote message={errorMessage(sending.error)} />
    </span>
  );
}

function DoorCommands({ door, onDone }: { door: BoardDoor; onDone: () => void }) {
  const where = `${door.name} of ${door.device.name}`;
  return (
    <span class="door-commands">
      <DoorCommand door={door} action="unlock" label="Open 5 s" onDone={onDone} />
      <DoorCommand
        door={door}
        action="hold_open"
        label="Hold open"
        onDone={onDone}
        confirm={{ title: `Hold ${where} open?`, text: 'The lock stays released, for anyone, until someone presses Close.', button: 'Hold open' }}
      />
      <DoorCommand door={door} action="close" label="Close" onDone={onDone} />
      {door.state.alarms.length > 0 && (
        <DoorCommand
          door={door}
          action="cancel_alarm"
          label="Cancel alarm"
          onDone={onDone}
          confirm={{
            title: `Cancel the alarm of ${where}?`,
            text: `The ${door.state.alarms.map(alarmLabel).join(', ')} alarm is silenced on the controller. Check the door first.`,
            button: 'Cancel alarm',
          }}
        />
      )}
    </span>
  );
}

/** A door of an active lockdown or evacuation, and whether its controller confirmed it yet. */
function LockdownMark({ mark }: { mark: DoorLockdown }) {
  const evacuation = mark.mode === 'evacuate';
  const text =
    mark.state === 'confirmed'
      ? evacuation
        ? 'evacuation: held open'
        : 'locked down'
      : mark.state === 'failed'
        ? `${evacuation ? 'evacuation' : 'lockdown'} failed`
        : `${evacuation ? 'evacuation' : 'lockdown'}: ${DOOR_STATE_LABELS[mark.state] ?? mark.state}`;
  const tone = mark.state === 'confirmed' ? 'locked' : mark.state === 'failed' || mark.state === 'release_failed' ? 'failed' : 'pending';
  return (
    <a href={href('lockdowns')} class={`badge badge-${tone}`} title={mark.reason}>
      {text}
    </a>
  );
}

export function DoorBoardPage() {
  const canCommand = useAllowed('doors:unlock');
  const directory = useDirectory();
  const board = useDoorBoard();
  const alarmed = board.doors.filter((d) => d.state.alarms.length > 0);
  const lockdowns = useDoorLockdowns();
  const lockedDown = board.doors.filter((d) => lockdowns.has(d.id));
  return (
    <div class="stack">
      <Section title="Alarms open now">
        <ErrorNote message={board.error} />
        {!board.loaded ? (
          <p role="status">Loading the doors…</p>
        ) : alarmed.length === 0 ? (
          <Empty>No door is in alarm.</Empty>
        ) : (
          <ul class="alarms" aria-label="Alarms open now">
            {alarmed.map((d) => (
              <li class="alarm">
                <strong>{d.state.alarms.map(alarmLabel).join(', ')}</strong> · {d.name} of <a href={href('devices', d.deviceId)}>{d.device.name}</a>{' '}
                <span class="muted">since {when(d.updatedAt)}</span>
                {canCommand && (
                  <DoorCommand
                    door={d}
                    action="cancel_alarm"
                    label="Cancel alarm"
                    onDone={board.reload}
                    confirm={{
                      title: `Cancel the alarm of ${d.name} of ${d.device.name}?`,
                      text: `The ${d.state.alarms.map(alarmLabel).join(', ')} alarm is silenced on the controller. Check the door first.`,
                      button: 'Cancel alarm',
                    }}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Doors">
        {lockedDown.length > 0 && (
          <p class="lockdown-note" role="status">
            {lockedDown.length} door{lockedDown.length === 1 ? ' is' : 's are'} in a lockdown or evacuation: <a href={href('lockdowns')}>see the lockdowns</a>.
          </p>
        )}
        {board.loaded && board.doors.length === 0 ? (
          <Empty>No access-control terminal with doors.</Empty>
        ) : (
          <table class="fold-on-phone">
            <thead>
              <tr>
                <th scope="col">Door</th>
                <th scope="col">Controller</th>
                <th scope="col">Lock</th>
                <th scope="col">Sensor</th>
                <th scope="col">Alarms</th>
                {canCommand && (
                  <th scope="col">
                    <span class="sr-only">Commands</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {board.doors.map((d) => (
                <tr data-door={d.id}>
                  <th scope="row">{d.name}</th>
                  <td>
                    <a href={href('devices', d.deviceId)}>{d.device.name}</a> <StatusBadge status={d.device.status} />
                  </td>
                  <td data-label="Lock">
                    {d.state.relay === 'unlocked' ? 'released' : d.state.relay}
                    {lockdowns.has(d.id) && (
                      <>
                        {' '}
                        <LockdownMark mark={lockdowns.get(d.id)!} />
                      </>
                    )}
                  </td>
                  <td data-label="Sensor">{d.state.sensor}</td>
                  <td data-label="Alarms">
                    {d.state.alarms.length === 0 ? 'none' : <span class="badge badge-failed">{d.state.alarms.map(alarmLabel).join(', ')}</span>}
                  </td>
                  {canCommand && (
                    <td>
                      <DoorCommands door={d} onDone={board.reload} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      <Section title="Last door events" actions={<a href={href('refused')}>Who was refused today</a>}>
        {board.events.length === 0 ? (
          <Empty>No door events yet.</Empty>
        ) : (
          <table class="fold-on-phone">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Where</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
              </tr>
            </thead>
            <tbody aria-live="polite">
              {board.events.slice(0, 25).map((e) => (
                <tr data-event={e.id}>
                  <td>{e.localTime}</td>
                  <td>{eventPlace(e, board.doors, directory)}</td>
                  <td>{e.pin && e.pin !== '0' ? directory.employeeName(e.employeeId, e.pin) : '—'}</td>
                  <td>{describeEvent(e)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </div>
  );
}
