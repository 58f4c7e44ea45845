// Requests: a company's absence requests, punch corrections and overtime approvals by state (pending
// first), decided one at a time or several at once with a comment by signers with the `approve` scope
// (or `admin`); everyone else sees them read-only. An approver may cap the overtime minutes that count
// and approve a whole period's overtime at once. HR (`write`) files an absence request for an employee and may
// cancel a pending request; an approver may also cancel an approved absence (its days revert).
import { useId, useRef, useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import type { ComponentChildren } from 'preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { Empty, ErrorNote, Section } from '../components';
import { EntityForm, choices, textOrNull, type Field, type Values } from '../entity-form';
import { today, when } from '../format';
import {
  ApproveAbsenceRequestDocument,
  ApproveOvertimeDocument,
  ApprovePunchCorrectionDocument,
  CancelAbsenceRequestDocument,
  CancelPunchCorrectionDocument,
  FileAbsenceRequestDocument,
  EmployeeDayDocument,
  FileCorrectionDocument,
  LeaveRequestsDocument,
  OvertimeApprovalsDocument,
  OvertimeDayDocument,
  RejectAbsenceRequestDocument,
  RejectOvertimeDocument,
  RejectPunchCorrectionDocument,
  VoidedPunchDocument,
  type AbsenceRequestFieldsFragment,
  type AbsenceTypeFieldsFragment,
  type OvertimeApprovalFieldsFragment,
  type PunchCorrectionFieldsFragment,
} from '../gql';
import { useDirectory, type Directory } from '../people';
import { OvertimePeriod } from './overtime-period';

type Verb = 'approve' | 'reject' | 'cancel';
type Kind = 'absence' | 'correction' | 'overtime';

const KIND_WORDS: Record<Kind, { plural: string; what: string; reason: string }> = {
  absence: { plural: 'absence requests', what: 'Type', reason: 'Note' },
  correction: { plural: 'punch corrections', what: 'Correction', reason: 'Reason' },
  overtime: { plural: 'overtime approvals', what: 'Overtime', reason: 'Note' },
};

/** One request as both tables show it: who, which dates, what, why, and where it stands. */
interface Row {
  id: number;
  state: string;
  who: string;
  dates: string;
  what: ComponentChildren;
  /** What the row is, in words, for buttons and dialogs ("Ada Late, Vacation, 2026-12-01 to 2026-12-04"). */
  summary: string;
  reason: string;
  filed: string;
  decision: string | null;
}

const STATES = [
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: '', label: 'All' },
];

const VERB_WORDS: Record<Verb, { button: string; done: string; cls: string }> = {
  approve: { button: 'Approve', done: 'approved', cls: '' },
  reject: { button: 'Reject', done: 'rejected', cls: 'danger' },
  cancel: { button: 'Cancel request', done: 'cancelled', cls: 'danger' },
};

const range = (from: string, to: string) => (from === to ? from : `${from} to ${to}`);

function unitText(amount: number, unit: string): string {
  const one = unit === 'hour' ? 'hour' : 'day';
  return `${amount} ${amount === 1 ? one : `${one}s`}`;
}

function absenceRow(r: AbsenceRequestFieldsFragment, types: Map<number, AbsenceTypeFieldsFragment>, dir: Directory): Row {
  const type = types.get(r.absenceTypeId);
  const part = r.halfDay ? (r.halfDay === 'am' ? ', morning' : ', afternoon') : r.startTime ? `, ${r.startTime}–${r.endTime}` : '';
  const who = dir.employeeName(r.employeeId);
  const typeName = type?.name ?? 'an absence';
  return {
    id: r.id,
    state: r.state,
    who,
    dates: `${range(r.startDate, r.endDate)}${part}`,
    what: (
      <>
        {type?.color && <span class="swatch" style={{ background: type.color }} aria-hidden="true" />}
        {typeName}, {unitText(r.amount, type?.unit ?? 'day')}
      </>
    ),
    summary: `${who}, ${typeName}, ${range(r.startDate, r.endDate)}`,
    reason: r.note ?? '',
    filed: when(r.createdAt),
    decision: r.decidedAt ? `${when(r.decidedAt)}${r.decisionComment ? `: ${r.decisionComment}` : ''}` : null,
  };
}

