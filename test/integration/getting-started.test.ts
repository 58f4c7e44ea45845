// docs/getting-started.md, walked as an integrator walks it: its code blocks are the files of
// clients/typescript/examples/getting-started (compiled by `npm run build`), and each step runs here
// against a live service, in its own process, with what the previous steps printed.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createRestClient } from '@timegate/client';
import { runProcess } from '../support/child-process';
import { startTestApp, type TestApp } from '../support/test-app';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const GUIDE = path.join(ROOT, 'docs', 'getting-started.md');
const STEPS = ['punches', 'webhooks', 'timesheet'];

/** Runs a command as the guide's reader would, in the repository's folder; killed after 60 s. */
const run = (command: string, args: string[], env: Record<string, string>) => runProcess(command, args, { cwd: ROOT, env });

const step = (name: string, env: Record<string, string>) =>
  run(process.execPath, [path.join(ROOT, 'clients', 'typescript', 'dist', 'examples', 'getting-started', `${name}.js`)], env);

describe('docs/getting-started.md', function () {
  this.timeout(180_000);
  let app: TestApp;

  // The service as `npm start` runs it (default sandbox and webhook timings); webhooks to the loopback
  // address are allowed, as they are by default outside production.
  before(async () => {
    app = await startTestApp({ TIMEGATE_WEBHOOK_ALLOW_PRIVATE: 'true' }, 'getting-started');
  });
  after(() => app?.stop());

  it("the guide's code blocks are the example files, byte for byte", () => {
    const guide = fs.readFileSync(GUIDE, 'utf8');
    const blocks = [...guide.matchAll(/<!-- file: (clients\/typescript\/examples\/getting-started\/[\w-]+\.ts) -->\n```ts\n([\s\S]*?)```/g)];
    expect(blocks.map((b) => b[1])).to.deep.equal(STEPS.map((s) => `clients/typescript/examples/getting-started/${s}.ts`));
    for (const [, file, code] of blocks) expect(code, file).to.equal(fs.readFileSync(path.join(ROOT, file), 'utf8'));
  });

  it('the walk: a sandbox from the CLI, a punch of its virtual clock received live and as a verified webhook, then the timesheet holding it', async () => {
    const guide = fs.readFileSync(GUIDE, 'utf8');
    const started = Date.now();
    const timings: string[] = [];
    const lap = (label: string, since: number) => timings.push(`${label} ${((Date.now() - since) / 1000).toFixed(1)} s`);

    // Step 0: the guide's own command line creates the sandbox (on this service's database).
    const command = guide.match(/^npx timegate workspace create --sandbox$/m)?.[0];
    expect(command, 'the guide creates the sandbox with the CLI').to.be.a('string');
    let since = Date.now();
    const created = await run('npx', command!.split(' ').slice(1), { DATABASE_URL: app.config.databaseUrl! });
    lap('sandbox', since);
    expect(created.code, created.stderr).to.equal(0);
    const apiKey = created.stdout.match(/admin API key \(shown only now\): (tg_test_\S+)/)?.[1];
    const clockId = created.stdout.match(/virtual clock: device (\d+)/)?.[1];
    expect(apiKey, created.stdout).to.be.a('string');
    expect(clockId, created.stdout).to.be.a('string');
    const env = { TIMEGATE_URL: app.url, TIMEGATE_KEY: apiKey!, TIMEGATE_CLOCK: clockId! };
    const rest = createRestClient({ baseUrl: app.url, apiKey: apiKey! });

    // Step 1: the clock sped up, one of its punches arrives over the subscription.
    since = Date.now();
    const punches = await step('punches', env);
    lap('subscription', since);
    expect(punches.code, punches.stderr).to.equal(0);
    expect(punches.stdout).to.contain(`clock ${clockId} punches every 6 s`);
    const live = punches.stdout.match(/^punch (\d+) of employee (\d+) at (\S+) on device (\d+) \(cursor \d+\)$/m);
    expect(live, punches.stdout).to.not.equal(null);
    const [, punchId, employeeId, , deviceId] = live!;
    expect(deviceId).to.equal(clockId);
    const { data: punch } = await rest.GET('/public/v2/punches/{id}', { params: { path: { id: Number(punchId) } } });
    expect(punch, 'the punch is stored, from the virtual clock over the terminal protocol').to.include({ device_id: Number(clockId), source: 'terminal' });
    const { data: clock } = await rest.GET('/public/v2/virtual_terminals/{id}', { params: { path: { id: Number(clockId) } } });
    expect(clock).to.include({ punches_per_hour: 60, speed: 10 });

    // Step 2: a punch of the clock is delivered to the local receiver and its signature verified.
    since = Date.now();
    const webhooks = await step('webhooks', env);
    lap('webhook', since);
    expect(webhooks.code, webhooks.stderr).to.equal(0);
    expect(webhooks.stdout).to.match(/^webhook endpoint \d+ receives on port \d+$/m);
    expect(webhooks.stdout).to.not.contain('refused a delivery');
    expect(webhooks.stdout).to.match(new RegExp(`^verified evt_\\d+: attendance\\.created punch \\d+ of employee \\d+ on device ${clockId}$`, 'm'));
    const { data: endpoints } = await rest.GET('/public/v2/webhooks', {});
    expect(endpoints, 'the receiver removed its endpoint').to.deep.equal([]);

    // Step 3: today's timesheet holds the day of the punch received live.
    since = Date.now();
    const timesheet = await step('timesheet', env);
    lap('timesheet', since);
    expect(timesheet.code, timesheet.stderr).to.equal(0);
    const day = timesheet.stdout.match(new RegExp(`^employee ${employeeId} on (\\S+): (\\w+), punches \\[([\\d, ]*)\\]`, 'm'));
    expect(day, timesheet.stdout).to.not.equal(null);
    expect(day![1]).to.equal(new Date().toISOString().slice(0, 10));
    expect(day![3].split(', ')).to.include(punchId);
    expect(timesheet.stdout.trim().split('\n')).to.have.length(4); // one day per sandbox employee

    lap('walk', started);
    console.log(`      getting started: ${timings.join(', ')}`);
  });
});
