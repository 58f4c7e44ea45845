// Access control: each company's schedules (their intervals per weekday) and access levels.
import { useQuery } from '@urql/preact';
import { errorMessage } from '../client';
import { Empty, ErrorNote, Section } from '../components';
import { AccessDocument } from '../gql';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export function Access() {
  const [access] = useQuery({ query: AccessDocument, variables: {} });
  const schedules = access.data?.accessSchedules.nodes ?? [];
  const levels = access.data?.accessLevels.nodes ?? [];
  const scheduleName = new Map(schedules.map((s) => [s.id, s.name]));
  return (
    <div class="grid">
      <Section title="Access schedules">
        <ErrorNote message={errorMessage(access.error)} />
        <table>
          <thead><tr><th scope="col">Schedule</th>{WEEKDAYS.map((d) => <th scope="col">{d}</th>)}</tr></thead>
          <tbody>
            {schedules.map((s) => (
              <tr>
                <th scope="row">{s.name}</th>
                {WEEKDAYS.map((_, i) => (
                  <td>{s.intervals.filter((v) => v.weekday === i + 1).map((v) => `${v.startTime}–${v.endTime}`).join(', ') || '—'}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <Section title="Access levels">
        {levels.length === 0 ? (
          <Empty>No access levels: people on a terminal may open all its doors at any hour.</Empty>
        ) : (
          <table>
            <thead><tr><th scope="col">Level</th><th scope="col">Schedule</th><th scope="col">Doors</th></tr></thead>
            <tbody>
              {levels.map((l) => (
                <tr><td>{l.name}</td><td>{scheduleName.get(l.scheduleId) ?? l.scheduleId}</td><td>{l.doorIds.length}</td></tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </div>
  );
}
