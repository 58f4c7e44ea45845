// Pay periods: create one, lock it when payroll is done (its days stop changing), unlock to correct.
// Locking and unlocking need an admin key, as the API says. "Export for payroll" saves the period's
// payroll export (the REST CSV, docs/payroll-export.md); a locked period's is the one frozen at the lock.
// The company's pay policy (what its periods pay) is its own page, pay-policy.tsx; a link leads there.
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { ConfirmButton, Empty, ErrorNote, Section } from '../components';
import { when } from '../format';
import { href } from '../router';
import { storedKey } from '../session';
import { CreatePayPeriodDocument, LockPayPeriodDocument, PayPeriodsDocument, UnlockPayPeriodDocument } from '../gql';

/** The period's payroll CSV from the REST export, saved as a file; a refusal's own message is thrown. */
async function downloadPayrollCsv(period: { id: number; startDate: string; endDate: string }): Promise<void> {
  const response = await fetch(`/public/v2/pay_periods/${period.id}/export?format=csv`, {
    headers: { authorization: `Bearer ${storedKey()}`, accept: 'text/csv' },
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(`Payroll export failed: ${body?.error?.message ?? `HTTP ${response.status}`}`);
  }
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = `payroll-${period.startDate}_${period.endDate}.csv`;
  link.click();
  URL.revokeObjectURL(link.href);
}

export function PayPeriods() {
  const canWrite = useAllowed('write');
  const canLock = useAllowed('admin');
  const { companyId, picker } = useCompanyPicker('pay-periods-company');
  const [periods, refresh] = useQuery({ query: PayPeriodsDocument, variables: { companyId }, pause: !companyId });
  const [creating, create] = useMutation(CreatePayPeriodDocument);
  const [locking, lock] = useMutation(LockPayPeriodDocument);
  const [unlocking, unlock] = useMutation(UnlockPayPeriodDocument);
  const [form, setForm] = useState({ startDate: '', endDate: '' });
  const [exportError, setExportError] = useState<string | null>(null);
  const [exporting, setExporting] = useState<number | null>(null);
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const list = [...(periods.data?.payPeriods.nodes ?? [])].sort((a, b) => b.startDate.localeCompare(a.startDate));
  return (
    <div class="grid">
      <Section title="Pay periods" actions={companyId > 0 && <a href={href('pay-policy', companyId)}>Pay policy</a>}>
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          {picker}
        </form>
        <ErrorNote message={exportError ?? errorMessage(periods.error ?? locking.error ?? unlocking.error)} />
        {list.length === 0 ? (
          <Empty>No pay periods in this company.</Empty>
        ) : (
          <table class="fold-on-phone">
            <thead>
              <tr>
                <th scope="col">Period</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((p) => {
                const name = `${p.startDate} to ${p.endDate}`;
                return (
                  <tr data-pay-period={p.id}>
                    <th scope="row">{name}</th>
                    <td>
                      {p.lockedAt ? (
                        <>
                          <span class="badge badge-locked">locked</span> <span class="muted">since {when(p.lockedAt)}</span>
                        </>
                      ) : (
                        <span class="badge">open</span>
                      )}
                    </td>
                    <td>
                      <div class="pay-period-actions">
                        <button
                          type="button"
                          class="secondary"
                          disabled={exporting === p.id}
                          onClick={() => {
                            setExporting(p.id);
                            downloadPayrollCsv(p)
                              .then(
                                () => setExportError(null),
                                (e: Error) => setExportError(e.message),
                              )
                              .finally(() => setExporting(null));
                          }}
                        >
                          Export for payroll<span class="sr-only"> {name}</span>
                        </button>
                        {canLock &&
                          (p.lockedAt ? (
                            <ConfirmButton
                              label={`Unlock ${name}`}
                              title={`Unlock ${name}?`}
                              confirm="Unlock period"
                              onConfirm={async () => {
                                await unlock({ id: p.id });
                                reload();
                              }}
                            >
                              <p>Its attendance days can change again (late punches, corrections, voids); lock it again once they are right.</p>
                            </ConfirmButton>
                          ) : (
                            <ConfirmButton
                              label={`Lock ${name}`}
                              title={`Lock ${name}?`}
                              confirm="Lock period"
                              onConfirm={async () => {
                                await lock({ id: p.id });
                                reload();
                              }}
                            >
                              <p>Its attendance days stop changing: punches that arrive later are kept but marked after the lock. It can be unlocked again.</p>
                            </ConfirmButton>
                          ))}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </Section>
      {canWrite && companyId > 0 && (
        <Section title="New pay period">
          <form
            class="form"
            onSubmit={async (event) => {
              event.preventDefault();
              const result = await create({ input: { companyId, ...form } });
              if (result.data) {
                setForm({ startDate: '', endDate: '' });
                reload();
              }
            }}
          >
            <div class="inline-form">
              <p class="field">
                <label for="pay-period-start">First day</label>
                <input
                  id="pay-period-start"
                  type="date"
                  value={form.startDate}
                  onInput={(e) => setForm({ ...form, startDate: (e.target as HTMLInputElement).value })}
                  required
                />
              </p>
              <p class="field">
                <label for="pay-period-end">Last day</label>
                <input
                  id="pay-period-end"
                  type="date"
                  value={form.endDate}
                  onInput={(e) => setForm({ ...form, endDate: (e.target as HTMLInputElement).value })}
                  required
                />
              </p>
            </div>
            <button type="submit" disabled={creating.fetching}>
              Create pay period
            </button>
            <ErrorNote message={errorMessage(creating.error)} />
          </form>
        </Section>
      )}
    </div>
  );
}
