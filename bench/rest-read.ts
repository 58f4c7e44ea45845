// REST reads against a minimal Express + `pg` server doing the same queries on the same database and
// data (bench/baseline-rest-server.ts), plus the GraphQL lists: `GET /public/v2/employees/{id}`,
// `GET /public/v2/employees?per_page=100`, `employees(first: 100)` over POST /graphql, and the punches
// of a date range (three days of one terminal's ATTLOG uploads, first page of 100), over REST and GraphQL.
// Run: npm run build && node dist/bench/rest-read.js [--duration 10] [--connections 10] [--employees 200]
import 'reflect-metadata';
import { benchDatabase, createFleet, measure, measureSideBySide, numberArg, report, spawnServer, spawnService, type Throughput, runScenario } from './support';

const EMPLOYEE_FIELDS = 'id companyId name lastname code pin email isActive areaIds createdAt updatedAt';
const PUNCH_FIELDS =
  'id companyId employeeId deviceId deviceSerial pin punchTime localTime timeZone punchState verifyType verifyCode recordType workCode deviceRecordIndex receivedAt voidedAt voidReason';
/** Days of punches uploaded (one terminal, a punch every 10 minutes) and the range read: the middle three. */
const PUNCH_DAYS = 7;

async function main(): Promise<void> {
  const duration = numberArg('duration', 10);
  const connections = numberArg('connections', 10);
  const employees = numberArg('employees', 200);
  const db = await benchDatabase('rest');
  // The per-key rate limit would answer most of a saturating client with 429: lifted, as in the tests.
  const service = await spawnService(db.url, { TIMEGATE_RATE_LIMIT_PER_MINUTE: '10000000', TIMEGATE_RATE_LIMIT_BURST: '10000000' });
  try {
    const fleet = await createFleet(service.url, 1, 'RR');
    const headers = { authorization: `Bearer ${fleet.key}`, 'content-type': 'application/json' };
    const ids: number[] = [];
    for (let i = 0; i < employees; i += 10) {
      const batch = Array.from({ length: Math.min(10, employees - i) }, (_, j) =>
        fetch(`${service.url}/public/v2/employees`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            name: `Ada ${i + j}`,
            lastname: 'Lovelace',
            code: `E${i + j}`,
            pin: String(1000 + i + j),
            email: `ada${i + j}@example.com`,
            company_id: fleet.companyId,
          }),
        }).then(async (r) => ((await r.json()) as { id: number }).id),
      );
      ids.push(...(await Promise.all(batch)));
    }
    // Punches: a week of one terminal's uploads (the employees' pins), one upload per day.
    const serial = fleet.serials[0]!;
    await fetch(`${service.url}/iclock/cdata?SN=${serial}&options=all&pushver=2.4.1`);
    const firstDay = Date.UTC(2026, 9, 5);
    for (let day = 0; day < PUNCH_DAYS; day++) {
      const lines = Array.from({ length: 144 }, (_, i) => {
        const at = new Date(firstDay + day * 86_400_000 + i * 600_000).toISOString();
        return `${1000 + ((day * 144 + i) % employees)}\t${at.slice(0, 10)} ${at.slice(11, 19)}\t${i % 2}\t1\t0\t0\t0`;
      });
      const upload = await fetch(`${service.url}/iclock/cdata?SN=${serial}&table=ATTLOG&Stamp=1`, { method: 'POST', body: `${lines.join('\n')}\n` });
      if ((await upload.text()) !== `OK: ${lines.length}`) throw new Error('the punch upload was not stored');
    }
    const baseline = await spawnServer('dist/bench/baseline-rest-server.js', { DATABASE_URL: db.url });
    try {
      const id = ids[Math.floor(ids.length / 2)]!;
      const single = `/public/v2/employees/${id}`;
      const list = '/public/v2/employees?per_page=100';
      const punches = '/public/v2/punches?start_date=2026-10-07&end_date=2026-10-09&per_page=100';
      // Same data from both servers, or the comparison means nothing.
      for (const path of [single, list, punches]) {
        const [ours, theirs] = await Promise.all([service.url, baseline.url].map(async (base) => (await fetch(base + path, { headers })).text()));
        if (ours !== theirs) throw new Error(`the two servers answer ${path} differently:\n${ours.slice(0, 300)}\n${theirs.slice(0, 300)}`);
      }
      const compare = (path: string) =>
        measureSideBySide({ url: service.url + path, connections, headers }, { url: baseline.url + path, connections, headers }, duration);
      const { ours: singleOurs, baseline: singleBase } = await compare(single);
      const { ours: listOurs, baseline: listBase } = await compare(list);
      const query = `query { employees(first: 100) { totalCount nodes { ${EMPLOYEE_FIELDS} } } }`;
      const graphql = await measure({ url: `${service.url}/graphql`, method: 'POST', connections, headers, body: JSON.stringify({ query }) }, duration);
      const { ours: punchesOurs, baseline: punchesBase } = await compare(punches);
      const punchQuery = `query { punches(startDate: "2026-10-07", endDate: "2026-10-09", first: 100) { totalCount nodes { ${PUNCH_FIELDS} } } }`;
      const graphqlPunches = await measure(
        { url: `${service.url}/graphql`, method: 'POST', connections, headers, body: JSON.stringify({ query: punchQuery }) },
        duration,
      );

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
        punchList: {
          timegate: punchesOurs,
          baseline: punchesBase,
          ratio: ratio(punchesOurs, punchesBase),
          target: 0.7,
          met: ratio(punchesOurs, punchesBase) >= 0.7,
        },
        graphqlPunchList: {
          timegate: graphqlPunches,
          ratioToBaseline: ratio(graphqlPunches, punchesBase),
          target: 0.7,
          met: ratio(graphqlPunches, punchesBase) >= 0.7,
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
        line(`timegate GET ${punches}`, punchesOurs),
        line('baseline same', punchesBase),
        `  punch list ratio ${(result.punchList.ratio * 100).toFixed(1)}% of baseline (target >= 70%: ${result.punchList.met ? 'met' : 'NOT met'})`,
        line('timegate GraphQL punches(first: 100)', graphqlPunches),
        `  GraphQL punch list = ${(result.graphqlPunchList.ratioToBaseline * 100).toFixed(1)}% of the baseline punch list (target >= 70%: ${result.graphqlPunchList.met ? 'met' : 'NOT met'})`,
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
