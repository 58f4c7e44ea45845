// Leave balances and absence types: an employee's balance of each absence type of their company for
// a year (allowance, carried over, taken, pending, remaining), and the company's absence types
// (create, edit, delete one no request uses).
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { Empty, ErrorNote, Section } from '../components';
import { EntityEditor, PersonSelect, numberOrNull, type Field, type Values } from '../entity-form';
import { DeleteButton, EditButton, EntityList, EntityTable } from '../entity-list';
import {
  AbsenceBalancesDocument,
  AbsenceTypesAndPeopleDocument,
  CreateAbsenceTypeDocument,
  DeleteAbsenceTypeDocument,
  UpdateAbsenceTypeDocument,
  type AbsenceTypeFieldsFragment,
} from '../gql';
import { usePeopleById } from '../people';

/** An amount in the type's unit ("2.5 days", "16 hours"), or a dash for none. */
function amount(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined) return '—';
  const one = unit === 'hour' ? 'hour' : 'day';
  return `${Number(value.toFixed(2))} ${value === 1 ? one : `${one}s`}`;
}

function Balances({ companyId, types, version, picker }: { companyId: number; types: AbsenceTypeFieldsFragment[]; version: number; picker: JSX.Element }) {
  const [chosen, setChosen] = useState('');
  const [first, setFirst] = useState('');
  const [year, setYear] = useState(String(new Date().getFullYear()));
  const employeeId = Number(chosen || first || 0);
  const validYear = /^\d{4}$/.test(year) ? Number(year) : null;
  const [data, refresh] = useQuery({ query: AbsenceBalancesDocument, variables: { employeeId, year: validYear }, pause: !employeeId || !validYear });
  const people = usePeopleById();
  // A type created or changed on this page changes the balances: read them again.
  useEffect(() => {
    if (version > 0) refresh({ requestPolicy: 'network-only' });
  }, [version]);
  const typeById = new Map(types.map((t) => [t.id, t]));
  const person = employeeId ? people.person(employeeId) : undefined;
  const rows = data.data?.absenceBalances ?? [];
  return (
    <Section title="Leave balances">
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        {picker}
        <PersonSelect
          id="balance-employee"
          label="Employee"
          companyId={companyId}
          value={chosen}
          onChange={setChosen}
          onOptions={(o) => setFirst(o[0]?.value ?? '')}
        />
        <p class="field">
          <label for="balance-year">Year</label>
          <input id="balance-year" type="number" min="2000" max="2100" value={year} onInput={(e) => setYear((e.target as HTMLInputElement).value)} />
        </p>
      </form>
      <ErrorNote message={errorMessage(data.error)} />
      {!employeeId ? (
        <Empty>No employees in this company.</Empty>
      ) : rows.length === 0 || !person ? (
        <Empty>{data.fetching || !person ? 'Loading…' : 'No absence types in this company.'}</Empty>
      ) : (
        <EntityTable
          tableLabel={`Balances of ${person.name} ${person.lastname} in ${validYear}`}
          rows={rows}
          rowData={(b) => ({ 'absence-type': b.absenceTypeId })}
          columns={[
            {
              header: 'Absence type',
              rowHeader: true,
              cell: (b) => {
                const type = typeById.get(b.absenceTypeId);
                return (
                  <>
                    {type?.color && <span class="swatch" style={{ background: type.color }} aria-hidden="true" />}
                    {type?.name ?? 'an absence type'}
                  </>
                );
              },
            },
            { header: 'Allowance', label: 'Allowance', cell: (b) => (b.allowance == null ? 'not tracked' : amount(b.allowance, b.unit)) },
            { header: 'Carried over', label: 'Carried over', cell: (b) => amount(b.carriedOver, b.unit) },
            { header: 'Taken', label: 'Taken', cell: (b) => amount(b.taken, b.unit) },
            { header: 'Pending', label: 'Pending', cell: (b) => amount(b.pending, b.unit) },
            {
              header: 'Remaining',
              label: 'Remaining',
              cell: (b) => (b.remaining == null ? 'not tracked' : <span class={b.remaining < 0 ? 'negative' : ''}>{amount(b.remaining, b.unit)}</span>),
            },
          ]}
        />
      )}
      <p class="muted">Taken: approved requests; pending: requests waiting for a decision. Remaining is the allowance and what was carried over, less both.</p>
    </Section>
  );
}

