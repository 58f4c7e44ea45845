// Heartbeats per second: `GET /iclock/getrequest` of a registered terminal with nothing queued,
// against the service (its own process) and, in the same run with the same autocannon settings, a
// bare node:http server answering `OK`. Also checks that heartbeats do not write the device row. Two 10 s runs of each, interleaved (the method of docs/benchmarks.md).
// Run: npm run build && node dist/bench/heartbeat.js [--duration 10] [--connections 10]
import 'reflect-metadata';
import { benchDatabase, createFleet, measureSideBySide, report, spawnServer, spawnService, withClient, numberArg, runScenario } from './support';

async function main(): Promise<void> {
  const duration = numberArg('duration', 10);
  const connections = numberArg('connections', 10);
  const db = await benchDatabase('heartbeat');
  const service = await spawnService(db.url);
  const bare = await spawnServer('dist/bench/bare-server.js', {}, '/');
  try {
    const fleet = await createFleet(service.url, 1, 'HB');
    const serial = fleet.serials[0]!;
    const poll = `${service.url}/iclock/getrequest?SN=${serial}`;
    // A handshake first, as a terminal does; then warm both servers up.
    await fetch(`${service.url}/iclock/cdata?SN=${serial}&options=all&pushver=2.4.1`);
    if ((await (await fetch(poll)).text()) !== 'OK') throw new Error('the heartbeat is not answered OK');

    const rowState = () =>
      withClient(db.url, async (c) => {
        const row = (await c.query('select xmin::text as xmin from device where id = $1', [fleet.deviceIds[0]])).rows[0];
        const stats = (await c.query(`select n_tup_upd + n_tup_hot_upd as updates from pg_stat_user_tables where relname = 'device'`)).rows[0];
        const commandScans = (await c.query(`select seq_scan + coalesce(idx_scan, 0) as scans from pg_stat_user_tables where relname = 'device_command'`))
          .rows[0];
        return { xmin: row.xmin as string, updates: Number(stats.updates), commandScans: Number(commandScans.scans) };
      });
    const before = await rowState();
    const { ours, baseline: reference } = await measureSideBySide(
      { url: poll, connections },
      { url: `${bare.url}/iclock/getrequest?SN=${serial}`, connections },
      duration,
    );
    // pg_stat counters are reported by backends at most once a second: wait for them to settle.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const after = await rowState();

    const heartbeats = ours.requests;
    const ratio = ours.requestsPerSecond / reference.requestsPerSecond;
    const deviceWrites = after.updates - before.updates;
    const result = {
      bench: 'heartbeat',
      connections,
      durationSeconds: duration,
      bareRequestsPerSecond: reference.requestsPerSecond,
      timegateRequestsPerSecond: ours.requestsPerSecond,
      bareRuns: reference.runs,
      timegateRuns: ours.runs,
      ratio: Number(ratio.toFixed(3)),
      target: 0.6,
      met: ratio >= 0.6,
      timegateLatencyP99Ms: ours.p99Ms,
      heartbeats,
      errors: ours.errors,
      deviceRowUpdates: deviceWrites,
      deviceCommandScans: after.commandScans - before.commandScans,
      deviceXminChanged: before.xmin !== after.xmin,
    };
    report(result, [
      `heartbeat (getrequest, nothing queued), autocannon -c ${connections} -d ${duration}, two runs each interleaved with the bare server's:`,
      `  bare node:http 'OK'   ${result.bareRequestsPerSecond} req/s (runs ${reference.runs.join(', ')})`,
      `  timegate /iclock      ${result.timegateRequestsPerSecond} req/s (runs ${ours.runs.join(', ')}; p99 ${ours.p99Ms} ms, ${result.errors} errors)`,
      `  ratio                 ${(ratio * 100).toFixed(1)}% of bare (target >= 60%: ${result.met ? 'met' : 'NOT met'})`,
      `  device row updates    ${deviceWrites} for ${heartbeats} heartbeats (presence is flushed in batches, TIMEGATE_PRESENCE_FLUSH_MS)`,
      `  device_command scans  ${result.deviceCommandScans} (sweeps and cache reloads only, none per heartbeat)`,
    ]);
    if (deviceWrites > heartbeats / 1000 + 2 * duration + 5) throw new Error('the device row was written per heartbeat');
  } finally {
    await bare.stop();
    await service.stop();
    await db.stop();
  }
}

runScenario(main);
