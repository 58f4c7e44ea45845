// Remote-open latency: from the unlock request to its delivery to the terminal (the door action's
// `sent_at` minus its `created_at`, both stamped by the service), with the terminal polling every
// second, measured twice: with an empty queue, and with 1,000 bulk commands (user records) waiting
// ahead of it, topped up before every sample. Interactive commands have their own lane (docs/decisions.md,
// "Command lanes"): the target is that both p99s are within one poll interval of each other.
// Run: npm run build && node dist/bench/remote-open.js [--samples 40]
import 'reflect-metadata';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { SimulatedTerminal } from '../src/simulator';
import { benchDatabase, call, createFleet, numberArg, percentile, report, runScenario, spawnService, withClient } from './support';

const POLL_MS = 1000;
const BULK_WAITING = 1000;

/** Tops the device's queue up to `count` queued bulk commands (priority 3, user records). */
async function topUpBulk(client: pg.Client, deviceId: number, count: number, next: { pin: number }): Promise<void> {
  const [{ n }] = (await client.query("select count(*)::int as n from device_command where device_id = $1 and status = 'queued' and priority = 3", [deviceId]))
    .rows;
  const missing = count - n;
  if (missing <= 0) return;
  const pins = Array.from({ length: missing }, () => String(next.pin++));
  await client.query(
    `insert into device_command (workspace_id, device_id, command_id, command, kind, priority, created_at)
     select d.workspace_id, d.id, substr(md5(random()::text || p), 1, 12), 'DATA UPDATE USERINFO PIN=' || p || E'\\tName=Bulk ' || p || E'\\tPri=0', 'user_sync', 3, now()
     from device d, unnest($2::text[]) p where d.id = $1`,
    [deviceId, pins],
  );
}

async function main(): Promise<void> {
  const samples = numberArg('samples', 40);
  const db = await benchDatabase('remote_open');
  // A short cache TTL, so the bulk rows inserted behind the service's back are seen as pending promptly.
  const service = await spawnService(db.url, { TIMEGATE_DEVICE_CACHE_TTL_MS: '1000' });
  const fleet = await createFleet(service.url, 1, 'OPEN');
  const serial = fleet.serials[0]!;
  const deviceId = fleet.deviceIds[0]!;
  const terminal = new SimulatedTerminal({ serverUrl: service.url, serialNumber: serial, family: 'att', pollIntervalMs: POLL_MS, connection: 'keep-alive' });
  try {
    terminal.start();
    await once(terminal, 'handshake');
    const measured = await withClient(db.url, async (client) => {
      const next = { pin: 100_000 };
      const run = async (bulk: boolean): Promise<number[]> => {
        const latencies: number[] = [];
        for (let i = 0; i < samples; i++) {
          if (bulk) await topUpBulk(client, deviceId, BULK_WAITING, next);
          // A random phase against the terminal's poll, as a person pressing "open" would have.
          await sleep(Math.random() * POLL_MS);
          const action = await call(service.url, fleet.key, 'POST', '/v1/devices/door/unlock', { device_serial: serial, duration: 3 });
          for (;;) {
            const { rows } = await client.query('select extract(epoch from sent_at - created_at) * 1000 as ms, status from door_action where action_id = $1', [
              action.action_id,
            ]);
            if (rows[0]?.ms !== null && rows[0]?.ms !== undefined) {
              latencies.push(Number(rows[0].ms));
              break;
            }
            if (rows[0]?.status === 'expired') throw new Error(`unlock ${action.action_id} expired undelivered`);
            await sleep(20);
          }
        }
        return latencies.sort((a, b) => a - b);
      };
      const empty = await run(false);
      const behindBulk = await run(true);
      const [{ n }] = (await client.query("select count(*)::int as n from device_command where device_id = $1 and status = 'queued'", [deviceId])).rows;
      return { empty, behindBulk, queuedAtEnd: n as number };
    });
    const stats = (sorted: number[]) => ({
      p50Ms: Number(percentile(sorted, 50).toFixed(1)),
      p99Ms: Number(percentile(sorted, 99).toFixed(1)),
      maxMs: Number(sorted[sorted.length - 1]!.toFixed(1)),
    });
    const empty = stats(measured.empty);
    const bulk = stats(measured.behindBulk);
    const result = {
      bench: 'remote-open',
      samples,
      pollMs: POLL_MS,
      bulkWaiting: BULK_WAITING,
      emptyP50Ms: empty.p50Ms,
      emptyP99Ms: empty.p99Ms,
      bulkP50Ms: bulk.p50Ms,
      bulkP99Ms: bulk.p99Ms,
      bulkMaxMs: bulk.maxMs,
      queuedAtEnd: measured.queuedAtEnd,
      p99DifferenceMs: Number((bulk.p99Ms - empty.p99Ms).toFixed(1)),
      met: bulk.p99Ms - empty.p99Ms <= POLL_MS,
    };
    report(result, [
      `remote open, unlock request -> delivered to the terminal (poll every ${POLL_MS} ms), ${samples} unlocks each:`,
      `  empty queue:                 p50 ${empty.p50Ms} ms, p99 ${empty.p99Ms} ms, max ${empty.maxMs} ms`,
      `  ${BULK_WAITING} bulk commands waiting: p50 ${bulk.p50Ms} ms, p99 ${bulk.p99Ms} ms, max ${bulk.maxMs} ms (${measured.queuedAtEnd} still queued at the end)`,
      `  p99 difference ${result.p99DifferenceMs} ms (target: within one poll interval, ${POLL_MS} ms): ${result.met ? 'met' : 'NOT met'}`,
    ]);
  } finally {
    await terminal.stop();
    await service.stop();
    await db.stop();
  }
}

runScenario(main);
