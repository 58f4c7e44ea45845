// A company's timesheet as a month or a week: one row per employee, one cell per day, coloured by
// the day's status with the hours worked; a cell opens that person's day (punches, exceptions,
// late and early minutes, add or void a punch); totals per employee; the same rows as CSV from the
// REST surface.
import { memo } from 'preact/compat';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useAttendanceDays, type AttendanceDayRow } from '../attendance-days';
import { useCompanyPicker } from '../company-picker';
import { Empty, ErrorNote, Section } from '../components';
import { today } from '../format';
import { useDirectory } from '../people';
import { storedKey } from '../session';
import { DayDetail } from './day-detail';

const WEEKDAY = new Intl.DateTimeFormat(undefined, { weekday: 'short', timeZone: 'UTC' });

const STATUSES = ['present', 'incomplete', 'absent', 'holiday', 'off', 'scheduled'];

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

/** The month grid's column widths (styles.css: .sheet-month .col-*): name, each day, hours and late together. */
const MONTH_COLUMNS_REM = { name: 12, day: 2.6, totals: 9 };

/** Rows drawn in the first go (a screen and more); the rest follow in the next frame. */
const FIRST_ROWS = 60;

/**
 * How many of `total` rows to draw: the first screen at once, the rest in the next frame, so the
 * first rows are shown and usable while the others are drawn. Two steps, not a slice per frame: the
 * cost of a large grid is the browser laying out every row again at each step (measured), not
 * making the rows (each drawn row is kept: SheetRow is memoised).
 */
function useRowsDrawn(total: number, key: unknown): number {
  const [drawn, setDrawn] = useState(FIRST_ROWS);
  useEffect(() => setDrawn(FIRST_ROWS), [key]);
  useEffect(() => {
    if (drawn >= total) return;
    const frame = requestAnimationFrame(() => setDrawn(total));
    return () => cancelAnimationFrame(frame);
  }, [drawn, total]);
  return Math.min(drawn, total);
}

/**
 * One employee's row. Its cells' buttons carry the person and the date; the table has one click
 * handler for all of them (a month of 1,000 people has 31,000 cells).
 */
const SheetRow = memo(function SheetRow({
  employee,
  row,
  days,
  openDate,
}: {
  employee: { id: number; name: string; lastname: string };
  row: Map<string, AttendanceDayRow>;
  days: string[];
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
    <tr data-employee={employee.id}>
      <th scope="row">{name}</th>
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
              aria-label={`${name}, ${d}: ${day.status}, ${(day.workedMinutes / 60).toFixed(1)} h${day.lateMinutes ? `, ${day.lateMinutes} min late` : ''}${flagged && !day.lateMinutes ? ', exceptions' : ''}`}
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

/** `month` (`YYYY-MM`, from the address `#/timesheets/2026-03`): the month to open, else this month. */
export function Timesheets({ month: initialMonth }: { month?: string }) {
  const directory = useDirectory();
  const { companyId, picker } = useCompanyPicker('timesheet-company');
  const [view, setView] = useState<'month' | 'week'>('month');
  const [month, setMonth] = useState(initialMonth && /^\d{4}-\d{2}$/.test(initialMonth) ? initialMonth : today().slice(0, 7));
  const [weekOf, setWeekOf] = useState(today());
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
  const employees = useMemo(() => sheet.employees.filter((e) => byEmployee.has(e.id)), [sheet.employees, byEmployee]);
  const drawn = useRowsDrawn(employees.length, sheet.days);
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
            <select id="timesheet-view" value={view} onChange={(e) => setView((e.target as HTMLSelectElement).value as 'month' | 'week')}>
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
        </form>
        <ErrorNote message={sheet.error ?? exportError} />
        <ul class="legend" aria-label="Legend">
          {STATUSES.map((s) => (
            <li>
              <span class={`cell-${s} swatch`} /> {s}
            </li>
          ))}
          <li>
            <span class="late-mark">!</span> late, left early or an exception
          </li>
        </ul>
        {sheet.days === null ? (
          <p role="status">Loading the timesheet…</p>
        ) : employees.length === 0 ? (
          <Empty>No attendance days in this {view}.</Empty>
        ) : (
          <div class="sheet-scroll">
            <table
              class={`sheet sheet-${view}`}
              aria-label={`Timesheet ${start} to ${end}`}
              // A month is laid out from its columns' widths (CSS table-layout: fixed), not by measuring 31,000 cells.
              style={view === 'month' ? { width: `${MONTH_COLUMNS_REM.name + days.length * MONTH_COLUMNS_REM.day + MONTH_COLUMNS_REM.totals}rem` } : undefined}
            >
              {view === 'month' && (
                <colgroup>
                  <col class="col-name" />
                  {days.map(() => (
                    <col class="col-day" />
                  ))}
                  <col class="col-hours" />
                  <col class="col-late" />
                </colgroup>
              )}
              <thead>
                <tr>
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
              <tbody
                onClick={(event) => {
                  const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-date]');
                  if (button) setOpen({ employeeId: Number(button.dataset.employeeId), date: button.dataset.date! });
                }}
              >
                {employees.slice(0, drawn).map((e) => (
                  <SheetRow key={e.id} employee={e} row={byEmployee.get(e.id)!} days={days} openDate={open?.employeeId === e.id ? open.date : null} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
      {open && (
        <DayDetail
          key={`${open.employeeId}:${open.date}`}
          employeeId={open.employeeId}
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
