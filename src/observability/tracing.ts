// Spans of Timegate's own work, through the OpenTelemetry API only (the SDK is loaded by
// tracing-setup.ts, and only when an OTLP endpoint is configured). While tracing is off every helper
// here returns at its first line: a request pays one boolean test, no context lookup, no allocation.
//
// Work that happens later because of a request (the days recomputed from a terminal upload, the
// webhook of an event) runs under a root span of its own, linked to the span that caused it: the
// causing span's W3C traceparent is stored with the outbox event (event.trace) and read back by the
// worker that takes the event (docs/operations.md, "Tracing").
import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Link,
  type Span,
} from '@opentelemetry/api';

let enabled = false;

/** True once the SDK runs in this process (tracing-setup.ts): the hooks below start spans. */
export function tracingEnabled(): boolean {
  return enabled;
}

/** Called by tracing-setup.ts once the SDK has started. */
export function markTracingEnabled(): void {
  enabled = true;
}

const TRACER = 'timegate';
/** Links one span keeps at most (a batch of 5,000 punches from many uploads links to the first 32). */
export const MAX_LINKS = 32;
/** The length of a version-00 traceparent: `00-<32 hex>-<16 hex>-<2 hex>` (the event.trace column). */
export const TRACEPARENT_LENGTH = 55;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export interface SpanOptions {
  attributes?: Attributes;
  kind?: SpanKind;
  /** Start a new trace (background work) rather than a child of the active span. */
  root?: boolean;
  links?: Link[];
}

/**
 * Runs `fn` inside a span named `name` (a child of the active span, or a new trace with `root`),
 * ending it when `fn` settles and marking it failed when `fn` throws. Without tracing, just `fn()`.
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!enabled) return fn(undefined);
  // Without an active span this is a trace of its own, from the root context: the context of a
  // request the HTTP instrumentation ignores (every /iclock request) suppresses tracing.
  const active = context.active();
  const parent = options.root || !trace.getSpan(active) ? ROOT_CONTEXT : active;
  return trace.getTracer(TRACER).startActiveSpan(name, { attributes: options.attributes, kind: options.kind, links: options.links }, parent, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks a span failed with the error (its message and type as an exception event). */
export function failSpan(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/**
 * Starts a span that the caller ends (a terminal request, which ends when its answer is written),
 * under the W3C trace context of the incoming headers if any. Returns the span and the context to
 * run the request's work in.
 */
export function startServerSpan(
  name: string,
  headers: Record<string, string | string[] | undefined>,
  attributes: Attributes,
): { span: Span; context: Context } {
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = trace.getTracer(TRACER).startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/** Runs `fn` in `ctx` (a context from startServerSpan). */
export function withContext<T>(ctx: Context, fn: () => T): T {
  return context.with(ctx, fn);
}

/** Sets attributes on the active span, if tracing is on and a span is active. */
export function annotateSpan(attributes: Attributes): void {
  if (!enabled) return;
  trace.getActiveSpan()?.setAttributes(attributes);
}

/** Renames the active span (the HTTP server span of a REST route gets its route template). */
export function nameActiveSpan(name: string, attributes: Attributes = {}): void {
  if (!enabled) return;
  const span = trace.getActiveSpan();
  if (!span) return;
  span.updateName(name);
  span.setAttributes(attributes);
}

/**
 * The active span as a W3C traceparent, for storing with work it causes (event.trace); null without
 * tracing, without an active span, or when the span is not sampled (nothing to link to).
 */
export function currentTraceparent(): string | null {
  if (!enabled) return null;
  const span = trace.getActiveSpan();
  if (!span) return null;
  const c = span.spanContext();
  if (!isSpanContextValid(c) || (c.traceFlags & TraceFlags.SAMPLED) === 0) return null;
  return `00-${c.traceId}-${c.spanId}-01`;
}

/** Links to the spans of stored traceparents (malformed or repeated ones skipped, MAX_LINKS at most). */
export function linksTo(traceparents: Iterable<string | null | undefined>): Link[] {
  const links: Link[] = [];
  const seen = new Set<string>();
  for (const value of traceparents) {
    const m = value ? TRACEPARENT.exec(value) : null;
    if (!m || seen.has(value!)) continue;
    seen.add(value!);
    links.push({ context: { traceId: m[1]!, spanId: m[2]!, traceFlags: Number.parseInt(m[3]!, 16), isRemote: true } });
    if (links.length === MAX_LINKS) break;
  }
  return links;
}

/** Writes the active trace context as W3C headers (`traceparent`, `tracestate`) into `headers`. */
export function injectTraceContext(headers: Record<string, string>): void {
  if (!enabled) return;
  propagation.inject(context.active(), headers);
}

/** pino mixin: `trace_id` and `span_id` of the active span on every log line written inside it. */
export function logCorrelation(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const c = span.spanContext();
  return isSpanContextValid(c) ? { trace_id: c.traceId, span_id: c.spanId } : {};
}

export { SpanKind };

/** Ends a server span started by startServerSpan with the answer's status (5xx, or no answer written: failed). */
export function endServerSpan(span: Span, statusCode: number, answered: boolean): void {
  span.setAttribute('http.response.status_code', statusCode);
  if (statusCode >= 500 || !answered)
    span.setStatus({ code: SpanStatusCode.ERROR, message: answered ? `HTTP ${statusCode}` : 'no answer (connection closed)' });
  span.end();
}

interface OperationNode {
  kind: string;
  operation?: string;
  name?: { value: string };
  selectionSet?: { selections: readonly { kind: string; name?: { value: string } }[] };
}

/**
 * The kind and name of a document's operation, for span names: its own name (`query EmployeeList`),
 * else its first root field (`mutation createEmployee`: the REST routes' documents are anonymous).
 */
export function operationOf(document: { definitions: readonly OperationNode[] }, name?: string | null): { type: string; name: string } {
  const operations = document.definitions.filter((d) => d.kind === 'OperationDefinition');
  const chosen = (name ? operations.find((d) => d.name?.value === name) : undefined) ?? operations[0];
  const firstField = chosen?.selectionSet?.selections.find((s) => s.kind === 'Field')?.name?.value;
  return { type: chosen?.operation ?? 'query', name: name ?? chosen?.name?.value ?? firstField ?? '(anonymous)' };
}

/** The execution of one GraphQL operation (for /graphql and for the REST route that runs it): `graphql <type> <name>`. */
export function inGraphQLSpan<T>(operation: { type: string; name: string }, fn: () => Promise<T>): Promise<T> {
  if (!enabled) return fn();
  return inSpan(
    `graphql ${operation.type} ${operation.name}`,
    { attributes: { 'graphql.operation.type': operation.type, 'graphql.operation.name': operation.name } },
    () => fn(),
  );
}

/** The longest statement text kept on a span; a bulk statement's text beyond it is cut. */
const MAX_STATEMENT_CHARS = 4096;

/**
 * A statement's text as a span keeps it: the ORM writes values into the SQL it sends (names, PINs,
 * payloads), so every string literal becomes `?`; cut at MAX_STATEMENT_CHARS.
 */
export function redactStatement(text: string): string {
  const redacted = text.replace(/(?<!\w)[Ee]'(?:[^'\\]|\\.|'')*'|'(?:[^']|'')*'/g, "'?'");
  return redacted.length > MAX_STATEMENT_CHARS ? `${redacted.slice(0, MAX_STATEMENT_CHARS)}…` : redacted;
}
