import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { parse } from 'graphql';
import { ConfigError, loadConfig } from '../../../src/config/config';
import { linksTo, MAX_LINKS, operationOf, redactStatement } from '../../../src/observability/tracing';
import { tracingWanted } from '../../../src/observability/tracing-setup';

const root = path.resolve(__dirname, '..', '..', '..', '..');

/** The @opentelemetry modules a fresh process has loaded after requiring the service's entry modules with `env`. */
function loadedTelemetryModules(env: Record<string, string>): string[] {
  const script = `
    require('./dist/src/observability/tracing-setup');
    require('./dist/src/app');
    const loaded = new Set(Object.keys(require.cache).map((f) => (/node_modules\\/(@opentelemetry\\/[^/]+)/.exec(f) || [])[1]).filter(Boolean));
    process.stdout.write(JSON.stringify([...loaded].sort()));
    process.exit(0);`;
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root, env: { ...clean, ...env }, encoding: 'utf8' }));
}

describe('tracing', () => {
  it('is on only with an OTLP endpoint, and not when the SDK is disabled or the traces exporter is none', () => {
    expect(tracingWanted({})).to.equal(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).to.equal(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).to.equal(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).to.equal(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).to.equal(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).to.equal(false);
  });

  it('off, the service loads the OpenTelemetry API only, no SDK, exporter or instrumentation', function () {
    this.timeout(60_000);
    expect(loadedTelemetryModules({})).to.deep.equal(['@opentelemetry/api']);
    const on = loadedTelemetryModules({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(on).to.include.members(['@opentelemetry/sdk-node', '@opentelemetry/instrumentation-http', '@opentelemetry/instrumentation-pg']);
  });

  it('names an operation by its own name, else by its first root field', () => {
    expect(operationOf(parse('query EmployeeList { employees { totalCount } }'))).to.deep.equal({ type: 'query', name: 'EmployeeList' });
    expect(operationOf(parse('mutation ($input: X!) { createEmployee(input: $input) { id } }'))).to.deep.equal({ type: 'mutation', name: 'createEmployee' });
    expect(operationOf(parse('query A { a } query B { b }'), 'B')).to.deep.equal({ type: 'query', name: 'B' });
  });

  it('keeps the shape of a statement, never its string values', () => {
    expect(redactStatement(`insert into employee (name, pin) values ('Grace', '4''2'), (E'O\\'Brien', '7') returning id`)).to.equal(
      `insert into employee (name, pin) values ('?', '?'), ('?', '?') returning id`,
    );
    expect(redactStatement(`select 1 from event where type='attendance.created'`)).to.equal(`select 1 from event where type='?'`);
    const long = redactStatement(`select ${'x, '.repeat(3000)}1`);
    expect(long).to.have.length(4097);
  });

  it('links to stored traceparents, skipping malformed and repeated ones, at most MAX_LINKS', () => {
    const tp = (n: number) => `00-${n.toString(16).padStart(32, '0')}-${'b'.repeat(16)}-01`;
    const links = linksTo([tp(1), tp(1), null, 'garbage', '01-' + tp(2).slice(3), tp(2)]);
    expect(links.map((l) => l.context.traceId)).to.deep.equal([tp(1).slice(3, 35), tp(2).slice(3, 35)]);
    expect(links[0]!.context).to.include({ spanId: 'b'.repeat(16), traceFlags: 1, isRemote: true });
    expect(linksTo(Array.from({ length: 100 }, (_, i) => tp(i + 1)))).to.have.length(MAX_LINKS);
  });

  it('TIMEGATE_TRACE_HEARTBEAT_RATIO is a number from 0 to 1', () => {
    expect(loadConfig({}).traceHeartbeatRatio).to.equal(0.01);
    expect(loadConfig({ TIMEGATE_TRACE_HEARTBEAT_RATIO: '0.25' }).traceHeartbeatRatio).to.equal(0.25);
    expect(loadConfig({ TIMEGATE_TRACE_HEARTBEAT_RATIO: '0' }).traceHeartbeatRatio).to.equal(0);
    for (const bad of ['1.5', '-0.1', 'half', '0x1', 'Infinity'])
      expect(() => loadConfig({ TIMEGATE_TRACE_HEARTBEAT_RATIO: bad }), bad).to.throw(
        ConfigError,
        /TIMEGATE_TRACE_HEARTBEAT_RATIO must be a number from 0 to 1/,
      );
  });
});
