// One person's day, from the timesheet: the attendance figures (late, early leave, overtime), the
// exceptions in words, and every punch with its terminal and state by name; a punch can be added
// (a manual punch) or voided with a reason. Overtime waiting for approval is shown, and approvers
// decide it here.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { exceptionLabel, hours } from '../attendance-days';
import { ConfirmButton, Empty, ErrorNote, Section } from '../components';
import { AddPunchDocument, EmployeeDayDocument, VoidPunchDocument } from '../gql';
import type { Directory } from '../people';
import { EntityTable } from '../entity-list';
import { DayOvertime } from './day-overtime';

function VoidPunch({ punch, who, onDone }: { punch: { id: number; localTime: string }; who: string; onDone: () => void }) {
  const [voiding, voidPunch] = useMutation(VoidPunchDocument);
  const [reason, setReason] = useState('');
  const time = punch.localTime.slice(11, 16);
  return (
    <>
      <ConfirmButton
        label={`Void the ${time} punch`}
        title={`Void ${who}'s ${time} punch?`}
        confirm="Void punch"
        onConfirm={async () => {
          await voidPunch({ id: punch.id, reason });
          onDone();
        }}
      >
        <p>The punch stays stored and listed, but no longer counts in the day's attendance.</p>
        <p class="field">
          <label for={`void-reason-${punch.id}`}>Reason</label>
          <input id={`void-reason-${punch.id}`} value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} required />
        </p>
      </ConfirmButton>
      <ErrorNote message={errorMessage(voiding.error)} />
    </>
  );
}

function AddPunch({
  employeeId,
  companyId,
  date,
  directory,
  onDone,
}: {
  employeeId: number;
  companyId: number;
  date: string;
  directory: Directory;
  onDone: () => void;
}) {
  const [adding, add] = useMutation(AddPunchDocument);
  const terminals = directory.devices.filter((d) => d.companyId === companyId && d.modeType !== 'acc');
  const choices = terminals.length > 0 ? terminals : directory.devices.filter((d) => d.companyId === companyId);
  const [form, setForm] = useState({ time: '', state: '0', deviceId: '' });
  const deviceId = Number(form.deviceId || choices[0]?.id || 0);
  return (
    <form
      class="inline-form"
      aria-label="Add a punch"
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await add({ input: { employeeId, companyId, deviceId, punchTime: `${date}T${form.time}:00`, punchState: form.state } });
        if (result.data) {
          setForm({ ...form, time: '' });
          onDone();
        }
      }}
    >
      <p class="field">
        <label for="add-punch-time">Punch time</label>
        <input id="add-punch-time" type="time" value={form.time} onInput={(e) => setForm({ ...form, time: (e.target as HTMLInputElement).value })} required />
      </p>
      <p class="field">
        <label for="add-punch-state">Punch type</label>
        <select id="add-punch-state" value={form.state} onChange={(e) => setForm({ ...form, state: (e.target as HTMLSelectElement).value })}>
          {['0', '1', '2', '3', '4', '5'].map((v) => (
            <option value={v}>{directory.stateName(v)}</option>
          ))}
        </select>
      </p>
      <p class="field">
        <label for="add-punch-device">Terminal</label>
        <select id="add-punch-device" value={String(deviceId)} onChange={(e) => setForm({ ...form, deviceId: (e.target as HTMLSelectElement).value })}>
          {choices.map((d) => (
            <option value={d.id}>{d.name}</option>
          ))}
        </select>
      </p>
      <button type="submit" disabled={adding.fetching || !deviceId}>
        Add punch
      </button>
      <ErrorNote message={errorMessage(adding.error) ?? (choices.length === 0 ? 'This company has no terminal to record a manual punch on.' : null)} />
    </form>
  );
}

export function DayDetail({
  employeeId,
  name,
  companyId,
  date,
  directory,
  onClose,
  onChanged,
}: {
  employeeId: number;
  /** The person's name, when the page opening the day has it (else it is looked up by id). */
  name?: string;
  companyId: number;
  date: string;
  directory: Directory;
  onClose: () => void;
  onChanged: () => void;
}) {
  const canWrite = useAllowed('write');
  const [day, refresh] = useQuery({ query: EmployeeDayDocument, variables: { employeeId, date }, requestPolicy: 'network-only' });
  // A modal dialog: the grid behind stays where it was, Escape closes, focus returns to the cell.
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const who = name ?? directory.employeeName(employeeId);
  const changed = () => {
    refresh({ requestPolicy: 'network-only' });
    onChanged();
  };
  const summary = day.data?.timesheet.nodes[0];
  const punches = [...(day.data?.punches.nodes ?? [])].sort((a, b) => a.punchTime.localeCompare(b.punchTime));
  return (
    <dialog ref={dialog} class="day-detail" aria-label={`${who}, ${date}`} onClose={onClose}>
      <Section
        title={`${who}, ${date}`}
        actions={
          <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
            Close day
          </button>
        }
      >
        <ErrorNote message={errorMessage(day.error)} />
        {summary ? (
          <dl class="facts" aria-label="The day in figures">
            <dt>Status</dt>
            <dd>{summary.status}</dd>
            <dt>In / out</dt>
            <dd>
              {summary.firstIn ? new Date(summary.firstIn).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : '—'} /{' '}
              {summary.lastOut ? new Date(summary.lastOut).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : '—'}
            </dd>
            <dt>Worked</dt>
            <dd>
              {hours(summary.workedMinutes)} of {hours(summary.scheduledMinutes)} scheduled
            </dd>
            <dt>Late</dt>
            <dd>{hours(summary.lateMinutes)}</dd>
            <dt>Left early</dt>
            <dd>{hours(summary.earlyLeaveMinutes)}</dd>
            <dt>Overtime</dt>
            <dd>{hours(summary.overtimeMinutes)}</dd>
            <dt>Exceptions</dt>
            <dd>{summary.exceptions.length === 0 ? 'none' : summary.exceptions.map(exceptionLabel).join(', ')}</dd>
          </dl>
        ) : day.data ? (
          <Empty>No attendance day computed for this date.</Empty>
        ) : (
          <p>Loading…</p>
        )}
        <DayOvertime employeeId={employeeId} date={date} who={who} onChanged={changed} />
        <h3>Punches</h3>
        {punches.length === 0 ? (
          <Empty>No punches on this day.</Empty>
        ) : (
          <EntityTable
            rows={punches}
            rowData={(p) => ({ punch: p.id })}
            columns={[
              { header: 'Time', cell: (p) => p.localTime.slice(11, 19) },
              { header: 'Type', cell: (p) => directory.stateName(p.punchState) },
              { header: 'Terminal', cell: (p) => directory.deviceName(p.deviceId, p.deviceSerial) },
              { header: 'Verified by', cell: (p) => p.verifyType ?? '—' },
              { header: 'Counts', cell: (p) => (p.voidedAt ? <span>voided: {p.voidReason}</span> : 'yes') },
            ]}
            actions={canWrite ? (p) => !p.voidedAt && <VoidPunch punch={p} who={who} onDone={changed} /> : undefined}
          />
        )}
        {canWrite && <AddPunch employeeId={employeeId} companyId={companyId} date={date} directory={directory} onDone={changed} />}
      </Section>
    </dialog>
  );
}
