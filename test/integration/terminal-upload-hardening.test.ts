import { expect } from 'chai';
import net from 'node:net';
import { uploadSlots } from '../../src/devices/upload-slots';
import { ATTLOG_CHUNK } from '../../src/services/terminals/terminal-ingest.service';
import { readOutbox } from '../support/events';
import { createWorkspace } from '../support/factories';
import { createTerminalDevice, iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

// Regression: a NUL byte anywhere in a terminal upload made PostgreSQL refuse the whole statement;
// the terminal got 503, re-sent the same batch forever, and its later punches never arrived.
describe('terminal uploads: a bad byte costs its line, never the batch', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startTestApp({}, 'upload-hardening');
    key = (await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 10 })).key;
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const rejectedLines = async (table: string) => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    const match = new RegExp(`timegate_terminal_lines_rejected_total\\{table="${table}"\\} (\\d+)`).exec(text);
    return match ? Number(match[1]) : 0;
  };

  it('ATTLOG: the line with a NUL is refused, the others are stored and acknowledged, exactly once on a re-send', async () => {
    const device = await createTerminalDevice(t.url, key);
    const before = await rejectedLines('ATTLOG');
    const body = ['1\t2026-03-02 08:00:00\t0\t1\t0\t0', '2\t2026-03-02 08:01:00\t0\t1\tW\u0000X\t0', '3\t2026-03-02 08:02:00\t0\t1\t0\t0', ''].join('\n');
    const first = await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, body);
    expect(first.status).to.equal(200);
    expect(first.text).to.equal('OK: 2');
    const again = await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, body);
    expect(again.status).to.equal(200);
    expect(again.text).to.equal('OK: 2');
    const stored = await sql('select pin from punch where device_serial = ? order by punch_time', [device.serial_number]);
    expect(stored.map((r: any) => r.pin)).to.deep.equal(['1', '3']);
    expect(await rejectedLines('ATTLOG')).to.equal(before + 2);
  });

  it('options and registry: the segment with a NUL is left out, the rest stored; handshake values lose NULs', async () => {
    const device = await createTerminalDevice(t.url, key);
    const sn = device.serial_number;
    const handshake = await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=2.4.1%00&language=69`);
    expect(handshake.status).to.equal(200);
    const options = await iclock(t.url, 'POST', `/iclock/cdata?SN=${sn}&table=options`, '~DeviceName=SpeedFace-V5L,Bad=A\u0000B,FWVersion=ZAM180-NF-Ver1.1.17');
    expect(options.status).to.equal(200);
    expect(options.text).to.equal('OK');
    const [row] = await sql('select model, firmware, reported_options from device where id = ?', [device.id]);
    expect(row.model).to.equal('SpeedFace-V5L');
    expect(row.firmware).to.equal('ZAM180-NF-Ver1.1.17');
    expect(row.reported_options).to.not.have.property('Bad');
    // Presence (with the handshake's reported values) is written: nothing poisoned the batch.
    await t.app.terminals.flush();
    const [seen] = await sql('select status from device where id = ?', [device.id]);
    expect(seen.status).to.equal('online');
  });

  it('a large upload is written in bounded chunks: every punch stored once, a re-send counts them as already stored', async function () {
    this.timeout(60_000);
    const device = await createTerminalDevice(t.url, key);
    const lines: string[] = [];
    const start = Date.UTC(2026, 0, 5, 6, 0, 0);
    for (let i = 0; i < ATTLOG_CHUNK * 2 + 1; i++) {
      const at = new Date(start + i * 1000).toISOString().replace('T', ' ').slice(0, 19);
      lines.push(`${(i % 50) + 1}\t${at}\t0\t1\t\t0`);
    }
    const body = lines.join('\n');
    const first = await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, body);
    expect(first.text).to.equal(`OK: ${lines.length}`);
    const again = await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, body);
    expect(again.text).to.equal(`OK: ${lines.length}`);
    const [count] = await sql('select count(*)::int as n from punch where device_serial = ?', [device.serial_number]);
    expect(count.n).to.equal(lines.length);
    // One attendance.created event per punch, written as outbox rows of at most 256 (event-batch.ts); the re-send wrote none.
    const [{ workspace_id: workspaceId }] = await sql('select workspace_id from device where id = ?', [device.id]);
    const events = (await readOutbox((text, params) => sql(text, params), workspaceId, 'attendance.created')).filter((e) => e.data.device_id === device.id);
    expect(events).to.have.length(lines.length);
    expect(new Set(events.map((e) => e.id)).size).to.equal(events.length);
    expect(new Set(events.map((e) => e.data.id)).size).to.equal(lines.length);
    const [rows] = await sql(
      "select count(*)::int as n, max(span) as widest from event where type = 'attendance.created' and coalesce(data->'common', data)->>'device_id' = ?",
      [String(device.id)],
    );
    // Two chunks of ATTLOG_CHUNK (outbox rows of 256 and the rest each) and the last line alone.
    expect(rows).to.deep.equal({ n: 2 * Math.ceil(ATTLOG_CHUNK / 256) + 1, widest: 256 });
  });

  it('records dated in years 0000–0099 are refused, not stored 1,900 years off', async () => {
    const device = await createTerminalDevice(t.url, key);
    const reply = await iclock(
      t.url,
      'POST',
      `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`,
      '1\t0026-03-02 08:00:00\t0\t1\t\t0\n2\t2026-03-02 08:00:00\t0\t1\t\t0\n',
    );
    expect(reply.text).to.equal('OK: 1');
    const stored = await sql('select pin, punch_time from punch where device_serial = ?', [device.serial_number]);
    expect(stored.map((r: any) => [r.pin, new Date(r.punch_time).getUTCFullYear()])).to.deep.equal([['2', 2026]]);
  });
  it('an upload whose terminal hangs up while it waits for a slot is left unparsed and unstored; the re-send is stored once', async () => {
    const device = await createTerminalDevice(t.url, key);
    const abandoned = async () => Number(/^timegate_terminal_uploads_abandoned_total (\d+)$/m.exec(await (await fetch(`${t.url}/metrics`)).text())?.[1] ?? 0);
    const before = await abandoned();
    const body = '7\t2026-03-02 08:00:00\t0\t1\t0\t0\n';
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holders = Array.from({ length: uploadSlots.size }, () => uploadSlots.run(() => held));
    try {
      const { hostname, port } = new URL(t.url);
      const accepted: net.Socket[] = [];
      const onConnection = (serverSide: net.Socket) => accepted.push(serverSide);
      t.app.server.on('connection', onConnection);
      const socket = net.connect(Number(port), hostname);
      socket.on('error', () => undefined);
      socket.write(
        `POST /iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1 HTTP/1.1\r\nHost: ${hostname}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await waitUntil(
        'the upload waits for an upload slot',
        async () => uploadSlots.queued,
        (v) => v === 1,
      );
      t.app.server.off('connection', onConnection);
      const serverSide = accepted.find((s) => s.remotePort === socket.localPort)!;
      // The terminal times out and closes the connection while its upload is queued; the slot comes once the service has seen it go.
      socket.destroy();
      await waitUntil('the server closed the abandoned upload', async () => serverSide.destroyed);
      release();
      await waitUntil(
        'the abandoned upload is counted',
        () => abandoned(),
        (v) => v === before + 1,
      );
      expect(await sql('select 1 from punch where device_serial = ?', [device.serial_number]), 'nothing of a hung-up upload is stored').to.have.length(0);
    } finally {
      release();
      await Promise.all(holders);
    }
    const resent = await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, body);
    expect(resent.text).to.equal('OK: 1');
    expect(await sql('select pin from punch where device_serial = ?', [device.serial_number])).to.deep.equal([{ pin: '7' }]);
  });
});
