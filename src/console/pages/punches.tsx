// Punches: a date range with filters, and the live feed on top while the range includes today;
// people, terminals and punch types by name.
import { useState } from 'preact/hooks';
import { useQuery, useSubscription } from '@urql/preact';
import { errorMessage } from '../client';
import { Empty, ErrorNote, Section } from '../components';
import { today } from '../format';
import { DevicesDocument, PunchFeedDocument, PunchesDocument, type PunchFeedSubscription } from '../gql';
import { useDirectory } from '../people';

/** Where a punch came from (docs/self-service.md), in words. */
const SOURCE_NAMES: Record<string, string> = { terminal: 'Terminal', manual: 'Manual entry', correction: 'Punch correction', mobile: 'Phone' };

type Punch = PunchFeedSubscription['punchCreated']['punch'];

export function PunchList() {
  const directory = useDirectory();
  const [range, setRange] = useState({ start: today(), end: today(), deviceId: '' });
  const [devices] = useQuery({ query: DevicesDocument, variables: { first: 1000 } });
  const deviceId = range.deviceId ? Number(range.deviceId) : null;
  const [punches] = useQuery({ query: PunchesDocument, variables: { first: 1000, startDate: range.start, endDate: range.end, deviceId } });
  const [live] = useSubscription({ query: PunchFeedDocument }, (seen: Punch[] = [], event) => [event.punchCreated.punch, ...seen].slice(0, 1000));
  const includesToday = range.end >= today();
  const stored = punches.data?.punches.nodes ?? [];
  const known = new Set(stored.map((p) => p.id));
  const fresh = includesToday ? (live.data ?? []).filter((p) => !known.has(p.id) && (deviceId === null || p.deviceId === deviceId)) : [];
  const list = [...fresh, ...[...stored].reverse()];
  const set = (key: keyof typeof range) => (e: Event) => setRange({ ...range, [key]: (e.target as HTMLInputElement).value });
  return (
    <Section title="Punches">
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <p class="field">
          <label for="punches-from">From</label>
          <input id="punches-from" type="date" value={range.start} onChange={set('start')} />
        </p>
        <p class="field">
          <label for="punches-to">To</label>
          <input id="punches-to" type="date" value={range.end} onChange={set('end')} />
        </p>
        <p class="field">
          <label for="punches-device">Device</label>
          <select id="punches-device" value={range.deviceId} onChange={set('deviceId')}>
            <option value="">All devices</option>
            {(devices.data?.devices.nodes ?? []).map((d) => (
              <option value={d.id}>
                {d.name} ({d.serialNumber})
              </option>
            ))}
          </select>
        </p>
      </form>
      <ErrorNote message={errorMessage(punches.error)} />
      <p class="muted" role="status">
        {list.length} punches
        {punches.data && punches.data.punches.totalCount > stored.length ? ` (the first ${stored.length} of ${punches.data.punches.totalCount} stored)` : ''}
      </p>
      {list.length === 0 ? (
        <Empty>No punches in this range.</Empty>
      ) : (
        <table class="fold-on-phone">
          <thead>
            <tr>
              <th scope="col">Local time</th>
              <th scope="col">Person</th>
              <th scope="col">Terminal</th>
              <th scope="col">Type</th>
              <th scope="col">Verified by</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody aria-live="polite">
            {list.map((p) => (
              <tr data-punch={p.id}>
                <td>{p.localTime}</td>
                <td>{directory.employeeName(p.employeeId, p.pin)}</td>
                <td>{directory.deviceName(p.deviceId, p.deviceSerial)}</td>
                <td>{directory.stateName(p.punchState)}</td>
                <td>{p.verifyType ?? '—'}</td>
                <td>{p.source === 'mobile' ? `Phone${p.geofenceId != null ? ` (geofence ${p.geofenceId})` : ''}` : SOURCE_NAMES[p.source]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
