// Who was refused today: every access-denied door event of the day with the reason, filterable by
// door, person and time of day; new refusals appear by themselves (the board reads the events
// again on each one).
import { useState } from 'preact/hooks';
import { Empty, ErrorNote, Section } from '../components';
import { today } from '../format';
import { useDirectory } from '../people';
import { REASON_LABELS, denialReason, useDoorBoard } from '../door-board';
import { eventPlace } from './doors';

export function Refused() {
  const directory = useDirectory();
  const board = useDoorBoard(1000);
  const [filter, setFilter] = useState({ door: '', person: '', from: '', to: '' });
  const day = today();
  const refusals = board.events.filter((e) => e.eventClass === 'denied' && e.localTime.startsWith(day));
  const doorKey = (deviceId: number | null | undefined, number: number | null | undefined) => `${deviceId}:${number}`;
  const who = (e: (typeof refusals)[number]) => (e.pin && e.pin !== '0' ? directory.employeeName(e.employeeId, e.pin) : 'no person (card or unknown)');
  const people = [...new Map(refusals.map((e) => [e.employeeId ? `e${e.employeeId}` : `p${e.pin}`, who(e)])).entries()].sort((a, b) =>
    a[1].localeCompare(b[1]),
  );
  const shown = refusals.filter((e) => {
    const time = e.localTime.slice(11, 16);
    return (
      (!filter.door || doorKey(e.deviceId, e.door) === filter.door) &&
      (!filter.person || (e.employeeId ? `e${e.employeeId}` : `p${e.pin}`) === filter.person) &&
      (!filter.from || time >= filter.from) &&
      (!filter.to || time <= filter.to)
    );
  });
  const set = (key: keyof typeof filter) => (e: Event) => setFilter({ ...filter, [key]: (e.target as HTMLInputElement).value });
  return (
    <Section title="Who was refused today">
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <p class="field">
          <label for="refused-door">Door</label>
          <select id="refused-door" value={filter.door} onChange={set('door')}>
            <option value="">All doors</option>
            {board.doors.map((d) => (
              <option value={doorKey(d.deviceId, d.number)}>
                {d.name} ({d.device.name})
              </option>
            ))}
          </select>
        </p>
        <p class="field">
          <label for="refused-person">Person</label>
          <select id="refused-person" value={filter.person} onChange={set('person')}>
            <option value="">Everyone</option>
            {people.map(([key, name]) => (
              <option value={key}>{name}</option>
            ))}
          </select>
        </p>
        <p class="field">
          <label for="refused-from">From (time)</label>
          <input id="refused-from" type="time" value={filter.from} onInput={set('from')} />
        </p>
        <p class="field">
          <label for="refused-to">To (time)</label>
          <input id="refused-to" type="time" value={filter.to} onInput={set('to')} />
        </p>
      </form>
      <ErrorNote message={board.error} />
      {!board.loaded ? (
        <p role="status">Loading today's door events…</p>
      ) : (
        <>
          <p class="muted" role="status">
            {shown.length} of {refusals.length} refusals today
          </p>
          {shown.length === 0 ? (
            <Empty>Nobody was refused{refusals.length > 0 ? ' with these filters' : ' today'}.</Empty>
          ) : (
            <table class="fold-on-phone">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Who</th>
                  <th scope="col">Where</th>
                  <th scope="col">Why</th>
                </tr>
              </thead>
              <tbody aria-live="polite">
                {shown.map((e) => (
                  <tr data-event={e.id}>
                    <td>{e.localTime.slice(11)}</td>
                    <td>{who(e)}</td>
                    <td>{eventPlace(e, board.doors, directory)}</td>
                    <td>{REASON_LABELS[denialReason(e.eventCode)]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </Section>
  );
}
