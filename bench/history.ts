// Reads on a long history: 20 million punches of 2,000 terminals (100 companies of 20) over the
// last 24 months, in the monthly partitions the service keeps. Then, through REST with a single
// key: a device's punches for one day and a company's punches for one week (first page of 100 and
// X-Total-Count), random days and weeks, one request at a time (--clients for more); p50/p99/max.
// The punches are written by SQL (generate_series), month by month, with the punch table's indexes
// in place, as years of ingestion would leave them; then ANALYZE.
// Run: npm run build && node dist/bench/history.js [--punches 20000000] [--devices 2000] [--requests 400]
import 'reflect-metadata';
import { monthStart, partitionName } from '../src/db/partitions';
import { benchDatabase, call, MASTER_KEY, numberArg, percentile, report, runScenario, spawnService, withClient } from './support';

const MONTHS = 24;
const DEVICES_PER_COMPANY = 20;

async function main(): Promise<void> {
  const punches = numberArg('punches', 20_000_000);
  const devices = numberArg('devices', 2000);
  const requests = numberArg('requests', 400);
  const clients = numberArg('clients', 1);
  const companies = Math.ceil(devices / DEVICES_PER_COMPANY);
  const db = await benchDatabase('history');
  const service = await spawnService(db.url, { TIMEGATE_RATE_LIMIT_PER_MINUTE: '10000000', TIMEGATE_RATE_LIMIT_BURST: '10000000' });
  try {
    const gql = async (query: string, variables: Record<string, unknown>) =>
      (await call(service.url, MASTER_KEY, 'POST', '/graphql', { query, variables })).data;
    const created = await gql('mutation { createWorkspace(input: { name: "history" }) { workspace { id } apiKey { key } } }', {});
    const key: string = created.createWorkspace.apiKey.key;
    const workspaceId: number = created.createWorkspace.workspace.id;
    await gql('mutation ($id: Int!, $input: WorkspacePlanInput!) { setWorkspacePlan(workspaceId: $id, input: $input) { id } }', {
      id: workspaceId,
      input: { maxDevices: devices + 10, maxCompanies: companies + 10 },
    });
    const companyIds: number[] = [];
    const deviceIds: number[] = [];
    for (let c = 0; c < companies; c++) {
      const company = await call(service.url, key, 'POST', '/public/v2/companies', { name: `Company ${c}`, code: `C${c}` });
      companyIds.push(company.id);
      const made = await Promise.all(
        Array.from({ length: Math.min(DEVICES_PER_COMPANY, devices - c * DEVICES_PER_COMPANY) }, (_, d) =>
          call(service.url, key, 'POST', '/public/v2/devices', {
            name: `T${c}-${d}`,
            serial_number: `HIST${c}X${d}`,
            company_id: company.id,
            time_zone: 'UTC',
          }),
        ),
      );
      deviceIds.push(...made.map((device) => device.id));
    }

    // The months before the ones the service keeps ahead, as years of running would have left them.
    const now = new Date();
    const first = monthStart(now, -MONTHS + 1);
    const loadStarted = Date.now();
    await withClient(db.url, async (client) => {
      for (let m = 0; m < MONTHS; m++) {
        const month = monthStart(first, m);
        await client.query(
          `create table if not exists "${partitionName('punch', month)}" partition of punch for values from ('${month.toISOString()}') to ('${monthStart(month, 1).toISOString()}')`,
        );
      }
      const { rows } = await client.query('select min(id) as first, max(id) as last from device where workspace_id = $1', [workspaceId]);
      const firstDevice = Number(rows[0].first);
      const span = monthStart(now, 1).getTime() - first.getTime();
      const perMonth = Math.ceil(punches / MONTHS);
      // Punch i: device (i mod devices), time spread evenly over the months (whole seconds), one of 200
      // pins per company with its employee (ids made up: punches have no foreign keys).
      for (let m = 0; m < MONTHS; m++) {
        const from = m * perMonth;
        const to = Math.min(punches, from + perMonth) - 1;
        await client.query(
          `insert into punch (workspace_id, company_id, employee_id, device_id, device_serial, pin, punch_time, local_time, time_zone, punch_state, verify_type, verify_code, record_type, received_at)
           select $1, d.company_id, d.company_id * 1000 + (i / ${devices}) % 200 + 1, d.id, d.serial_number, ((i / ${devices}) % 200 + 1)::text, t.at, to_char(t.at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS'), 'UTC', (i % 2)::text, 'fingerprint', 1, 'device', t.at
           from generate_series($2::bigint, $3::bigint) i
           join device d on d.id = $4 + (i % ${devices})
           cross join lateral (select date_trunc('second', $5::timestamptz + (i::float8 / $6 * $7::float8) * interval '1 millisecond') as at) t`,
          [workspaceId, from, to, firstDevice, first.toISOString(), punches, span],
        );
        process.stderr.write(`history: month ${m + 1}/${MONTHS} loaded (${Math.round((Date.now() - loadStarted) / 1000)} s)\n`);
      }
      await client.query('analyze punch');
    });
    const loadSeconds = (Date.now() - loadStarted) / 1000;
    const [{ count: stored, bytes }] = await withClient(
      db.url,
      async (c) =>
        (
          await c.query(
            `select (select count(*)::int from punch where workspace_id = $1) as count,
                    (select sum(pg_total_relation_size(inhrelid))::float8 from pg_inherits where inhparent = 'punch'::regclass) as bytes`,
            [workspaceId],
          )
        ).rows,
    );
    const bytesPerPunch = Math.round(bytes / stored);

    const day = (offsetDays: number) => new Date(now.getTime() - offsetDays * 86_400_000).toISOString().slice(0, 10);
    const randomDay = () => day(1 + Math.floor(Math.random() * (MONTHS * 30 - 40)));
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
    const measure = async (path: () => string): Promise<{ p50Ms: number; p99Ms: number; maxMs: number; meanRows: number }> => {
      const times: number[] = [];
      let rows = 0;
      const worker = async () => {
        while (times.length < requests) {
          const began = process.hrtime.bigint();
          const response = await fetch(service.url + path(), { headers: { authorization: `Bearer ${key}` } });
          const body = (await response.json()) as unknown[];
          if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body)}`);
          times.push(Number(process.hrtime.bigint() - began) / 1e6);
          rows += Number(response.headers.get('x-total-count'));
        }
      };
      // Warm-up (not counted): the first reads of each partition's pages.
      for (let i = 0; i < 20; i++) await fetch(service.url + path(), { headers: { authorization: `Bearer ${key}` } }).then((r) => r.arrayBuffer());
      await Promise.all(Array.from({ length: clients }, worker));
      const sorted = [...times].sort((a, b) => a - b);
      const round = (ms: number) => Number(ms.toFixed(1));
      return {
        p50Ms: round(percentile(sorted, 50)),
        p99Ms: round(percentile(sorted, 99)),
        maxMs: round(sorted.at(-1)!),
        meanRows: Math.round(rows / times.length),
      };
    };
    const deviceDay = await measure(() => {
      const d = randomDay();
      return `/public/v2/punches?device_id=${pick(deviceIds)}&start_date=${d}&end_date=${d}&per_page=100`;
    });
    const companyWeek = await measure(() => {
      const start = randomDay();
      const end = new Date(Date.parse(start) + 6 * 86_400_000).toISOString().slice(0, 10);
      return `/public/v2/punches?company_id=${pick(companyIds)}&start_date=${start}&end_date=${end}&per_page=100`;
    });
    const met = deviceDay.p99Ms < 50 && companyWeek.p99Ms < 50;
    report(
      {
        bench: 'history',
        punches: stored,
        bytesPerPunch,
        devices,
        companies,
        months: MONTHS,
        loadSeconds: Math.round(loadSeconds),
        requests,
        clients,
        deviceDay,
        companyWeek,
        target: 50,
        met,
      },
      [
        `History: ${stored} punches of ${devices} terminals (${companies} companies) over ${MONTHS} monthly partitions, loaded in ${Math.round(loadSeconds)} s; ${bytesPerPunch} bytes per punch with its indexes`,
        `  a device's day (REST, ~${deviceDay.meanRows} punches):   p50 ${deviceDay.p50Ms} ms, p99 ${deviceDay.p99Ms} ms, max ${deviceDay.maxMs} ms`,
        `  a company's week (REST, ~${companyWeek.meanRows} punches, first 100): p50 ${companyWeek.p50Ms} ms, p99 ${companyWeek.p99Ms} ms, max ${companyWeek.maxMs} ms`,
        `  (${requests} requests each, ${clients} client${clients > 1 ? 's' : ''} at a time; target p99 < 50 ms: ${met ? 'met' : 'NOT met'})`,
      ],
    );
  } finally {
    await service.stop();
    await db.stop();
  }
}

runScenario(main);
