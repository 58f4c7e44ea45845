// Shifts: a company's shifts (create, edit) and who works them (assign a shift to a person or an
// area from a date, remove an assignment).
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { AssignmentList, assignmentFields, assignmentInput, assignmentStart, cannotAssign } from '../assignments';
import { useCompanyPicker } from '../company-picker';
import { EntityEditor, EntityForm, type Field, type Values } from '../entity-form';
import { EditButton, EntityList } from '../entity-list';
import { WEEKDAYS } from '../format';
import {
  CreateShiftAssignmentDocument,
  CreateShiftDocument,
  DeleteShiftAssignmentDocument,
  ShiftsDocument,
  UpdateShiftDocument,
  type ShiftFieldsFragment,
} from '../gql';

const FIELDS: Field[] = [
  { name: 'name', label: 'Shift name', kind: 'text', maxLength: 200, required: true },
  { name: 'startTime', label: 'Starts at', kind: 'time', required: true, row: 'hours' },
  { name: 'endTime', label: 'Ends at', kind: 'time', required: true, row: 'hours' },
  { name: 'workdays', label: 'Workdays', kind: 'checks', options: WEEKDAYS.map((d, i) => ({ value: String(i + 1), label: d })) },
  { name: 'breakMinutes', label: 'Unpaid break (minutes)', kind: 'number', min: 0, max: 720, row: 'minutes' },
  { name: 'graceInMinutes', label: 'Grace for late arrival (minutes)', kind: 'number', min: 0, max: 720, row: 'minutes' },
  { name: 'graceOutMinutes', label: 'Grace for early leave (minutes)', kind: 'number', min: 0, max: 720, row: 'minutes' },
  { name: 'isDefault', label: 'Default shift of the company (for everyone without an assignment)', kind: 'check' },
];

const BLANK: Values = {
  name: '',
  startTime: '09:00',
  endTime: '17:00',
  workdays: ['1', '2', '3', '4', '5'],
  breakMinutes: '30',
  graceInMinutes: '5',
  graceOutMinutes: '5',
  isDefault: false,
};

function valuesOf(s: ShiftFieldsFragment): Values {
  return {
    name: s.name,
    startTime: s.startTime.slice(0, 5),
    endTime: s.endTime.slice(0, 5),
    workdays: s.workdays.map(String),
    breakMinutes: String(s.breakMinutes),
    graceInMinutes: String(s.graceInMinutes),
    graceOutMinutes: String(s.graceOutMinutes),
    isDefault: s.isDefault,
  };
}

function shiftInput(v: Values) {
  return {
    name: v.name as string,
    startTime: v.startTime as string,
    endTime: v.endTime as string,
    workdays: (v.workdays as string[]).map(Number),
    isDefault: v.isDefault === true,
    breakMinutes: Number(v.breakMinutes),
    graceInMinutes: Number(v.graceInMinutes),
    graceOutMinutes: Number(v.graceOutMinutes),
  };
}

export function Shifts() {
  const canWrite = useAllowed('write');
  const { companyId, picker } = useCompanyPicker('shifts-company');
  const [data, refresh] = useQuery({ query: ShiftsDocument, variables: { companyId }, pause: !companyId });
  const [, create] = useMutation(CreateShiftDocument);
  const [, update] = useMutation(UpdateShiftDocument);
  const [, assign] = useMutation(CreateShiftAssignmentDocument);
  const [, remove] = useMutation(DeleteShiftAssignmentDocument);
  const [editing, setEditing] = useState<ShiftFieldsFragment | null>(null);
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const shifts = data.data?.shifts.nodes ?? [];
  const areas = data.data?.areas.nodes ?? [];
  const shiftIds = new Set(shifts.map((s) => s.id));
  const assignments = (data.data?.shiftAssignments.nodes ?? []).filter((a) => a.shiftId !== null && shiftIds.has(a.shiftId));
  const shiftName = new Map(shifts.map((s) => [s.id, s.name]));
  return (
    <div class="grid">
      <EntityList
        title="Shifts"
        filters={picker}
        rows={data.data ? shifts : companyId ? null : []}
        empty="No shifts in this company yet."
        error={errorMessage(data.error)}
        rowData={(s) => ({ shift: s.id })}
        columns={[
          {
            header: 'Shift',
            rowHeader: true,
            cell: (s) => (
              <>
                {s.name}
                {s.isDefault && <span class="badge"> default</span>}
              </>
            ),
          },
          { header: 'Hours', cell: (s) => `${s.startTime.slice(0, 5)}–${s.endTime.slice(0, 5)}` },
          { header: 'Workdays', cell: (s) => s.workdays.map((d) => WEEKDAYS[d - 1]).join(' ') },
          { header: 'Break', cell: (s) => `${s.breakMinutes} min` },
          { header: 'Grace in / out', cell: (s) => `${s.graceInMinutes} / ${s.graceOutMinutes} min` },
        ]}
        actions={canWrite ? (s) => <EditButton name={s.name} onClick={() => setEditing(s)} /> : undefined}
      />
      {canWrite && companyId > 0 && (
        <EntityEditor
          noun="shift"
          idPrefix="shift"
          editing={editing}
          fields={FIELDS}
          blank={BLANK}
          valuesOf={valuesOf}
          create={(v) => create({ input: { ...shiftInput(v), companyId } })}
          update={(id, v) => update({ id, input: shiftInput(v) })}
          onDone={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
      <AssignmentList
        title="Who works which shift"
        itemHeader="Shift"
        empty="No assignments: everyone works the company's default shift."
        assignments={assignments}
        itemName={(a) => (a.shiftId === null ? 'their roster' : (shiftName.get(a.shiftId) ?? 'a shift'))}
        areas={areas}
        removeTitle="Remove this assignment?"
        onRemove={
          canWrite
            ? async (a) => {
                await remove({ id: a.id });
                reload();
              }
            : undefined
        }
      />
      {canWrite && shifts.length > 0 && (
        <EntityForm
          title="Assign a shift"
          idPrefix="assign-shift"
          fields={assignmentFields('Shift', shifts, areas, companyId)}
          initial={assignmentStart()}
          resetOnSave={false}
          submitLabel="Assign shift"
          disabled={cannotAssign}
          save={(v) => assign({ input: { shiftId: Number(v.itemId), ...assignmentInput(v) } })}
          onSaved={reload}
        />
      )}
    </div>
  );
}
