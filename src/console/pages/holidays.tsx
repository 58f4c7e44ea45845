// Holidays: a company's public holidays (a holiday is neither absent nor late in the timesheet).
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { ConfirmButton, Empty, ErrorNote, Section } from '../components';
import { CreateHolidayDocument, DeleteHolidayDocument, HolidaysDocument } from '../gql';

export function Holidays() {
  const canWrite = useAllowed('write');
  const { companyId, picker } = useCompanyPicker('holidays-company');
  const [holidays, refresh] = useQuery({ query: HolidaysDocument, variables: { companyId }, pause: !companyId });
  const [creating, create] = useMutation(CreateHolidayDocument);
  const [deleting, remove] = useMutation(DeleteHolidayDocument);
  const [form, setForm] = useState({ date: '', name: '' });
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const list = [...(holidays.data?.holidays.nodes ?? [])].sort((a, b) => a.date.localeCompare(b.date));
  return (
    <div class="grid">
      <Section title="Holidays">
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          {picker}
        </form>
        <ErrorNote message={errorMessage(holidays.error ?? deleting.error)} />
        {list.length === 0 ? (
          <Empty>No holidays in this company.</Empty>
        ) : (
          <table class="fold-on-phone">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Holiday</th>
                {canWrite && (
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {list.map((h) => (
                <tr data-holiday={h.id}>
                  <td>{h.date}</td>
                  <th scope="row">{h.name}</th>
                  {canWrite && (
                    <td>
                      <ConfirmButton
                        label={`Delete ${h.name}`}
                        title={`Delete the holiday ${h.name}?`}
                        confirm="Delete holiday"
                        onConfirm={async () => {
                          await remove({ id: h.id });
                          reload();
                        }}
                      >
                        <p>{h.date} becomes a normal day again: people scheduled that day who did not come are counted absent.</p>
                      </ConfirmButton>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      {canWrite && companyId > 0 && (
        <Section title="New holiday">
          <form
            class="form"
            onSubmit={async (event) => {
              event.preventDefault();
              const result = await create({ input: { companyId, date: form.date, name: form.name } });
              if (result.data) {
                setForm({ date: '', name: '' });
                reload();
              }
            }}
          >
            <p class="field">
              <label for="holiday-date">Date</label>
              <input
                id="holiday-date"
                type="date"
                value={form.date}
                onInput={(e) => setForm({ ...form, date: (e.target as HTMLInputElement).value })}
                required
              />
            </p>
            <p class="field">
              <label for="holiday-name">Holiday name</label>
              <input id="holiday-name" value={form.name} onInput={(e) => setForm({ ...form, name: (e.target as HTMLInputElement).value })} required />
            </p>
            <button type="submit" disabled={creating.fetching}>
              Add holiday
            </button>
            <ErrorNote message={errorMessage(creating.error)} />
          </form>
        </Section>
      )}
    </div>
  );
}
