// The client package (clients/typescript, @timegate/client) against a live service: its README's
// examples are the files of clients/typescript/examples, compiled by `npm run build`, and run here as
// an integrator would run them; the subscription helper resumes after a dropped connection.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import WebSocket from 'ws';
import { createGraphQLClient, createRestClient, EmployeeDocument, GraphQLRequestError, PunchCreatedDocument, subscribeWithResume } from '@timegate/client';
import { runProcess } from '../support/child-process';
import { MASTER_KEY, startTestApp, type TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

const CLIENT = path.resolve(__dirname, '..', '..', '..', 'clients', 'typescript');

/** Runs a compiled example in its own Node.js process (not blocking this one's event loop: the service runs here). */
const runExample = (name: string, env: Record<string, string>) => runProcess(process.execPath, [path.join(CLIENT, 'dist', 'examples', `${name}.js`)], { env });

describe('@timegate/client against a live service', function () {
  this.timeout(120_000);
  let app: TestApp;
  let sandboxKey: string;

  before(async () => {
    app = await startTestApp({ TIMEGATE_WEBHOOK_ALLOW_PRIVATE: 'true', TIMEGATE_WEBHOOK_POLL_MS: '100' }, 'client-examples');
  });
  after(() => app?.stop());

  it("the README's code blocks are the example files, byte for byte", () => {
    const readme = fs.readFileSync(path.join(CLIENT, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/<!-- example: (examples\/[\w-]+\.ts) -->\n```ts\n([\s\S]*?)```/g)];
    expect(blocks.map((b) => b[1])).to.deep.equal(['examples/quickstart.ts', 'examples/subscribe.ts', 'examples/webhooks.ts']);
    for (const [, file, code] of blocks) expect(code, file).to.equal(fs.readFileSync(path.join(CLIENT, file), 'utf8'));
  });

  it('quick start: creates a sandbox and reads its employees through typed GraphQL and REST', async () => {
    const run = await runExample('quickstart', { TIMEGATE_URL: app.url, TIMEGATE_MASTER_KEY: MASTER_KEY });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.contain('4 employees: Ada Lovelace, Grace Hopper, Alan Turing, Katherine Johnson');
    expect(run.stdout).to.match(/employee \d+ has pin 1001/);
    const last = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { apiKey: string; companyId: number };
    expect(last.apiKey).to.match(/^tg_test_/);
    sandboxKey = last.apiKey;
  });

  it('subscriptions: the example replays from the outbox and stops at the punch it made', async () => {
    const run = await runExample('subscribe', { TIMEGATE_URL: app.url, TIMEGATE_KEY: sandboxKey });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/punch \d+ of employee \d+ at .* \(cursor \d+\)/);
    expect(run.stdout).to.match(/stopped after cursor \d+/);
  });

  it('webhooks: the example receives a delivery and verifies its signature', async () => {
    const run = await runExample('webhooks', { TIMEGATE_URL: app.url, TIMEGATE_KEY: sandboxKey });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/verified evt_\d+: attendance\.created/);
    expect(run.stdout).to.match(/first delivery: evt_\d+/);
  });

  it('subscribeWithResume: after the socket drops it resubscribes after the last cursor, missing and repeating nothing', async () => {
    const rest = createRestClient({ baseUrl: app.url, apiKey: sandboxKey });
    const { data: devices } = await rest.GET('/public/v2/devices', { params: { query: { per_page: 1 } } });
    const { data: companies } = await rest.GET('/public/v2/companies', {});
    // An employee on no terminal: the virtual terminals never punch for it, so every punch is the test's.
    const { data: employee, error } = await rest.POST('/public/v2/employees', {
      body: { company_id: companies![0].id, name: 'Resume', lastname: 'Test', code: 'RESUME-1', pin: '9001' },
    });
    expect(error).to.equal(undefined);
    const punch = async (minute: number) => {
      const { data, error } = await rest.POST('/public/v2/punches', {
        body: {
          employee_id: employee!.id,
          company_id: employee!.company_id,
          device_id: devices![0].id,
          punch_time: `2026-12-01T08:${String(minute).padStart(2, '0')}:00Z`,
          punch_state: '0',
        },
      });
      expect(error, JSON.stringify(error)).to.equal(undefined);
      return data!.id;
    };

    const sockets: WebSocket[] = [];
    class RecordedWebSocket extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        sockets.push(this);
      }
    }
    const received: number[] = [];
    const reconnects: unknown[] = [];
    const first = await punch(0);
    const subscription = subscribeWithResume({
      baseUrl: app.url,
      apiKey: sandboxKey,
      document: PunchCreatedDocument,
      variables: { employeeId: employee!.id },
      after: '0',
      webSocketImpl: RecordedWebSocket,
      retryDelayMs: () => 200,
      onEvent: ({ punchCreated }) => void received.push(punchCreated.punch.id),
      onReconnect: (reason) => reconnects.push(reason),
    });
    await waitUntil(
      'the first punch is received',
      () => received.length,
      (n) => n === 1,
    );
    sockets[0].terminate(); // the connection drops without a close handshake
    const missed = [await punch(1), await punch(2)];
    await waitUntil(
      'the punches made while disconnected are received',
      () => received.length,
      (n) => n >= 3,
    );
    const later = await punch(3);
    await waitUntil(
      'a live punch after the resume is received',
      () => received.length,
      (n) => n >= 4,
    );
    subscription.stop();
    await subscription.done;
    expect(received).to.deep.equal([first, ...missed, later]);
    expect(reconnects).to.have.length.greaterThan(0);
    expect(sockets.length).to.be.greaterThan(1);
    expect(subscription.cursor).to.match(/^\d+$/);
  });

  it('subscribeWithResume: a key that is refused ends it with the error instead of retrying', async () => {
    const subscription = subscribeWithResume({
      baseUrl: app.url,
      apiKey: 'tg_test_' + 'x'.repeat(40),
      document: PunchCreatedDocument,
      webSocketImpl: WebSocket,
      onEvent: () => undefined,
    });
    const error = await subscription.done.then(
      () => null,
      (e: unknown) => e as { code?: number },
    );
    expect(error?.code).to.equal(4401);
  });

  it('the GraphQL client throws GraphQLRequestError with the service code', async () => {
    const graphql = createGraphQLClient({ baseUrl: app.url, apiKey: sandboxKey });
    const error = await graphql.request(EmployeeDocument, { id: 2_000_000_000 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(GraphQLRequestError);
    expect((error as GraphQLRequestError).code).to.equal('not_found');
  });
});
