// The day dialog's overtime waiting for approval (a company whose pay policy requires it): the minutes,
// and for approvers approve (optionally capping the minutes that count) or reject, after confirming.
import { useState } from 'preact/hooks';
import { useClient, useQuery, type CombinedError } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { ConfirmButton, ErrorNote } from '../components';
import {
  ApproveOvertimeDocument,
  ApproveOvertimePeriodDocument,
  FileOvertimeApprovalDocument,
  OvertimeDayDocument,
  RejectOvertimeDocument,
  RejectOvertimePeriodDocument,
} from '../gql';

export function DayOvertime({ employeeId, date, who, onChanged }: { employeeId: number; date: string; who: string; onChanged: () => void }) {
  const canApprove = useAllowed('approve');
  const canWrite = useAllowed('write');
  const client = useClient();
  const [day, refresh] = useQuery({ query: OvertimeDayDocument, variables: { employeeId, date }, requestPolicy: 'network-only' });
  const [comment, setComment] = useState('');
  const [cap, setCap] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const pending = day.data?.timesheet.nodes[0]?.pendingOvertimeMinutes ?? 0;
  const approval = day.data?.overtimeApprovals.nodes[0];
  if (pending === 0) return <ErrorNote message={errorMessage(day.error)} />;
  // A cap needs an approval to carry it: one filed already, or one this signer may file (write).
  const canCap = Boolean(approval) || canWrite;

  /** The approval of the day: the filed one, or one filed now (write); null when neither. */
  const approvalId = async (): Promise<number | null> => {
    if (approval) return approval.id;
    if (!canWrite) return null;
    const filed = await client.mutation(FileOvertimeApprovalDocument, { input: { employeeId, date } }).toPromise();
    if (filed.error) throw filed.error;
    return filed.data!.createOvertimeApproval.id;
  };
  const decide = async (verb: 'approve' | 'reject') => {
    setFailure(null);
    try {
      const note = comment.trim() || null;
      const minutes = verb === 'approve' && canCap && cap !== '' ? Number(cap) : null;
      const thisDay = { employeeIds: [employeeId], startDate: date, endDate: date, comment: note };
      if (!approval && verb === 'reject') {
        // An unfiled day is rejected in one decision (the approval is filed rejected, never approved first).
        const made = await client.mutation(RejectOvertimePeriodDocument, { input: thisDay }).toPromise();
        if (made.error) throw made.error;
        return;
      }
      const id = await approvalId();
      if (id === null) {
        // Without write no approval can be filed: the day's own period approval makes one (approved).
        const made = await client.mutation(ApproveOvertimePeriodDocument, { input: thisDay }).toPromise();
        if (made.error) throw made.error;
        return;
      }
      const result =
        verb === 'approve'
          ? await client.mutation(ApproveOvertimeDocument, { id, comment: note, minutes }).toPromise()
          : await client.mutation(RejectOvertimeDocument, { id, comment: note }).toPromise();
      if (result.error) throw result.error;
    } catch (error) {
      setFailure(errorMessage(error as CombinedError));
    } finally {
      setComment('');
      setCap('');
      refresh({ requestPolicy: 'network-only' });
      onChanged();
    }
  };
  const commentField = (id: string) => (
    <p class="field">
      <label for={id}>Comment (optional)</label>
      <textarea id={id} rows={2} value={comment} onInput={(e) => setComment((e.target as HTMLTextAreaElement).value)} />
    </p>
  );
  return (
    <div class="day-overtime" role="group" aria-label="Overtime waiting for approval">
      <p>
        <strong>{pending} min overtime waiting for approval</strong>
        {approval?.note && <span class="muted"> ({approval.note})</span>}
      </p>
      {canApprove && (
        <div class="inline-form">
          <ConfirmButton
            label="Approve overtime"
            title={`Approve ${who}'s overtime on ${date}?`}
            confirm="Approve overtime"
            onConfirm={() => decide('approve')}
          >
            <p>
              {pending} min overtime of {date} count as overtime pay.
            </p>
            {canCap && (
              <p class="field">
                <label for="day-overtime-cap">At most this many overtime minutes count (optional; empty: all)</label>
                <input
                  id="day-overtime-cap"
                  type="number"
                  min={0}
                  max={1440}
                  step={1}
                  value={cap}
                  onInput={(e) => setCap((e.target as HTMLInputElement).value)}
                />
              </p>
            )}
            {commentField('day-overtime-approve-comment')}
          </ConfirmButton>
          <ConfirmButton label="Reject overtime" title={`Reject ${who}'s overtime on ${date}?`} confirm="Reject overtime" onConfirm={() => decide('reject')}>
            <p>The {pending} min are not paid; the regular time stays.</p>
            {commentField('day-overtime-reject-comment')}
          </ConfirmButton>
        </div>
      )}
      <ErrorNote message={failure ?? errorMessage(day.error)} />
    </div>
  );
}
