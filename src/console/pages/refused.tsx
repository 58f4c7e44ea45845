// Who was refused today: the access-denied door events of the day (in the workspace's zone), with
// the reason, filtered by the server by door, person, reason and time of day, so a busy day is
// complete (pages of 200, "Show more"); new refusals appear by themselves (each `accessDenied`
// event reads the list again).
import { useEffect, useRef, useState } from 'preact/hooks';
import { useClient, useQuery, useSubscription } from '@urql/preact';
import { errorMessage } from '../client';
import { Empty, ErrorNote, Section } from '../components';
import { useDirectory } from '../people';
import { REASON_LABELS, useDoorBoard } from '../door-board';
import { AccessDeniedFeedDocument, RefusalsDocument, WorkspaceNameDocument, type RefusalsQuery, type RefusalsQueryVariables } from '../gql';
import { eventPlace } from './doors';

const PAGE = 200;
type Refusal = RefusalsQuery['doorEvents']['nodes'][number];

/** Today's date in a time zone (`YYYY-MM-DD`). */
function todayIn(timeZone: string | undefined): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

export function Refused() {
  const client = useClient();
  const directory = useDirectory();
  const board = useDoorBoard(0);
  const [workspace] = useQuery({ query: WorkspaceNameDocument });
  const [filter, setFilter] = useState({ door: '', person: '', reason: '', from: '', to: '' });
  const [list, setList] = useState<{ loaded: boolean; error: string | null; rows: Refusal[]; total: number; all: number; next: string | null }>({
    loaded: false,
    error: null,
    rows: [],
    total: 0,
    all: 0,
    next: null,
  });
  const [version, setVersion] = useState(0);
  const timeZone = workspace.data?.workspace.timeZone;
  const day = todayIn(timeZone);
  const variables = (after: string | null): RefusalsQueryVariables => ({
    dayStart: day,
    dayEnd: day,
    startDate: `${day}T${filter.from || '00:00'}:00`,
    endDate: `${day}T${filter.to || '23:59'}:59`,
    doorId: filter.door ? Number(filter.door) : null,
    employeeId: filter.person ? Number(filter.person) : null,
    reason: (filter.reason || null) as RefusalsQueryVariables['reason'],
    first: PAGE,
    after,
  });
  // The newest read wins: a slower answer to older filters is dropped.
  const latest = useRef(0);
  const load = async (after: string | null) => {
    const ticket = ++latest.current;
    const result = await client.query(RefusalsDocument, variables(after), { requestPolicy: 'network-only' }).toPromise();
    if (ticket !== latest.current) return;
    if (result.error || !result.data) {
      setList((l) => ({ ...l, loaded: true, error: errorMessage(result.error) ?? 'The refusals could not be read.' }));
      return;
    }
    const page = result.data.doorEvents;
    setList((l) => ({
      loaded: true,
      error: null,
      rows: after ? [...l.rows, ...page.nodes] : page.nodes,
      total: page.totalCount,
      all: result.data!.all.totalCount,
      next: page.pageInfo.hasNextPage ? (page.pageInfo.endCursor ?? null) : null,
    }));
  };
  useEffect(() => {
    if (workspace.data) void load(null);
  }, [workspace.data, day, filter.door, filter.person, filter.reason, filter.from, filter.to, version]);
  const due = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(due.current ?? undefined), []);
  useSubscription({ query: AccessDeniedFeedDocument }, (_, event) => {
    if (!due.current)
      due.current = setTimeout(() => {
        due.current = null;
        setVersion((v) => v + 1);
      }, 200);
    return event;
  });
  const who = (e: Refusal) => (e.pin && e.pin !== '0' ? directory.employeeName(e.employeeId, e.pin) : 'no person (card or unknown)');
  const people = [...directory.employees].sort((a, b) => `${a.name} ${a.lastname}`.localeCompare(`${b.name} ${b.lastname}`));
  const set = (key: keyof typeof filter) => (e: Event) => setFilter({ ...filter, [key]: (e.target as HTMLInputElement).value });
  return (
    <Section title="Who was refused today">
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <p class="field">
          <label for="refused-door">Door</label>
          <select id="refused-door" value={filter.door} onChange={set('door')}>
            <option value="">All doors</option>
            {board.doors.map((d) => (
              <option value={d.id}>
                {d.name} ({d.device.name})
              </option>
            ))}
          </select>
        </p>
        <p class="field">
          <label for="refused-person">Person</label>
          <select id="refused-person" value={filter.person} onChange={set('person')}>
            <option value="">Everyone</option>
            {people.map((e) => (
              <option value={e.id}>
                {e.name} {e.lastname}
              </option>
            ))}
          </select>
        </p>
        <p class="field">
          <label for="refused-reason">Reason</label>
          <select id="refused-reason" value={filter.reason} onChange={set('reason')}>
            <option value="">Every reason</option>
            {Object.entries(REASON_LABELS).map(([reason, label]) => (
              <option value={reason}>{label}</option>
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
      <ErrorNote message={list.error} />
      {!list.loaded ? (
        <p role="status">Loading today's refusals…</p>
      ) : (
        <>
          <p class="muted" role="status">
            {list.total} of {list.all} refusals today{timeZone ? ` (${timeZone})` : ''}
            {list.rows.length < list.total ? `, the newest ${list.rows.length} shown` : ''}
          </p>
          {list.rows.length === 0 ? (
            <Empty>Nobody was refused{list.all > 0 ? ' with these filters' : ' today'}.</Empty>
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
                {list.rows.map((e) => (
                  <tr data-event={e.id}>
                    <td>{e.localTime.slice(11)}</td>
                    <td>{who(e)}</td>
                    <td>{eventPlace(e, board.doors, directory)}</td>
                    <td>{REASON_LABELS[e.reason ?? 'other'] ?? e.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {list.next && (
            <button type="button" class="secondary" onClick={() => void load(list.next)}>
              Show {PAGE} more
            </button>
          )}
        </>
      )}
    </Section>
  );
}
