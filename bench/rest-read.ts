// REST reads against a minimal Express + `pg` server doing the same queries on the same database and
// data (bench/baseline-rest-server.ts), plus the GraphQL list: `GET /public/v2/employees/{id}`,
// `GET /public/v2/employees?per_page=100`, and `employees(first: 100)` over POST /graphql.
// Run: npm run build && node dist/bench/rest-read.js [--duration 10] [--connections 10] [--employees 200]
import 'reflect-metadata';
import { benchDatabase, createFleet, measure, measureSideBySide, numberArg, report, spawnServer, spawnService, type Throughput, runScenario } from './support';

const EMPLOYEE_FIELDS = 'id companyId name lastname code pin email isActive areaIds createdAt updatedAt';

async function main(): Promise<void> {
  const duration = numberArg('duration', 10);
  const connections = numberArg('connections', 10);
  const employees = numberArg('employees', 200);
  const db = await benchDatabase('rest');
  // The per-key rate limit would answer most of a saturating client with 429: lifted, as in the tests.
  const service = await spawnService(db.url, { TIMEGATE_RATE_LIMIT_PER_MINUTE: '10000000', TIMEGATE_RATE_LIMIT_BURST: '10000000' });
  try {
    const fleet = await createFleet(service.url, 0, 'RR');
    const headers = { authorization: `Bearer ${fleet.key}`, 'content-type': 'application/json' };
    const ids: number[] = [];
    for (let i = 0; i < employees; i += 10) {
      const batch = Array.from({ length: Math.min(10, employees - i) }, (_, j) =>
        fetch(`${service.url}/public/v2/employees`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: `Ada ${i + j}`, lastname: 'Lovelace', code: `E${i + j}`, pin: String(1000 + i + j), email: `ada${i + j}@example.com`, company_id: fleet.companyId }),
        }).then(async (r) => ((await r.json()) as { id: number }).id),
      );
      ids.push(...(await Promise.all(batch)));
    }
    const baseline = await spawnServer('dist/bench/baseline-rest-server.js', { DATABASE_URL: db.url });
    try {
      const id = ids[Math.floor(ids.length / 2)]!;
      const single = `/public/v2/employees/${id}`;
      const list = '/public/v2/employees?per_page=100';
      // Same data from both servers, or the comparison means nothing.
      for (const path of [single, list]) {
        const [ours, theirs] = await Promise.all([service.url, baseline.url].map(async (base) => (await fetch(base + path, { headers })).text()));
        if (ours !== theirs) throw new Error(`the two servers answer ${path} differently:\n${ours.slice(0, 300)}\n${theirs.slice(0, 300)}`);
      }
      const compare = (path: string) => measureSideBySide({ url: service.url + path, connections, headers }, { url: baseline.url + path, connections, headers }, duration);
      const { ours: singleOurs, baseline: singleBase } = await compare(single);
      const { ours: listOurs, baseline: listBase } = await compare(list);
      const query = `query { employees(first: 100) { totalCount nodes { ${EMPLOYEE_FIELDS} } } }`;
      const graphql = await measure({ url: `${service.url}/graphql`, method: 'POST', connections, headers, body: JSON.stringify({ query }) }, duration);

      const ratio = (a: Throughput, b: Throughput) => Number((a.requestsPerSecond / b.requestsPerSecond).toFixed(3));
      const result = {
        bench: 'rest-read',
        connections,
        durationSeconds: duration,
        employees,
        single: { timegate: singleOurs, baseline: singleBase, ratio: ratio(singleOurs, singleBase), target: 0.7, met: ratio(singleOurs, singleBase) >= 0.7 },
        list: { timegate: listOurs, baseline: listBase, ratio: ratio(listOurs, listBase), target: 0.7, met: ratio(listOurs, listBase) >= 0.7 },
        graphqlList: {
          timegate: graphql,
          ratioToRestList: ratio(graphql, listOurs),
          ratioToBaseline: ratio(graphql, listBase),
          target: 0.7,
          met: ratio(graphql, listBase) >= 0.7,
        },
      };
      const line = (name: string, t: Throughput) =>
        `  ${name.padEnd(34)} ${String(t.requestsPerSecond).padStart(6)} req/s${t.runs.length > 1 ? ` (runs ${t.runs.join(', ')})` : ''}  p50 ${t.p50Ms} ms, p99 ${t.p99Ms} ms, ${t.errors} errors`;
      report(result, [
        `REST reads (autocannon -c ${connections} -d ${duration}, two runs each interleaved with the baseline's, ${employees} employees; baseline = Express 5 + pg, key checked per request):`,
        line(`timegate GET ${single}`, singleOurs),
        line('baseline same', singleBase),
        `  single read ratio ${(result.single.ratio * 100).toFixed(1)}% of baseline (target >= 70%: ${result.single.met ? 'met' : 'NOT met'})`,
        line(`timegate GET ${list}`, listOurs),
        line('baseline same', listBase),
        `  list ratio ${(result.list.ratio * 100).toFixed(1)}% of baseline (target >= 70%: ${result.list.met ? 'met' : 'NOT met'})`,
        line('timegate GraphQL employees(first: 100)', graphql),
        `  GraphQL list = ${(result.graphqlList.ratioToRestList * 100).toFixed(1)}% of the REST list, ${(result.graphqlList.ratioToBaseline * 100).toFixed(1)}% of the baseline list (target >= 70%: ${result.graphqlList.met ? 'met' : 'NOT met'})`,
      ]);
    } finally {
      await baseline.stop();
    }
  } finally {
    await service.stop();
    await db.stop();
  }
}

runScenario(main);
