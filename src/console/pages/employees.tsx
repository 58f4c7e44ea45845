// Employees: search, create, and an employee's page with its terminals (assign one and watch it
// reach the terminal: pending → synced).
import { useEffect, useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { Empty, ErrorNote, Section, StatusBadge } from '../components';
import {
  AreasDocument,
  AssignDeviceDocument,
  CompaniesDocument,
  CreateEmployeeDocument,
  DevicesDocument,
  EmployeePageDocument,
  EmployeesDocument,
  UpdateEmployeeDocument,
} from '../gql';
import { href } from '../router';
import { EmploymentDates } from './employment-dates';

function Field({
  id,
  label,
  value,
  onInput,
  required = false,
}: {
  id: string;
  label: string;
  value: string;
  onInput: (v: string) => void;
  required?: boolean;
}) {
  return (
    <p class="field">
      <label for={id}>{label}</label>
      <input id={id} value={value} required={required} onInput={(e) => onInput((e.target as HTMLInputElement).value)} />
    </p>
  );
}

function CreateEmployee({ onCreated }: { onCreated: (id: number) => void }) {
  const [companies] = useQuery({ query: CompaniesDocument });
  const [creating, create] = useMutation(CreateEmployeeDocument);
  const [form, setForm] = useState({ name: '', lastname: '', code: '', pin: '', companyId: '' });
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const companyId = Number(form.companyId || companies.data?.companies.nodes[0]?.id || 0);
  return (
    <Section title="New employee">
      <form
        class="form"
        onSubmit={async (event) => {
          event.preventDefault();
          const result = await create({ input: { companyId, name: form.name, lastname: form.lastname, code: form.code, pin: form.pin || null } });
          if (result.data) onCreated(result.data.createEmployee.id);
        }}
      >
        <p class="field">
          <label for="employee-company">Company</label>
          <select id="employee-company" value={String(companyId)} onChange={(e) => set('companyId')((e.target as HTMLSelectElement).value)}>
            {(companies.data?.companies.nodes ?? []).map((c) => (
              <option value={c.id}>{c.name}</option>
            ))}
          </select>
        </p>
        <Field id="employee-name" label="First name" value={form.name} onInput={set('name')} required />
        <Field id="employee-lastname" label="Last name" value={form.lastname} onInput={set('lastname')} required />
        <Field id="employee-code" label="Employee code" value={form.code} onInput={set('code')} required />
        <Field id="employee-pin" label="Pin on the terminals" value={form.pin} onInput={set('pin')} />
        <button type="submit" disabled={creating.fetching}>
          Create employee
        </button>
        <ErrorNote message={errorMessage(creating.error)} />
      </form>
    </Section>
  );
}

export function EmployeeList() {
  const canWrite = useAllowed('write');
  const [search, setSearch] = useState('');
  const [employees] = useQuery({ query: EmployeesDocument, variables: { search: search || null, first: 200 } });
  const list = employees.data?.employees.nodes ?? [];
  return (
    <div class="grid">
      <Section title="Employees">
        <p class="field">
          <label for="employee-search">Search</label>
          <input
            id="employee-search"
            type="search"
            value={search}
            onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
            placeholder="Name, code or pin"
          />
        </p>
        <ErrorNote message={errorMessage(employees.error)} />
        {list.length === 0 ? (
          <Empty>No employee matches.</Empty>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Code</th>
                <th scope="col">Pin</th>
                <th scope="col">Active</th>
              </tr>
            </thead>
            <tbody>
              {list.map((e) => (
                <tr>
                  <td>
                    <a href={href('employees', e.id)}>
                      {e.name} {e.lastname}
                    </a>
                  </td>
                  <td>{e.code}</td>
                  <td>{e.pin ?? '—'}</td>
                  <td>{e.isActive ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      {canWrite && <CreateEmployee onCreated={(id) => (location.hash = href('employees', id))} />}
    </div>
  );
}

function EditEmployee({
  employee,
  onSaved,
}: {
  employee: { id: number; name: string; lastname: string; code: string; pin?: string | null; isActive: boolean };
  onSaved: () => void;
}) {
  const [saving, save] = useMutation(UpdateEmployeeDocument);
  const [form, setForm] = useState({
    name: employee.name,
    lastname: employee.lastname,
    code: employee.code,
    pin: employee.pin ?? '',
    isActive: employee.isActive,
  });
  const set = (key: 'name' | 'lastname' | 'code' | 'pin') => (value: string) => setForm({ ...form, [key]: value });
  return (
    <Section title="Edit">
      <form
        class="form"
        onSubmit={async (event) => {
          event.preventDefault();
          const result = await save({
            id: employee.id,
            input: { name: form.name, lastname: form.lastname, code: form.code, pin: form.pin || null, isActive: form.isActive },
          });
          if (result.data) onSaved();
        }}
      >
        <Field id="edit-name" label="First name" value={form.name} onInput={set('name')} required />
        <Field id="edit-lastname" label="Last name" value={form.lastname} onInput={set('lastname')} required />
        <Field id="edit-code" label="Employee code" value={form.code} onInput={set('code')} required />
        <Field id="edit-pin" label="Pin on the terminals" value={form.pin} onInput={set('pin')} />
        <p class="field">
          <label class="check">
            <input type="checkbox" checked={form.isActive} onChange={(e) => setForm({ ...form, isActive: (e.target as HTMLInputElement).checked })} /> Active
          </label>
        </p>
        <button type="submit" disabled={saving.fetching}>
          Save
        </button>
        <ErrorNote message={errorMessage(saving.error)} />
      </form>
    </Section>
  );
}

export function EmployeePage({ id }: { id: number }) {
  const canWrite = useAllowed('write');
  const [page, refresh] = useQuery({ query: EmployeePageDocument, variables: { id } });
  const [devices] = useQuery({ query: DevicesDocument, variables: { first: 1000 }, pause: !canWrite });
  const [assigning, assign] = useMutation(AssignDeviceDocument);
  const [areas] = useQuery({ query: AreasDocument });
  const [deviceId, setDeviceId] = useState('');
  const pending = page.data?.employeeDevices.nodes.some((a) => a.syncStatus === 'pending') ?? false;
  useEffect(() => {
    const timer = setInterval(() => refresh({ requestPolicy: 'network-only' }), pending ? 700 : 5000);
    return () => clearInterval(timer);
  }, [id, pending]);
  if (page.error) return <ErrorNote message={errorMessage(page.error)} />;
  if (!page.data) return <p>Loading…</p>;
  const { employee, employeeDevices } = page.data;
  const assigned = new Set(employeeDevices.nodes.map((a) => a.deviceId));
  const choices = (devices.data?.devices.nodes ?? []).filter((d) => d.companyId === employee.companyId && !assigned.has(d.id));
  const chosen = Number(deviceId || choices[0]?.id || 0);
  return (
    <div class="grid">
      <Section title={`${employee.name} ${employee.lastname}`}>
        <dl class="facts">
          <dt>Code</dt>
          <dd>{employee.code}</dd>
          <dt>Pin</dt>
          <dd>{employee.pin ?? '—'}</dd>
          <dt>Email</dt>
          <dd>{employee.email ?? '—'}</dd>
          <dt>Active</dt>
          <dd>{employee.isActive ? 'yes' : 'no'}</dd>
          <dt>Areas</dt>
          <dd>
            {employee.areaIds.length === 0 ? 'none' : employee.areaIds.map((a) => areas.data?.areas.nodes.find((x) => x.id === a)?.name ?? `#${a}`).join(', ')}
          </dd>
          <dt>Templates</dt>
          <dd>
            {employee.templates.length === 0
              ? 'none'
              : employee.templates.map((t) => `${t.type.replaceAll('_', ' ')}${t.version ? ` ${t.version}` : ''}`).join(', ')}
          </dd>
        </dl>
      </Section>
      <EmploymentDates employeeId={employee.id} />
      <Section title="Terminals">
        {employeeDevices.nodes.length === 0 ? (
          <Empty>Not on any terminal.</Empty>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Via</th>
                <th scope="col">Sync</th>
              </tr>
            </thead>
            <tbody>
              {employeeDevices.nodes.map((a) => (
                <tr data-device={a.deviceId}>
                  <td>
                    <a href={href('devices', a.deviceId)}>{a.deviceName}</a> <span class="muted">{a.deviceSerialNumber}</span>
                  </td>
                  <td>{a.source}</td>
                  <td>
                    <StatusBadge status={a.syncStatus} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {canWrite && choices.length > 0 && (
          <form
            class="inline-form"
            onSubmit={async (event) => {
              event.preventDefault();
              await assign({ employeeId: id, items: [{ deviceId: chosen, permissionId: 0 }] });
              refresh({ requestPolicy: 'network-only' });
            }}
          >
            <label for="assign-device">Terminal</label>
            <select id="assign-device" value={String(chosen)} onChange={(e) => setDeviceId((e.target as HTMLSelectElement).value)}>
              {choices.map((d) => (
                <option value={d.id}>
                  {d.name} ({d.serialNumber})
                </option>
              ))}
            </select>
            <button type="submit" disabled={assigning.fetching}>
              Assign
            </button>
            <ErrorNote message={errorMessage(assigning.error)} />
          </form>
        )}
      </Section>
      {canWrite && <EditEmployee key={employee.id} employee={employee} onSaved={() => refresh({ requestPolicy: 'network-only' })} />}
    </div>
  );
}
