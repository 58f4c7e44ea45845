// A company's month as a grid: one row per employee, one cell per day, coloured by the day's status
// with the hours worked; totals per employee; the same rows as CSV from the REST surface.
import { useState } from 'preact/hooks';
import { useQuery } from '@urql/preact';
import { errorMessage } from '../client';
import { Empty, ErrorNote, Section } from '../components';
import { CompaniesDocument, TimesheetDocument } from '../gql';
import { storedKey } from '../session';

const STATUSES = ['present', 'incomplete', 'absent', 'holiday', 'off', 'scheduled'];

function monthRange(month: string): { start: string; end: string; days: string[] } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const count = new Date(Date.UTC(year, m, 0)).getUTCDate();
  const days = Array.from({ length: count }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
  return { start: days[0]!, end: days[count - 1]!, days };
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
  link.download = `timesheet-${start.slice(0, 7)}.csv`;
  link.click();
  URL.revokeObjectURL(link.href);
}

export function Timesheets() {
  const [companies] = useQuery({ query: CompaniesDocument });
  const [month, setMonth] = useState(new Date().toISOString().slice(0, 7));
  const [chosen, setChosen] = useState('');
  const [exportError, setExportError] = useState<string | null>(null);
  const companyId = Number(chosen || companies.data?.companies.nodes[0]?.id || 0);
  const { start, end, days } = monthRange(month);
  const [sheet] = useQuery({ query: TimesheetDocument, variables: { companyId, startDate: start, endDate: end }, pause: !companyId });
  const byEmployee = new Map<number, Map<string, { status: string; workedMinutes: number; overtimeMinutes: number }>>();
  for (const day of sheet.data?.timesheet.nodes ?? []) {
    const row = byEmployee.get(day.employeeId) ?? new Map();
    row.set(day.date, day);
    byEmployee.set(day.employeeId, row);
  }
  const employees = (sheet.data?.employees.nodes ?? []).filter((e) => byEmployee.has(e.id));
  return (
    <Section
      title="Timesheets"
      actions={
        companyId > 0 && (
          <button type="button" onClick={() => downloadCsv(companyId, start, end).then(() => setExportError(null), (e: Error) => setExportError(e.message))}>
            Export CSV
          </button>
        )
      }
    >
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <p class="field">
          <label for="timesheet-company">Company</label>
          <select id="timesheet-company" value={String(companyId)} onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}>
            {(companies.data?.companies.nodes ?? []).map((c) => (
              <option value={c.id}>{c.name}</option>
            ))}
          </select>
        </p>
        <p class="field">
          <label for="timesheet-month">Month</label>
          <input id="timesheet-month" type="month" value={month} onChange={(e) => setMonth((e.target as HTMLInputElement).value || month)} />
        </p>
      </form>
      <ErrorNote message={errorMessage(sheet.error) ?? exportError} />
      <ul class="legend" aria-label="Legend">
        {STATUSES.map((s) => (
          <li><span class={`cell-${s} swatch`} /> {s}</li>
        ))}
      </ul>
      {employees.length === 0 ? (
        <Empty>No attendance days in this month.</Empty>
      ) : (
        <div class="sheet-scroll">
          <table class="sheet">
            <thead>
              <tr>
                <th scope="col">Employee</th>
                {days.map((d) => <th scope="col" class="day">{Number(d.slice(8))}</th>)}
                <th scope="col">Hours</th>
              </tr>
            </thead>
            <tbody>
              {employees.map((e) => {
                const row = byEmployee.get(e.id)!;
                const minutes = [...row.values()].reduce((sum, d) => sum + d.workedMinutes, 0);
                return (
                  <tr data-employee={e.id}>
                    <th scope="row">{e.name} {e.lastname}</th>
                    {days.map((d) => {
                      const day = row.get(d);
                      return (
                        <td class={`day cell-${day?.status ?? 'none'}`} title={day ? `${d}: ${day.status}, ${(day.workedMinutes / 60).toFixed(1)} h` : d}>
                          {day && day.workedMinutes > 0 ? (day.workedMinutes / 60).toFixed(1) : ''}
                          <span class="sr-only">{day ? ` ${day.status}` : ' no day'}</span>
                        </td>
                      );
                    })}
                    <td>{(minutes / 60).toFixed(1)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
