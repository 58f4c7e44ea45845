// A company's timesheet as a month or a week: one row per employee (in the order of their names),
// one cell per day, coloured by the day's status with the hours worked; a cell opens that person's
// day (punches, exceptions, late and early minutes, add or void a punch); totals per employee; the
// same rows as CSV from the REST surface. The grid is windowed: only the rows in view (and a few around them) are in the
// document, in a box that scrolls both ways with its scroll bars in view; the table still says how
// many rows it has (aria-rowcount) and which each drawn row is (aria-rowindex).
import { memo } from 'preact/compat';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useAttendanceDays, type AttendanceDayRow, type CompanyEmployee } from '../attendance-days';
import { useCompanyPicker } from '../company-picker';
import { Empty, ErrorNote, Section } from '../components';
import { today } from '../format';
import { useDirectory } from '../people';
import { storedKey } from '../session';
import { DayDetail } from './day-detail';

const BY_NAME = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
const WEEKDAY = new Intl.DateTimeFormat(undefined, { weekday: 'short', timeZone: 'UTC' });

/** Every status a day can have, in the legend's order, with what the legend says. */
const STATUSES: Array<[string, string]> = [
  ['present', 'present'],
  ['incomplete', 'incomplete'],
  ['absent', 'absent'],
  ['leave', 'leave (approved absence)'],
  ['holiday', 'holiday'],
  ['off', 'off'],
  ['scheduled', 'scheduled'],
  ['not_employed', 'not employed'],
];

