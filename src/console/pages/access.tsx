// Access control: a company's schedules (their intervals per weekday; a new one from weekdays and
// hours), its access levels (schedule and doors; create, edit) and each level's members (add a
// person with a validity, remove one after confirming) and areas.
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { ConfirmButton, ErrorNote, Section } from '../components';
import { useDoorBoard } from '../door-board';
import { EntityEditor, EntityForm, choices, doorOptions, ids, textOrNull, type DoorOption, type Field, type Values } from '../entity-form';
import { EditButton, EntityList } from '../entity-list';
import {
  AccessDocument,
  AccessLevelMembersDocument,
  AddAccessLevelEmployeesDocument,
  CreateAccessLevelDocument,
  CreateAccessScheduleDocument,
  RemoveAccessLevelEmployeesDocument,
  SecurityAreasDocument,
  UpdateAccessLevelDocument,
  type AccessQuery,
} from '../gql';
import { usePeopleById } from '../people';
import { WEEKDAYS } from '../format';

type Level = AccessQuery['accessLevels']['nodes'][number];
type Schedule = AccessQuery['accessSchedules']['nodes'][number];

const SCHEDULE_FIELDS: Field[] = [
  { name: 'name', label: 'Schedule name', kind: 'text', maxLength: 100, required: true },
  { name: 'days', label: 'Days', kind: 'checks', options: WEEKDAYS.map((d, i) => ({ value: String(i + 1), label: d })), apiFields: ['intervals'] },
  { name: 'start', label: 'Opens at', kind: 'time', required: true, row: 'hours' },
  { name: 'end', label: 'Closes at', kind: 'time', required: true, row: 'hours' },
];

function levelFields(schedules: Schedule[], doors: DoorOption[]): Field[] {
  return [
    { name: 'name', label: 'Level name', kind: 'text', maxLength: 100, required: true },
    { name: 'scheduleId', label: 'Schedule', kind: 'select', options: choices(schedules) },
    { name: 'doorIds', label: 'Doors', kind: 'doors', doors, empty: 'This company has no doors.' },
  ];
}

const MEMBER_FIELDS = (companyId: number, exclude: ReadonlySet<number>): Field[] => [
  { name: 'employeeId', label: 'Person', kind: 'person', companyId, exclude, row: 'member' },
  { name: 'startDate', label: 'Valid from', kind: 'date', row: 'member' },
  { name: 'endDate', label: 'Valid until', kind: 'date', row: 'member' },
];

function LevelMembers({ level, companyId, areaName }: { level: Level; companyId: number; areaName: (id: number) => string }) {
  const canWrite = useAllowed('doors:manage');
  const [members, refresh] = useQuery({ query: AccessLevelMembersDocument, variables: { accessLevelId: level.id }, requestPolicy: 'network-only' });
  const [, add] = useMutation(AddAccessLevelEmployeesDocument);
  const [removing, remove] = useMutation(RemoveAccessLevelEmployeesDocument);
  const people = usePeopleById();
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const name = (id: number) => {
    const e = people.person(id);
    return e ? `${e.name} ${e.lastname}` : people.answered(id) ? `person #${id}` : '…';
  };
  const list = members.data?.accessLevelEmployees.nodes ?? [];
  const inLevel = new Set(list.map((m) => m.employeeId));
  const levelAreas = members.data?.accessLevelAreas.nodes ?? [];
  return (
    <EntityList
      title={`Members of ${level.name}`}
      rows={members.data ? list : null}
      empty="No person is a member of this level directly."
      error={errorMessage(members.error ?? removing.error)}
      rowData={(m) => ({ member: m.employeeId })}
      columns={[
        { header: 'Person', rowHeader: true, cell: (m) => name(m.employeeId) },
        { header: 'From', cell: (m) => m.startDate ?? 'always' },
        { header: 'Until', cell: (m) => m.endDate ?? 'open-ended' },
      ]}
      actions={
        canWrite
          ? (m) => (
              <ConfirmButton
                label="Remove"
                labelDetail={`${name(m.employeeId)} from ${level.name}`}
                title={`Remove ${name(m.employeeId)} from ${level.name}?`}
                confirm="Remove member"
                onConfirm={async () => {
                  await remove({ accessLevelId: level.id, items: [{ employeeId: m.employeeId }] });
                  reload();
                }}
              >
                <p>
                  {name(m.employeeId)} can no longer open this level's doors (unless another level or an area gives them); the controllers are told at once.
                </p>
              </ConfirmButton>
            )
          : undefined
      }
    >
      <p class="muted">Areas in this level: {levelAreas.length === 0 ? 'none' : levelAreas.map((a) => areaName(a.areaId)).join(', ')}</p>
      {canWrite && members.data && (
        <EntityForm
          inline
          class="inline-form"
          title={`Add a member to ${level.name}`}
          idPrefix="member"
          fields={MEMBER_FIELDS(companyId, inLevel)}
          initial={{ employeeId: '', startDate: '', endDate: '' }}
          submitLabel="Add member"
          disabled={(v) => !v.employeeId}
          save={(v) =>
            add({ accessLevelId: level.id, items: [{ employeeId: Number(v.employeeId), startDate: textOrNull(v.startDate), endDate: textOrNull(v.endDate) }] })
          }
          onSaved={reload}
        />
      )}
    </EntityList>
  );
}

