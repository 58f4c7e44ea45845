// The employee search over 100,000 employees of one workspace (`employees(search:)` over POST
// /graphql, the same search as `GET /public/v2/employees?search=`), with the trigram index and, as the
// baseline, with the index dropped (the search as it ran before it, every row read):
//  (a) the longest search allowed (textLimits.search, 200 characters) that matches nobody;
//  (b) 200 characters made of the employees' own names and codes (every trigram common: the index's
//      worst case);
//  (c) a short search that finds one person (a last name and a code), and a common first name;
//  (d) an over-long search (800 KB): refused with validation_failed before any query.
// Median and slowest of 15 requests each (after 3 unmeasured), one after the other. Target: (a) and
// (b) < 50 ms.
// Run: npm run build && node dist/bench/employee-search.js [--employees 100000]
import 'reflect-metadata';
import { benchDatabase, call, createFleet, MASTER_KEY, numberArg, report, runScenario, spawnService, withClient } from './support';
import { textLimits } from '../src/services/common/input-limits';
import { EMPLOYEE_SEARCH_TEXT } from '../src/entities/employee.entity';

const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Margaret', 'Niklaus', 'Radia', 'Tim', 'Hedy', 'John'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson', 'Hamilton', 'Wirth', 'Perlman', 'Lee', 'Lamarr'];
const RUNS = 15;
const WARM_UP = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function searchTimes(
  url: string,
  key: string,
  search: string,
): Promise<{ medianMs: number; maxMs: number; totalCount: number | null; code: string | null }> {
  const times: number[] = [];
  let totalCount: number | null = null;
  let code: string | null = null;
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    const began = performance.now();
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query ($s: String) { employees(search: $s, first: 100) { totalCount nodes { id } } }', variables: { s: search } }),
    });
    const body = (await response.json()) as { data?: { employees: { totalCount: number } } | null; errors?: { extensions?: { code?: string } }[] };
    if (i >= WARM_UP) times.push(performance.now() - began);
    totalCount = body.data?.employees.totalCount ?? null;
    code = body.errors?.[0]?.extensions?.code ?? null;
  }
  return { medianMs: Math.round(median(times) * 10) / 10, maxMs: Math.round(Math.max(...times) * 10) / 10, totalCount, code };
}

/** Median time of a request that does no work (`{ __typename }`): what HTTP and GraphQL cost on this machine now. */
async function floorMs(url: string, key: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    const began = performance.now();
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    await response.text();
    if (i >= WARM_UP) times.push(performance.now() - began);
  }
  return Math.round(median(times) * 10) / 10;
}

