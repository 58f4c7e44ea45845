import { expect } from 'chai';
import { createWorkspace } from '../support/factories';
import { attlogHistory, lineKey, startServiceProcess, storedPunchKeys, type ServiceProcess } from '../support/service-process';
import { createTerminalDevice, iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

const TERMINALS = 4;
const BATCHES = 30;
const PER_BATCH = 10;

describe('fault drill: the service is killed (SIGKILL) in the middle of terminal uploads', () => {
  let t: TestApp;
  let service: ServiceProcess | null = null;
  before(async () => {
    t = await startTestApp({}, 'drill-kill');
  });
  after(async () => {
    await service?.kill('SIGKILL');
    await t.stop();
  });

  it('after a restart and the terminals re-sending their history, every punch is stored exactly once and every acknowledged one survived the kill', async function () {
    this.timeout(120_000);
    const ws = await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 10 });
    const serials: string[] = [];
    for (let i = 0; i < TERMINALS; i++) serials.push((await createTerminalDevice(t.url, ws.key)).serial_number);
    const histories = serials.map(() => attlogHistory(BATCHES, PER_BATCH));
    const acknowledged = serials.map(() => new Set<string>());
    let failedInFlight = 0;

    service = await startServiceProcess(t.config.databaseUrl!);
    const first = service;
    // Each terminal uploads its batches one after the other, as firmware does, until the connection dies.
    const upload = async (terminal: number) => {
      for (const batch of histories[terminal]!) {
        const reply = await iclock(first.url, 'POST', `/iclock/cdata?SN=${serials[terminal]}&table=ATTLOG&Stamp=1`, batch.body).catch(() => null);
        if (!reply) return void failedInFlight++;
        expect(reply.status).to.equal(200);
        expect(reply.text).to.equal(`OK: ${PER_BATCH}`);
        for (const line of batch.lines) acknowledged[terminal]!.add(lineKey(line));
      }
    };
    const uploads = serials.map((_, i) => upload(i));
    // Kill once a third of the history is acknowledged: the four terminals still have requests in flight.
    const total = TERMINALS * BATCHES * PER_BATCH;
    const killAt = total / 3;
    while (acknowledged.reduce((n, s) => n + s.size, 0) < killAt) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await first.kill('SIGKILL')).to.equal('SIGKILL');
    await Promise.all(uploads);
    const acked = acknowledged.reduce((n, s) => n + s.size, 0);
    expect(failedInFlight, 'uploads cut off by the kill').to.be.greaterThan(0);
    expect(acked).to.be.lessThan(total);

    // Everything acknowledged before the kill is in the database, once (checked before any re-send).
    for (const [i, serial] of serials.entries()) {
      const stored = await storedPunchKeys(t.config.databaseUrl!, serial);
      for (const key of acknowledged[i]!) expect(stored.get(key), `${serial} ${key}`).to.equal(1);
      for (const n of stored.values()) expect(n).to.equal(1);
    }

    // Restarted; each terminal sends its whole history again (it cannot know which replies were lost).
    service = await startServiceProcess(t.config.databaseUrl!);
    const second = service;
    await Promise.all(
      serials.map(async (serial, i) => {
        for (const batch of histories[i]!) {
          const reply = await iclock(second.url, 'POST', `/iclock/cdata?SN=${serial}&table=ATTLOG&Stamp=1`, batch.body);
          expect(reply.status).to.equal(200);
          expect(reply.text).to.equal(`OK: ${PER_BATCH}`);
        }
      }),
    );
    for (const [i, serial] of serials.entries()) {
      const stored = await storedPunchKeys(t.config.databaseUrl!, serial);
      const expected = histories[i]!.flatMap((b) => b.lines.map(lineKey));
      expect([...stored.keys()].sort(), `${serial}: none missing, none extra`).to.deep.equal([...expected].sort());
      expect(
        [...stored.values()].every((n) => n === 1),
        `${serial}: none duplicated`,
      ).to.equal(true);
    }
  });
});
