// Rosters: a company's repeating cycles of shifts and days off (create, edit, delete), who works
// which (assign a roster to a person or an area from a date, remove an assignment), and one-day
// schedule overrides (a person's day off or another shift on one date, removed again).
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { AssignmentForm } from '../assignment-form';
import { useCompanyPicker } from '../company-picker';
import { ConfirmButton, Empty, ErrorNote, Section } from '../components';
import { today } from '../format';
import {
  AssignRosterDocument,
  CreateRosterDocument,
  CreateScheduleOverrideDocument,
  DeleteRosterDocument,
  DeleteScheduleOverrideDocument,
  RemoveRosterAssignmentDocument,
  RostersDocument,
  ScheduleOverridesDocument,
  UpdateRosterDocument,
  type RosterFieldsFragment,
} from '../gql';
import { href } from '../router';

type Person = { id: number; name: string; lastname: string; code: string };
type ShiftName = { id: number; name: string; startTime: string; endTime: string };

/** `YYYY-MM-DD` plus n days (calendar arithmetic at UTC, so no zone shifts a date). */
function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** "Thu 29 Jan": a date with its weekday, for the cycle's days. */
function dayLabel(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
}

const fullName = (e: Person | undefined) => (e ? `${e.name} ${e.lastname}`.trim() : 'a person of another company');

/** The cycle in words: "Day, Day, off, off". */
function cycleText(days: Array<number | null | undefined>, shiftName: (id: number) => string): string {
  return days.map((d) => (d == null ? 'off' : shiftName(d))).join(', ');
}

function RosterEditor({
  companyId,
  shifts,
  editing,
  onDone,
}: {
  companyId: number;
  shifts: ShiftName[];
  editing: RosterFieldsFragment | null;
  onDone: () => void;
}) {
  const blank = { name: '', startDate: today(), days: [shifts[0]?.id ?? null, null] as Array<number | null> };
  const [form, setForm] = useState(editing ? { name: editing.name, startDate: editing.startDate, days: editing.days.map((d) => d ?? null) } : blank);
  const [created, create] = useMutation(CreateRosterDocument);
  const [updated, update] = useMutation(UpdateRosterDocument);
  const prefix = editing ? `roster-${editing.id}` : 'roster-new';
  const setDay = (i: number, value: string) => setForm({ ...form, days: form.days.map((d, j) => (j === i ? (value ? Number(value) : null) : d)) });
  return (
    <Section title={editing ? `Edit roster ${editing.name}` : 'New roster'}>
      <form
        class="form"
        onSubmit={async (event) => {
          event.preventDefault();
          const fields = { name: form.name, startDate: form.startDate, days: form.days };
          const result = editing ? await update({ id: editing.id, input: fields }) : await create({ input: { ...fields, companyId } });
          if (result.data) {
            if (!editing) setForm(blank);
            onDone();
          }
        }}
      >
        <div class="inline-form">
          <p class="field">
            <label for={`${prefix}-name`}>Roster name</label>
            <input id={`${prefix}-name`} value={form.name} onInput={(e) => setForm({ ...form, name: (e.target as HTMLInputElement).value })} required />
          </p>
          <p class="field">
            <label for={`${prefix}-start`}>First day of the cycle</label>
            <input
              id={`${prefix}-start`}
              type="date"
              value={form.startDate}
              onInput={(e) => setForm({ ...form, startDate: (e.target as HTMLInputElement).value })}
              required
            />
          </p>
        </div>
        <fieldset>
          <legend>The cycle ({form.days.length} days, then it repeats)</legend>
          <ol class="roster-cycle">
            {form.days.map((d, i) => (
              <li>
                <label for={`${prefix}-day-${i}`}>
                  Day {i + 1}
                  {form.startDate && <span class="muted"> ({dayLabel(addDays(form.startDate, i))})</span>}
                </label>
                <select id={`${prefix}-day-${i}`} value={d == null ? '' : String(d)} onChange={(e) => setDay(i, (e.target as HTMLSelectElement).value)}>
                  <option value="">Day off</option>
                  {shifts.map((s) => (
                    <option value={s.id}>
                      {s.name} ({s.startTime.slice(0, 5)}–{s.endTime.slice(0, 5)})
                    </option>
                  ))}
                </select>
              </li>
            ))}
          </ol>
          <p class="inline-form">
            <button type="button" class="secondary" disabled={form.days.length >= 366} onClick={() => setForm({ ...form, days: [...form.days, null] })}>
              Add a day to the cycle
            </button>
            <button type="button" class="secondary" disabled={form.days.length <= 1} onClick={() => setForm({ ...form, days: form.days.slice(0, -1) })}>
              Remove the last day
            </button>
          </p>
        </fieldset>
        <p class="inline-form">
          <button type="submit" disabled={created.fetching || updated.fetching}>
            {editing ? 'Save roster' : 'Create roster'}
          </button>
          {editing && (
            <button type="button" class="secondary" onClick={onDone}>
              Cancel editing
            </button>
          )}
        </p>
        <ErrorNote message={errorMessage(created.error ?? updated.error)} />
      </form>
    </Section>
  );
}

