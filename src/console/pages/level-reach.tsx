// The people who reach a controller through access levels: the levels that hold one of its doors,
// their members (with their validity) and everyone in their areas.
import { useEffect, useState } from 'preact/hooks';
import { useClient } from '@urql/preact';
import { Empty, ErrorNote, Section } from '../components';
import { AccessDocument, AccessLevelMembersDocument, AreaMembersDocument } from '../gql';
import { lookUpPeople } from '../people';
import { href } from '../router';

interface Reach {
  employeeId: number;
  name: string;
  levels: string[];
}

const SHOWN = 200;

export function LevelReach({ companyId, doorIds }: { companyId: number; doorIds: number[] }) {
  const client = useClient();
  const [state, setState] = useState<{ people: Reach[] | null; error: string | null }>({ people: null, error: null });
  const doorKey = doorIds.join(',');
  useEffect(() => {
    let cancelled = false;
    (async () => {
      const access = await client.query(AccessDocument, { companyId }).toPromise();
      const levels = (access.data?.accessLevels.nodes ?? []).filter((l) => l.doorIds.some((id) => doorIds.includes(id)));
      const reach = new Map<number, Set<string>>();
      const note = (employeeId: number, level: string) => reach.set(employeeId, (reach.get(employeeId) ?? new Set()).add(level));
      await Promise.all(
        levels.map(async (level) => {
          const members = await client.query(AccessLevelMembersDocument, { accessLevelId: level.id }, { requestPolicy: 'network-only' }).toPromise();
          for (const m of members.data?.accessLevelEmployees.nodes ?? []) note(m.employeeId, m.endDate ? `${level.name} (until ${m.endDate})` : level.name);
          await Promise.all(
            (members.data?.accessLevelAreas.nodes ?? []).map(async (a) => {
              const area = await client.query(AreaMembersDocument, { areaId: a.areaId }).toPromise();
              for (const e of area.data?.areaEmployees.nodes ?? []) note(e.id, `${level.name} (by area)`);
            }),
          );
        }),
      );
      // Their names, looked up by id (at any size of the company).
      const names = new Map((await lookUpPeople(client, [...reach.keys()])).map((e) => [e.id, `${e.name} ${e.lastname}`]));
      if (cancelled) return;
      const people = [...reach.entries()].map(([employeeId, via]) => ({
        employeeId,
        name: names.get(employeeId) ?? `person #${employeeId}`,
        levels: [...via],
      }));
      setState({ people: people.sort((a, b) => a.name.localeCompare(b.name)), error: null });
    })().catch((error: Error) => !cancelled && setState({ people: [], error: error.message }));
    return () => {
      cancelled = true;
    };
  }, [companyId, doorKey]);
  const people = state.people ?? [];
  return (
    <Section title="People who reach it through access levels">
      <ErrorNote message={state.error} />
      {state.people === null ? (
        <p role="status">Loading the access levels…</p>
      ) : people.length === 0 ? (
        <Empty>No access level holds a door of this controller.</Empty>
      ) : (
        <>
          <p class="muted" role="status">
            {people.length} {people.length === 1 ? 'person' : 'people'}
            {people.length > SHOWN ? ` (the first ${SHOWN} by name shown)` : ''}
          </p>
          <table class="fold-on-phone">
            <thead>
              <tr>
                <th scope="col">Person</th>
                <th scope="col">Through</th>
              </tr>
            </thead>
            <tbody>
              {people.slice(0, SHOWN).map((p) => (
                <tr data-reach={p.employeeId}>
                  <td>
                    <a href={href('employees', p.employeeId)}>{p.name}</a>
                  </td>
                  <td>{p.levels.join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Section>
  );
}
