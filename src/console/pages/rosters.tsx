// Rosters: a company's repeating cycles of shifts and days off (create, edit, delete), who works
// which (assign a roster to a person or an area from a date, remove an assignment), and one-day
// schedule overrides (a person's day off or another shift on one date, removed again).
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { AssignmentList, assignmentFields, assignmentInput, assignmentStart, cannotAssign } from '../assignments';
import { useCompanyPicker } from '../company-picker';
import { ConfirmButton } from '../components';
import { EntityEditor, EntityForm, type Field, type Values } from '../entity-form';
import { DeleteButton, EditButton, EntityList } from '../entity-list';
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
import { usePeopleById, type Person } from '../people';
import { href } from '../router';

type ShiftName = { id: number; name: string; startTime: string; endTime: string };

/** `YYYY-MM-DD` plus n days (calendar arithmetic at UTC, so no zone shifts a date). */
function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** "Thu 29 Jan": a date with its weekday, for the cycle's days. */
function dayLabel(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
}

/** The cycle in words: "Day, Day, off, off". */
function cycleText(days: Array<number | null | undefined>, shiftName: (id: number) => string): string {
  return days.map((d) => (d == null ? 'off' : shiftName(d))).join(', ');
}

/** A shift as a choice ("Day (09:00–17:00)"), after the day off. */
const shiftChoices = (shifts: ShiftName[], off: string) => [
  { value: '', label: off },
  ...shifts.map((s) => ({ value: String(s.id), label: `${s.name} (${s.startTime.slice(0, 5)}–${s.endTime.slice(0, 5)})` })),
];

function rosterFields(shifts: ShiftName[]): Field[] {
  return [
    { name: 'name', label: 'Roster name', kind: 'text', maxLength: 200, required: true, row: 'name' },
    { name: 'startDate', label: 'First day of the cycle', kind: 'date', required: true, row: 'name' },
    {
      name: 'days',
      label: 'The cycle',
      kind: 'sequence',
      options: shiftChoices(shifts, 'Day off'),
      legend: (v) => `The cycle (${(v.days as string[]).length} days, then it repeats)`,
      itemLabel: (i, v) => (
        <>
          Day {i + 1}
          {v.startDate && <span class="muted"> ({dayLabel(addDays(v.startDate as string, i))})</span>}
        </>
      ),
      max: 366,
      addLabel: 'Add a day to the cycle',
      removeLabel: 'Remove the last day',
    },
  ];
}

const rosterInput = (v: Values) => ({
  name: v.name as string,
  startDate: v.startDate as string,
  days: (v.days as string[]).map((d) => (d ? Number(d) : null)),
});

const personName = (p: Person | undefined, answered: boolean) => (p ? `${p.name} ${p.lastname}`.trim() : answered ? 'a person no longer employed' : '…');

/** One-day overrides of the company's people: from four weeks back on. */
function Overrides({ companyId, shifts, canWrite }: { companyId: number; shifts: ShiftName[]; canWrite: boolean }) {
  const since = addDays(today(), -28);
  const [data, refresh] = useQuery({ query: ScheduleOverridesDocument, variables: { startDate: since } });
  const [, create] = useMutation(CreateScheduleOverrideDocument);
  const [removing, remove] = useMutation(DeleteScheduleOverrideDocument);
  const people = usePeopleById();
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const shiftName = new Map(shifts.map((s) => [s.id, s.name]));
  // The workspace's overrides, kept to the company's people (looked up by id).
  const overrides = (data.data?.scheduleOverrides.nodes ?? []).filter((o) => people.person(o.employeeId)?.companyId === companyId);
  const who = (employeeId: number) => personName(people.person(employeeId), people.answered(employeeId));
  const works = (o: { shiftId?: number | null }) => (o.shiftId == null ? 'a day off' : (shiftName.get(o.shiftId) ?? 'another shift'));
  return (
    <EntityList
      title="One-day overrides"
      before={
        <p class="muted">A person's schedule on one date, winning over their shift, roster and the default shift: a day off, or another shift that day.</p>
      }
      rows={data.data ? overrides : null}
      empty={`No overrides since ${since}.`}
      error={errorMessage(data.error ?? removing.error)}
      rowData={(o) => ({ override: o.id })}
      columns={[
        {
          header: 'Date',
          cell: (o) => (
            <>
              {o.date} <span class="muted">({dayLabel(o.date)})</span>
            </>
          ),
        },
        { header: 'Who', cell: (o) => who(o.employeeId) },
        { header: 'Works', cell: works },
        {
          header: 'Timesheet',
          cell: (o) => (
            <a href={href('timesheets', o.date.slice(0, 7))}>
              {o.date.slice(0, 7)}
              <span class="sr-only"> timesheet</span>
            </a>
          ),
        },
      ]}
      actions={
        canWrite
          ? (o) => (
              <ConfirmButton
                label="Remove"
                labelDetail={`the override of ${who(o.employeeId)} on ${o.date}`}
                title="Remove this override?"
                confirm="Remove override"
                onConfirm={async () => {
                  await remove({ id: o.id });
                  reload();
                }}
              >
                <p>
                  {who(o.employeeId)} no longer has {works(o)} on {o.date}; the day follows their shift or roster again and is recomputed at once.
                </p>
              </ConfirmButton>
            )
          : undefined
      }
    >
      {canWrite && (
        <EntityForm
          inline
          heading
          title="Set an override"
          idPrefix="override"
          fields={[
            { name: 'employeeId', label: 'Person', kind: 'person', companyId, row: 'override' },
            { name: 'date', label: 'Date', kind: 'date', required: true, row: 'override' },
            { name: 'shiftId', label: 'Works', kind: 'select', options: shiftChoices(shifts, 'A day off'), row: 'override' },
          ]}
          initial={{ employeeId: '', date: today(), shiftId: '' }}
          resetOnSave={false}
          submitLabel="Set override"
          disabled={(v) => !v.employeeId}
          save={(v) => create({ input: { employeeId: Number(v.employeeId), date: v.date as string, shiftId: v.shiftId ? Number(v.shiftId) : null } })}
          onSaved={reload}
        />
      )}
    </EntityList>
  );
}

