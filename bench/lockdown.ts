// Lockdown latency: a lockdown of a company with 100 doors on 50 access controllers (2 doors each,
// polling every second), from the request to each door's confirmation by its controller (the door's
// `confirmed_at`, the moment the controller's answer arrived, minus the lockdown's `created_at`, both
// stamped by the service), over several lockdown/release rounds.
// Run: npm run build && node dist/bench/lockdown.js [--controllers 50] [--rounds 5]
import 'reflect-metadata';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { SimulatedTerminal } from '../src/simulator';
import { benchDatabase, call, MASTER_KEY, numberArg, percentile, report, runScenario, spawnService, withClient } from './support';

const POLL_MS = 1000;
const DOORS_PER_CONTROLLER = 2;

async function main(): Promise<void> {
  const controllers = numberArg('controllers', 50);
  const rounds = numberArg('rounds', 5);
  const db = await benchDatabase('lockdown');
  const service = await spawnService(db.url);
  const created = await call(service.url, MASTER_KEY, 'POST', '/graphql', {
    query: 'mutation ($name: String!) { createWorkspace(input: { name: $name }) { workspace { id } apiKey { key } } }',
    variables: { name: 'bench lockdown' },
  });
  const key: string = created.data.createWorkspace.apiKey.key;
  await call(service.url, MASTER_KEY, 'POST', '/graphql', {
    query: 'mutation ($id: Int!, $input: WorkspacePlanInput!) { setWorkspacePlan(workspaceId: $id, input: $input) { id } }',
    variables: { id: created.data.createWorkspace.workspace.id, input: { maxDevices: controllers + 10 } },
  });
  const company = await call(service.url, key, 'POST', '/public/v2/companies', { name: 'Bench', code: 'LOCK' });
  const terminals: SimulatedTerminal[] = [];
  for (let i = 1; i <= controllers; i++) {
    const serial = `LOCK${String(i).padStart(4, '0')}`;
    await call(service.url, key, 'POST', '/public/v2/devices', { name: serial, serial_number: serial, company_id: company.id, mode_type: 'acc' });
    terminals.push(
      new SimulatedTerminal({
        serverUrl: service.url,
        serialNumber: serial,
        family: 'acc',
        pollIntervalMs: POLL_MS,
        connection: 'keep-alive',
        lockCount: DOORS_PER_CONTROLLER,
      }),
    );
  }
  try {
    await Promise.all(
      terminals.map(async (t) => {
        t.start();
        await once(t, 'handshake');
      }),
    );
    const doorCount = controllers * DOORS_PER_CONTROLLER;
    const measured = await withClient(db.url, async (client) => {
      // The registries report two locks each: wait for the doors.
      for (;;) {
        const { rows } = await client.query('select count(*)::int as n from door d join device v on v.id = d.device_id where v.company_id = $1 and d.present', [
          company.id,
        ]);
        if (rows[0].n === doorCount) break;
        await sleep(100);
      }
      const perDoor: number[] = [];
      const allDoors: number[] = [];
      for (let round = 0; round < rounds; round++) {
        // A random phase against the controllers' polls.
        await sleep(Math.random() * POLL_MS);
        const lockdown = await call(service.url, key, 'POST', '/public/v2/lockdowns', {
          company_id: company.id,
          mode: 'lockdown',
          reason: `bench round ${round}`,
        });
        if (lockdown.doors?.length !== doorCount) throw new Error(`lockdown has ${lockdown.doors?.length} doors: ${JSON.stringify(lockdown).slice(0, 300)}`);
        for (;;) {
          const { rows } = await client.query(
            `select count(*) filter (where ld.state = 'confirmed')::int as confirmed, count(*) filter (where ld.state = 'failed')::int as failed,
               array_agg(extract(epoch from ld.confirmed_at - l.created_at) * 1000) filter (where ld.state = 'confirmed') as ms
             from lockdown_door ld join lockdown l on l.id = ld.lockdown_id where l.id = $1`,
            [lockdown.id],
          );
          if (rows[0].failed > 0) {
            const failed = await client.query(
              "select ld.device_id, ld.door_number, ld.detail, ld.return_code, c.status, c.attempts from lockdown_door ld left join device_command c on c.id = ld.command_id where ld.lockdown_id = $1 and ld.state = 'failed'",
              [lockdown.id],
            );
            throw new Error(`round ${round}: ${rows[0].failed} doors failed: ${JSON.stringify(failed.rows)}`);
          }
          if (rows[0].confirmed === doorCount) {
            const ms = (rows[0].ms as string[]).map(Number);
            perDoor.push(...ms);
            allDoors.push(Math.max(...ms));
            break;
          }
          await sleep(20);
        }
        await call(service.url, key, 'POST', `/public/v2/lockdowns/${lockdown.id}/release`);
        for (;;) {
          const { rows } = await client.query("select count(*)::int as n from lockdown_door where lockdown_id = $1 and state <> 'released'", [lockdown.id]);
          if (rows[0].n === 0) break;
          await sleep(50);
        }
      }
      return { perDoor: perDoor.sort((a, b) => a - b), allDoors: allDoors.sort((a, b) => a - b) };
    });
    const stat = (sorted: number[], p: number) => Number(percentile(sorted, p).toFixed(1));
    const result = {
      bench: 'lockdown',
      controllers,
      doors: doorCount,
      rounds,
      pollMs: POLL_MS,
      doorP50Ms: stat(measured.perDoor, 50),
      doorP95Ms: stat(measured.perDoor, 95),
      doorMaxMs: stat(measured.perDoor, 100),
      allDoorsP50Ms: stat(measured.allDoors, 50),
      allDoorsMaxMs: stat(measured.allDoors, 100),
    };
    report(result, [
      `lockdown of ${doorCount} doors on ${controllers} controllers (poll every ${POLL_MS} ms), ${rounds} rounds, request -> each door confirmed:`,
      `  per door: p50 ${result.doorP50Ms} ms, p95 ${result.doorP95Ms} ms, max ${result.doorMaxMs} ms`,
      `  all ${doorCount} doors confirmed: median ${result.allDoorsP50Ms} ms, worst ${result.allDoorsMaxMs} ms`,
    ]);
  } finally {
    await Promise.all(terminals.map((t) => t.stop()));
    await service.stop();
    await db.stop();
  }
}

runScenario(main);