function AssignRoster({
  rosters,
  employees,
  areas,
  onDone,
}: {
  rosters: RosterFieldsFragment[];
  employees: Person[];
  areas: Array<{ id: number; name: string }>;
  onDone: () => void;
}) {
  const [assigning, assign] = useMutation(AssignRosterDocument);
  return (
    <AssignmentForm
      title="Assign a roster"
      itemLabel="Roster"
      items={rosters}
      employees={employees}
      areas={areas}
      idPrefix="assign-roster"
      submitLabel="Assign roster"
      busy={assigning.fetching}
      error={errorMessage(assigning.error)}
      onAssign={async ({ itemId, target, startDate, endDate }) => {
        const result = await assign({ input: { rosterId: itemId, ...target, startDate, endDate } });
        if (result.data) onDone();
      }}
    />
  );
}

/** One-day overrides of the company's people: from four weeks back on. */
function Overrides({ employees, shifts, canWrite }: { employees: Person[]; shifts: ShiftName[]; canWrite: boolean }) {
  const since = addDays(today(), -28);
  const [data, refresh] = useQuery({ query: ScheduleOverridesDocument, variables: { startDate: since } });
  const [creating, create] = useMutation(CreateScheduleOverrideDocument);
  const [removing, remove] = useMutation(DeleteScheduleOverrideDocument);
  const [form, setForm] = useState({ employeeId: '', date: today(), shiftId: '' });
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const byId = new Map(employees.map((e) => [e.id, e]));
  const shiftName = new Map(shifts.map((s) => [s.id, s.name]));
  const overrides = (data.data?.scheduleOverrides.nodes ?? []).filter((o) => byId.has(o.employeeId));
  const employeeId = Number(form.employeeId || employees[0]?.id || 0);
  const works = (o: { shiftId?: number | null }) => (o.shiftId == null ? 'a day off' : (shiftName.get(o.shiftId) ?? 'another shift'));
  return (
    <Section title="One-day overrides">
      <p class="muted">A person's schedule on one date, winning over their shift, roster and the default shift: a day off, or another shift that day.</p>
      <ErrorNote message={errorMessage(data.error ?? removing.error)} />
      {overrides.length === 0 ? (
        <Empty>No overrides since {since}.</Empty>
      ) : (
        <table class="fold-on-phone">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Who</th>
              <th scope="col">Works</th>
              <th scope="col">Timesheet</th>
              {canWrite && (
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {overrides.map((o) => (
              <tr data-override={o.id}>
                <td>
                  {o.date} <span class="muted">({dayLabel(o.date)})</span>
                </td>
                <td>{fullName(byId.get(o.employeeId))}</td>
                <td>{works(o)}</td>
                <td>
                  <a href={href('timesheets', o.date.slice(0, 7))}>
                    {o.date.slice(0, 7)}
                    <span class="sr-only"> timesheet</span>
                  </a>
                </td>
                {canWrite && (
                  <td>
                    <ConfirmButton
                      label="Remove"
                      labelDetail={`the override of ${fullName(byId.get(o.employeeId))} on ${o.date}`}
                      title="Remove this override?"
                      confirm="Remove override"
                      onConfirm={async () => {
                        await remove({ id: o.id });
                        reload();
                      }}
                    >
                      <p>
                        {fullName(byId.get(o.employeeId))} no longer has {works(o)} on {o.date}; the day follows their shift or roster again and is recomputed
                        at once.
                      </p>
                    </ConfirmButton>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canWrite && employees.length > 0 && (
        <form
          class="form"
          aria-label="Set an override"
          onSubmit={async (event) => {
            event.preventDefault();
            const result = await create({ input: { employeeId, date: form.date, shiftId: form.shiftId ? Number(form.shiftId) : null } });
            if (result.data) reload();
          }}
        >
          <h3>Set an override</h3>
          <div class="inline-form">
            <p class="field">
              <label for="override-employee">Person</label>
              <select
                id="override-employee"
                value={String(employeeId)}
                onChange={(e) => setForm({ ...form, employeeId: (e.target as HTMLSelectElement).value })}
              >
                {employees.map((e) => (
                  <option value={e.id}>
                    {e.name} {e.lastname} ({e.code})
                  </option>
                ))}
              </select>
            </p>
            <p class="field">
              <label for="override-date">Date</label>
              <input
                id="override-date"
                type="date"
                value={form.date}
                onInput={(e) => setForm({ ...form, date: (e.target as HTMLInputElement).value })}
                required
              />
            </p>
            <p class="field">
              <label for="override-shift">Works</label>
              <select id="override-shift" value={form.shiftId} onChange={(e) => setForm({ ...form, shiftId: (e.target as HTMLSelectElement).value })}>
                <option value="">A day off</option>
                {shifts.map((s) => (
                  <option value={s.id}>
                    {s.name} ({s.startTime.slice(0, 5)}–{s.endTime.slice(0, 5)})
                  </option>
                ))}
              </select>
            </p>
          </div>
          <button type="submit" disabled={creating.fetching || !employeeId}>
            Set override
          </button>
          <ErrorNote message={errorMessage(creating.error)} />
        </form>
      )}
    </Section>
  );
}

export function Rosters() {
  const canWrite = useAllowed('write');
  const { companyId, picker } = useCompanyPicker('rosters-company');
  const [data, refresh] = useQuery({ query: RostersDocument, variables: { companyId }, pause: !companyId });
  const [, removeAssignment] = useMutation(RemoveRosterAssignmentDocument);
  const [deleting, deleteRoster] = useMutation(DeleteRosterDocument);
  const [editing, setEditing] = useState<RosterFieldsFragment | null>(null);
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const rosters = data.data?.rosters.nodes ?? [];
  const shifts = data.data?.shifts.nodes ?? [];
  const employees = data.data?.employees.nodes ?? [];
  const areas = data.data?.areas.nodes ?? [];
  const shiftName = new Map(shifts.map((s) => [s.id, s.name]));
  const rosterName = new Map(rosters.map((r) => [r.id, r.name]));
  const assignments = (data.data?.shiftAssignments.nodes ?? []).filter((a) => a.rosterId != null && rosterName.has(a.rosterId));
  const who = (a: { employeeId?: number | null; areaId?: number | null }) =>
    a.employeeId ? fullName(employees.find((x) => x.id === a.employeeId)) : `everyone in ${areas.find((x) => x.id === a.areaId)?.name ?? 'an area'}`;
  const assignedTo = (rosterId: number) => assignments.filter((a) => a.rosterId === rosterId).map(who);
  return (
    <div class="grid">
      <Section title="Rosters">
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          {picker}
        </form>
        <ErrorNote message={errorMessage(data.error ?? deleting.error)} />
        {!data.data ? (
          <p class="muted">Loading…</p>
        ) : rosters.length === 0 ? (
          <Empty>No rosters in this company yet.</Empty>
        ) : (
          <table class="fold-on-phone">
            <thead>
              <tr>
                <th scope="col">Roster</th>
                <th scope="col">Cycle</th>
                <th scope="col">From</th>
                <th scope="col">Assigned to</th>
                {canWrite && (
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rosters.map((r) => (
                <tr data-roster={r.id}>
                  <th scope="row">{r.name}</th>
                  <td>
                    {r.days.length} days: {cycleText(r.days, (id) => shiftName.get(id) ?? 'a shift')}
                  </td>
                  <td>
                    {r.startDate} <span class="muted">({dayLabel(r.startDate)})</span>
                  </td>
                  <td>{assignedTo(r.id).join('; ') || 'nobody'}</td>
                  {canWrite && (
                    <td class="actions">
                      <button type="button" class="secondary" onClick={() => setEditing(r)}>
                        Edit<span class="sr-only"> {r.name}</span>
                      </button>
                      <ConfirmButton
                        label="Delete"
                        labelDetail={r.name}
                        title={`Delete the roster ${r.name}?`}
                        confirm="Delete roster"
                        disabled={assignedTo(r.id).length > 0}
                        onConfirm={async () => {
                          await deleteRoster({ id: r.id });
                          reload();
                        }}
                      >
                        <p>The roster {r.name} is deleted; nobody works it.</p>
                      </ConfirmButton>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      {/* Drawn once the company's shifts are read: the new roster's first day defaults to its first shift,
          and the form is never remounted (and emptied) under someone typing when the answer arrives. */}
      {canWrite && companyId > 0 && data.data && (
        <RosterEditor
          key={editing?.id ?? `new-${companyId}`}
          companyId={companyId}
          shifts={shifts}
          editing={editing}
          onDone={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
      <Section title="Who works which roster">
        {assignments.length === 0 ? (
          <Empty>Nobody works a roster.</Empty>
        ) : (
          <table class="fold-on-phone">
            <thead>
              <tr>
                <th scope="col">Who</th>
                <th scope="col">Roster</th>
                <th scope="col">From</th>
                <th scope="col">Until</th>
                {canWrite && (
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {assignments.map((a) => (
                <tr data-assignment={a.id}>
                  <td>{who(a)}</td>
                  <td>{rosterName.get(a.rosterId!)}</td>
                  <td>{a.startDate}</td>
                  <td>{a.endDate ?? 'open-ended'}</td>
                  {canWrite && (
                    <td>
                      <ConfirmButton
                        label="Remove"
                        labelDetail={`${rosterName.get(a.rosterId!)} for ${who(a)}`}
                        title="Remove this roster assignment?"
                        confirm="Remove assignment"
                        onConfirm={async () => {
                          await removeAssignment({ id: a.id });
                          reload();
                        }}
                      >
                        <p>
                          {who(a)} will no longer work {rosterName.get(a.rosterId!)} from {a.startDate}; their days follow the shift that applies instead (an
                          area's or the company default).
                        </p>
                      </ConfirmButton>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      {canWrite && rosters.length > 0 && <AssignRoster rosters={rosters} employees={employees} areas={areas} onDone={reload} />}
      {companyId > 0 && <Overrides key={companyId} employees={employees} shifts={shifts} canWrite={canWrite} />}
    </div>
  );
}
