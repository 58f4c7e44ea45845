// Holidays: a company's public holidays (a holiday is neither absent nor late in the timesheet). The
// page shape at its smallest: the company's list, a delete that asks first, and a form of two fields.
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { EntityForm, type Field } from '../entity-form';
import { DeleteButton, EntityList } from '../entity-list';
import { CreateHolidayDocument, DeleteHolidayDocument, HolidaysDocument } from '../gql';

const FIELDS: Field[] = [
  { name: 'date', label: 'Date', kind: 'date', required: true },
  { name: 'name', label: 'Holiday name', kind: 'text', maxLength: 200, required: true },
];

export function Holidays() {
  const canWrite = useAllowed('write');
  const { companyId, picker } = useCompanyPicker('holidays-company');
  const [holidays, refresh] = useQuery({ query: HolidaysDocument, variables: { companyId }, pause: !companyId });
  const [, create] = useMutation(CreateHolidayDocument);
  const [deleting, remove] = useMutation(DeleteHolidayDocument);
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const list = holidays.data ? [...holidays.data.holidays.nodes].sort((a, b) => a.date.localeCompare(b.date)) : companyId ? null : [];
  return (
    <div class="grid">
      <EntityList
        title="Holidays"
        filters={picker}
        rows={list}
        empty="No holidays in this company."
        error={errorMessage(holidays.error ?? deleting.error)}
        rowData={(h) => ({ holiday: h.id })}
        columns={[
          { header: 'Date', cell: (h) => h.date },
          { header: 'Holiday', cell: (h) => h.name, rowHeader: true },
        ]}
        actions={
          canWrite
            ? (h) => (
                <DeleteButton
                  noun="holiday"
                  name={h.name}
                  onConfirm={async () => {
                    await remove({ id: h.id });
                    reload();
                  }}
                >
                  <p>{h.date} becomes a normal day again: people scheduled that day who did not come are counted absent.</p>
                </DeleteButton>
              )
            : undefined
        }
      />
      {canWrite && companyId > 0 && (
        <EntityForm
          title="New holiday"
          idPrefix="holiday"
          fields={FIELDS}
          initial={{ date: '', name: '' }}
          submitLabel="Add holiday"
          save={(v) => create({ input: { companyId, date: v.date as string, name: v.name as string } })}
          onSaved={reload}
        />
      )}
    </div>
  );
}
