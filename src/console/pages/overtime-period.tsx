// "Approve overtime for a period": a company's (or some of its people's) overtime of a date range
// approved at once (approveOvertimePeriod). The confirmation says how many days have overtime waiting,
// as the timesheet tells; pending approvals filed ahead are approved too, rejected days stay rejected.
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { errorMessage } from '../client';
import { ConfirmButton, ErrorNote, Section } from '../components';
import { today } from '../format';
import { ApproveOvertimePeriodDocument, PendingOvertimeDaysDocument } from '../gql';
import type { Directory } from '../people';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function calendarDays(from: string, until: string): number {
  return Math.round((Date.parse(`${until}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

export function OvertimePeriod({
  companyId,
  employees,
  directory,
  onDone,
}: {
  companyId: number;
  employees: Array<{ id: number; name: string; lastname: string; code: string }>;
  directory: Directory;
  onDone: () => void;
}) {
  const [from, setFrom] = useState(`${today().slice(0, 8)}01`);
  const [until, setUntil] = useState(today());
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [comment, setComment] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const valid = DATE.test(from) && DATE.test(until) && from <= until;
  const [waiting, recount] = useQuery({
    query: PendingOvertimeDaysDocument,
    variables: { companyId, startDate: from, endDate: until },
    pause: !valid,
    requestPolicy: 'network-only',
  });
  const [approving, approve] = useMutation(ApproveOvertimePeriodDocument);
  const days = (waiting.data?.timesheet.nodes ?? []).filter((d) => d.pendingOvertimeMinutes > 0 && (chosen.size === 0 || chosen.has(d.employeeId)));
  const complete = waiting.data ? waiting.data.timesheet.nodes.length >= waiting.data.timesheet.totalCount : false;
  const minutes = days.reduce((sum, d) => sum + d.pendingOvertimeMinutes, 0);
  const people = chosen.size === 0 ? 'every employee of the company' : [...chosen].map((id) => directory.employeeName(id)).join(', ');
  const toggle = (id: number) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };
  return (
    <Section title="Approve overtime for a period">
      <form class="form" aria-label="Approve overtime for a period" onSubmit={(e) => e.preventDefault()}>
        <div class="inline-form">
          <p class="field">
            <label for="overtime-period-from">From</label>
            <input id="overtime-period-from" type="date" value={from} onInput={(e) => setFrom((e.target as HTMLInputElement).value)} required />
          </p>
          <p class="field">
            <label for="overtime-period-until">Until</label>
            <input id="overtime-period-until" type="date" value={until} onInput={(e) => setUntil((e.target as HTMLInputElement).value)} required />
          </p>
        </div>
        <details class="overtime-people">
          <summary>Only some people ({chosen.size === 0 ? 'everyone' : `${chosen.size} chosen`})</summary>
          <fieldset>
            <legend class="sr-only">People whose overtime is approved</legend>
            {employees.map((e) => (
              <label class="check">
                <input type="checkbox" checked={chosen.has(e.id)} onChange={() => toggle(e.id)} /> {e.name} {e.lastname} ({e.code})
              </label>
            ))}
          </fieldset>
        </details>
        <ConfirmButton
          label="Approve overtime for the period"
          title={`Approve overtime from ${from} to ${until}?`}
          confirm="Approve overtime"
          disabled={!valid || approving.fetching}
          onConfirm={async () => {
            setDone(null);
            const result = await approve({
              input: { companyId, employeeIds: chosen.size ? [...chosen] : null, startDate: from, endDate: until, comment: comment.trim() || null },
            });
            if (result.data) {
              const n = result.data.approveOvertimePeriod.count;
              setDone(`Approved overtime of ${n} ${n === 1 ? 'day' : 'days'}.`);
              setComment('');
              recount({ requestPolicy: 'network-only' });
              onDone();
            }
          }}
        >
          <p>
            The overtime of {people} from {from} to {until} ({calendarDays(from, until)} calendar days) counts at once:{' '}
            {waiting.data
              ? `${complete ? '' : 'at least '}${days.length} ${days.length === 1 ? 'day has' : 'days have'} overtime waiting (${minutes} min).`
              : 'the days with overtime waiting.'}{' '}
            Approvals filed ahead for these days are approved too; days already rejected stay rejected.
          </p>
          <p class="field">
            <label for="overtime-period-comment">Comment (optional)</label>
            <textarea id="overtime-period-comment" rows={2} value={comment} onInput={(e) => setComment((e.target as HTMLTextAreaElement).value)} />
          </p>
        </ConfirmButton>
        {done && <p role="status">{done}</p>}
        <ErrorNote message={errorMessage(approving.error) ?? errorMessage(waiting.error)} />
      </form>
    </Section>
  );
}