function dates(start: string, count: number): string[] {
  const first = new Date(`${start}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(first.getTime() + i * 86_400_000).toISOString().slice(0, 10));
}

function monthRange(month: string): { start: string; end: string; days: string[] } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const days = dates(`${month}-01`, new Date(Date.UTC(year, m, 0)).getUTCDate());
  return { start: days[0]!, end: days.at(-1)!, days };
}

/** Monday to Sunday of the week that holds `day`. */
function weekRange(day: string): { start: string; end: string; days: string[] } {
  const d = new Date(`${day}T00:00:00Z`);
  const monday = new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
  const days = dates(monday, 7);
  return { start: days[0]!, end: days[6]!, days };
}

/** Every page of the REST CSV (per_page 1000), joined under one header, saved as a file. */
async function downloadCsv(companyId: number, start: string, end: string): Promise<void> {
  const parts: string[] = [];
  for (let page = 1; ; page++) {
    const response = await fetch(`/public/v2/timesheets?company_id=${companyId}&start_date=${start}&end_date=${end}&per_page=1000&page=${page}`, {
      headers: { authorization: `Bearer ${storedKey()}`, accept: 'text/csv' },
    });
    if (!response.ok) throw new Error(`CSV export failed (${response.status})`);
    const text = await response.text();
    parts.push(page === 1 ? text : text.slice(text.indexOf('\n') + 1));
    const total = Number(response.headers.get('X-Total-Count') ?? 0);
    if (page * 1000 >= total) break;
  }
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([parts.join('')], { type: 'text/csv' }));
  link.download = `timesheet-${start}_${end}.csv`;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** A row's height in px until one is measured (styles.css draws them 1.75rem tall, all alike). */
const ROW_HEIGHT = 28;
/** Rows drawn beyond each edge of the view: Tab and the arrow keys reach them before they scroll in. */
const OVERSCAN = 8;

/**
 * One employee's row. Its cells' buttons carry the person and the date; the table has one click
 * handler for all of them.
 */
const SheetRow = memo(function SheetRow({
  employee,
  row,
  days,
  index,
  openDate,
}: {
  employee: CompanyEmployee;
  row: Map<string, AttendanceDayRow>;
  days: string[];
  /** The row's position among all the rows (1: the first after the header). */
  index: number;
  /** The date whose day dialog is open for this person, if any. */
  openDate: string | null;
}) {
  const name = `${employee.name} ${employee.lastname}`;
  let worked = 0;
  let late = 0;
  for (const d of row.values()) {
    worked += d.workedMinutes;
    late += d.lateMinutes;
  }
  return (
    <tr data-employee={employee.id} aria-rowindex={index + 1}>
      <th scope="row" title={name}>
        {name}
      </th>
      {days.map((d) => {
        const day = row.get(d);
        if (!day)
          return (
            <td class="day cell-none">
              <span class="sr-only">no day</span>
            </td>
          );
        const flagged = day.lateMinutes > 0 || day.earlyLeaveMinutes > 0 || day.exceptions.length > 0;
        return (
          <td class={`day cell-${day.status}`}>
            <button
              type="button"
              class={flagged ? 'cell-button flagged' : 'cell-button'}
              data-employee-id={employee.id}
              data-date={d}
              aria-label={`${name}, ${d}: ${day.status.replace('_', ' ')}, ${(day.workedMinutes / 60).toFixed(1)} h${day.lateMinutes ? `, ${day.lateMinutes} min late` : ''}${flagged && !day.lateMinutes ? ', exceptions' : ''}`}
              aria-expanded={openDate === d}
            >
              {day.workedMinutes > 0 ? (day.workedMinutes / 60).toFixed(1) : '·'}
            </button>
          </td>
        );
      })}
      <td>{(worked / 60).toFixed(1)}</td>
      <td>{late > 0 ? `${late} min` : '—'}</td>
    </tr>
  );
});

/**
 * The grid: a box that scrolls both ways (its height at most what the window leaves), the header
 * row and the names kept in view (sticky), and only the rows in view drawn, with spacers standing
 * for the others. Arrow keys move between days and people, scrolling as needed.
 */
function SheetGrid({
  employees,
  byEmployee,
  days,
  view,
  label,
  resetKey,
  open,
  onOpen,
}: {
  employees: CompanyEmployee[];
  byEmployee: Map<number, Map<string, AttendanceDayRow>>;
  days: string[];
  view: 'month' | 'week';
  label: string;
  /** Another period, company or search: back to the first row. */
  resetKey: string;
  open: { employeeId: number; date: string } | null;
  onOpen: (cell: { employeeId: number; date: string }) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [span, setSpan] = useState({ top: 0, height: 600 });
  // Every row is as tall as the first one drawn (measured: fonts and zoom decide it).
  const [rowHeight, setRowHeight] = useState(ROW_HEIGHT);
  const [headHeight, setHeadHeight] = useState(ROW_HEIGHT);
  // Wider than its box (a phone): said under it, beside the box's own scroll bar.
  const [sideways, setSideways] = useState(false);
  const focusNext = useRef<{ employeeId: number; date: string } | null>(null);
  // The view's position, read on scroll (at most once a frame) and when the box changes size.
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      setSpan((s) => (s.top === element.scrollTop && s.height === element.clientHeight ? s : { top: element.scrollTop, height: element.clientHeight }));
      setSideways(element.scrollWidth > element.clientWidth);
    };
    const later = () => {
      if (!frame) frame = requestAnimationFrame(read);
    };
    read();
    element.addEventListener('scroll', later, { passive: true });
    const resized = new ResizeObserver(later);
    resized.observe(element);
    return () => {
      element.removeEventListener('scroll', later);
      resized.disconnect();
      cancelAnimationFrame(frame);
    };
  }, []);
  useLayoutEffect(() => {
    const row = box.current?.querySelector('tbody tr[data-employee]');
    const head = box.current?.querySelector('thead');
    const h = row?.getBoundingClientRect().height;
    if (h && Math.abs(h - rowHeight) > 0.01) setRowHeight(h);
    const hh = head?.getBoundingClientRect().height;
    if (hh && Math.abs(hh - headHeight) > 0.01) setHeadHeight(hh);
  });
  useEffect(() => {
    if (box.current) box.current.scrollTop = 0;
  }, [resetKey]);
  const first = Math.max(0, Math.floor((span.top - headHeight) / rowHeight) - OVERSCAN);
  const last = Math.min(employees.length, Math.ceil((span.top + span.height - headHeight) / rowHeight) + OVERSCAN);
  // After an arrow key moved past the drawn rows: focus the cell once its row is drawn.
  useEffect(() => {
    const wanted = focusNext.current;
    if (!wanted) return;
    const button = box.current?.querySelector<HTMLButtonElement>(`button[data-employee-id="${wanted.employeeId}"][data-date="${wanted.date}"]`);
    if (button) {
      focusNext.current = null;
      button.focus();
    }
  });
  const move = (event: KeyboardEvent) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-date]');
    const step = ({ ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] } as Record<string, [number, number]>)[event.key];
    if (!button || !step) return;
    // Keys pressed faster than the rows are drawn move on from where the last one went.
    const from = focusNext.current ?? { employeeId: Number(button.dataset.employeeId), date: button.dataset.date! };
    const row = employees.findIndex((e) => e.id === from.employeeId);
    const column = days.indexOf(from.date);
    // The next day the person has (a cell without a day has no button), or the same day of the next person who has it.
    for (let r = row + step[0], c = column + step[1]; r >= 0 && r < employees.length && c >= 0 && c < days.length; r += step[0], c += step[1]) {
      const employee = employees[r]!;
      if (!byEmployee.get(employee.id)?.has(days[c]!)) continue;
      event.preventDefault();
      focusNext.current = { employeeId: employee.id, date: days[c]! };
      const element = box.current!;
      // Row r lies from r rows below the header; the header stays on top of the view.
      if (r * rowHeight < element.scrollTop) element.scrollTop = r * rowHeight;
      else if (headHeight + (r + 1) * rowHeight > element.scrollTop + element.clientHeight)
        element.scrollTop = headHeight + (r + 1) * rowHeight - element.clientHeight;
      setSpan({ top: element.scrollTop, height: element.clientHeight });
      return;
    }
  };
  const columns = days.length + 3;
  return (
    <>
      <div class={`sheet-scroll sheet-scroll-${view}`} ref={box} onKeyDown={move}>
        <table
          class={`sheet sheet-${view}`}
          aria-label={label}
          aria-rowcount={employees.length + 1}
          aria-colcount={columns}
          onClick={(event) => {
            const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-date]');
            if (button) onOpen({ employeeId: Number(button.dataset.employeeId), date: button.dataset.date! });
          }}
        >
          <colgroup>
            <col class="col-name" />
            {days.map(() => (
              <col class="col-day" />
            ))}
            <col class="col-hours" />
            <col class="col-late" />
          </colgroup>
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col">Employee</th>
              {days.map((d) => (
                <th scope="col" class="day">
                  {view === 'week' ? `${WEEKDAY.format(new Date(`${d}T00:00:00Z`))} ${Number(d.slice(8))}` : Number(d.slice(8))}
                </th>
              ))}
              <th scope="col">Hours</th>
              <th scope="col">Late</th>
            </tr>
          </thead>
          <tbody>
            {first > 0 && (
              <tr class="spacer" aria-hidden="true" style={{ height: `${first * rowHeight}px` }}>
                <td colSpan={columns} />
              </tr>
            )}
            {employees.slice(first, last).map((e, i) => (
              <SheetRow
                key={e.id}
                employee={e}
                row={byEmployee.get(e.id)!}
                days={days}
                index={first + i + 1}
                openDate={open?.employeeId === e.id ? open.date : null}
              />
            ))}
            {last < employees.length && (
              <tr class="spacer" aria-hidden="true" style={{ height: `${(employees.length - last) * rowHeight}px` }}>
                <td colSpan={columns} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {sideways && <p class="hint">The names stay in view: scroll the grid sideways for the other days and the totals.</p>}
    </>
  );
}

/** `month` (`YYYY-MM`, from the address `#/timesheets/2026-03`): the month to open, else this month. */
export function Timesheets({ month: initialMonth }: { month?: string }) {
  const directory = useDirectory();
  const { companyId, picker } = useCompanyPicker('timesheet-company');
  const [view, setView] = useState<'month' | 'week'>('month');
  const [month, setMonth] = useState(initialMonth && /^\d{4}-\d{2}$/.test(initialMonth) ? initialMonth : today().slice(0, 7));
  const [weekOf, setWeekOf] = useState(today());
  const [search, setSearch] = useState('');
  const [version, setVersion] = useState(0);
  const [open, setOpen] = useState<{ employeeId: number; date: string } | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  // Kept between renders (the rows are memoised on them): a range's dates, and its days by person.
  const { start, end, days } = useMemo(() => (view === 'month' ? monthRange(month) : weekRange(weekOf)), [view, month, weekOf]);
  const sheet = useAttendanceDays(companyId, start, end, version);
  const byEmployee = useMemo(() => {
    const rows = new Map<number, Map<string, AttendanceDayRow>>();
    for (const day of sheet.days ?? []) {
      const row = rows.get(day.employeeId) ?? new Map<string, AttendanceDayRow>();
      row.set(day.date, day);
      rows.set(day.employeeId, row);
    }
    return rows;
  }, [sheet.days]);
  // In the order HR reads a list of people: by last name, then first name (the API lists them by id,
  // which is the order they were created in).
  const withDays = useMemo(
    () =>
      sheet.employees
        .filter((e) => byEmployee.has(e.id))
        .sort((a, b) => BY_NAME.compare(a.lastname, b.lastname) || BY_NAME.compare(a.name, b.name) || a.id - b.id),
    [sheet.employees, byEmployee],
  );
  const words = search.trim().toLowerCase();
  const employees = useMemo(
    () => (words ? withDays.filter((e) => `${e.name} ${e.lastname} ${e.code}`.toLowerCase().includes(words)) : withDays),
    [withDays, words],
  );
  // Switching the view keeps the period shown: a month opens on its week holding today (or its
  // first week), a week opens on its month.
  const switchView = (next: 'month' | 'week') => {
    if (next === 'week') setWeekOf(today().startsWith(month) ? today() : `${month}-01`);
    else setMonth(weekOf.slice(0, 7));
    setView(next);
  };
  const openDay = open && sheet.employees.find((e) => e.id === open.employeeId);
  return (
    <div class="stack">
      <Section
        title="Timesheets"
        actions={
          companyId > 0 && (
            <button
              type="button"
              onClick={() =>
                downloadCsv(companyId, start, end).then(
                  () => setExportError(null),
                  (e: Error) => setExportError(e.message),
                )
              }
            >
              Export CSV
            </button>
          )
        }
      >
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          {picker}
          <p class="field">
            <label for="timesheet-view">View</label>
            <select id="timesheet-view" value={view} onChange={(e) => switchView((e.target as HTMLSelectElement).value as 'month' | 'week')}>
              <option value="month">Month</option>
              <option value="week">Week</option>
            </select>
          </p>
          {view === 'month' ? (
            <p class="field">
              <label for="timesheet-month">Month</label>
              <input id="timesheet-month" type="month" value={month} onChange={(e) => setMonth((e.target as HTMLInputElement).value || month)} />
            </p>
          ) : (
            <p class="field">
              <label for="timesheet-week">Week of</label>
              <input id="timesheet-week" type="date" value={weekOf} onChange={(e) => setWeekOf((e.target as HTMLInputElement).value || weekOf)} />
            </p>
          )}
          <p class="field">
            <label for="timesheet-search">Find a person</label>
            <input
              id="timesheet-search"
              type="search"
              maxLength={100}
              placeholder="name or code"
              value={search}
              onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
            />
          </p>
        </form>
        <ErrorNote message={sheet.error ?? exportError} />
        <ul class="legend" aria-label="Legend">
          {STATUSES.map(([status, words]) => (
            <li>
              <span class={`cell-${status} swatch`} /> {words}
            </li>
          ))}
          <li>
            <span class="late-mark">!</span> late, left early or an exception
          </li>
        </ul>
        {sheet.days === null ? (
          <p role="status">Loading the timesheet…</p>
        ) : withDays.length === 0 ? (
          <Empty>No attendance days in this {view}.</Empty>
        ) : (
          <>
            <p class="muted" role="status">
              {words ? `${employees.length} of ${withDays.length} people match “${search.trim()}”.` : `${withDays.length} people.`}
            </p>
            {employees.length > 0 && (
              <SheetGrid
                employees={employees}
                byEmployee={byEmployee}
                days={days}
                view={view}
                label={`Timesheet ${start} to ${end}`}
                resetKey={`${companyId} ${start} ${end} ${words}`}
                open={open}
                onOpen={setOpen}
              />
            )}
          </>
        )}
      </Section>
      {open && (
        <DayDetail
          key={`${open.employeeId}:${open.date}`}
          employeeId={open.employeeId}
          name={openDay ? `${openDay.name} ${openDay.lastname}` : undefined}
          companyId={companyId}
          date={open.date}
          directory={directory}
          onClose={() => setOpen(null)}
          onChanged={() => setVersion((v) => v + 1)}
        />
      )}
    </div>
  );
}
