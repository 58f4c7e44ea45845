// A new sandbox's first punch: from the request that creates it (POST /public/v2/workspaces with
// `{"sandbox": true}`) to the first punch of its virtual clock stored, with the default schedule
// (docs/sandbox.md). The sandboxes are created one after the other on one service process, each
// while the ones before keep playing. Target: within a minute (docs/sandbox.md).
// Run: npm run build && node dist/bench/sandbox-first-punch.js [--samples 5]
import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { benchDatabase, MASTER_KEY, numberArg, percentile, report, runScenario, spawnService, withClient } from './support';

const TARGET_MS = 60_000;

async function main(): Promise<void> {
  const samples = numberArg('samples', 5);
  const db = await benchDatabase('sandbox_first_punch');
  const service = await spawnService(db.url);
  try {
    const measured = await withClient(db.url, async (client) => {
      const created: number[] = [];
      const firstPunch: number[] = [];
      for (let i = 0; i < samples; i++) {
        const started = performance.now();
        const response = await fetch(`${service.url}/public/v2/workspaces`, {
          method: 'POST',
          headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ sandbox: true }),
        });
        if (response.status !== 201) throw new Error(`sandbox not created: ${response.status} ${await response.text()}`);
        const { workspace } = (await response.json()) as { workspace: { id: number } };
        created.push(performance.now() - started);
        for (;;) {
          const { rows } = await client.query('select 1 from punch where workspace_id = $1 limit 1', [workspace.id]);
          if (rows.length > 0) break;
          if (performance.now() - started > 5 * TARGET_MS) throw new Error(`sandbox ${workspace.id}: no punch after ${5 * TARGET_MS} ms`);
          await sleep(50);
        }
        firstPunch.push(performance.now() - started);
      }
      return { created: created.sort((a, b) => a - b), firstPunch: firstPunch.sort((a, b) => a - b) };
    });
    const ms = (v: number) => Number(v.toFixed(0));
    const result = {
      bench: 'sandbox-first-punch',
      samples,
      createP50Ms: ms(percentile(measured.created, 50)),
      createMaxMs: ms(measured.created[measured.created.length - 1]!),
      firstPunchP50Ms: ms(percentile(measured.firstPunch, 50)),
      firstPunchMaxMs: ms(measured.firstPunch[measured.firstPunch.length - 1]!),
      met: measured.firstPunch[measured.firstPunch.length - 1]! <= TARGET_MS,
    };
    report(result, [
      `sandbox creation -> first punch of its virtual clock stored, ${samples} sandboxes one after the other:`,
      `  create (201):  p50 ${result.createP50Ms} ms, max ${result.createMaxMs} ms`,
      `  first punch:   p50 ${result.firstPunchP50Ms} ms, max ${result.firstPunchMaxMs} ms (target: within ${TARGET_MS} ms): ${result.met ? 'met' : 'NOT met'}`,
    ]);
  } finally {
    await service.stop();
    await db.stop();
  }
}

runScenario(main);
