// Names for the ids the API returns: employees, terminals and punch states ("check in", not "0"),
// so no page shows a raw pin or state number alone. The workspace's first 1,000 employees come with
// the page; any other id a page asks about is looked up by id (`employees(ids:)`, 1,000 ids a
// request) after the render that asked, so a name is found whatever the size of the workspace.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useClient, useQuery, type Client } from '@urql/preact';
import { EmployeeNamesDocument, PeopleAndDevicesDocument, VerificationStatesDocument } from './gql';

export interface Person {
  id: number;
  name: string;
  lastname: string;
  code: string;
  pin?: string | null;
  companyId: number;
}

export interface Directory {
  employee: (id: number | null | undefined) => Person | undefined;
  employeeName: (id: number | null | undefined, pin?: string | null) => string;
  deviceName: (id: number | null | undefined, serial?: string) => string;
  stateName: (value: string) => string;
  employees: Person[];
  devices: Array<{ id: number; name: string; serialNumber: string; companyId: number; modeType: string }>;
  ready: boolean;
}

/** Most ids of one lookup request (the API's page size). */
const IDS_PER_REQUEST = 1000;

/** These employees, read by id in requests of at most 1,000 ids, all at once; an id the workspace does not hold is absent. */
export async function lookUpPeople(client: Client, ids: readonly number[]): Promise<Person[]> {
  const chunks: number[][] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) chunks.push(ids.slice(i, i + IDS_PER_REQUEST));
  const answers = await Promise.all(chunks.map((chunk) => client.query(EmployeeNamesDocument, { ids: chunk }, { requestPolicy: 'network-only' }).toPromise()));
  return answers.flatMap((answer) => {
    if (answer.error) throw new Error(answer.error.message);
    return answer.data?.employees.nodes ?? [];
  });
}

/**
 * People by id for a page: `person(id)` answers at once for the people known, and notes any other
 * id; after the render, the noted ids are looked up (once each) and the page draws again with them.
 * `answered(id)`: the lookup of an id not known at first has come back (found or not).
 */
export function usePeopleById(known: readonly Person[] = []): { person: (id: number) => Person | undefined; answered: (id: number) => boolean } {
  const client = useClient();
  const [looked, setLooked] = useState<{ found: Map<number, Person>; answered: Set<number> }>({ found: new Map(), answered: new Set() });
  const asked = useRef(new Set<number>());
  const requested = useRef(new Set<number>());
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const byId = new Map(known.map((p) => [p.id, p]));
  // After every render: the ids it asked about that nobody looked up yet.
  useEffect(() => {
    const missing = [...asked.current].filter((id) => !requested.current.has(id));
    asked.current.clear();
    if (missing.length === 0) return;
    for (const id of missing) requested.current.add(id);
    lookUpPeople(client, missing).then(
      (people) => {
        if (!mounted.current) return;
        setLooked((before) => {
          const found = new Map(before.found);
          for (const p of people) found.set(p.id, p);
          return { found, answered: new Set([...before.answered, ...missing]) };
        });
      },
      // A failed lookup is tried again by the next render that asks.
      () => missing.forEach((id) => requested.current.delete(id)),
    );
  });
  return {
    person: (id) => {
      const p = byId.get(id) ?? looked.found.get(id);
      if (!p && !requested.current.has(id)) asked.current.add(id);
      return p;
    },
    answered: (id) => looked.answered.has(id),
  };
}

export function useDirectory(): Directory {
  const [people] = useQuery({ query: PeopleAndDevicesDocument });
  const [states] = useQuery({ query: VerificationStatesDocument });
  const employees = people.data?.employees.nodes ?? [];
  const devices = people.data?.devices.nodes ?? [];
  // Until the first 1,000 are read, nothing is looked up one by one.
  const lookup = usePeopleById(employees);
  const byDevice = new Map(devices.map((d) => [d.id, d]));
  const byState = new Map((states.data?.verificationStates.nodes ?? []).map((s) => [s.value, s.name]));
  const employee = (id: number | null | undefined) => (id === null || id === undefined || !people.data ? undefined : lookup.person(id));
  return {
    employees,
    devices,
    ready: Boolean(people.data),
    employee,
    employeeName: (id, pin) => {
      const e = employee(id);
      if (e) return `${e.name} ${e.lastname}`.trim();
      // Still being looked up: no verdict yet.
      if (id !== null && id !== undefined && !lookup.answered(id)) return '…';
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
