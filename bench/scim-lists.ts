// 16 parallel SCIM lists over 100,000 stored users (the third hardening round's finding: every list
// read every user into memory; 16 of them took another workspace's REST to 17.7 s, /healthz to
// 19.2 s and the process to 1.7 GB). Workspace A's directory lists its users page by page, 16
// lists at a time (unfiltered, and filtered by attributes no index serves), while workspace B reads
// its employees over REST every 20 ms and /healthz is asked every 100 ms.
// Reports B's REST p50/p99/max, /healthz p99/max, the lists' p50/p99, and the service's peak RSS.
// Run: npm run build && node dist/bench/scim-lists.js [--seconds 30] [--users 100000] [--lists 16]
import 'reflect-metadata';
import { benchDatabase, call, createFleet, numberArg, percentile, report, runScenario, spawnService, withClient } from './support';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (ms: number) => Math.round(ms * 10) / 10;

/** Peak resident memory of a process (VmHWM), in MB; null where /proc is not there. */
async function peakRssMb(pid: number): Promise<number | null> {
  const fs = await import('node:fs/promises');
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  const match = status ? /VmHWM:\s+(\d+) kB/.exec(status) : null;
  return match ? Math.round(Number(match[1]) / 1024) : null;
}

runScenario(async () => {
  const seconds = numberArg('seconds', 30);
  const users = numberArg('users', 100_000);
  // `--lists 0` is the control: the same service and data, no lists.
  const parallel = numberArg('lists', 16);
  const database = await benchDatabase('scim_lists');
  // B reads at 50 requests a second, over the default per-key rate limit: raised, so that B measures latency, not 429s.
  const service = await spawnService(database.url, { TIMEGATE_RATE_LIMIT_BURST: '1000000', TIMEGATE_RATE_LIMIT_PER_MINUTE: '10000000' });
  try {
    const a = await createFleet(service.url, 0, 'SCIMA');
    const b = await createFleet(service.url, 0, 'SCIMB');
    for (let i = 0; i < 50; i++) {
      await call(service.url, b.key, 'POST', '/public/v2/employees', {
        name: 'B',
        lastname: `P${i}`,
        code: `B${i}`,
        pin: String(1000 + i),
        company_id: b.companyId,
      });
    }
    const scimKey = (
      await call(service.url, a.key, 'POST', '/graphql', {
        query: 'mutation ($c: Int!) { createApiKey(input: { name: "Entra ID", scopes: ["scim"], companyId: $c }) { key } }',
        variables: { c: a.companyId },
      })
    ).data.createApiKey.key as string;
    // The users, about 1 KB each, straight into the tables (through SCIM this would take an hour).
    await withClient(database.url, async (client) => {
      const workspace = (await client.query('select workspace_id from company where id = $1', [a.companyId])).rows[0].workspace_id;
      await client.query(
        `insert into employee (workspace_id, company_id, name, lastname, code, pin, is_active, created_at, updated_at)
         select $1, $2, 'Ada', 'L' || g, 'bulk' || g, (100000 + g)::text, true, now(), now() from generate_series(1, $3) g`,
        [workspace, a.companyId, users],
      );
      await client.query(
        `insert into scim_user (workspace_id, company_id, employee_id, user_name, external_id, document, search, created_at, updated_at)
         select e.workspace_id, e.company_id, e.id, e.code || '@example.com', 'ext-' || e.code,
           jsonb_build_object('userName', e.code || '@example.com', 'externalId', 'ext-' || e.code, 'name', jsonb_build_object('givenName', 'Ada', 'familyName', e.lastname),
             'emails', jsonb_build_array(jsonb_build_object('value', e.code || '@corp.example', 'type', 'work', 'primary', true)), 'title', repeat('Engineer ', 100)),
           jsonb_build_object('username', e.code || '@example.com', 'externalid', 'ext-' || e.code, 'name', jsonb_build_object('givenname', 'ada', 'familyname', lower(e.lastname)),
             'emails', jsonb_build_array(jsonb_build_object('value', e.code || '@corp.example', 'type', 'work', 'primary', true)), 'title', repeat('engineer ', 100)),
           now(), now()
         from employee e where e.company_id = $1`,
        [a.companyId],
      );
      await client.query('analyze employee; analyze scim_user');
    });
    const filters = [
      '',
      'emails[type eq "work" and value co "@corp"]',
      'name.familyName sw "l9"',
      'title pr and not (active eq false)',
      'userName ew "9@example.com"',
      'externalId ne "ext-bulk1"',
    ];
    let running = true;
    const listMs: number[] = [];
    let listFailures = 0;
    const lister = async (n: number) => {
      for (let i = 0; running; i++) {
        const filter = filters[(n + i) % filters.length]!;
        const startIndex = 1 + ((n * 7919 + i * 104_729) % users);
        const started = performance.now();
        const query = `startIndex=${startIndex}&count=200${filter ? `&filter=${encodeURIComponent(filter)}` : ''}`;
        const response = await fetch(`${service.url}/scim/v2/Users?${query}`, { headers: { authorization: `Bearer ${scimKey}` } }).catch(() => null);
        if (!response?.ok) listFailures += 1;
        await response?.arrayBuffer();
        listMs.push(performance.now() - started);
      }
    };
    const paced = async (url: string, headers: Record<string, string>, every: number, into: number[]) => {
      while (running) {
        const started = performance.now();
        const response = await fetch(url, { headers }).catch(() => null);
        await response?.arrayBuffer();
        into.push(performance.now() - started);
        await sleep(Math.max(0, every - (performance.now() - started)));
      }
    };
    const rest: number[] = [];
    const health: number[] = [];
    const others = [
      paced(`${service.url}/public/v2/employees?per_page=20`, { authorization: `Bearer ${b.key}` }, 20, rest),
      paced(`${service.url}/healthz`, {}, 100, health),
    ];
    await sleep(2000);
    const before = { rest: rest.length, health: health.length };
    const lists = Array.from({ length: parallel }, (_, n) => lister(n));
    await sleep(seconds * 1000);
    running = false;
    await Promise.all([...lists, ...others]);
    const restMs = rest.slice(before.rest).sort((x, y) => x - y);
    const healthMs = health.slice(before.health).sort((x, y) => x - y);
    listMs.sort((x, y) => x - y);
    const result = {
      scenario: 'scim-lists',
      users,
      parallelLists: parallel,
      lists: listMs.length,
      listFailures,
      listP50Ms: listMs.length ? round(percentile(listMs, 50)) : null,
      listP99Ms: listMs.length ? round(percentile(listMs, 99)) : null,
      bRequests: restMs.length,
      bP50Ms: round(percentile(restMs, 50)),
      bP99Ms: round(percentile(restMs, 99)),
      bMaxMs: round(restMs.at(-1)!),
      healthzP99Ms: round(percentile(healthMs, 99)),
      healthzMaxMs: round(healthMs.at(-1)!),
      servicePeakRssMb: await peakRssMb(service.child.pid!),
    };
    report(result, [
      `${parallel} parallel SCIM lists over ${users} users for ${seconds} s: ${result.lists} lists (p50 ${result.listP50Ms} ms, p99 ${result.listP99Ms} ms, ${listFailures} failed)`,
      `  workspace B's REST: ${result.bRequests} requests, p50 ${result.bP50Ms} ms, p99 ${result.bP99Ms} ms, max ${result.bMaxMs} ms`,
      `  /healthz: p99 ${result.healthzP99Ms} ms, max ${result.healthzMaxMs} ms; service peak RSS ${result.servicePeakRssMb} MB`,
    ]);
  } finally {
    await service.stop();
    await database.stop();
  }
});
