// Shifts: a company's shifts (create, edit) and who works them (assign a shift to a person or an
// area from a date, remove an assignment).
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { AssignmentForm } from '../assignment-form';
import { useCompanyPicker } from '../company-picker';
import { ConfirmButton, Empty, ErrorNote, Section } from '../components';
import {
  CreateShiftAssignmentDocument,
  CreateShiftDocument,
  DeleteShiftAssignmentDocument,
  ShiftsDocument,
  UpdateShiftDocument,
  type ShiftFieldsFragment,
} from '../gql';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

interface ShiftForm {
  name: string;
  startTime: string;
  endTime: string;
  workdays: number[];
  breakMinutes: string;
  graceInMinutes: string;
  graceOutMinutes: string;
  isDefault: boolean;
}

const blank: ShiftForm = {
  name: '',
  startTime: '09:00',
  endTime: '17:00',
  workdays: [1, 2, 3, 4, 5],
  breakMinutes: '30',
  graceInMinutes: '5',
  graceOutMinutes: '5',
  isDefault: false,
};

function formOf(s: ShiftFieldsFragment): ShiftForm {
  return {
    name: s.name,
    startTime: s.startTime.slice(0, 5),
    endTime: s.endTime.slice(0, 5),
    workdays: s.workdays,
    breakMinutes: String(s.breakMinutes),
    graceInMinutes: String(s.graceInMinutes),
    graceOutMinutes: String(s.graceOutMinutes),
    isDefault: s.isDefault,
  };
}

