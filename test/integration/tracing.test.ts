import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { migratedDatabaseUrl } from '../support/database';
import { startReceiver } from '../support/events';
import { createCompany, createEmployee, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { createTerminalDevice, iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';

/** A span as OTLP/JSON encodes it (ids in hex, times as strings of nanoseconds). */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: Record<string, unknown> }[];
  links?: { traceId: string; spanId: string }[];
}

/**
 * An OTLP/HTTP receiver: the service's exporter posts `/v1/traces` here (OTEL_EXPORTER_OTLP_PROTOCOL
 * http/json, the OTLP specification's JSON encoding of ExportTraceServiceRequest: ids in hex, decoded
 * by JSON.parse), and it answers with the empty ExportTraceServiceResponse, as a collector does. The
 * JSON encoding because the official packages of this SDK line ship no protobuf decoder for requests
 * (@opentelemetry/otlp-transformer encodes protobuf by hand and decodes responses only).
 */
async function startOtlpReceiver() {
  const spans: OtlpSpan[] = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
      for (const resource of request.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const attribute = (span: OtlpSpan, key: string): unknown => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value && Object.values(value)[0];
};
/** A PostgreSQL statement's span (the pg instrumentation's semantic conventions). */
const isStatement = (span: OtlpSpan) => attribute(span, 'db.system.name') === 'postgresql';
const statementText = (span: OtlpSpan) => String(attribute(span, 'db.query.text'));

describe('tracing: OpenTelemetry spans exported over OTLP/HTTP', () => {
  let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let service: ServiceProcess;
  let logFile: string;
  before(async function () {
    this.timeout(120_000);
    otlp = await startOtlpReceiver();
    logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-tracing-')), 'service.log');
    // The SDK is process-global: the traced service runs as a child process, never inside mocha's.
    service = await startServiceProcess(
      await migratedDatabaseUrl('tracing'),
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_SERVICE_NAME: 'timegate-under-test',
        LOG_LEVEL: 'info',
        TIMEGATE_WEBHOOK_ALLOW_PRIVATE: 'true',
        // No heartbeat is traced: what the last test checks.
        TIMEGATE_TRACE_HEARTBEAT_RATIO: '0',
      },
      { logFile, startMs: 90_000 },
    );
  });
  after(async () => {
    if (process.env.TRACE_DEBUG)
      console.log(
        JSON.stringify(
          otlp.spans
            .filter((s) => !isStatement(s))
            .map((s) => [s.name, s.traceId.slice(0, 6), s.spanId.slice(0, 6), (s.links ?? []).map((l) => l.spanId.slice(0, 6))]),
        ),
      );
    await service?.kill('SIGTERM');
    await otlp?.close();
  });

  const spansOf = (traceId: string) => otlp.spans.filter((s) => s.traceId === traceId);
  const logLines = () =>
    fs
      .readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('a REST request with an incoming traceparent: its HTTP, GraphQL and PostgreSQL spans are under that trace, and its log lines carry trace_id and span_id', async () => {
    const ws = await createWorkspace(service.url);
    const company = await createCompany(service.url, ws.key);
    const traceId = crypto.randomBytes(16).toString('hex');
    const callerSpanId = crypto.randomBytes(8).toString('hex');
    const response = await rest(service.url, 'POST', '/public/v2/employees', {
      key: ws.key,
      headers: { traceparent: `00-${traceId}-${callerSpanId}-01` },
      body: { name: 'Grace', lastname: 'Hopper', code: 'E-TRACE-1', company_id: company.id },
    });
    expect(response.status).to.equal(201);

    const spans = await waitUntil(
      'the spans of the traced request',
      async () => spansOf(traceId),
      (s) => s.some((x) => x.name.startsWith('graphql ')) && s.some((x) => isStatement(x)) && s.some((x) => x.kind === 2),
    );
    // The HTTP server span continues the caller's span; the operation and its statements are below it.
    const server = spans.find((s) => s.kind === 2)!;
    expect(server.parentSpanId).to.equal(callerSpanId);
    expect(server.name).to.equal('POST /public/v2/employees');
    expect(attribute(server, 'http.route')).to.equal('/public/v2/employees');
    const operation = spans.find((s) => s.name.startsWith('graphql '))!;
    expect(operation.name).to.equal('graphql mutation createEmployee');
    expect(attribute(operation, 'graphql.operation.type')).to.equal('mutation');
    expect(operation.parentSpanId).to.equal(server.spanId);
    const statements = spans.filter((s) => isStatement(s));
    expect(statements.some((s) => /insert into "?employee/i.test(statementText(s)))).to.equal(true);
    // Values never reach the traces: the ORM's inlined literals are replaced by '?'.
    expect(statements.map(statementText).join('\n')).to.not.include('Hopper');
    const ids = new Set(spans.map((s) => s.spanId));
    for (const s of statements) expect(ids.has(s.parentSpanId!), `${s.name} is inside the request's trace`).to.equal(true);

    // The access log line of the request carries the trace and one of its spans.
    const lines = await waitUntil('the access log line of the traced request', async () =>
      logLines().filter((l) => l.msg === 'request' && l.trace_id === traceId),
    );
    expect(lines).to.have.length(1);
    expect(ids.has(String(lines[0]!.span_id))).to.equal(true);

    // GraphQL: the operation's span carries its name.
    const graphqlTrace = crypto.randomBytes(16).toString('hex');
    const answer = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.key}`, 'content-type': 'application/json', traceparent: `00-${graphqlTrace}-${callerSpanId}-01` },
      body: JSON.stringify({ query: 'query TraceMe { __typename }', operationName: 'TraceMe' }),
    });
    expect(answer.status).to.equal(200);
    const named = await waitUntil('the span of the GraphQL operation', async () => spansOf(graphqlTrace).find((s) => s.name === 'graphql query TraceMe'));
    expect(attribute(named, 'graphql.operation.name')).to.equal('TraceMe');
    const graphqlServer = await waitUntil('the HTTP span of /graphql', async () => spansOf(graphqlTrace).find((s) => s.kind === 2));
    expect(graphqlServer.name).to.equal('POST /graphql');
    expect(named.parentSpanId).to.equal(graphqlServer.spanId);
  });

  it('an ATTLOG upload: its day recompute and its webhook link back to the upload span, and the webhook carries a traceparent', async () => {
    const ws = await createWorkspace(service.url);
    const device = await createTerminalDevice(service.url, ws.key);
    const serial = device.serial_number as string;
    await createEmployee(service.url, ws.key, (device as any).company_id as number, { pin: '42' });
    const receiver = await startReceiver();
    try {
      const created = await rest(service.url, 'POST', '/public/v2/webhooks', { key: ws.key, body: { url: receiver.url, event_types: ['attendance.created'] } });
      expect(created.status).to.equal(201);
      await iclock(service.url, 'GET', `/iclock/cdata?SN=${serial}&options=all`);
      // Punches of a past day: the backlog batch of the attendance worker takes them (not the live lane).
      const upload = await iclock(
        service.url,
        'POST',
        `/iclock/cdata?SN=${serial}&table=ATTLOG&Stamp=1`,
        '42\t2026-03-02 08:00:00\t0\t1\r\n42\t2026-03-02 17:00:00\t1\t1\r\n',
      );
      expect(upload.text).to.equal('OK: 2');

      const uploadSpan = await waitUntil('the span of the upload', async () =>
        otlp.spans.find(
          (s) => s.name === 'iclock cdata' && attribute(s, 'timegate.terminal.serial') === serial && attribute(s, 'http.request.method') === 'POST',
        ),
      );
      expect(attribute(uploadSpan, 'timegate.iclock.table')).to.equal('ATTLOG');
      expect(attribute(uploadSpan, 'http.response.status_code')).to.equal(200);
      // Its statements are children of it.
      const uploadStatements = await waitUntil('the upload statements', async () => spansOf(uploadSpan.traceId).filter((s) => isStatement(s)));
      expect(uploadStatements.every((s) => s.parentSpanId === uploadSpan.spanId)).to.equal(true);

      const linksToUpload = (s: OtlpSpan) => (s.links ?? []).some((l) => l.traceId === uploadSpan.traceId && l.spanId === uploadSpan.spanId);
      const batch = await waitUntil('the attendance batch linked to the upload', async () =>
        otlp.spans.find((s) => s.name === 'attendance.batch' && linksToUpload(s)),
      );
      expect(batch.traceId).to.not.equal(uploadSpan.traceId);
      expect(batch.parentSpanId ?? '').to.equal('');
      // The days were written under the batch's span.
      await waitUntil('the batch writes attendance days', async () =>
        spansOf(batch.traceId).some((s) => s.parentSpanId === batch.spanId && /attendance_day/i.test(statementText(s))),
      );

      const deliveries = await waitUntil(
        'two webhook deliveries linked to the upload',
        async () => otlp.spans.filter((s) => s.name === 'webhook.deliver' && linksToUpload(s)),
        (d) => d.length === 2,
      );
      await waitUntil(
        'the receiver got both webhooks',
        async () => receiver.received.length,
        (n) => n === 2,
      );
      const sent = receiver.received.map((r) => String(r.headers.traceparent));
      for (const traceparent of sent) {
        const [, traceId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(traceparent) ?? [];
        expect(traceId, traceparent).to.be.a('string');
        expect(deliveries.map((d) => d.traceId)).to.include(traceId);
      }
      // The POST itself is a client span under the delivery span, with the id the receiver got.
      for (const d of deliveries) {
        const client = await waitUntil('the POST span of a delivery', async () =>
          spansOf(d.traceId).find((s) => s.kind === 3 && !isStatement(s) && s.parentSpanId === d.spanId),
        );
        expect(sent).to.include(`00-${d.traceId}-${client.spanId}-01`);
        expect(attribute(d, 'timegate.event.type')).to.equal('attendance.created');
      }
    } finally {
      await receiver.close();
    }
  });

  it('heartbeats are sampled down (TIMEGATE_TRACE_HEARTBEAT_RATIO 0 here); a poll that delivers a command, and its result, are traced', async () => {
    const ws = await createWorkspace(service.url);
    const device = await createTerminalDevice(service.url, ws.key);
    const serial = device.serial_number;
    await iclock(service.url, 'GET', `/iclock/cdata?SN=${serial}&options=all`);
    for (let i = 0; i < 5; i++) expect((await iclock(service.url, 'GET', `/iclock/getrequest?SN=${serial}`)).text).to.equal('OK');
    const queued = await rest(service.url, 'POST', `/public/v2/devices/${device.id}/actions`, { key: ws.key, body: { type: 'reboot' } });
    expect(queued.status).to.be.within(200, 202);
    const delivered = await waitUntil(
      'the poll that delivers the command',
      async () => (await iclock(service.url, 'GET', `/iclock/getrequest?SN=${serial}`)).text,
      (text) => text !== 'OK',
    );
    const commandId = /^C:([^:]+):/.exec(delivered)![1]!;
    expect((await iclock(service.url, 'POST', `/iclock/devicecmd?SN=${serial}`, `ID=${commandId}&Return=0&CMD=REBOOT`)).text).to.equal('OK');

    const delivery = await waitUntil('the delivery span', async () =>
      otlp.spans.find((s) => s.name === 'terminal.commands.deliver' && attribute(s, 'timegate.terminal.serial') === serial),
    );
    expect((attribute(delivery, 'timegate.commands.ids') as { values: { stringValue: string }[] }).values.map((v) => v.stringValue)).to.deep.equal([commandId]);
    // The poll itself was not sampled: the delivery is a trace of its own, with its statements.
    expect(delivery.parentSpanId ?? '').to.equal('');
    await waitUntil(
      'the delivery statements',
      async () => spansOf(delivery.traceId).filter(isStatement).length,
      (n) => n > 0,
    );
    const result = await waitUntil('the result span', async () =>
      otlp.spans.find((s) => s.name === 'iclock devicecmd' && attribute(s, 'timegate.terminal.serial') === serial),
    );
    expect((attribute(result, 'timegate.commands.ids') as { values: { stringValue: string }[] }).values.map((v) => v.stringValue)).to.deep.equal([commandId]);
    expect(otlp.spans.filter((s) => s.name === 'iclock getrequest' && attribute(s, 'timegate.terminal.serial') === serial)).to.deep.equal([]);
    // Every export went to the standard path, in the JSON encoding asked for.
    expect(new Set(otlp.paths)).to.deep.equal(new Set(['POST /v1/traces application/json']));
  });
});