/** The punch a void correction removes, by time, type and terminal (never its id alone). */
function VoidedPunch({ id, dir }: { id: number; dir: Directory }) {
  const [punch] = useQuery({ query: VoidedPunchDocument, variables: { id } });
  const p = punch.data?.punch;
  if (!p) return <>void a punch</>;
  return (
    <>
      void the {dir.stateName(p.punchState)} of {when(p.punchTime)} ({dir.deviceName(p.deviceId)})
    </>
  );
}

function correctionRow(c: PunchCorrectionFieldsFragment, dir: Directory): Row {
  const who = dir.employeeName(c.employeeId);
  return {
    id: c.id,
    state: c.state,
    who,
    dates: range(c.firstDate, c.lastDate),
    what:
      c.voidPunchId != null ? (
        <VoidedPunch id={c.voidPunchId} dir={dir} />
      ) : (
        <>add {c.punches.map((p) => `${dir.stateName(p.punchState)} at ${when(p.punchTime)}`).join('; ')}</>
      ),
    summary: `${who}, punch correction, ${range(c.firstDate, c.lastDate)}`,
    reason: c.reason,
    filed: when(c.createdAt),
    decision: c.decidedAt ? `${when(c.decidedAt)}${c.decisionComment ? `: ${c.decisionComment}` : ''}` : null,
  };
}

/** The day's overtime minutes: waiting for approval, or counted (at most the approval's cap). */
function OvertimeMinutes({ approval }: { approval: OvertimeApprovalFieldsFragment }) {
  const [day] = useQuery({ query: OvertimeDayDocument, variables: { employeeId: approval.employeeId, date: approval.date } });
  const d = day.data?.timesheet.nodes[0];
  const cap = approval.minutes != null ? ` (capped at ${approval.minutes} min)` : '';
  if (!d) return <>{cap ? cap.slice(2, -1) : 'no day computed yet'}</>;
  if (d.pendingOvertimeMinutes > 0) return <>{`${d.pendingOvertimeMinutes} min waiting${cap}`}</>;
  return <>{d.overtimeMinutes > 0 ? `${d.overtimeMinutes} min counted${cap}` : `no overtime counted${cap}`}</>;
}

function overtimeRow(a: OvertimeApprovalFieldsFragment, dir: Directory): Row {
  const who = dir.employeeName(a.employeeId);
  return {
    id: a.id,
    state: a.state,
    who,
    dates: a.date,
    what: <OvertimeMinutes approval={a} />,
    summary: `${who}, overtime, ${a.date}`,
    reason: a.note ?? '',
    filed: when(a.createdAt),
    decision: a.decidedAt ? `${when(a.decidedAt)}${a.decisionComment ? `: ${a.decisionComment}` : ''}` : null,
  };
}

/**
 * A decision on one request or several: a modal dialog that names each, takes an optional comment
 * (kept with the decision and in the audit log) and asks again; Escape or "Back" changes nothing.
 */
