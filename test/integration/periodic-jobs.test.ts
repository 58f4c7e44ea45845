import { expect } from 'chai';
import { createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { query } from '../support/service-process';
import { createTerminalDevice, iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

// Regression for the presence flush that chained each run onto the previous promise: one rejected
// flush (a NUL byte from an anonymous request was enough) stopped presence, offline marking,
// command retries and sync builds for every workspace until a restart.
describe('periodic jobs survive poison values and failures', () => {
  let t: TestApp;
  before(async () => {
    // Timers far apart: the test drives the jobs itself and reads their state.
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' }, 'periodic-jobs');
  });
  after(() => t.stop());

  const lastSeen = async (deviceId: number) => (await query(t.config.databaseUrl!, 'select status, last_seen_at from device where id = $1', [deviceId]))[0];

  it('an anonymous request with a NUL byte stops nothing: other terminals keep being marked online', async () => {
    const ws = await createWorkspace(t.url);
    const device = await createTerminalDevice(t.url, ws.key);
    const anonymous = `ANY${Date.now()}`;

    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${anonymous}&INFO=X%00Y`)).status).to.equal(403);
    const registry = await iclock(t.url, 'POST', `/iclock/registry?SN=${anonymous}B`, 'DeviceType=acc,~DeviceName=Bad\u0000Name,FirmVer=AC Ver 1');
    expect(registry.status).to.equal(406);
    await t.app.terminals.flush();

    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${device.serial_number}`)).status).to.equal(200);
    await t.app.terminals.flush();
    const row = await lastSeen(device.id);
    expect(row.status).to.equal('online');
    expect(row.last_seen_at).to.be.an.instanceOf(Date);

    // The control bytes never reached the database: the INFO value lost its NUL, the registry segment was left out.
    const unknown = await query(
      t.config.databaseUrl!,
      'select serial_number, model, firmware from unknown_terminal where serial_number like $1 order by serial_number',
      [`${anonymous}%`],
    );
    expect(unknown).to.deep.equal([
      { serial_number: anonymous, model: null, firmware: 'XY' },
      { serial_number: `${anonymous}B`, model: null, firmware: 'AC Ver 1' },
    ]);
  });

  it('a row the database refuses is dropped and counted; the rest of its batch is written', async () => {
    const ws = await createWorkspace(t.url);
    const device = await createTerminalDevice(t.url, ws.key);
    const poisoned = `POISON${Date.now()}`;
    // Defence in depth: inputs are cleaned at the protocol layer, so the poison is put straight into
    // the presence buffer, as a value that slipped past every check would arrive there.
    const buffer = (t.app.terminals as unknown as { presence: { contact(c: object, at: Date): void } }).presence;
    buffer.contact({ serialNumber: poisoned, ip: '127.0.0.1', model: 'Bad\u0000Model', firmware: null, protocol: 'att-push' }, new Date());
    buffer.contact({ serialNumber: `${poisoned}OK`, ip: '127.0.0.1', model: 'Good', firmware: null, protocol: 'att-push' }, new Date());
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${device.serial_number}`)).status).to.equal(200);
    await t.app.terminals.flush();

    expect((await lastSeen(device.id)).status).to.equal('online');
    const unknown = await query(t.config.databaseUrl!, 'select serial_number, model from unknown_terminal where serial_number like $1 order by serial_number', [
      `${poisoned}%`,
    ]);
    expect(unknown).to.deep.equal([{ serial_number: `${poisoned}OK`, model: 'Good' }]);
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).to.match(/timegate_job_poison_rows_dropped_total\{job="presence"\} 1\b/);
    // And the next flush runs normally.
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${device.serial_number}`)).status).to.equal(200);
    await t.app.terminals.flush();
  });

  it('a flush after a failed one still runs, and a job failing 3 runs in a row makes /readyz answer 503 until it succeeds', async () => {
    let healthy = false;
    t.app.jobs.add('test_probe', 3_600_000, async () => {
      if (!healthy) throw new Error('probe failing');
    });
    for (let i = 0; i < 3; i++) await t.app.jobs.runNow('test_probe');
    const failing = await rest(t.url, 'GET', '/readyz');
    expect(failing.status).to.equal(503);
    expect(failing.body).to.include({ status: 'not_ready', database: 'reachable' });
    expect(failing.body.failing_jobs).to.deep.equal(['test_probe']);
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).to.match(/timegate_job_consecutive_failures\{job="test_probe"\} 3\b/);
    expect(metrics).to.match(/timegate_job_runs_total\{job="test_probe",outcome="failed"\} 3\b/);

    healthy = true;
    await t.app.jobs.runNow('test_probe');
    const ready = await rest(t.url, 'GET', '/readyz');
    expect(ready.status).to.equal(200);
    expect(ready.body.failing_jobs).to.deep.equal([]);
  });

  it('the registered jobs are the presence flush, the terminal sweep, the device cache, webhooks and the event purge', () => {
    expect(t.app.jobs.states().map((s) => s.name)).to.include.members([
      'presence',
      'terminal_sweep',
      'device_cache',
      'webhooks',
      'partitions',
      'event_purge',
      'command_archive',
    ]);
  });
});
