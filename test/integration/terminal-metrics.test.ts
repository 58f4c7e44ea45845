import { expect } from 'chai';
import type { Counter } from 'prom-client';
import { createEmployee, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { createTerminalDevice, iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

describe('terminal metrics: polls, uploads, punches and commands are counted', () => {
  let t: TestApp;
  let key: string;
  let clock = Date.parse('2026-02-01T08:00:00Z');
  const now = () => new Date(clock);
  before(async () => {
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' }, 'terminal-metrics', { now });
    key = (await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 10 })).key;
  });
  after(() => t.stop());

  /** The counter's value for exactly these labels (0 when never incremented). */
  async function value(counter: Counter<string>, labels: Record<string, string>): Promise<number> {
    const { values } = await counter.get();
    const found = values.find((v) => Object.entries(labels).every(([name, wanted]) => v.labels[name] === wanted));
    return found?.value ?? 0;
  }
  const terminalRequests = (endpoint: string, kind: string) => value(t.app.metrics.terminalRequests, { endpoint, kind });
  const punches = (source: string) => value(t.app.metrics.punchesIngested, { source });
  const commands = (event: string) => value(t.app.metrics.commands, { event });
  const commandIds = (text: string) => text.split('\n').map((line) => line.split(':')[1]!);

  it('counts handshakes, polls and uploads by kind, and stored punches (not duplicates) by source', async () => {
    const device = await createTerminalDevice(t.url, key);
    const sn = device.serial_number;
    const before = {
      handshake: await terminalRequests('cdata', 'handshake'),
      poll: await terminalRequests('getrequest', 'poll'),
      attlog: await terminalRequests('cdata', 'attlog'),
    };
    const devicePunches = await punches('device');

    expect((await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=2.4.1`)).status).to.equal(200);
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text).to.equal('OK');
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text).to.equal('OK');
    const attlog = '1\t2026-02-01 07:00:00\t0\t1\t0\t0\t0\r\n2\t2026-02-01 07:01:00\t0\t1\t0\t0\t0\r\n';
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${sn}&table=ATTLOG&Stamp=9999`, attlog)).text).to.equal('OK: 2');
    // Sent again: acknowledged, nothing new stored, nothing more counted as ingested.
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${sn}&table=ATTLOG&Stamp=9999`, attlog)).text).to.equal('OK: 2');

    expect(await terminalRequests('cdata', 'handshake')).to.equal(before.handshake + 1);
    expect(await terminalRequests('getrequest', 'poll')).to.equal(before.poll + 2);
    expect(await terminalRequests('cdata', 'attlog')).to.equal(before.attlog + 2);
    expect(await punches('device')).to.equal(devicePunches + 2);
  });

  it('counts manual punches under their own source', async () => {
    const device = (await createTerminalDevice(t.url, key)) as { id: number; company_id?: number };
    const { body } = await rest(t.url, 'GET', `/public/v2/devices/${device.id}`, { key });
    const employee = await createEmployee(t.url, key, body.company_id, { pin: '77' });
    const manual = await punches('manual');
    const punch = { employee_id: employee.id, device_id: device.id, company_id: body.company_id, punch_time: '2026-02-01T07:30:00Z', punch_state: '0' };
    expect((await rest(t.url, 'POST', '/public/v2/punches', { key, body: punch })).status).to.equal(201);
    // The same punch again is not a new one.
    await rest(t.url, 'POST', '/public/v2/punches', { key, body: punch });
    expect(await punches('manual')).to.equal(manual + 1);
  });

  it('counts commands queued, sent, succeeded, failed and expired', async () => {
    const device = await createTerminalDevice(t.url, key);
    const sn = device.serial_number;
    await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=2.4.1`);
    const before = {
      queued: await commands('queued'),
      sent: await commands('sent'),
      succeeded: await commands('succeeded'),
      failed: await commands('failed'),
      expired: await commands('expired'),
    };
    const resultsBefore = await terminalRequests('devicecmd', 'command_results');

    for (const duration of [5, 3])
      expect((await rest(t.url, 'POST', '/v1/devices/door/unlock', { key, body: { device_serial: sn, duration } })).status).to.equal(202);
    expect(await commands('queued')).to.equal(before.queued + 2);
    const [ok, refused] = commandIds((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text);
    expect(await commands('sent')).to.equal(before.sent + 2);
    const results = `ID=${ok}&Return=0&CMD=CONTROL DEVICE\nID=${refused}&Return=-1002&CMD=CONTROL DEVICE`;
    expect((await iclock(t.url, 'POST', `/iclock/devicecmd?SN=${sn}`, results)).text).to.equal('OK');
    expect(await commands('succeeded')).to.equal(before.succeeded + 1);
    expect(await commands('failed')).to.equal(before.failed + 1);
    expect(await terminalRequests('devicecmd', 'command_results')).to.equal(resultsBefore + 1);

    // A terminal that never connected: its unlock expires at the sweep after its deadline.
    const offline = await createTerminalDevice(t.url, key);
    expect((await rest(t.url, 'POST', '/v1/devices/door/unlock', { key, body: { device_serial: offline.serial_number, duration: 5 } })).status).to.equal(202);
    clock += 61_000;
    await t.app.terminals.sweep();
    expect(await commands('expired')).to.equal(before.expired + 1);
    expect(await commands('queued')).to.equal(before.queued + 3);
  });

  it('/metrics shows the terminal counters', async () => {
    const text = (await rest(t.url, 'GET', '/metrics')).text;
    expect(text).to.match(/timegate_terminal_requests_total\{endpoint="getrequest",kind="poll"\} \d+/);
    expect(text).to.match(/timegate_punches_ingested_total\{source="device"\} \d+/);
    expect(text).to.match(/timegate_device_commands_total\{event="succeeded"\} \d+/);
  });
});
