import { expect } from 'chai';
import fc from 'fast-check';
import { parseAttlog, parseRtlog } from '../../src/protocol';
import { createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { lineKey, storedPunchKeys } from '../support/service-process';
import { createTerminalDevice, fixtureBody, iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

const ENDPOINTS = ['cdata', 'getrequest', 'devicecmd', 'registry', 'push', 'ping', 'rtdata', 'querydata', 'fdata', 'edata', 'nope', 'CDATA.aspx'];
const TABLES = ['ATTLOG', 'OPERLOG', 'options', 'rtlog', 'rtstate', 'tabledata', 'BIODATA', 'ATTPHOTO', 'bogus', ''];
const FIXTURES = [
  '02-att-attlog-BOCK200961014-crlf.txt',
  '05-att-attlog-MB560VL-10fields.txt',
  '28-zkdoc-att-attlog-9records.txt',
  '29-zkdoc-att-operlog-oplog.txt',
  '19-acc-rtlog-SpeedFaceV3L-CRJP230860129.txt',
  '21-acc-tabledata-user-BioFaceA1.txt',
  '26-zkdoc-att-options-push.txt',
  '23-acc-registry-BioFaceA1-trimmed.txt',
];

/** A fixture body with a few bytes inserted, deleted or replaced, TABs swapped for spaces, or cut short. */
const mutatedFixture = fc
  .tuple(
    fc.constantFrom(...FIXTURES),
    fc.array(fc.tuple(fc.constantFrom('insert', 'delete', 'replace', 'tabs', 'truncate'), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 })), {
      maxLength: 3,
    }),
  )
  .map(([name, mutations]) =>
    mutations.reduce((body, [kind, position, bytes]) => {
      const at = position % (body.length + 1);
      if (kind === 'insert') return Buffer.concat([body.subarray(0, at), Buffer.from(bytes), body.subarray(at)]);
      if (kind === 'delete') return Buffer.concat([body.subarray(0, at), body.subarray(at + bytes.length)]);
      if (kind === 'tabs') return Buffer.from(body.toString('latin1').replace(/\t/g, ' '), 'latin1');
      if (kind === 'truncate') return body.subarray(0, at);
      const copy = Buffer.from(body);
      if (at < copy.length) copy[at] = bytes[0]!;
      return copy;
    }, fixtureBody(name)),
  );

describe('terminal endpoint under random and mutated /iclock requests (property-based)', () => {
  let t: TestApp;
  let serial: string;
  before(async () => {
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' }, 'iclock-fuzz');
    const ws = await createWorkspace(t.url);
    serial = (await createTerminalDevice(t.url, ws.key)).serial_number;
  });
  after(() => t.stop());

  it('every reply is a well-formed protocol reply (200/4xx/503, exact Content-Length); only fully valid ATTLOG lines are stored, every acknowledged one', async function () {
    this.timeout(120_000);
    const sentAttlog: Buffer[] = [];
    // A random request may also be a real rtlog upload from the known terminal (an access
    // controller's punch channel), whose punches are stored as well.
    const sentRtlog: Buffer[] = [];
    const acknowledgedAttlog: Buffer[] = [];
    const randomRequest = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT'),
      endpoint: fc.constantFrom(...ENDPOINTS),
      sn: fc.oneof(fc.constant('known'), fc.constant(''), fc.stringMatching(/^[A-Za-z0-9_-]{1,70}$/), fc.string({ maxLength: 10 })),
      table: fc.constantFrom(...TABLES),
      extra: fc.oneof(
        fc.constant(''),
        fc.string({ maxLength: 30 }).map((s) => `&${encodeURIComponent(s)}`),
        fc.constant('&Stamp=%ZZ&table=OPERLOG'),
      ),
      body: fc.oneof(
        mutatedFixture,
        fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
        fc.string({ maxLength: 200 }).map((s) => Buffer.from(s)),
      ),
    });
    // Half the requests are damaged ATTLOG uploads from the known terminal, so the storage oracle has work.
    const attlogUpload = mutatedFixture.map((body) => ({ method: 'POST', endpoint: 'cdata', sn: 'known', table: 'ATTLOG', extra: '', body }));
    const request = fc.oneof(randomRequest, attlogUpload);
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const sn = r.sn === 'known' ? serial : r.sn;
        const path = `/iclock/${r.endpoint}?SN=${encodeURIComponent(sn)}&table=${r.table}${r.extra}`;
        const reply = await iclock(t.url, r.method, path, r.method === 'GET' ? undefined : r.body);
        expect(reply.status, path).to.satisfy((s: number) => s === 200 || s === 503 || (s >= 400 && s < 500));
        expect(reply.headers.get('content-length'), path).to.equal(String(reply.bytes.length));
        expect(reply.headers.get('content-type') ?? '', path).to.match(/^text\/plain/);
        if (reply.status === 200 && r.endpoint === 'cdata' && r.method === 'POST' && sn === serial && r.table === 'ATTLOG' && r.extra === '') {
          sentAttlog.push(r.body);
          if (reply.text.startsWith('OK')) acknowledgedAttlog.push(r.body);
        } else if (sn === serial && r.table === 'ATTLOG') {
          sentAttlog.push(r.body);
        } else if (sn === serial && r.table === 'rtlog') {
          sentRtlog.push(r.body);
        }
      }),
      { numRuns: 120 },
    );
    expect((await rest(t.url, 'GET', '/healthz')).status, 'still serving').to.equal(200);

    expect(acknowledgedAttlog.length, 'ATTLOG uploads acknowledged').to.be.greaterThan(20);
    // Oracle: the pure parser's records are the fully valid lines.
    const valid = new Set([
      ...sentAttlog.flatMap((body) => parseAttlog(body).records.map((p) => `${p.pin}\t${p.localTime}`)),
      ...sentRtlog.flatMap((body) => parseRtlog(body).records.map((p) => `${p.pin}\t${p.localTime}`)),
    ]);
    const stored = await storedPunchKeys(t.config.databaseUrl!, serial);
    // The oracle had work. Not a fixed count: the fixtures hold about a dozen distinct lines and a
    // random run may resend the same few (a bound of 10 failed now and then).
    expect(stored.size, 'punches stored').to.be.greaterThan(0);
    for (const [key, n] of stored) {
      expect(valid.has(key), `stored punch ${JSON.stringify(key)} is a valid line that was sent`).to.equal(true);
      expect(n).to.equal(1);
    }
    for (const body of acknowledgedAttlog) {
      for (const p of parseAttlog(body).records) expect(stored.has(lineKey(`${p.pin}\t${p.localTime}`)), `acknowledged ${p.pin} ${p.localTime}`).to.equal(true);
    }
  });
});