function ShiftEditor({ companyId, editing, onDone }: { companyId: number; editing: ShiftFieldsFragment | null; onDone: () => void }) {
  const [form, setForm] = useState<ShiftForm>(editing ? formOf(editing) : blank);
  const [created, create] = useMutation(CreateShiftDocument);
  const [updated, update] = useMutation(UpdateShiftDocument);
  const set = (key: keyof ShiftForm) => (e: Event) => setForm({ ...form, [key]: (e.target as HTMLInputElement).value });
  const toggleDay = (day: number) =>
    setForm({ ...form, workdays: form.workdays.includes(day) ? form.workdays.filter((d) => d !== day) : [...form.workdays, day].sort() });
  const prefix = editing ? `shift-${editing.id}` : 'shift-new';
  return (
    <Section title={editing ? `Edit shift ${editing.name}` : 'New shift'}>
      <form
        class="form"
        onSubmit={async (event) => {
          event.preventDefault();
          const fields = {
            name: form.name,
            startTime: form.startTime,
            endTime: form.endTime,
            workdays: form.workdays,
            isDefault: form.isDefault,
            breakMinutes: Number(form.breakMinutes),
            graceInMinutes: Number(form.graceInMinutes),
            graceOutMinutes: Number(form.graceOutMinutes),
          };
          const result = editing ? await update({ id: editing.id, input: fields }) : await create({ input: { ...fields, companyId } });
          if (result.data) {
            if (!editing) setForm(blank);
            onDone();
          }
        }}
      >
        <p class="field">
          <label for={`${prefix}-name`}>Shift name</label>
          <input id={`${prefix}-name`} value={form.name} onInput={set('name')} required />
        </p>
        <div class="inline-form">
          <p class="field">
            <label for={`${prefix}-start`}>Starts at</label>
            <input id={`${prefix}-start`} type="time" value={form.startTime} onInput={set('startTime')} required />
          </p>
          <p class="field">
            <label for={`${prefix}-end`}>Ends at</label>
            <input id={`${prefix}-end`} type="time" value={form.endTime} onInput={set('endTime')} required />
          </p>
        </div>
        <fieldset>
          <legend>Workdays</legend>
          {WEEKDAYS.map((d, i) => (
            <label class="check">
              <input type="checkbox" checked={form.workdays.includes(i + 1)} onChange={() => toggleDay(i + 1)} /> {d}
            </label>
          ))}
        </fieldset>
        <div class="inline-form">
          <p class="field">
            <label for={`${prefix}-break`}>Unpaid break (minutes)</label>
            <input id={`${prefix}-break`} type="number" min="0" value={form.breakMinutes} onInput={set('breakMinutes')} />
          </p>
          <p class="field">
            <label for={`${prefix}-grace-in`}>Grace for late arrival (minutes)</label>
            <input id={`${prefix}-grace-in`} type="number" min="0" value={form.graceInMinutes} onInput={set('graceInMinutes')} />
          </p>
          <p class="field">
            <label for={`${prefix}-grace-out`}>Grace for early leave (minutes)</label>
            <input id={`${prefix}-grace-out`} type="number" min="0" value={form.graceOutMinutes} onInput={set('graceOutMinutes')} />
          </p>
        </div>
        <p class="field">
          <label class="check">
            <input type="checkbox" checked={form.isDefault} onChange={(e) => setForm({ ...form, isDefault: (e.target as HTMLInputElement).checked })} /> Default
            shift of the company (for everyone without an assignment)
          </label>
        </p>
        <p class="inline-form">
          <button type="submit" disabled={created.fetching || updated.fetching}>
            {editing ? 'Save shift' : 'Create shift'}
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

function AssignShift({
  shifts,
  employees,
  areas,
  onDone,
}: {
  shifts: ShiftFieldsFragment[];
  employees: Array<{ id: number; name: string; lastname: string; code: string }>;
  areas: Array<{ id: number; name: string }>;
  onDone: () => void;
}) {
  const [assigning, assign] = useMutation(CreateShiftAssignmentDocument);
  return (
    <AssignmentForm
      title="Assign a shift"
      itemLabel="Shift"
      items={shifts}
      employees={employees}
      areas={areas}
      idPrefix="assign-shift"
      submitLabel="Assign shift"
      busy={assigning.fetching}
      error={errorMessage(assigning.error)}
      onAssign={async ({ itemId, target, startDate, endDate }) => {
        const result = await assign({ input: { shiftId: itemId, ...target, startDate, endDate } });
        if (result.data) onDone();
      }}
    />
  );
}

export function Shifts() {
  const canWrite = useAllowed('write');
  const { companyId, picker } = useCompanyPicker('shifts-company');
  const [data, refresh] = useQuery({ query: ShiftsDocument, variables: { companyId }, pause: !companyId });
  const [, remove] = useMutation(DeleteShiftAssignmentDocument);
  const [editing, setEditing] = useState<ShiftFieldsFragment | null>(null);
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const shifts = data.data?.shifts.nodes ?? [];
  const employees = data.data?.employees.nodes ?? [];
  const areas = data.data?.areas.nodes ?? [];
  const shiftIds = new Set(shifts.map((s) => s.id));
  const assignments = (data.data?.shiftAssignments.nodes ?? []).filter((a) => a.shiftId !== null && shiftIds.has(a.shiftId));
  const shiftName = new Map(shifts.map((s) => [s.id, s.name]));
  const who = (a: { employeeId?: number | null; areaId?: number | null }) => {
    if (a.employeeId) {
      const e = employees.find((x) => x.id === a.employeeId);
      return e ? `${e.name} ${e.lastname}` : 'a person of another company';
    }
    return `everyone in ${areas.find((x) => x.id === a.areaId)?.name ?? 'an area'}`;
  };
  return (
    <div class="grid">
      <Section title="Shifts">
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          {picker}
        </form>
        <ErrorNote message={errorMessage(data.error)} />
        {shifts.length === 0 ? (
          <Empty>No shifts in this company yet.</Empty>
        ) : (
          <table class="fold-on-phone">
            <thead>
              <tr>
                <th scope="col">Shift</th>
                <th scope="col">Hours</th>
                <th scope="col">Workdays</th>
                <th scope="col">Break</th>
                <th scope="col">Grace in / out</th>
                {canWrite && (
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {shifts.map((s) => (
                <tr data-shift={s.id}>
                  <th scope="row">
                    {s.name}
                    {s.isDefault && <span class="badge"> default</span>}
                  </th>
                  <td>
                    {s.startTime.slice(0, 5)}–{s.endTime.slice(0, 5)}
                  </td>
                  <td>{s.workdays.map((d) => WEEKDAYS[d - 1]).join(' ')}</td>
                  <td>{s.breakMinutes} min</td>
                  <td>
                    {s.graceInMinutes} / {s.graceOutMinutes} min
                  </td>
                  {canWrite && (
                    <td>
                      <button type="button" class="secondary" onClick={() => setEditing(s)}>
                        Edit<span class="sr-only"> {s.name}</span>
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      {canWrite && companyId > 0 && (
        <ShiftEditor
          key={editing?.id ?? 'new'}
          companyId={companyId}
          editing={editing}
          onDone={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
      <Section title="Who works which shift">
        {assignments.length === 0 ? (
          <Empty>No assignments: everyone works the company's default shift.</Empty>
        ) : (
          <table class="fold-on-phone">
            <thead>
              <tr>
                <th scope="col">Who</th>
                <th scope="col">Shift</th>
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
                  <td>{a.shiftId === null ? 'their roster' : shiftName.get(a.shiftId)}</td>
                  <td>{a.startDate}</td>
                  <td>{a.endDate ?? 'open-ended'}</td>
                  {canWrite && (
                    <td>
                      <ConfirmButton
                        label="Remove"
                        labelDetail={`${a.shiftId === null ? 'their roster' : shiftName.get(a.shiftId)} for ${who(a)}`}
                        title="Remove this assignment?"
                        confirm="Remove assignment"
                        onConfirm={async () => {
                          await remove({ id: a.id });
                          reload();
                        }}
                      >
                        <p>
                          {who(a)} will no longer work {a.shiftId === null ? 'their roster' : shiftName.get(a.shiftId)} from {a.startDate}; their days follow
                          the shift that applies instead (an area's or the company default).
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
      {canWrite && shifts.length > 0 && <AssignShift shifts={shifts} employees={employees} areas={areas} onDone={reload} />}
    </div>
  );
}
