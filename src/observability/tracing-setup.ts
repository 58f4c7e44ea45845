// The OpenTelemetry SDK, started before anything else is loaded (main.ts imports this module first,
// so the http and pg modules are patched before the app requires them) and only when an OTLP
// endpoint is configured. Without one, none of the SDK's modules is even required: tracing costs
// nothing (docs/operations.md, "Tracing"; docs/benchmarks.md for the measured cost when on).
//
// Configuration is the SDK's own: the standard OTEL_* variables (endpoint, protocol, headers,
// service name, OTEL_TRACES_SAMPLER, batch sizes), listed in the README's configuration table.
import type { IncomingMessage } from 'node:http';
import { markTracingEnabled, redactStatement } from './tracing';

/** Requests never traced: terminals (traced by the /iclock handler itself) and the scrapers' probes. */
const UNTRACED_PATHS = /^\/(iclock\/|metrics(\?|$)|healthz(\?|$)|readyz(\?|$))/i;

/** The rule: an OTLP endpoint is set (for all signals or for traces) and the SDK is not disabled. */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  if ((env.OTEL_TRACES_EXPORTER ?? '').trim().toLowerCase() === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

interface Sdk {
  shutdown(): Promise<void>;
}

let sdk: Sdk | null = null;

function startTracing(env: NodeJS.ProcessEnv): void {
  // Required here, not imported: a process without an endpoint never loads them.
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  if (!env.OTEL_SERVICE_NAME) env.OTEL_SERVICE_NAME = 'timegate';
  const started = new NodeSDK({
    // Traces only: metrics stay Prometheus (/metrics) and logs stay pino on stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req: IncomingMessage) => UNTRACED_PATHS.test(req.url ?? ''),
        // Outgoing HTTP is traced only inside one of our spans (a webhook delivery): never on its own.
        requireParentforOutgoingSpans: true,
      }),
      // A statement is traced only inside a request or a worker's span: the event feed's poll and
      // the job runner's housekeeping would otherwise each be a trace of their own.
      new PgInstrumentation({
        requireParentSpan: true,
        // Statements keep their shape, not their values (string literals become '?'): no personal data in traces.
        requestHook: (span, info) => span.setAttribute('db.query.text', redactStatement(info.query.text)),
      }),
    ],
  });
  started.start();
  sdk = started;
  markTracingEnabled();
}

/** Flushes the spans still buffered and stops the SDK (main.ts, before the process exits). */
export async function shutdownTracing(): Promise<void> {
  const running = sdk;
  sdk = null;
  await running?.shutdown().catch(() => undefined);
}

if (tracingWanted(process.env)) startTracing(process.env);
