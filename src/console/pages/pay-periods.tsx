// Pay periods: create one, lock it when payroll is done (its days stop changing), unlock to correct.
// Locking and unlocking need an admin key, as the API says. "Export for payroll" saves the period's
// payroll export (the REST CSV, docs/payroll-export.md); a locked period's is the one frozen at the lock.
// The company's pay policy (what its periods pay) is its own page, pay-policy.tsx; a link leads there.
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { ConfirmButton } from '../components';
import { EntityForm, type Field } from '../entity-form';
import { EntityList } from '../entity-list';
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

const FIELDS: Field[] = [
  { name: 'startDate', label: 'First day', kind: 'date', required: true, row: 'dates' },
  { name: 'endDate', label: 'Last day', kind: 'date', required: true, row: 'dates' },
];

export function PayPeriods() {
  const canWrite = useAllowed('write');
  const canLock = useAllowed('admin');
  const { companyId, picker } = useCompanyPicker('pay-periods-company');
  const [periods, refresh] = useQuery({ query: PayPeriodsDocument, variables: { companyId }, pause: !companyId });
  const [, create] = useMutation(CreatePayPeriodDocument);
  const [locking, lock] = useMutation(LockPayPeriodDocument);
  const [unlocking, unlock] = useMutation(UnlockPayPeriodDocument);
  const [exportError, setExportError] = useState<string | null>(null);
  const [exporting, setExporting] = useState<number | null>(null);
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const list = periods.data ? [...periods.data.payPeriods.nodes].sort((a, b) => b.startDate.localeCompare(a.startDate)) : companyId ? null : [];
  const name = (p: { startDate: string; endDate: string }) => `${p.startDate} to ${p.endDate}`;
  return (
    <div class="grid">
      <EntityList
        title="Pay periods"
        headerActions={companyId > 0 && <a href={href('pay-policy', companyId)}>Pay policy</a>}
        filters={picker}
        rows={list}
        empty="No pay periods in this company."
        error={exportError ?? errorMessage(periods.error ?? locking.error ?? unlocking.error)}
        rowData={(p) => ({ 'pay-period': p.id })}
        columns={[
          { header: 'Period', rowHeader: true, cell: name },
          {
            header: 'State',
            cell: (p) =>
              p.lockedAt ? (
                <>
                  <span class="badge badge-locked">locked</span> <span class="muted">since {when(p.lockedAt)}</span>
                </>
              ) : (
                <span class="badge">open</span>
              ),
          },
        ]}
        actions={(p) => (
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
              Export for payroll<span class="sr-only"> {name(p)}</span>
            </button>
            {canLock &&
              (p.lockedAt ? (
                <ConfirmButton
                  label={`Unlock ${name(p)}`}
                  title={`Unlock ${name(p)}?`}
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
                  label={`Lock ${name(p)}`}
                  title={`Lock ${name(p)}?`}
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
        )}
      />
      {canWrite && companyId > 0 && (
        <EntityForm
          title="New pay period"
          idPrefix="pay-period"
          fields={FIELDS}
          initial={{ startDate: '', endDate: '' }}
          submitLabel="Create pay period"
          save={(v) => create({ input: { companyId, startDate: v.startDate as string, endDate: v.endDate as string } })}
          onSaved={reload}
        />
      )}
    </div>
  );
}
