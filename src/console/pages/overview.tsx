// The overview: a status board of every terminal that updates live, unclaimed terminals with a
// "register" action, the latest punches as they arrive, punches per hour, and the door alarms open now.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useMutation, useQuery, useSubscription } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { Empty, ErrorNote, Section, StatusBadge } from '../components';
import { when, today } from '../format';
import {
  DeviceStatusFeedDocument,
  PunchFeedDocument,
  PunchCountsByHourDocument,
  PunchesDocument,
  RegisterDeviceDocument,
  StatusBoardDocument,
  UnclaimedTerminalsDocument,
  type PunchFeedSubscription,
} from '../gql';
import { href } from '../router';
import { useDirectory } from '../people';
import { useDoorBoard } from '../door-board';
import { HourChart } from './hour-chart';

type Punch = PunchFeedSubscription['punchCreated']['punch'];

/** How long after a new punch the hour chart counts again (a burst of punches: one count). */
const RECOUNT_AFTER_MS = 2000;

/** Fired when this page registered a terminal: the board reads the devices again. */
const DEVICES_CHANGED = 'timegate:devices-changed';

function StatusBoard() {
  const [devices, refresh] = useQuery({ query: StatusBoardDocument });
  useEffect(() => {
    const changed = () => refresh({ requestPolicy: 'network-only' });
    addEventListener(DEVICES_CHANGED, changed);
    return () => removeEventListener(DEVICES_CHANGED, changed);
  }, []);
  const [changes] = useSubscription({ query: DeviceStatusFeedDocument }, (seen: Record<number, string> = {}, event) => ({
    ...seen,
    [event.deviceStatusChanged.change.deviceId]: event.deviceStatusChanged.change.status,
  }));
  const list = (devices.data?.devices.nodes ?? []).map((d) => ({ ...d, status: changes.data?.[d.id] ?? d.status }));
  const count = (status: string) => list.filter((d) => d.status === status).length;
  return (
    <Section title="Terminals">
      <ErrorNote message={errorMessage(devices.error)} />
      <ul class="counts" aria-label="Terminals by status">
        {(['online', 'offline', 'pending'] as const).map((status) => (
          <li class={`count count-${status}`} data-status={status}>
            <span class="count-value">{count(status)}</span> {status}
          </li>
        ))}
      </ul>
      {list.length === 0 ? (
        <Empty>No terminals yet: point a terminal at this service, then register it below.</Empty>
      ) : (
        <ul class="board" aria-label="Status board">
          {list.map((d) => (
            <li class={`tile tile-${d.status}`} data-serial={d.serialNumber}>
              <a href={href('devices', d.id)}>
                <span class="tile-name">{d.name}</span>
                <span class="tile-serial">{d.serialNumber}</span>
                <StatusBadge status={d.status} />
              </a>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Unclaimed() {
  const canWrite = useAllowed('write');
  const [terminals, refresh] = useQuery({ query: UnclaimedTerminalsDocument, variables: { withCompanies: canWrite } });
  const [registering, register] = useMutation(RegisterDeviceDocument);
  const [companyId, setCompanyId] = useState<number | null>(null);
  useEffect(() => {
    const timer = setInterval(() => refresh({ requestPolicy: 'network-only' }), 5000);
    return () => clearInterval(timer);
  }, []);
  const list = terminals.data?.unknownTerminals.nodes ?? [];
  const companies = terminals.data?.companies?.nodes ?? [];
  const company = companyId ?? companies[0]?.id ?? null;
  return (
    <Section title="Unclaimed terminals">
      {list.length === 0 ? (
        <Empty>No unknown terminal has called in.</Empty>
      ) : (
        <>
          {canWrite && (
            <p class="inline-form">
              <label for="register-company">Register into company</label>
              <select id="register-company" value={company ?? ''} onChange={(e) => setCompanyId(Number((e.target as HTMLSelectElement).value))}>
                {companies.map((c) => (
                  <option value={c.id}>{c.name}</option>
                ))}
              </select>
            </p>
          )}
          <table>
            <thead>
              <tr>
                <th scope="col">Serial</th>
                <th scope="col">Model</th>
                <th scope="col">Address</th>
                <th scope="col">Last seen</th>
                {canWrite && (
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {list.map((t) => (
                <tr>
                  <td>{t.serialNumber}</td>
                  <td>{t.model ?? '—'}</td>
                  <td>{t.ip}</td>
                  <td>{when(t.lastSeenAt)}</td>
                  {canWrite && (
                    <td>
                      <button
                        type="button"
                        disabled={registering.fetching || company === null}
                        onClick={async () => {
                          const result = await register({ input: { companyId: company!, name: t.model ?? t.serialNumber, serialNumber: t.serialNumber } });
                          refresh({ requestPolicy: 'network-only' });
                          if (result.data) dispatchEvent(new Event(DEVICES_CHANGED));
                        }}
                      >
                        Register {t.serialNumber}
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          <ErrorNote message={errorMessage(registering.error)} />
        </>
      )}
    </Section>
  );
}

function LatestPunches() {
  const directory = useDirectory();
  const day = useMemo(today, []);
  const [initial] = useQuery({ query: PunchesDocument, variables: { first: 12, startDate: day, endDate: day } });
  const [live] = useSubscription({ query: PunchFeedDocument }, (seen: Punch[] = [], event) => [event.punchCreated.punch, ...seen].slice(0, 500));
  const known = new Set((live.data ?? []).map((p) => p.id));
  const punches = [...(live.data ?? []), ...(initial.data?.punches.nodes ?? []).filter((p) => !known.has(p.id))];
  // The day's counts come from the service (every punch of the day, not a page of them); new
  // punches read them again, at most every few seconds on a busy day.
  const [hourly, recount] = useQuery({ query: PunchCountsByHourDocument, variables: { date: day } });
  const newest = live.data?.[0]?.id;
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (newest === undefined || pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      recount({ requestPolicy: 'network-only' });
    }, RECOUNT_AFTER_MS);
  }, [newest]);
  useEffect(() => () => clearTimeout(pending.current ?? undefined), []);
  return (
    <>
      <Section title="Punches per hour, today">
        <HourChart counts={hourly.data?.punchCountsByHour ?? Array.from({ length: 24 }, () => 0)} />
        <ErrorNote message={errorMessage(hourly.error)} />
      </Section>
      <Section title="Latest punches" actions={<a href={href('punches')}>All punches</a>}>
        {punches.length === 0 ? (
          <Empty>No punches today yet.</Empty>
        ) : (
          <ol class="feed" aria-label="Latest punches" aria-live="polite">
            {punches.slice(0, 12).map((p) => (
              <li data-punch={p.id}>
                <span class="feed-time">{p.localTime.slice(11)}</span> <strong>{directory.employeeName(p.employeeId, p.pin)}</strong>{' '}
                {directory.stateName(p.punchState)} on {directory.deviceName(p.deviceId, p.deviceSerial)} <span class="muted">{p.verifyType ?? ''}</span>
              </li>
            ))}
          </ol>
        )}
      </Section>
    </>
  );
}

/** Alarms open now: the doors' state as the API reports it, kept current by the alarm subscription. */
function OpenAlarms() {
  const board = useDoorBoard(0, { alarmedOnly: true });
  const list = board.doors.filter((d) => d.state.alarms.length > 0);
  return (
    <Section title="Open alarms" actions={<a href={href('doors')}>Door board</a>}>
      {!board.loaded ? (
        <p role="status">Loading the doors…</p>
      ) : list.length === 0 ? (
        <Empty>No door is in alarm.</Empty>
      ) : (
        <ul class="alarms" aria-label="Open alarms">
          {list.map((d) => (
            <li class="alarm">
              <strong>{d.state.alarms.map((a) => a.replaceAll('_', ' ')).join(', ')}</strong> · {d.name} of {d.device.name} · since {when(d.updatedAt)}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

export function Overview() {
  return (
    <div class="grid">
      <StatusBoard />
      <OpenAlarms />
      <LatestPunches />
      <Unclaimed />
    </div>
  );
}