export function Access() {
  const canManage = useAllowed('doors:manage');
  const { companyId, picker } = useCompanyPicker('access-company');
  const [access, refresh] = useQuery({ query: AccessDocument, variables: { companyId }, pause: !companyId });
  const [areasResult] = useQuery({ query: SecurityAreasDocument, variables: { companyId }, pause: !companyId });
  const [, createSchedule] = useMutation(CreateAccessScheduleDocument);
  const [, createLevel] = useMutation(CreateAccessLevelDocument);
  const [, updateLevel] = useMutation(UpdateAccessLevelDocument);
  const board = useDoorBoard(0);
  const [editing, setEditing] = useState<Level | null>(null);
  const [chosen, setChosen] = useState<number | null>(null);
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const schedules = access.data?.accessSchedules.nodes ?? [];
  const levels = access.data?.accessLevels.nodes ?? [];
  const areas = areasResult.data?.areas.nodes ?? [];
  const doors = doorOptions(
    board.doors.filter((d) => d.device.companyId === companyId),
    areas,
  );
  const scheduleName = new Map(schedules.map((s) => [s.id, s.name]));
  const doorName = (id: number) => {
    const d = board.doors.find((x) => x.id === id);
    return d ? `${d.name} (${d.device.name})` : `door #${id}`;
  };
  const member = levels.find((l) => l.id === chosen) ?? null;
  const levelInput = (v: Values) => ({ name: v.name as string, scheduleId: Number(v.scheduleId), doorIds: ids(v.doorIds) });
  return (
    <div class="grid">
      <Section title="Access schedules">
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          {picker}
        </form>
        <ErrorNote message={errorMessage(access.error)} />
        <div class="table-scroll" tabIndex={0} role="group" aria-label="Schedules by weekday">
          <table>
            <thead>
              <tr>
                <th scope="col">Schedule</th>
                {WEEKDAYS.map((d) => (
                  <th scope="col">{d}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {schedules.map((s) => (
                <tr>
                  <th scope="row">{s.name}</th>
                  {WEEKDAYS.map((_, i) => (
                    <td>
                      {s.intervals
                        .filter((v) => v.weekday === i + 1)
                        .map((v) => `${v.startTime}–${v.endTime}`)
                        .join(', ') || '—'}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>
      <EntityList
        title="Access levels"
        rows={access.data ? levels : companyId ? null : []}
        empty="No access levels: people on a terminal may open all its doors at any hour."
        rowData={(l) => ({ level: l.id })}
        columns={[
          { header: 'Level', rowHeader: true, cell: (l) => l.name },
          { header: 'Schedule', cell: (l) => scheduleName.get(l.scheduleId) ?? l.scheduleId },
          { header: 'Doors', cell: (l) => (l.doorIds.length === 0 ? 'none' : l.doorIds.map(doorName).join(', ')) },
        ]}
        actions={(l) => (
          <>
            <button type="button" class="secondary" aria-pressed={chosen === l.id} onClick={() => setChosen(l.id)}>
              Members<span class="sr-only"> of {l.name}</span>
            </button>
            {canManage && <EditButton name={l.name} onClick={() => setEditing(l)} />}
          </>
        )}
      />
      {member && <LevelMembers key={member.id} level={member} companyId={companyId} areaName={(id) => areas.find((a) => a.id === id)?.name ?? `#${id}`} />}
      {canManage && companyId > 0 && schedules.length > 0 && (
        <EntityEditor
          noun="access level"
          short="level"
          idPrefix="level"
          editing={editing}
          fields={levelFields(schedules, doors)}
          blank={{ name: '', scheduleId: '', doorIds: [] }}
          valuesOf={(l) => ({ name: l.name, scheduleId: String(l.scheduleId), doorIds: l.doorIds.map(String) })}
          create={(v) => createLevel({ input: { ...levelInput(v), companyId } })}
          update={(id, v) => updateLevel({ id, input: levelInput(v) })}
          onDone={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
      {canManage && companyId > 0 && (
        <EntityForm
          title="New schedule"
          idPrefix="schedule"
          fields={SCHEDULE_FIELDS}
          initial={{ name: '', days: ['1', '2', '3', '4', '5'], start: '07:00', end: '19:00' }}
          submitLabel="Create schedule"
          save={(v) =>
            createSchedule({
              input: {
                companyId,
                name: v.name as string,
                intervals: ids(v.days).map((weekday) => ({ weekday, startTime: v.start as string, endTime: v.end as string })),
              },
            })
          }
          onSaved={reload}
        />
      )}
    </div>
  );
}
