import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded-postgres';
import { createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { attlogHistory, lineKey, startServiceProcess, storedPunchKeys, type ServiceProcess } from '../support/service-process';
import { createTerminalDevice, iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';

const TERMINALS = 3;
const BATCHES = 40;
const PER_BATCH = 5;

interface Attempt {
  status: number | null;
  text: string;
  contentLength: string | null;
  duringOutage: boolean;
}

describe('fault drill: PostgreSQL stopped and restarted under terminal load', () => {
  let dataDir: string;
  let database: EmbeddedDatabase;
  let service: ServiceProcess;
  let databaseUrl: string;
  before(async function () {
    this.timeout(120_000);
    // A PostgreSQL of its own: stopping the shared test server would break every other suite.
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-drill-pg-'));
    const port = await freePort();
    database = await startEmbeddedPostgres({ dataDir, port });
    databaseUrl = database.serverUrl('timegate');
    // Its first start migrates the empty database: given more than a warm start's 30 s.
    service = await startServiceProcess(databaseUrl, {}, { startMs: 120_000 });
  });
  after(async function () {
    this.timeout(60_000);
    await service?.kill('SIGTERM');
    await database?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('reports not ready, acknowledges nothing during the outage, recovers by itself and stores every upload exactly once', async function () {
    this.timeout(180_000);
    const port = Number(new URL(databaseUrl).port);
    const ws = await createWorkspace(service.url, { maxCompanies: 10, maxDevices: 10 });
    const serials: string[] = [];
    for (let i = 0; i < TERMINALS; i++) serials.push((await createTerminalDevice(service.url, ws.key)).serial_number);
    const histories = serials.map(() => attlogHistory(BATCHES, PER_BATCH, Date.UTC(2026, 5, 1, 6, 0, 0)));
    const acknowledged = serials.map(() => new Set<string>());
    const attempts: Attempt[] = [];
    let outage = false;

    // Terminals retry a batch until it is acknowledged with 200 `OK: n`, as firmware does.
    const upload = async (terminal: number) => {
      for (const batch of histories[terminal]!) {
        for (;;) {
          const duringOutage = outage;
          const reply = await iclock(service.url, 'POST', `/iclock/cdata?SN=${serials[terminal]}&table=ATTLOG&Stamp=1`, batch.body).catch(() => null);
          attempts.push({
            status: reply?.status ?? null,
            text: reply?.text ?? '',
            contentLength: reply?.headers.get('content-length') ?? null,
            duringOutage: duringOutage && outage,
          });
          if (reply?.status === 200 && reply.text === `OK: ${PER_BATCH}`) {
            for (const line of batch.lines) acknowledged[terminal]!.add(lineKey(line));
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      }
    };
    const ackedCount = () => acknowledged.reduce((n, s) => n + s.size, 0);
    const uploads = serials.map((_, i) => upload(i));
    await waitUntil(
      '100 uploads are acknowledged',
      async () => ackedCount(),
      (v) => v >= 100,
      30_000,
    );

    await database.stop();
    // Readiness drops; liveness stays: a process that only waits for its database must not be
    // restarted (docs/deployment.md, "What Timegate does meanwhile").
    const readyz = await waitUntil(
      '/readyz answers 503',
      async () => {
        const answer = await rest(service.url, 'GET', '/readyz');
        return answer.status === 503 ? answer : null;
      },
      30_000,
    );
    expect(readyz.body).to.include({ status: 'not_ready', database: 'unreachable' });
    const healthz = await rest(service.url, 'GET', '/healthz');
    expect(healthz.status, 'liveness while the database is down').to.equal(200);
    outage = true;
    const ackedBeforeOutage = ackedCount();
    await waitUntil(
      '30 uploads were attempted during the outage',
      async () => attempts.filter((a) => a.duringOutage).length,
      (v) => v >= 30,
      30_000,
    );
    outage = false;
    expect(ackedCount(), 'nothing acknowledged while PostgreSQL was down').to.equal(ackedBeforeOutage);

    database = await startEmbeddedPostgres({ dataDir, port });
    await waitUntil(
      '/readyz answers 200 after the outage',
      async () => (await rest(service.url, 'GET', '/readyz')).status,
      (v) => v === 200,
      60_000,
    );
    await Promise.all(uploads);

    const refused = attempts.filter((a) => a.duringOutage);
    expect(refused.length).to.be.at.least(30);
    for (const a of refused) {
      // Answered, but not with a success: 503 and a well-formed text reply the terminal retries after.
      expect(a.status, JSON.stringify(a)).to.equal(503);
      expect(a.text).not.to.match(/^OK/);
      expect(Number(a.contentLength)).to.equal(Buffer.byteLength(a.text));
    }
    expect((await rest(service.url, 'GET', '/healthz')).status).to.equal(200);
    for (const [i, serial] of serials.entries()) {
      const stored = await storedPunchKeys(databaseUrl, serial);
      const expected = histories[i]!.flatMap((b) => b.lines.map(lineKey));
      expect([...stored.keys()].sort(), `${serial}: none missing, none extra`).to.deep.equal([...expected].sort());
      expect(
        [...stored.values()].every((n) => n === 1),
        `${serial}: none duplicated`,
      ).to.equal(true);
      for (const key of acknowledged[i]!) expect(stored.get(key)).to.equal(1);
    }
  });
});
