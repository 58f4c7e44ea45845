import pino, { type Logger } from 'pino';
import type { Config } from './config/config';
import { logCorrelation, tracingEnabled } from './observability/tracing';

/**
 * Structured JSON logs on stdout. With tracing on, every line written inside a span carries its
 * `trace_id` and `span_id` (a pino mixin; without tracing there is no mixin at all).
 */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, base: { service: 'timegate' }, ...(tracingEnabled() ? { mixin: logCorrelation } : {}) });
}