function DecisionButton({
  verb,
  rows,
  label,
  labelDetail,
  capMinutes = false,
  onDecide,
}: {
  verb: Verb;
  rows: Row[];
  label: string;
  labelDetail?: string;
  /** Offers "at most this many minutes count" (an overtime approval). */
  capMinutes?: boolean;
  onDecide: (comment: string | null, minutes: number | null) => Promise<void>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [comment, setComment] = useState('');
  const [minutes, setMinutes] = useState('');
  const words = VERB_WORDS[verb];
  const title = rows.length === 1 ? `${words.button} ${rows[0].summary}?` : `${words.button} ${rows.length} requests?`;
  const commentId = `comment-${useId()}`;
  const minutesId = `minutes-${useId()}`;
  return (
    <>
      <button
        type="button"
        class={words.cls}
        disabled={rows.length === 0}
        onClick={() => {
          setComment('');
          setMinutes('');
          dialog.current?.showModal();
        }}
      >
        {label}
        {labelDetail && <span class="sr-only"> {labelDetail}</span>}
      </button>
      <dialog ref={dialog} aria-label={title} class="confirm">
        <form
          method="dialog"
          onSubmit={async (event) => {
            const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
            if (submitter?.value === 'confirm') await onDecide(comment.trim() || null, capMinutes && minutes !== '' ? Number(minutes) : null);
          }}
        >
          <h2>{title}</h2>
          <ul class="decision-list">
            {rows.map((r) => (
              <li>
                {r.summary}
                {r.reason && <span class="muted"> ({r.reason})</span>}
              </li>
            ))}
          </ul>
          {verb === 'cancel' && rows.some((r) => r.state === 'approved') && <p>An approved absence is cancelled: its days revert at once.</p>}
          {capMinutes && (
            <p class="field">
              <label for={minutesId}>At most this many overtime minutes count (optional; empty: all)</label>
              <input
                id={minutesId}
                type="number"
                min={0}
                max={1440}
                step={1}
                value={minutes}
                onInput={(e) => setMinutes((e.target as HTMLInputElement).value)}
              />
            </p>
          )}
          <p class="field">
            <label for={commentId}>Comment (optional)</label>
            <textarea id={commentId} rows={2} value={comment} onInput={(e) => setComment((e.target as HTMLTextAreaElement).value)} />
          </p>
          <p class="inline-form">
            <button type="submit" value="cancel" class="secondary" formNoValidate>
              Back
            </button>
            <button type="submit" value="confirm" class={words.cls}>
              {rows.length === 1 ? words.button : `${words.button} ${rows.length}`}
            </button>
          </p>
        </form>
      </dialog>
    </>
  );
}

/** One kind of request in a table: selection and bulk decisions for approvers, row decisions by scope. */
function RequestTable({
  kind,
  title,
  rows,
  canApprove,
  canWrite,
  decide,
  error,
}: {
  kind: Kind;
  title: string;
  rows: Row[];
  canApprove: boolean;
  canWrite: boolean;
  decide: (verb: Verb, rows: Row[], comment: string | null, minutes: number | null) => Promise<void>;
  error: string | null;
}) {
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const pending = rows.filter((r) => r.state === 'pending');
  const chosen = pending.filter((r) => selected.has(r.id));
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const decideAndClear = async (verb: Verb, list: Row[], comment: string | null, minutes: number | null = null) => {
    await decide(verb, list, comment, minutes);
    setSelected(new Set());
  };
  const selectable = canApprove && pending.length > 0;
  // An overtime approval is not withdrawn: an approver takes the other decision instead.
  const canCancel = (r: Row) => kind !== 'overtime' && ((r.state === 'pending' && canWrite) || (kind === 'absence' && r.state === 'approved' && canApprove));
  const kindWord = KIND_WORDS[kind].plural;
  const capMinutes = kind === 'overtime';
  return (
    <Section
      title={title}
      actions={
        selectable && (
          <div class="inline-form bulk-actions" role="group" aria-label={`Selected ${kindWord}`}>
            <DecisionButton
              verb="approve"
              rows={chosen}
              label={`Approve selected (${chosen.length})`}
              labelDetail={kindWord}
              capMinutes={capMinutes}
              onDecide={(c, m) => decideAndClear('approve', chosen, c, m)}
            />
            <DecisionButton
              verb="reject"
              rows={chosen}
              label={`Reject selected (${chosen.length})`}
              labelDetail={kindWord}
              onDecide={(c) => decideAndClear('reject', chosen, c)}
            />
          </div>
        )
      }
    >
      <ErrorNote message={error} />
      {rows.length === 0 ? (
        <Empty>No {kindWord} here.</Empty>
      ) : (
        <table class="fold-on-phone requests">
          <thead>
            <tr>
              {selectable && (
                <th scope="col">
                  <label class="check">
                    <input
                      type="checkbox"
                      checked={chosen.length === pending.length}
                      onChange={(e) => setSelected((e.target as HTMLInputElement).checked ? new Set(pending.map((r) => r.id)) : new Set())}
                    />
                    <span class="sr-only">Select every pending one of the {kindWord}</span>
                  </label>
                </th>
              )}
              <th scope="col">Who</th>
              <th scope="col">Dates</th>
              <th scope="col">{KIND_WORDS[kind].what}</th>
              <th scope="col">{KIND_WORDS[kind].reason}</th>
              <th scope="col">State</th>
              <th scope="col">Filed</th>
              <th scope="col">Decision</th>
              {(canApprove || canWrite) && (
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr data-request={r.id}>
                {selectable && (
                  <td>
                    {r.state === 'pending' && (
                      <label class="check">
                        <input type="checkbox" checked={selected.has(r.id)} onChange={() => toggle(r.id)} />
                        <span class="sr-only">Select {r.summary}</span>
                      </label>
                    )}
                  </td>
                )}
                <th scope="row">{r.who}</th>
                <td class="dates">{r.dates}</td>
                <td>{r.what}</td>
                <td>{r.reason || '—'}</td>
                <td>
                  <span class={`state state-${r.state}`}>{r.state}</span>
                </td>
                <td data-label="Filed">{r.filed}</td>
                <td data-label="Decision">{r.decision ?? '—'}</td>
                {(canApprove || canWrite) && (
                  <td class="actions">
                    {canApprove && r.state === 'pending' && (
                      <>
                        <DecisionButton
                          verb="approve"
                          rows={[r]}
                          label="Approve"
                          labelDetail={r.summary}
                          capMinutes={capMinutes}
                          onDecide={(c, m) => decideAndClear('approve', [r], c, m)}
                        />
                        <DecisionButton verb="reject" rows={[r]} label="Reject" labelDetail={r.summary} onDecide={(c) => decideAndClear('reject', [r], c)} />
                      </>
                    )}
                    {canCancel(r) && (
                      <DecisionButton
                        verb="cancel"
                        rows={[r]}
                        label="Cancel request"
                        labelDetail={r.summary}
                        onDecide={(c) => decideAndClear('cancel', [r], c)}
                      />
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

/** HR files an absence request on an employee's behalf (it waits for an approver). */
function FileAbsence({ companyId, types, onDone }: { companyId: number; types: AbsenceTypeFieldsFragment[]; onDone: () => void }) {
  const [, file] = useMutation(FileAbsenceRequestDocument);
  const hourly = (v: Values) => types.find((t) => String(t.id) === v.absenceTypeId)?.unit === 'hour';
  const fields: Field[] = [
    { name: 'employeeId', label: 'Employee', kind: 'person', companyId, row: 'who' },
    {
      name: 'absenceTypeId',
      label: 'Absence type',
      kind: 'select',
      row: 'who',
      options: choices(types, (t) => `${t.name} (${t.unit === 'hour' ? 'hours' : 'days'})`),
    },
    { name: 'startDate', label: 'First day', kind: 'date', required: true, row: 'when' },
    { name: 'endDate', label: 'Last day', kind: 'date', required: true, row: 'when' },
    { name: 'startTime', label: 'From (time)', kind: 'time', required: true, row: 'when', when: hourly },
    { name: 'endTime', label: 'Until (time)', kind: 'time', required: true, row: 'when', when: hourly },
    {
      name: 'halfDay',
      label: 'Part of the day',
      kind: 'select',
      row: 'when',
      when: (v) => !hourly(v),
      options: [
        { value: '', label: 'Whole days' },
        { value: 'am', label: 'Morning only (one day)' },
        { value: 'pm', label: 'Afternoon only (one day)' },
      ],
    },
    { name: 'note', label: 'Note', kind: 'text', maxLength: 1000 },
  ];
  return (
    <EntityForm
      title="File an absence request"
      idPrefix="absence"
      fields={fields}
      initial={{ employeeId: '', absenceTypeId: '', startDate: today(), endDate: today(), halfDay: '', startTime: '09:00', endTime: '12:00', note: '' }}
      submitLabel="File request"
      disabled={(v) => !v.employeeId || !v.absenceTypeId}
      save={(v) =>
        file({
          input: {
            employeeId: Number(v.employeeId),
            absenceTypeId: Number(v.absenceTypeId),
            startDate: v.startDate as string,
            endDate: v.endDate as string,
            note: textOrNull(v.note),
            ...(hourly(v) ? { startTime: v.startTime as string, endTime: v.endTime as string } : v.halfDay ? { halfDay: v.halfDay as string } : {}),
          },
        })
      }
      onSaved={onDone}
    />
  );
}

/**
 * HR files a punch correction for an employee (it waits for an approver): one or two punches to add
 * (a forgotten in and out), or one of the person's punches of a day to void, with the reason.
 */
function FileCorrection({ companyId, directory, onDone }: { companyId: number; directory: Directory; onDone: () => void }) {
  const [, file] = useMutation(FileCorrectionDocument);
  const [chosen, setChosen] = useState({ employeeId: 0, day: '' });
  const [dayPunches] = useQuery({
    query: EmployeeDayDocument,
    variables: { employeeId: chosen.employeeId, date: chosen.day },
    pause: !chosen.employeeId || !/^\d{4}-\d{2}-\d{2}$/.test(chosen.day),
    requestPolicy: 'network-only',
  });
  const states = ['0', '1', '2', '3', '4', '5'].map((v) => ({ value: v, label: directory.stateName(v) }));
  const adding = (v: Values) => v.kind === 'add';
  const punches = (dayPunches.data?.punches.nodes ?? []).filter((p) => !p.voidedAt);
  const fields: Field[] = [
    { name: 'employeeId', label: 'Person to correct', kind: 'person', companyId },
    {
      name: 'kind',
      label: 'Correction',
      kind: 'radio',
      options: [
        { value: 'add', label: 'Add forgotten punches' },
        { value: 'void', label: 'Void a wrong punch' },
      ],
    },
    { name: 'firstTime', label: 'Punch date and time', kind: 'datetime', required: true, row: 'first', when: adding, apiFields: ['punches.0', 'punchTime'] },
    { name: 'firstState', label: 'Punch type', kind: 'select', options: states, row: 'first', when: adding },
    { name: 'secondTime', label: 'Second punch (optional)', kind: 'datetime', row: 'second', when: adding, apiFields: ['punches.1'] },
    { name: 'secondState', label: 'Second punch type', kind: 'select', options: states, row: 'second', when: adding },
    { name: 'day', label: 'Day of the punch', kind: 'date', required: true, row: 'void', when: (v) => !adding(v) },
    {
      name: 'voidPunchId',
      label: 'Punch to void',
      kind: 'select',
      row: 'void',
      when: (v) => !adding(v),
      options: punches.map((p) => ({
        value: String(p.id),
        label: `${p.localTime.slice(11, 16)} ${directory.stateName(p.punchState)} (${directory.deviceName(p.deviceId)})`,
      })),
    },
    { name: 'reason', label: 'Reason', kind: 'text', maxLength: 500, required: true },
  ];
  return (
    <EntityForm
      title="File a punch correction"
      idPrefix="correction"
      fields={fields}
      initial={{ employeeId: '', kind: 'add', firstTime: '', firstState: '0', secondTime: '', secondState: '1', day: today(), voidPunchId: '', reason: '' }}
      onChange={(v) => {
        if (Number(v.employeeId) !== chosen.employeeId || v.day !== chosen.day) setChosen({ employeeId: Number(v.employeeId), day: v.day as string });
      }}
      submitLabel="File correction"
      disabled={(v) => !v.employeeId || (!adding(v) && !v.voidPunchId)}
      save={(v) =>
        file({
          input: {
            employeeId: Number(v.employeeId),
            reason: (v.reason as string).trim(),
            ...(adding(v)
              ? {
                  punches: [
                    { punchTime: `${v.firstTime as string}:00`, punchState: v.firstState as string },
                    ...(v.secondTime ? [{ punchTime: `${v.secondTime as string}:00`, punchState: v.secondState as string }] : []),
                  ],
                }
              : { voidPunchId: Number(v.voidPunchId) }),
          },
        })
      }
      onSaved={onDone}
      footer={
        <p class="hint">
          Times are the workspace's wall clock. An approver adds the punches (or voids the punch) when approving; the days are recomputed then.
        </p>
      }
    />
  );
}

export function Requests() {
  const canApprove = useAllowed('approve');
  const canWrite = useAllowed('write');
  const dir = useDirectory();
  const { companyId, picker } = useCompanyPicker('requests-company');
  const [state, setState] = useState('pending');
  const [data, refresh] = useQuery({ query: LeaveRequestsDocument, variables: { companyId, state: state || null }, pause: !companyId });
  const [, approveAbsence] = useMutation(ApproveAbsenceRequestDocument);
  const [, rejectAbsence] = useMutation(RejectAbsenceRequestDocument);
  const [, cancelAbsence] = useMutation(CancelAbsenceRequestDocument);
  const [, approveCorrection] = useMutation(ApprovePunchCorrectionDocument);
  const [, rejectCorrection] = useMutation(RejectPunchCorrectionDocument);
  const [, cancelCorrection] = useMutation(CancelPunchCorrectionDocument);
  const [overtimeData, refreshOvertime] = useQuery({ query: OvertimeApprovalsDocument, variables: { companyId, state: state || null }, pause: !companyId });
  const [, approveOvertime] = useMutation(ApproveOvertimeDocument);
  const [, rejectOvertime] = useMutation(RejectOvertimeDocument);
  const [failures, setFailures] = useState<Record<Kind, string | null>>({ absence: null, correction: null, overtime: null });
  const reload = () => {
    refresh({ requestPolicy: 'network-only' });
    refreshOvertime({ requestPolicy: 'network-only' });
  };
  const types = data.data?.absenceTypes.nodes ?? [];
  const typeById = new Map(types.map((t) => [t.id, t]));
  const absences = (data.data?.absenceRequests.nodes ?? []).map((r) => absenceRow(r, typeById, dir));
  const corrections = (data.data?.punchCorrections.nodes ?? []).map((c) => correctionRow(c, dir));
  const overtime = (overtimeData.data?.overtimeApprovals.nodes ?? []).map((a) => overtimeRow(a, dir));

  /** Each request decided in turn; what the API refused is listed by request, the rest is done. */
  const decider = (kind: Kind) => async (verb: Verb, rows: Row[], comment: string | null, minutes: number | null) => {
    const run =
      kind === 'overtime'
        ? { approve: (v: { id: number; comment: string | null }) => approveOvertime({ ...v, minutes }), reject: rejectOvertime, cancel: null }[verb]
        : kind === 'absence'
          ? { approve: approveAbsence, reject: rejectAbsence, cancel: cancelAbsence }[verb]
          : { approve: approveCorrection, reject: rejectCorrection, cancel: cancelCorrection }[verb];
    if (!run) return;
    const refused: string[] = [];
    for (const row of rows) {
      const result = await run({ id: row.id, comment });
      if (result.error) refused.push(`${row.summary}: ${errorMessage(result.error)}`);
    }
    setFailures({ ...failures, [kind]: refused.length ? `Not ${VERB_WORDS[verb].done}: ${refused.join(' ')}` : null });
    reload();
  };

  return (
    <div class="stack">
      <Section title="Absence and correction requests">
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          {picker}
          <p class="field">
            <label for="requests-state">Status</label>
            <select id="requests-state" value={state} onChange={(e) => setState((e.target as HTMLSelectElement).value)}>
              {STATES.map((s) => (
                <option value={s.value}>{s.label}</option>
              ))}
            </select>
          </p>
        </form>
        <ErrorNote message={errorMessage(data.error) ?? errorMessage(overtimeData.error)} />
        {!canApprove && (
          <p class="muted" role="note">
            Deciding requests needs the approve scope (or admin); you see them read-only.
          </p>
        )}
      </Section>
      <RequestTable
        key={`absence-${companyId}-${state}`}
        kind="absence"
        title="Absence requests"
        rows={absences}
        canApprove={canApprove}
        canWrite={canWrite}
        decide={decider('absence')}
        error={failures.absence}
      />
      <RequestTable
        key={`correction-${companyId}-${state}`}
        kind="correction"
        title="Punch corrections"
        rows={corrections}
        canApprove={canApprove}
        canWrite={canWrite}
        decide={decider('correction')}
        error={failures.correction}
      />
      <RequestTable
        key={`overtime-${companyId}-${state}`}
        kind="overtime"
        title="Overtime approvals"
        rows={overtime}
        canApprove={canApprove}
        canWrite={canWrite}
        decide={decider('overtime')}
        error={failures.overtime}
      />
      {canApprove && companyId > 0 && (
        <OvertimePeriod key={`period-${companyId}`} companyId={companyId} employees={data.data?.employees.nodes ?? []} directory={dir} onDone={reload} />
      )}
      {canWrite && companyId > 0 && types.length > 0 && <FileAbsence key={`absence-${companyId}`} companyId={companyId} types={types} onDone={reload} />}
      {canWrite && companyId > 0 && <FileCorrection key={`correction-${companyId}`} companyId={companyId} directory={dir} onDone={reload} />}
    </div>
  );
}
