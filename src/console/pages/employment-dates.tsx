// An employee's employment dates on their page: the first day of employment (hire) and the last
// (leaving); days outside them are `not_employed` in the timesheet. Either may be left open.
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { ErrorNote, Section } from '../components';
import { EmploymentDatesDocument, UpdateEmploymentDatesDocument } from '../gql';

function DatesForm({ id, start, end, onSaved }: { id: number; start: string; end: string; onSaved: () => void }) {
  const [form, setForm] = useState({ start, end });
  const [saving, save] = useMutation(UpdateEmploymentDatesDocument);
  return (
    <form
      class="inline-form"
      aria-label="Employment dates"
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await save({ id, input: { employmentStartDate: form.start || null, employmentEndDate: form.end || null } });
        if (result.data) onSaved();
      }}
    >
      <p class="field">
        <label for="employment-start">First day of employment</label>
        <input id="employment-start" type="date" value={form.start} onInput={(e) => setForm({ ...form, start: (e.target as HTMLInputElement).value })} />
      </p>
      <p class="field">
        <label for="employment-end">Last day of employment</label>
        <input id="employment-end" type="date" value={form.end} onInput={(e) => setForm({ ...form, end: (e.target as HTMLInputElement).value })} />
      </p>
      <button type="submit" disabled={saving.fetching}>
        Set employment dates
      </button>
      <ErrorNote message={errorMessage(saving.error)} />
    </form>
  );
}

export function EmploymentDates({ employeeId }: { employeeId: number }) {
  const canWrite = useAllowed('write');
  const [data, refresh] = useQuery({ query: EmploymentDatesDocument, variables: { id: employeeId } });
  const e = data.data?.employee;
  return (
    <Section title="Employment">
      <ErrorNote message={errorMessage(data.error)} />
      {e && (
        <>
          <dl class="facts">
            <dt>Employed from</dt>
            <dd>{e.employmentStartDate ?? 'open (no first day set)'}</dd>
            <dt>Employed until</dt>
            <dd>{e.employmentEndDate ?? 'open (no last day set)'}</dd>
          </dl>
          <p class="muted">Days outside these dates are "not employed" in the timesheet: no schedule, never absent.</p>
          {canWrite && (
            <DatesForm
              key={`${e.employmentStartDate}-${e.employmentEndDate}`}
              id={e.id}
              start={e.employmentStartDate ?? ''}
              end={e.employmentEndDate ?? ''}
              onSaved={() => refresh({ requestPolicy: 'network-only' })}
            />
          )}
        </>
      )}
    </Section>
  );
}
