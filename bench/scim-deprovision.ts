// How long a directory's deprovisioning takes to reach the terminals: a SCIM request (Entra ID's
// PATCH `active: "False"`, or a DELETE) until every terminal has confirmed the removal (its result
// for the delete command posted back, so every `device_user` row of the person is synced and
// absent). 50 attendance terminals (simulated, keep-alive, polling every second with random
// phases; the simulator's own interval, as the service advertises at least 2 s) in one area; the person gets there through a directory group mapped to the area.
// Each cycle deactivates the person, waits for every confirmation, then reactivates them and
// waits until every terminal holds them again. The time to the last confirmation is read by
// polling the database every 20 ms (the figure includes up to that much).
// Run: npm run build && node dist/bench/scim-deprovision.js [--terminals 50] [--poll-ms 1000] [--cycles 20] [--deletes 5]
import 'reflect-metadata';
import { SimulatedTerminal } from '../src/simulator';
import { benchDatabase, call, createFleet, numberArg, percentile, report, runScenario, spawnService, withClient } from './support';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

async function scim(url: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${url}/scim/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/scim+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function main(): Promise<void> {
  const terminalCount = numberArg('terminals', 50);
  const pollMs = numberArg('poll-ms', 1000);
  const cycles = numberArg('cycles', 20);
  const deletes = numberArg('deletes', 5);
  const db = await benchDatabase('scim_deprovision');
  const service = await spawnService(db.url, {
    TIMEGATE_RATE_LIMIT_PER_MINUTE: '10000000',
    TIMEGATE_RATE_LIMIT_BURST: '10000000',
  }).catch(async (error) => {
    await db.stop();
    throw error;
  });
  const fleet = await createFleet(service.url, terminalCount, 'SCIM');
  const terminals = fleet.serials.map(
    (serialNumber) => new SimulatedTerminal({ serverUrl: service.url, serialNumber, family: 'att', pollIntervalMs: pollMs, connection: 'keep-alive' }),
  );
  try {
    const area = await call(service.url, fleet.key, 'POST', '/public/v2/areas', { name: 'Site', code: 'SITE', company_id: fleet.companyId });
    await call(
      service.url,
      fleet.key,
      'POST',
      `/public/v2/areas/${area.id}/devices`,
      fleet.deviceIds.map((id) => ({ device_id: id })),
    );
    const created = await call(service.url, fleet.key, 'POST', '/graphql', {
      query: 'mutation ($c: Int!) { createApiKey(input: { name: "directory", scopes: ["scim"], companyId: $c }) { key } }',
      variables: { c: fleet.companyId },
    });
    const scimKey: string = created.data.createApiKey.key;
    // Random phases: terminals do not poll in step.
    for (const terminal of terminals) setTimeout(() => terminal.start(), Math.random() * pollMs);
    const group = await scim(service.url, scimKey, 'POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Site staff' });
    await call(service.url, fleet.key, 'POST', '/graphql', {
      query: 'mutation ($id: ID!, $a: Int) { setDirectoryGroupMapping(id: $id, input: { areaId: $a, accessLevelIds: [] }) { id } }',
      variables: { id: group.id, a: area.id },
    });

    /** When every terminal has confirmed (and when half of them had: the median terminal). */
    let halfAt = 0;
    const waitFor = (employeeId: number, present: boolean) =>
      withClient(db.url, async (client) => {
        const deadline = Date.now() + 120_000;
        halfAt = 0;
        for (;;) {
          const {
            rows: [row],
          } = await client.query(
            `select count(*) filter (where present = $2 and sync_status = 'synced')::int as done from device_user where employee_id = $1`,
            [employeeId, present],
          );
          if (halfAt === 0 && row.done * 2 >= terminalCount) halfAt = Date.now();
          if (row.done === terminalCount) return Date.now();
          if (Date.now() > deadline) throw new Error(`not settled: ${row.done} of ${terminalCount}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      });
    const provision = async (n: number) => {
      const user = await scim(service.url, scimKey, 'POST', '/Users', {
        schemas: [USER, ENTERPRISE],
        userName: `person${n}@example.com`,
        name: { givenName: 'Person', familyName: String(n) },
        [ENTERPRISE]: { employeeNumber: String(70000 + n) },
      });
      await scim(service.url, scimKey, 'PATCH', `/Groups/${group.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'Add', path: 'members', value: [{ value: user.id }] }],
      });
      await waitFor(Number(user.id), true);
      return user.id as string;
    };

    const deactivations: number[] = [];
    const medianTerminal: number[] = [];
    const person = await provision(0);
    for (let cycle = 0; cycle < cycles; cycle++) {
      const began = Date.now();
      await scim(service.url, scimKey, 'PATCH', `/Users/${person}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
      deactivations.push((await waitFor(Number(person), false)) - began);
      medianTerminal.push(halfAt - began);
      await scim(service.url, scimKey, 'PATCH', `/Users/${person}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'True' }] });
      await waitFor(Number(person), true);
      // A random moment of the poll cycle for the next request.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * pollMs));
    }
    const deletions: number[] = [];
    for (let n = 1; n <= deletes; n++) {
      const id = await provision(n);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * pollMs));
      const began = Date.now();
      await scim(service.url, scimKey, 'DELETE', `/Users/${id}`);
      deletions.push((await waitFor(Number(id), false)) - began);
    }
    const summary = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return { n: sorted.length, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted[sorted.length - 1] ?? NaN };
    };
    const deactivate = summary(deactivations);
    const remove = summary(deletions);
    const median = summary(medianTerminal);
    const targetMs = pollMs + 1000;
    report({ bench: 'scim-deprovision', terminals: terminalCount, pollMs, targetMs, deactivate, medianTerminal: median, delete: remove }, [
      `SCIM request -> removal confirmed by all ${terminalCount} terminals (poll every ${pollMs} ms; target ${targetMs} ms):`,
      `  PATCH active "False": p50 ${deactivate.p50Ms} ms, p95 ${deactivate.p95Ms} ms, max ${deactivate.maxMs} ms (${deactivate.n} requests)`,
      `  (half of the terminals confirmed: p50 ${median.p50Ms} ms, p95 ${median.p95Ms} ms)`,
      `  DELETE:               p50 ${remove.p50Ms} ms, p95 ${remove.p95Ms} ms, max ${remove.maxMs} ms (${remove.n} requests)`,
    ]);
  } finally {
    await Promise.all(terminals.map((terminal) => terminal.stop()));
    await service.stop();
    await db.stop();
  }
}

runScenario(main);
