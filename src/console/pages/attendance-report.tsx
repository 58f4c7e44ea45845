// The exceptions report: late arrivals, missing punches, early leaves and overtime for a date range,
// filtered by kind and person, each line opening the person's day; the lines as CSV.
import { useState } from 'preact/hooks';
import { useAttendanceDays, hours, type AttendanceDayRow } from '../attendance-days';
import { useCompanyPicker } from '../company-picker';
import { Empty, ErrorNote, Section } from '../components';
import { today } from '../format';
import { useDirectory } from '../people';
import { DayDetail } from './day-detail';

type Kind = 'late' | 'missing' | 'early' | 'overtime';

const KINDS: Array<[Kind, string]> = [
  ['late', 'Late arrivals'],
  ['missing', 'Missing punches'],
  ['early', 'Early leaves'],
  ['overtime', 'Overtime'],
];

interface Line {
  day: AttendanceDayRow;
  kind: Kind;
  what: string;
  minutes: number;
}

function linesOf(day: AttendanceDayRow): Line[] {
  const lines: Line[] = [];
  if (day.lateMinutes > 0) lines.push({ day, kind: 'late', what: `late by ${hours(day.lateMinutes)}`, minutes: day.lateMinutes });
  for (const code of day.exceptions.filter((c) => c === 'missing_in' || c === 'missing_out')) {
    lines.push({ day, kind: 'missing', what: code === 'missing_in' ? 'no punch in' : 'no punch out', minutes: 0 });
  }
  if (day.earlyLeaveMinutes > 0) lines.push({ day, kind: 'early', what: `left ${hours(day.earlyLeaveMinutes)} early`, minutes: day.earlyLeaveMinutes });
  if (day.overtimeMinutes > 0) lines.push({ day, kind: 'overtime', what: `${hours(day.overtimeMinutes)} overtime`, minutes: day.overtimeMinutes });
  return lines;
}

const csvCell = (value: string | number) => (/[",\n]/.test(String(value)) ? `"${String(value).replaceAll('"', '""')}"` : String(value));

export function AttendanceReport() {
  const directory = useDirectory();
  const { companyId, picker } = useCompanyPicker('report-company');
  const [range, setRange] = useState({ start: `${today().slice(0, 7)}-01`, end: today() });
  const [kinds, setKinds] = useState<Set<Kind>>(new Set(['late', 'missing', 'overtime']));
  const [person, setPerson] = useState('');
  const [version, setVersion] = useState(0);
  const [open, setOpen] = useState<{ employeeId: number; date: string } | null>(null);
  const sheet = useAttendanceDays(companyId, range.start, range.end, version);
  const names = new Map(sheet.employees.map((e) => [e.id, `${e.name} ${e.lastname}`]));
  const lines = (sheet.days ?? [])
    .filter((d) => !person || d.employeeId === Number(person))
    .flatMap(linesOf)
    .filter((l) => kinds.has(l.kind))
    .sort((a, b) => a.day.date.localeCompare(b.day.date) || (names.get(a.day.employeeId) ?? '').localeCompare(names.get(b.day.employeeId) ?? ''));
  const toggle = (kind: Kind) => {
    const next = new Set(kinds);
    if (next.has(kind)) next.delete(kind);
    else next.add(kind);
    setKinds(next);
  };
  const exportCsv = () => {
    const code = new Map(sheet.employees.map((e) => [e.id, e.code]));
    const rows = [['date', 'employee_id', 'employee_code', 'employee', 'kind', 'minutes', 'detail', 'status'].join(',')];
    for (const l of lines)
      rows.push(
        [l.day.date, l.day.employeeId, code.get(l.day.employeeId) ?? '', names.get(l.day.employeeId) ?? '', l.kind, l.minutes, l.what, l.day.status]
          .map(csvCell)
          .join(','),
      );
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([`${rows.join('\n')}\n`], { type: 'text/csv' }));
    link.download = `attendance-report-${range.start}_${range.end}.csv`;
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <div class="stack">
      <Section
        title="Attendance report"
        actions={
          lines.length > 0 && (
            <button type="button" onClick={exportCsv}>
              Export report CSV
            </button>
          )
        }
      >
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          {picker}
          <p class="field">
            <label for="report-from">From</label>
            <input
              id="report-from"
              type="date"
              value={range.start}
              onChange={(e) => setRange({ ...range, start: (e.target as HTMLInputElement).value || range.start })}
            />
          </p>
          <p class="field">
            <label for="report-to">To</label>
            <input
              id="report-to"
              type="date"
              value={range.end}
              onChange={(e) => setRange({ ...range, end: (e.target as HTMLInputElement).value || range.end })}
            />
          </p>
          <p class="field">
            <label for="report-person">Person</label>
            <select id="report-person" value={person} onChange={(e) => setPerson((e.target as HTMLSelectElement).value)}>
              <option value="">Everyone</option>
              {sheet.employees.map((e) => (
                <option value={e.id}>
                  {e.name} {e.lastname}
                </option>
              ))}
            </select>
          </p>
          <fieldset>
            <legend>Show</legend>
            {KINDS.map(([kind, label]) => (
              <label class="check">
                <input type="checkbox" checked={kinds.has(kind)} onChange={() => toggle(kind)} /> {label}
              </label>
            ))}
          </fieldset>
        </form>
        <ErrorNote message={sheet.error} />
        {sheet.days === null ? (
          <p role="status">Loading the report…</p>
        ) : (
          <>
            <p class="muted" role="status">
              {lines.length} lines, {range.start} to {range.end}
            </p>
            {lines.length === 0 ? (
              <Empty>Nothing to report in this range.</Empty>
            ) : (
              <table class="fold-on-phone">
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Person</th>
                    <th scope="col">What</th>
                    <th scope="col">Day</th>
                  </tr>
                </thead>
                <tbody>
                  {lines.map((l) => (
                    <tr data-kind={l.kind}>
                      <td>{l.day.date}</td>
                      <td>{names.get(l.day.employeeId) ?? directory.employeeName(l.day.employeeId)}</td>
                      <td>{l.what}</td>
                      <td>
                        <button type="button" class="secondary" onClick={() => setOpen({ employeeId: l.day.employeeId, date: l.day.date })}>
                          Open {names.get(l.day.employeeId) ?? 'the'} day {l.day.date}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </Section>
      {open && (
        <DayDetail
          key={`${open.employeeId}:${open.date}`}
          employeeId={open.employeeId}
          name={names.get(open.employeeId)}
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
