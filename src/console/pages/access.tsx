// Access control: a company's schedules (their intervals per weekday; a new one from weekdays and
// hours), its access levels (schedule and doors; create, edit) and each level's members (add a
// person with a validity, remove one after confirming) and areas.
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { ConfirmButton, Empty, ErrorNote, Section } from '../components';
import { useDoorBoard, type BoardDoor } from '../door-board';
import {
  AccessDocument,
  AccessLevelMembersDocument,
  AddAccessLevelEmployeesDocument,
  AreasDocument,
  CompanyEmployeesDocument,
  CreateAccessLevelDocument,
  CreateAccessScheduleDocument,
  RemoveAccessLevelEmployeesDocument,
  UpdateAccessLevelDocument,
  type AccessQuery,
} from '../gql';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

type Level = AccessQuery['accessLevels']['nodes'][number];
type Schedule = AccessQuery['accessSchedules']['nodes'][number];

function NewSchedule({ companyId, onDone }: { companyId: number; onDone: () => void }) {
  const [creating, create] = useMutation(CreateAccessScheduleDocument);
  const [form, setForm] = useState({ name: '', days: [1, 2, 3, 4, 5], start: '07:00', end: '19:00' });
  return (
    <Section title="New schedule">
      <form
        class="form"
        onSubmit={async (event) => {
          event.preventDefault();
          const intervals = form.days.map((weekday) => ({ weekday, startTime: form.start, endTime: form.end }));
          const result = await create({ input: { companyId, name: form.name, intervals } });
          if (result.data) {
            setForm({ ...form, name: '' });
            onDone();
          }
        }}
      >
        <p class="field">
          <label for="schedule-name">Schedule name</label>
          <input id="schedule-name" value={form.name} onInput={(e) => setForm({ ...form, name: (e.target as HTMLInputElement).value })} required />
        </p>
        <fieldset>
          <legend>Days</legend>
          {WEEKDAYS.map((d, i) => (
            <label class="check">
              <input
                type="checkbox"
                checked={form.days.includes(i + 1)}
                onChange={() => setForm({ ...form, days: form.days.includes(i + 1) ? form.days.filter((x) => x !== i + 1) : [...form.days, i + 1].sort() })}
              />{' '}
              {d}
            </label>
          ))}
        </fieldset>
        <div class="inline-form">
          <p class="field">
            <label for="schedule-start">Opens at</label>
            <input
              id="schedule-start"
              type="time"
              value={form.start}
              onInput={(e) => setForm({ ...form, start: (e.target as HTMLInputElement).value })}
              required
            />
          </p>
          <p class="field">
            <label for="schedule-end">Closes at</label>
            <input id="schedule-end" type="time" value={form.end} onInput={(e) => setForm({ ...form, end: (e.target as HTMLInputElement).value })} required />
          </p>
        </div>
        <button type="submit" disabled={creating.fetching}>
          Create schedule
        </button>
        <ErrorNote message={errorMessage(creating.error)} />
      </form>
    </Section>
  );
}

