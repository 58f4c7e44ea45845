// `timegate simulate`: plays a fleet of terminals against a server and prints progress.
// The project CLI dispatches here; this module only parses options and reports.
import { parseArgs } from 'node:util';
import { parseDuration, parsePins, parseRate } from './cli-args';
import { TerminalFleet, type FleetCounters } from './terminal-fleet';

export const SIMULATE_USAGE = `Usage: timegate simulate --url <server> [options]

Plays ZKTeco PUSH terminals (attendance "att" or access-control "acc") against a server.

Options:
  --url <url>              server base URL, e.g. http://127.0.0.1:8080 (required)
  --count <n>              number of terminals (default 1)
  --family att|acc         protocol family (default att)
  --serial-prefix <text>   serial numbers are <prefix><index> (default SIM)
  --poll-interval <dur>    override the server's Delay/RequestDelay (e.g. 10s)
  --error-delay <dur>      override the server's ErrorDelay (e.g. 5s)
  --punch-rate <rate>      punches across the fleet, e.g. 5/s or 120/m (default 0)
  --pins <list>            PINs to punch with, e.g. 1,2,3 or 1-50 (default 1-10)
  --duration <dur>         stop after this long (default: until Ctrl-C)
  --start-spread <dur>     spread terminal starts over this window (default 1s)
  --report-every <dur>     summary line interval (default 5s)
  --max-sockets <n>        socket cap of the shared HTTP agent (default 256)
  --line-ending lf|crlf    record terminator of uploads (default lf)
  -h, --help               show this text

Exit codes: 0 the run had no failed request; 1 some requests failed (errors= in the summary: an
unreachable server, a refused or unacknowledged upload); 2 bad usage.
`;

export interface SimulateIo {
  out?: (line: string) => void;
  err?: (line: string) => void;
  /** Stops the run early (tests; the CLI also stops on SIGINT/SIGTERM). */
  signal?: AbortSignal;
}

export async function runSimulateCommand(argv: string[], io: SimulateIo = {}): Promise<number> {
  const out = io.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = io.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  let fleet: TerminalFleet;
  let durationMs: number | undefined;
  let reportMs: number;
  try {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: 'string' },
        count: { type: 'string', default: '1' },
        family: { type: 'string', default: 'att' },
        'serial-prefix': { type: 'string', default: 'SIM' },
        'poll-interval': { type: 'string' },
        'error-delay': { type: 'string' },
        'punch-rate': { type: 'string', default: '0' },
        pins: { type: 'string', default: '1-10' },
        duration: { type: 'string' },
        'start-spread': { type: 'string', default: '1s' },
        'report-every': { type: 'string', default: '5s' },
        'max-sockets': { type: 'string', default: '256' },
        'line-ending': { type: 'string', default: 'lf' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      out(SIMULATE_USAGE);
      return 0;
    }
    if (!values.url) throw new Error('--url is required');
    new URL(values.url);
    const count = Number(values.count);
    if (!Number.isInteger(count) || count < 1) throw new Error(`invalid --count "${values.count}"`);
    if (values.family !== 'att' && values.family !== 'acc') throw new Error(`--family must be att or acc`);
    if (values['line-ending'] !== 'lf' && values['line-ending'] !== 'crlf') throw new Error('--line-ending must be lf or crlf');
    const maxSockets = Number(values['max-sockets']);
    if (!Number.isInteger(maxSockets) || maxSockets < 1) throw new Error(`invalid --max-sockets "${values['max-sockets']}"`);
    durationMs = values.duration === undefined ? undefined : parseDuration(values.duration);
    reportMs = Math.max(100, parseDuration(values['report-every']));
    fleet = new TerminalFleet({
      serverUrl: values.url,
      count,
      family: values.family,
      serialPrefix: values['serial-prefix'],
      pollIntervalMs: values['poll-interval'] === undefined ? undefined : parseDuration(values['poll-interval']),
      errorDelayMs: values['error-delay'] === undefined ? undefined : parseDuration(values['error-delay']),
      punchesPerSecond: parseRate(values['punch-rate']),
      pins: parsePins(values.pins),
      startSpreadMs: parseDuration(values['start-spread']),
      maxSockets,
      terminal: { lineEnding: values['line-ending'] },
    });
  } catch (e) {
    err(`timegate simulate: ${(e as Error).message}`);
    err(SIMULATE_USAGE);
    return 2;
  }

  const began = Date.now();
  fleet.start();
  const report = setInterval(() => out(summaryLine(fleet.counters(), Date.now() - began)), reportMs);
  await new Promise<void>((resolve) => {
    const timer = durationMs === undefined ? null : setTimeout(finish, durationMs);
    function finish(): void {
      if (timer !== null) clearTimeout(timer);
      process.off('SIGINT', finish);
      process.off('SIGTERM', finish);
      io.signal?.removeEventListener('abort', finish);
      resolve();
    }
    process.once('SIGINT', finish);
    process.once('SIGTERM', finish);
    if (io.signal?.aborted) finish();
    else io.signal?.addEventListener('abort', finish, { once: true });
  });
  clearInterval(report);
  await fleet.stop();
  const counters = fleet.counters();
  out(`final: ${summaryLine(counters, Date.now() - began)}`);
  if (counters.errors > 0) {
    err(`timegate simulate: ${counters.errors} request(s) failed (is the server at the --url reachable?)`);
    return 1;
  }
  return 0;
}

export function summaryLine(c: FleetCounters, elapsedMs: number): string {
  return (
    `[${(elapsedMs / 1000).toFixed(1)}s] terminals=${c.terminals} connected=${c.connected} requests=${c.requests} ` +
    `handshakes=${c.handshakes} polls=${c.polls} punches=${c.punchesQueued} sent=${c.punchesSent} ` +
    `acked=${c.punchesAcknowledged} commands=${c.commandsExecuted} pending=${c.pending} ` +
    `rejected=${c.uploadsRejected} errors=${c.errors}`
  );
}
