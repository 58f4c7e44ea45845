// Leave balances and absence types: an employee's balance of each absence type of their company for
// a year (allowance, carried over, taken, pending, remaining), and the company's absence types
// (create, edit, delete one no request uses).
import { useEffect, useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { ConfirmButton, Empty, ErrorNote, Section } from '../components';
import {
  AbsenceBalancesDocument,
  AbsenceTypesAndPeopleDocument,
  CreateAbsenceTypeDocument,
  DeleteAbsenceTypeDocument,
  UpdateAbsenceTypeDocument,
  type AbsenceTypeFieldsFragment,
} from '../gql';

type Person = { id: number; name: string; lastname: string; code: string };

/** An amount in the type's unit ("2.5 days", "16 hours"), or a dash for none. */
function amount(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined) return '—';
  const one = unit === 'hour' ? 'hour' : 'day';
  return `${Number(value.toFixed(2))} ${value === 1 ? one : `${one}s`}`;
}

function Balances({
  employees,
  types,
  version,
  picker,
}: {
  employees: Person[];
  types: AbsenceTypeFieldsFragment[];
  version: number;
  picker: preact.JSX.Element;
}) {
  const [chosen, setChosen] = useState('');
  const [year, setYear] = useState(String(new Date().getFullYear()));
  const employeeId = Number(chosen || employees[0]?.id || 0);
  const validYear = /^\d{4}$/.test(year) ? Number(year) : null;
  const [data, refresh] = useQuery({ query: AbsenceBalancesDocument, variables: { employeeId, year: validYear }, pause: !employeeId || !validYear });
  // A type created or changed on this page changes the balances: read them again.
  useEffect(() => {
    if (version > 0) refresh({ requestPolicy: 'network-only' });
  }, [version]);
  const typeById = new Map(types.map((t) => [t.id, t]));
  const person = employees.find((e) => e.id === employeeId);
  const rows = data.data?.absenceBalances ?? [];
  return (
    <Section title="Leave balances">
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        {picker}
        <p class="field">
          <label for="balance-employee">Employee</label>
          <select id="balance-employee" value={String(employeeId)} onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}>
            {employees.map((e) => (
              <option value={e.id}>
                {e.name} {e.lastname} ({e.code})
              </option>
            ))}
          </select>
        </p>
        <p class="field">
          <label for="balance-year">Year</label>
          <input id="balance-year" type="number" min="2000" max="2100" value={year} onInput={(e) => setYear((e.target as HTMLInputElement).value)} />
        </p>
      </form>
      <ErrorNote message={errorMessage(data.error)} />
      {!person ? (
        <Empty>No employees in this company.</Empty>
      ) : rows.length === 0 ? (
        <Empty>{data.fetching ? 'Loading…' : 'No absence types in this company.'}</Empty>
      ) : (
        <table class="fold-on-phone" aria-label={`Balances of ${person.name} ${person.lastname} in ${validYear}`}>
          <thead>
            <tr>
              <th scope="col">Absence type</th>
              <th scope="col">Allowance</th>
              <th scope="col">Carried over</th>
              <th scope="col">Taken</th>
              <th scope="col">Pending</th>
              <th scope="col">Remaining</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((b) => {
              const type = typeById.get(b.absenceTypeId);
              return (
                <tr data-absence-type={b.absenceTypeId}>
                  <th scope="row">
                    {type?.color && <span class="swatch" style={{ background: type.color }} aria-hidden="true" />}
                    {type?.name ?? 'an absence type'}
                  </th>
                  <td data-label="Allowance">{b.allowance === null || b.allowance === undefined ? 'not tracked' : amount(b.allowance, b.unit)}</td>
                  <td data-label="Carried over">{amount(b.carriedOver, b.unit)}</td>
                  <td data-label="Taken">{amount(b.taken, b.unit)}</td>
                  <td data-label="Pending">{amount(b.pending, b.unit)}</td>
                  <td data-label="Remaining" class={b.remaining !== null && b.remaining !== undefined && b.remaining < 0 ? 'negative' : ''}>
                    {b.remaining === null || b.remaining === undefined ? 'not tracked' : amount(b.remaining, b.unit)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <p class="muted">Taken: approved requests; pending: requests waiting for a decision. Remaining is the allowance and what was carried over, less both.</p>
    </Section>
  );
}

interface TypeForm {
  name: string;
  code: string;
  paid: boolean;
  unit: string;
  annualAllowance: string;
  carryOver: string;
  allowNegative: boolean;
  color: string;
}

const blankType: TypeForm = { name: '', code: '', paid: true, unit: 'day', annualAllowance: '', carryOver: '0', allowNegative: false, color: '#2f80ed' };

function TypeEditor({ companyId, editing, onDone }: { companyId: number; editing: AbsenceTypeFieldsFragment | null; onDone: () => void }) {
  const [form, setForm] = useState<TypeForm>(
    editing
      ? {
          name: editing.name,
          code: editing.code,
          paid: editing.paid,
          unit: editing.unit,
          annualAllowance: editing.annualAllowance === null || editing.annualAllowance === undefined ? '' : String(editing.annualAllowance),
          carryOver: String(editing.carryOver),
          allowNegative: editing.allowNegative,
          color: editing.color ?? '#2f80ed',
        }
      : blankType,
  );
  const [created, create] = useMutation(CreateAbsenceTypeDocument);
  const [updated, update] = useMutation(UpdateAbsenceTypeDocument);
  const set = (key: keyof TypeForm) => (e: Event) => setForm({ ...form, [key]: (e.target as HTMLInputElement).value });
  const tick = (key: 'paid' | 'allowNegative') => (e: Event) => setForm({ ...form, [key]: (e.target as HTMLInputElement).checked });
  const prefix = editing ? `type-${editing.id}` : 'type-new';
  return (
    <Section title={editing ? `Edit absence type ${editing.name}` : 'New absence type'}>
      <form
        class="form"
        onSubmit={async (event) => {
          event.preventDefault();
          const fields = {
            name: form.name,
            code: form.code,
            paid: form.paid,
            unit: form.unit,
            annualAllowance: form.annualAllowance.trim() === '' ? null : Number(form.annualAllowance),
            carryOver: Number(form.carryOver || 0),
            allowNegative: form.allowNegative,
            color: form.color,
          };
          const result = editing ? await update({ id: editing.id, input: fields }) : await create({ input: { ...fields, companyId } });
          if (result.data) {
            if (!editing) setForm(blankType);
            onDone();
          }
        }}
      >
        <div class="inline-form">
          <p class="field">
            <label for={`${prefix}-name`}>Type name</label>
            <input id={`${prefix}-name`} value={form.name} onInput={set('name')} required />
          </p>
          <p class="field">
            <label for={`${prefix}-code`}>Pay item code</label>
            <input id={`${prefix}-code`} value={form.code} onInput={set('code')} required size={8} />
          </p>
        </div>
        <div class="inline-form">
          <p class="field">
            <label for={`${prefix}-unit`}>Counted in</label>
            <select id={`${prefix}-unit`} value={form.unit} onChange={set('unit')}>
              <option value="day">Days (whole or half)</option>
              <option value="hour">Hours</option>
            </select>
          </p>
          <p class="field">
            <label for={`${prefix}-allowance`}>Allowance per year (empty: not tracked)</label>
            <input id={`${prefix}-allowance`} type="number" min="0" step="0.5" value={form.annualAllowance} onInput={set('annualAllowance')} />
          </p>
          <p class="field">
            <label for={`${prefix}-carry`}>Most carried into the next year</label>
            <input id={`${prefix}-carry`} type="number" min="0" step="0.5" value={form.carryOver} onInput={set('carryOver')} />
          </p>
          <p class="field">
            <label for={`${prefix}-color`}>Colour</label>
            <input id={`${prefix}-color`} type="color" value={form.color} onInput={set('color')} />
          </p>
        </div>
        <p class="field">
          <label class="check">
            <input type="checkbox" checked={form.paid} onChange={tick('paid')} /> Paid (an approved workday counts its scheduled minutes as leave)
          </label>
          <label class="check">
            <input type="checkbox" checked={form.allowNegative} onChange={tick('allowNegative')} /> A request may take the balance below zero
          </label>
        </p>
        <p class="inline-form">
          <button type="submit" disabled={created.fetching || updated.fetching}>
            {editing ? 'Save absence type' : 'Create absence type'}
          </button>
          {editing && (
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

export function LeaveBalances() {
  const canWrite = useAllowed('write');
  const { companyId, picker } = useCompanyPicker('balances-company');
  const [data, refresh] = useQuery({ query: AbsenceTypesAndPeopleDocument, variables: { companyId }, pause: !companyId });
  const [deleting, deleteType] = useMutation(DeleteAbsenceTypeDocument);
  const [editing, setEditing] = useState<AbsenceTypeFieldsFragment | null>(null);
  const [version, setVersion] = useState(0);
  const reload = () => {
    refresh({ requestPolicy: 'network-only' });
    setVersion((v) => v + 1);
  };
  const types = data.data?.absenceTypes.nodes ?? [];
  const employees = data.data?.employees.nodes ?? [];
  return (
    <div class="stack">
      <ErrorNote message={errorMessage(data.error)} />
      <Balances key={companyId} employees={employees} types={types} version={version} picker={picker} />
      <Section title="Absence types">
        <ErrorNote message={errorMessage(deleting.error)} />
        {types.length === 0 ? (
          <Empty>No absence types in this company.</Empty>
        ) : (
          <table class="fold-on-phone">
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Code</th>
                <th scope="col">Unit</th>
                <th scope="col">Allowance</th>
                <th scope="col">Carry-over</th>
                <th scope="col">Paid</th>
                <th scope="col">Below zero</th>
                {canWrite && (
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {types.map((t) => (
                <tr data-absence-type={t.id}>
                  <th scope="row">
                    {t.color && <span class="swatch" style={{ background: t.color }} aria-hidden="true" />}
                    {t.name}
                  </th>
                  <td data-label="Code">{t.code}</td>
                  <td>{t.unit === 'hour' ? 'hours' : 'days'}</td>
                  <td data-label="Allowance">
                    {t.annualAllowance === null || t.annualAllowance === undefined ? 'not tracked' : amount(t.annualAllowance, t.unit)}
                  </td>
                  <td data-label="Carry-over">{amount(t.carryOver, t.unit)}</td>
                  <td>{t.paid ? 'paid' : 'unpaid'}</td>
                  <td data-label="Below zero">{t.allowNegative ? 'allowed' : 'no'}</td>
                  {canWrite && (
                    <td class="actions">
                      <button type="button" class="secondary" onClick={() => setEditing(t)}>
                        Edit<span class="sr-only"> {t.name}</span>
                      </button>
                      <ConfirmButton
                        label="Delete"
                        labelDetail={t.name}
                        title={`Delete the absence type ${t.name}?`}
                        confirm="Delete absence type"
                        onConfirm={async () => {
                          await deleteType({ id: t.id });
                          reload();
                        }}
                      >
                        <p>
                          {t.name} ({t.code}) is deleted. A type that requests use is kept (the service refuses); edit it instead.
                        </p>
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
        <TypeEditor
          key={editing?.id ?? 'new'}
          companyId={companyId}
          editing={editing}
          onDone={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
    </div>
  );
}