export function Rosters() {
  const canWrite = useAllowed('write');
  const { companyId, picker } = useCompanyPicker('rosters-company');
  const [data, refresh] = useQuery({ query: RostersDocument, variables: { companyId }, pause: !companyId });
  const [, create] = useMutation(CreateRosterDocument);
  const [, update] = useMutation(UpdateRosterDocument);
  const [, assign] = useMutation(AssignRosterDocument);
  const [, removeAssignment] = useMutation(RemoveRosterAssignmentDocument);
  const [deleting, deleteRoster] = useMutation(DeleteRosterDocument);
  const [editing, setEditing] = useState<RosterFieldsFragment | null>(null);
  const people = usePeopleById();
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const rosters = data.data?.rosters.nodes ?? [];
  const shifts = data.data?.shifts.nodes ?? [];
  const areas = data.data?.areas.nodes ?? [];
  const shiftName = new Map(shifts.map((s) => [s.id, s.name]));
  const rosterName = new Map(rosters.map((r) => [r.id, r.name]));
  const assignments = (data.data?.shiftAssignments.nodes ?? []).filter((a) => a.rosterId != null && rosterName.has(a.rosterId));
  const who = (a: { employeeId?: number | null; areaId?: number | null }) =>
    a.employeeId
      ? personName(people.person(a.employeeId), people.answered(a.employeeId))
      : `everyone in ${areas.find((x) => x.id === a.areaId)?.name ?? 'an area'}`;
  const assignedTo = (rosterId: number) => assignments.filter((a) => a.rosterId === rosterId).map(who);
  return (
    <div class="grid">
      <EntityList
        title="Rosters"
        filters={picker}
        rows={data.data ? rosters : companyId ? null : []}
        empty="No rosters in this company yet."
        error={errorMessage(data.error ?? deleting.error)}
        rowData={(r) => ({ roster: r.id })}
        columns={[
          { header: 'Roster', rowHeader: true, cell: (r) => r.name },
          { header: 'Cycle', cell: (r) => `${r.days.length} days: ${cycleText(r.days, (id) => shiftName.get(id) ?? 'a shift')}` },
          {
            header: 'From',
            cell: (r) => (
              <>
                {r.startDate} <span class="muted">({dayLabel(r.startDate)})</span>
              </>
            ),
          },
          { header: 'Assigned to', cell: (r) => assignedTo(r.id).join('; ') || 'nobody' },
        ]}
        actions={
          canWrite
            ? (r) => (
                <>
                  <EditButton name={r.name} onClick={() => setEditing(r)} />
                  <DeleteButton
                    noun="roster"
                    name={r.name}
                    disabled={assignedTo(r.id).length > 0}
                    onConfirm={async () => {
                      await deleteRoster({ id: r.id });
                      reload();
                    }}
                  >
                    <p>The roster {r.name} is deleted; nobody works it.</p>
                  </DeleteButton>
                </>
              )
            : undefined
        }
      />
      {/* Drawn once the company's shifts are read: the new roster's first day defaults to its first shift,
          and the form is never remounted (and emptied) under someone typing when the answer arrives. */}
      {canWrite && companyId > 0 && data.data && (
        <EntityEditor
          key={companyId}
          noun="roster"
          idPrefix="roster"
          editing={editing}
          fields={rosterFields(shifts)}
          blank={{ name: '', startDate: today(), days: [shifts[0] ? String(shifts[0].id) : '', ''] }}
          valuesOf={(r) => ({ name: r.name, startDate: r.startDate, days: r.days.map((d) => (d == null ? '' : String(d))) })}
          create={(v) => create({ input: { ...rosterInput(v), companyId } })}
          update={(id, v) => update({ id, input: rosterInput(v) })}
          onDone={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
      <AssignmentList
        title="Who works which roster"
        itemHeader="Roster"
        empty="Nobody works a roster."
        assignments={assignments}
        itemName={(a) => rosterName.get(a.rosterId!) ?? 'a roster'}
        areas={areas}
        removeTitle="Remove this roster assignment?"
        onRemove={
          canWrite
            ? async (a) => {
                await removeAssignment({ id: a.id });
                reload();
              }
            : undefined
        }
      />
      {canWrite && rosters.length > 0 && (
        <EntityForm
          title="Assign a roster"
          idPrefix="assign-roster"
          fields={assignmentFields('Roster', rosters, areas, companyId)}
          initial={assignmentStart()}
          resetOnSave={false}
          submitLabel="Assign roster"
          disabled={cannotAssign}
          save={(v) => assign({ input: { rosterId: Number(v.itemId), ...assignmentInput(v) } })}
          onSaved={reload}
        />
      )}
      {companyId > 0 && <Overrides key={companyId} companyId={companyId} shifts={shifts} canWrite={canWrite} />}
    </div>
  );
}
