// Names for the ids the API returns: employees, terminals and punch states ("check in", not "0"),
// so no page shows a raw pin or state number alone.
import { useQuery } from '@urql/preact';
import { PeopleAndDevicesDocument, VerificationStatesDocument } from './gql';

export interface Directory {
  employee: (id: number | null | undefined) => { id: number; name: string; lastname: string; code: string; pin?: string | null; companyId: number } | undefined;
  employeeName: (id: number | null | undefined, pin?: string | null) => string;
  deviceName: (id: number | null | undefined, serial?: string) => string;
  stateName: (value: string) => string;
  employees: Array<{ id: number; name: string; lastname: string; code: string; pin?: string | null; companyId: number }>;
  devices: Array<{ id: number; name: string; serialNumber: string; companyId: number; modeType: string }>;
  ready: boolean;
}

export function useDirectory(): Directory {
  const [people] = useQuery({ query: PeopleAndDevicesDocument });
  const [states] = useQuery({ query: VerificationStatesDocument });
  const employees = people.data?.employees.nodes ?? [];
  const devices = people.data?.devices.nodes ?? [];
  const byEmployee = new Map(employees.map((e) => [e.id, e]));
  const byDevice = new Map(devices.map((d) => [d.id, d]));
  const byState = new Map((states.data?.verificationStates.nodes ?? []).map((s) => [s.value, s.name]));
  return {
    employees,
    devices,
    ready: Boolean(people.data),
    employee: (id) => (id === null || id === undefined ? undefined : byEmployee.get(id)),
    employeeName: (id, pin) => {
      const e = id === null || id === undefined ? undefined : byEmployee.get(id);
      if (e) return `${e.name} ${e.lastname}`.trim();
      return pin ? `unknown person (pin ${pin})` : 'unknown person';
    },
    deviceName: (id, serial) => {
      const d = id === null || id === undefined ? undefined : byDevice.get(id);
      return d ? d.name : serial ? `removed terminal ${serial}` : '—';
    },
    stateName: (value) => {
      const name = byState.get(value);
      return name ? name.replaceAll('_', ' ') : `state ${value}`;
    },
  };
}