function LevelEditor({
  companyId,
  level,
  schedules,
  doors,
  onDone,
}: {
  companyId: number;
  level: Level | null;
  schedules: Schedule[];
  doors: BoardDoor[];
  onDone: () => void;
}) {
  const [created, create] = useMutation(CreateAccessLevelDocument);
  const [updated, update] = useMutation(UpdateAccessLevelDocument);
  const [form, setForm] = useState({ name: level?.name ?? '', scheduleId: String(level?.scheduleId ?? ''), doorIds: level?.doorIds ?? [] });
  const scheduleId = Number(form.scheduleId || schedules[0]?.id || 0);
  const toggle = (id: number) => setForm({ ...form, doorIds: form.doorIds.includes(id) ? form.doorIds.filter((x) => x !== id) : [...form.doorIds, id] });
  return (
    <Section title={level ? `Edit level ${level.name}` : 'New access level'}>
      <form
        class="form"
        onSubmit={async (event) => {
          event.preventDefault();
          const fields = { name: form.name, scheduleId, doorIds: form.doorIds };
          const result = level ? await update({ id: level.id, input: fields }) : await create({ input: { ...fields, companyId } });
          if (result.data) {
            if (!level) setForm({ name: '', scheduleId: '', doorIds: [] });
            onDone();
          }
        }}
      >
        <p class="field">
          <label for="level-name">Level name</label>
          <input id="level-name" value={form.name} onInput={(e) => setForm({ ...form, name: (e.target as HTMLInputElement).value })} required />
        </p>
        <p class="field">
          <label for="level-schedule">Schedule</label>
          <select id="level-schedule" value={String(scheduleId)} onChange={(e) => setForm({ ...form, scheduleId: (e.target as HTMLSelectElement).value })}>
            {schedules.map((s) => (
              <option value={s.id}>{s.name}</option>
            ))}
          </select>
        </p>
        <fieldset>
          <legend>Doors</legend>
          {doors.length === 0 ? (
            <p class="muted">This company has no doors.</p>
          ) : (
            doors.map((d) => (
              <label class="check">
                <input type="checkbox" checked={form.doorIds.includes(d.id)} onChange={() => toggle(d.id)} /> {d.name} ({d.device.name})
              </label>
            ))
          )}
        </fieldset>
        <p class="inline-form">
          <button type="submit" disabled={created.fetching || updated.fetching || !scheduleId}>
            {level ? 'Save level' : 'Create level'}
          </button>
          {level && (
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

function LevelMembers({ level, companyId }: { level: Level; companyId: number }) {
  const canWrite = useAllowed('doors:manage');
  const [members, refresh] = useQuery({ query: AccessLevelMembersDocument, variables: { accessLevelId: level.id }, requestPolicy: 'network-only' });
  const [people] = useQuery({ query: CompanyEmployeesDocument, variables: { companyId } });
  const [areas] = useQuery({ query: AreasDocument });
  const [adding, add] = useMutation(AddAccessLevelEmployeesDocument);
  const [removing, remove] = useMutation(RemoveAccessLevelEmployeesDocument);
  const [form, setForm] = useState({ employeeId: '', startDate: '', endDate: '' });
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const employees = people.data?.employees.nodes ?? [];
  const name = (id: number) => {
    const e = employees.find((x) => x.id === id);
    return e ? `${e.name} ${e.lastname}` : `person #${id}`;
  };
  const list = members.data?.accessLevelEmployees.nodes ?? [];
  const inLevel = new Set(list.map((m) => m.employeeId));
  const choices = employees.filter((e) => !inLevel.has(e.id));
  const employeeId = Number(form.employeeId || choices[0]?.id || 0);
  const levelAreas = members.data?.accessLevelAreas.nodes ?? [];
  return (
    <Section title={`Members of ${level.name}`}>
      <ErrorNote message={errorMessage(members.error ?? removing.error)} />
      {list.length === 0 ? (
        <Empty>No person is a member of this level directly.</Empty>
      ) : (
        <table class="fold-on-phone">
          <thead>
            <tr>
              <th scope="col">Person</th>
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
            {list.map((m) => (
              <tr data-member={m.employeeId}>
                <th scope="row">{name(m.employeeId)}</th>
                <td>{m.startDate ?? 'always'}</td>
                <td>{m.endDate ?? 'open-ended'}</td>
                {canWrite && (
                  <td>
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
                        {name(m.employeeId)} can no longer open this level's doors (unless another level or an area gives them); the controllers are told at
                        once.
                      </p>
                    </ConfirmButton>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p class="muted">
        Areas in this level:{' '}
        {levelAreas.length === 0 ? 'none' : levelAreas.map((a) => areas.data?.areas.nodes.find((x) => x.id === a.areaId)?.name ?? `#${a.areaId}`).join(', ')}
      </p>
      {canWrite && choices.length > 0 && (
        <form
          class="inline-form"
          aria-label={`Add a member to ${level.name}`}
          onSubmit={async (event) => {
            event.preventDefault();
            const result = await add({ accessLevelId: level.id, items: [{ employeeId, startDate: form.startDate || null, endDate: form.endDate || null }] });
            if (result.data) {
              setForm({ employeeId: '', startDate: '', endDate: '' });
              reload();
            }
          }}
        >
          <p class="field">
            <label for="member-person">Person</label>
            <select id="member-person" value={String(employeeId)} onChange={(e) => setForm({ ...form, employeeId: (e.target as HTMLSelectElement).value })}>
              {choices.map((e) => (
                <option value={e.id}>
                  {e.name} {e.lastname} ({e.code})
                </option>
              ))}
            </select>
          </p>
          <p class="field">
            <label for="member-from">Valid from</label>
            <input id="member-from" type="date" value={form.startDate} onInput={(e) => setForm({ ...form, startDate: (e.target as HTMLInputElement).value })} />
          </p>
          <p class="field">
            <label for="member-until">Valid until</label>
            <input id="member-until" type="date" value={form.endDate} onInput={(e) => setForm({ ...form, endDate: (e.target as HTMLInputElement).value })} />
          </p>
          <button type="submit" disabled={adding.fetching}>
            Add member
          </button>
          <ErrorNote message={errorMessage(adding.error)} />
        </form>
      )}
    </Section>
  );
}

export function Access() {
  const canManage = useAllowed('doors:manage');
  const { companyId, picker } = useCompanyPicker('access-company');
  const [access, refresh] = useQuery({ query: AccessDocument, variables: { companyId }, pause: !companyId });
  const board = useDoorBoard(0);
  const [editing, setEditing] = useState<Level | null>(null);
  const [chosen, setChosen] = useState<number | null>(null);
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const schedules = access.data?.accessSchedules.nodes ?? [];
  const levels = access.data?.accessLevels.nodes ?? [];
  const doors = board.doors.filter((d) => d.device.companyId === companyId);
  const scheduleName = new Map(schedules.map((s) => [s.id, s.name]));
  const doorName = (id: number) => {
    const d = board.doors.find((x) => x.id === id);
    return d ? `${d.name} (${d.device.name})` : `door #${id}`;
  };
  const member = levels.find((l) => l.id === chosen) ?? null;
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
      <Section title="Access levels">
        {levels.length === 0 ? (
          <Empty>No access levels: people on a terminal may open all its doors at any hour.</Empty>
        ) : (
          <table class="fold-on-phone">
            <thead>
              <tr>
                <th scope="col">Level</th>
                <th scope="col">Schedule</th>
                <th scope="col">Doors</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {levels.map((l) => (
                <tr data-level={l.id}>
                  <th scope="row">{l.name}</th>
                  <td>{scheduleName.get(l.scheduleId) ?? l.scheduleId}</td>
                  <td>{l.doorIds.length === 0 ? 'none' : l.doorIds.map(doorName).join(', ')}</td>
                  <td class="inline-form">
                    <button type="button" class="secondary" aria-pressed={chosen === l.id} onClick={() => setChosen(l.id)}>
                      Members<span class="sr-only"> of {l.name}</span>
                    </button>
                    {canManage && (
                      <button type="button" class="secondary" onClick={() => setEditing(l)}>
                        Edit<span class="sr-only"> {l.name}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      {member && <LevelMembers key={member.id} level={member} companyId={companyId} />}
      {canManage && companyId > 0 && schedules.length > 0 && (
        <LevelEditor
          key={editing?.id ?? 'new'}
          companyId={companyId}
          level={editing}
          schedules={schedules}
          doors={doors}
          onDone={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
      {canManage && companyId > 0 && <NewSchedule companyId={companyId} onDone={reload} />}
    </div>
  );
}