/** The database's own time for the service's search query (EXPLAIN ANALYZE), median of 5, and whether the trigram index served it. */
async function queryMs(databaseUrl: string, workspaceId: number, search: string): Promise<{ medianMs: number; usesIndex: boolean }> {
  return withClient(databaseUrl, async (client) => {
    const like = client.escapeLiteral(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const sql = `explain (analyze, format json) select e.id, count(*) over () as total_count from employee e
      where e.workspace_id = ${workspaceId} and e.deleted_at is null and ${EMPLOYEE_SEARCH_TEXT} ilike ${like} order by e.id limit 100 offset 0`;
    const times: number[] = [];
    let plan = '';
    for (let i = 0; i < 5; i++) {
      const { rows } = await client.query(sql);
      const result = rows[0]['QUERY PLAN'][0];
      times.push(result['Execution Time'] + result['Planning Time']);
      plan = JSON.stringify(result.Plan);
    }
    return { medianMs: Math.round(median(times) * 100) / 100, usesIndex: plan.includes('employee_search_trgm_index') };
  });
}

async function main(): Promise<void> {
  const employees = numberArg('employees', 100_000);
  const db = await benchDatabase('search');
  const service = await spawnService(db.url, {
    TIMEGATE_RATE_LIMIT_BURST: '1000000',
    TIMEGATE_RATE_LIMIT_PER_MINUTE: '1000000',
    TIMEGATE_RATE_LIMIT_BURST_BYTES: String(1024 ** 3),
    TIMEGATE_RATE_LIMIT_BYTES_PER_MINUTE: String(1024 ** 3),
  });
  try {
    const fleet = await createFleet(service.url, 0, 'SRCH');
    const workspaceId = await withClient(db.url, async (client) => {
      const { rows } = await client.query<{ workspace_id: number }>('select workspace_id from company where id = $1', [fleet.companyId]);
      return rows[0]!.workspace_id;
    });
    await withClient(db.url, async (client) => {
      await call(service.url, MASTER_KEY, 'POST', '/graphql', {
        query: 'mutation ($id: Int!) { setWorkspacePlan(workspaceId: $id, input: { maxEmployees: 1000000 }) { id } }',
        variables: { id: workspaceId },
      });
      // Straight into the table: 100,000 people through the API would take most of the run.
      await client.query(
        `insert into employee (workspace_id, company_id, name, lastname, code, pin, email, is_active, created_at, updated_at)
         select $1, $2, (array[${FIRST_NAMES.map((n) => `'${n}'`).join(',')}])[1 + n % ${FIRST_NAMES.length}],
                (array[${LAST_NAMES.map((n) => `'${n}'`).join(',')}])[1 + (n / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}] || ' ' || n,
                'E' || lpad(n::text, 6, '0'), (100000 + n)::text, 'person' || n || '@example.com', true, now(), now()
         from generate_series(1, $3) n`,
        [workspaceId, fleet.companyId, employees],
      );
      await client.query('analyze employee');
    });

    const longest = textLimits.search;
    // Letters no name, code or e-mail holds in that order: no trigram of it is in the index.
    const nobody = 'qzxjv'.repeat(Math.ceil(longest / 5)).slice(0, longest);
    const common = 'Ada Lovelace 1 E000001 person1@example.com '.repeat(10).slice(0, longest);
    const cases = {
      longestNobody: nobody,
      longestCommonTrigrams: common,
      onePerson: `${LAST_NAMES[Math.floor(4242 / FIRST_NAMES.length) % LAST_NAMES.length]} 4242`,
      commonFirstName: 'Grace',
    };
    const measureAll = async () => {
      const out: Record<string, Awaited<ReturnType<typeof searchTimes>> & { query: Awaited<ReturnType<typeof queryMs>> }> = {};
      for (const [name, search] of Object.entries(cases)) {
        out[name] = { ...(await searchTimes(service.url, fleet.key, search)), query: await queryMs(db.url, workspaceId, search) };
      }
      return out;
    };
    const floor = await floorMs(service.url, fleet.key);
    const indexed = await measureAll();
    const overLong = await searchTimes(service.url, fleet.key, 'x'.repeat(800_000));
    await withClient(db.url, (client) => client.query('drop index employee_search_trgm_index'));
    const withoutIndex = await measureAll();

    const line = (name: string) =>
      `  ${name}: ${indexed[name]!.medianMs} ms median, ${indexed[name]!.maxMs} ms slowest (${indexed[name]!.totalCount} found; the query ${indexed[name]!.query.medianMs} ms in PostgreSQL${indexed[name]!.query.usesIndex ? ', by the trigram index' : ', rows read'}); without the index ${withoutIndex[name]!.medianMs} ms / ${withoutIndex[name]!.maxMs} ms (query ${withoutIndex[name]!.query.medianMs} ms)`;
    report({ employees, searchMaxLength: longest, floorMs: floor, indexed, withoutIndex, overLong }, [
      `employee search over ${employees} employees (POST /graphql, first 100; a request doing nothing takes ${floor} ms here now):`,
      ...Object.keys(cases).map(line),
      `  800 KB search: ${overLong.code} in ${overLong.medianMs} ms median, ${overLong.maxMs} ms slowest`,
    ]);
  } finally {
    await service.stop();
    await db.stop();
  }
}

runScenario(main);