const TYPE_FIELDS: Field[] = [
  { name: 'name', label: 'Type name', kind: 'text', maxLength: 100, required: true, row: 'names' },
  { name: 'code', label: 'Pay item code', kind: 'text', maxLength: 20, required: true, size: 8, row: 'names' },
  {
    name: 'unit',
    label: 'Counted in',
    kind: 'select',
    options: [
      { value: 'day', label: 'Days (whole or half)' },
      { value: 'hour', label: 'Hours' },
    ],
    row: 'amounts',
  },
  { name: 'annualAllowance', label: 'Allowance per year (empty: not tracked)', kind: 'number', min: 0, max: 10000, step: 0.5, row: 'amounts' },
  { name: 'carryOver', label: 'Most carried into the next year', kind: 'number', min: 0, max: 10000, step: 0.5, row: 'amounts' },
  { name: 'color', label: 'Colour', kind: 'color', row: 'amounts' },
  { name: 'paid', label: 'Paid (an approved workday counts its scheduled minutes as leave)', kind: 'check', row: 'ticks' },
  { name: 'allowNegative', label: 'A request may take the balance below zero', kind: 'check', row: 'ticks' },
];

const BLANK_TYPE: Values = { name: '', code: '', paid: true, unit: 'day', annualAllowance: '', carryOver: '0', allowNegative: false, color: '#2f80ed' };

function typeValues(t: AbsenceTypeFieldsFragment): Values {
  return {
    name: t.name,
    code: t.code,
    paid: t.paid,
    unit: t.unit,
    annualAllowance: t.annualAllowance == null ? '' : String(t.annualAllowance),
    carryOver: String(t.carryOver),
    allowNegative: t.allowNegative,
    color: t.color ?? '#2f80ed',
  };
}

const typeInput = (v: Values) => ({
  name: v.name as string,
  code: v.code as string,
  paid: v.paid === true,
  unit: v.unit as string,
  annualAllowance: numberOrNull(v.annualAllowance),
  carryOver: Number(v.carryOver || 0),
  allowNegative: v.allowNegative === true,
  color: v.color as string,
});

export function LeaveBalances() {
  const canWrite = useAllowed('write');
  const { companyId, picker } = useCompanyPicker('balances-company');
  const [data, refresh] = useQuery({ query: AbsenceTypesAndPeopleDocument, variables: { companyId }, pause: !companyId });
  const [, create] = useMutation(CreateAbsenceTypeDocument);
  const [, update] = useMutation(UpdateAbsenceTypeDocument);
  const [deleting, deleteType] = useMutation(DeleteAbsenceTypeDocument);
  const [editing, setEditing] = useState<AbsenceTypeFieldsFragment | null>(null);
  const [version, setVersion] = useState(0);
  const reload = () => {
    refresh({ requestPolicy: 'network-only' });
    setVersion((v) => v + 1);
  };
  const types = data.data?.absenceTypes.nodes ?? [];
  return (
    <div class="stack">
      <ErrorNote message={errorMessage(data.error)} />
      <Balances key={companyId} companyId={companyId} types={types} version={version} picker={picker} />
      <EntityList
        title="Absence types"
        rows={data.data ? types : companyId ? null : []}
        empty="No absence types in this company."
        error={errorMessage(deleting.error)}
        rowData={(t) => ({ 'absence-type': t.id })}
        columns={[
          {
            header: 'Type',
            rowHeader: true,
            cell: (t) => (
              <>
                {t.color && <span class="swatch" style={{ background: t.color }} aria-hidden="true" />}
                {t.name}
              </>
            ),
          },
          { header: 'Code', label: 'Code', cell: (t) => t.code },
          { header: 'Unit', cell: (t) => (t.unit === 'hour' ? 'hours' : 'days') },
          { header: 'Allowance', label: 'Allowance', cell: (t) => (t.annualAllowance == null ? 'not tracked' : amount(t.annualAllowance, t.unit)) },
          { header: 'Carry-over', label: 'Carry-over', cell: (t) => amount(t.carryOver, t.unit) },
          { header: 'Paid', cell: (t) => (t.paid ? 'paid' : 'unpaid') },
          { header: 'Below zero', label: 'Below zero', cell: (t) => (t.allowNegative ? 'allowed' : 'no') },
        ]}
        actions={
          canWrite
            ? (t) => (
                <>
                  <EditButton name={t.name} onClick={() => setEditing(t)} />
                  <DeleteButton
                    noun="absence type"
                    name={t.name}
                    onConfirm={async () => {
                      await deleteType({ id: t.id });
                      reload();
                    }}
                  >
                    <p>
                      {t.name} ({t.code}) is deleted. A type that requests use is kept (the service refuses); edit it instead.
                    </p>
                  </DeleteButton>
                </>
              )
            : undefined
        }
      />
      {canWrite && companyId > 0 && (
        <EntityEditor
          noun="absence type"
          idPrefix="type"
          editing={editing}
          fields={TYPE_FIELDS}
          blank={BLANK_TYPE}
          valuesOf={typeValues}
          create={(v) => create({ input: { ...typeInput(v), companyId } })}
          update={(id, v) => update({ id, input: typeInput(v) })}
          onDone={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
    </div>
  );
}
