import { expect } from 'chai';
import { runSimulateCommand, TerminalFleet } from '../../../src/simulator';
import { protocolScript, RecordingServer } from './recording-server';

describe('simulator: fleet and CLI', () => {
  let server: RecordingServer;
  beforeEach(async () => {
    server = await RecordingServer.start(protocolScript());
  });
  afterEach(async () => server.close());

  for (const family of ['att', 'acc'] as const) {
    it(`runs 20 ${family} terminals with generated serials, punches and cleans up`, async () => {
      const fleet = new TerminalFleet({
        serverUrl: server.url,
        count: 20,
        family,
        serialPrefix: 'FLT',
        pollIntervalMs: 100,
        startSpreadMs: 100,
        punchesPerSecond: 100,
        pins: ['1', '2'],
      });
      fleet.start();
      // Deadlines, not durations: at the end of a full suite the process is slower than alone.
      await server.waitFor(() => new Set(server.on('/iclock/getrequest').map((r) => r.query.get('SN'))).size === 20, 15_000);
      await server.waitFor(() => fleet.counters().punchesAcknowledged > 0, 15_000);
      await fleet.stop();
      const serials = new Set(server.requests.map((r) => r.query.get('SN')));
      expect(serials.size).to.equal(20);
      expect(serials.has('FLT00001') && serials.has('FLT00020')).to.equal(true);
      const c = fleet.counters();
      expect(c.handshakes).to.equal(20);
      expect(c.punchesQueued).to.be.greaterThan(0);
      expect(c.punchesAcknowledged).to.be.greaterThan(0);
      // Terminals count answered requests; stop() aborts at most one in-flight request per terminal,
      // which the server may have recorded without the terminal seeing its reply.
      expect(c.requests).to.be.within(server.requests.length - 20, server.requests.length);
      expect(c.errors).to.equal(0);
      // Requests aborted by stop() may still land just after it; after that the fleet is silent.
      await new Promise((r) => setTimeout(r, 50));
      const after = server.requests.length;
      await new Promise((r) => setTimeout(r, 150));
      expect(server.requests.length).to.equal(after);
    });
  }

  it('prints usage for --help and rejects bad options', async () => {
    const out: string[] = [];
    expect(await runSimulateCommand(['--help'], { out: (l) => out.push(l) })).to.equal(0);
    expect(out.join('\n')).to.include('Usage: timegate simulate --url');
    const err: string[] = [];
    expect(await runSimulateCommand(['--url', 'http://x', '--family', 'foo'], { err: (l) => err.push(l) })).to.equal(2);
    expect(err[0]).to.include('--family must be att or acc');
  });

  it('runs for --duration and prints periodic and final summaries', async () => {
    const out: string[] = [];
    const rc = await runSimulateCommand(
      [
        '--url',
        server.url,
        '--count',
        '3',
        '--family',
        'acc',
        '--poll-interval',
        '50ms',
        '--punch-rate',
        '20/s',
        '--pins',
        '1-3',
        '--duration',
        '400ms',
        '--report-every',
        '150ms',
        '--start-spread',
        '0',
      ],
      { out: (l) => out.push(l) },
    );
    expect(rc).to.equal(0);
    expect(out.length).to.be.greaterThanOrEqual(2);
    expect(out.at(-1)).to.match(/^final: \[0\.\ds\] terminals=3 connected=0 requests=\d+ handshakes=3 /);
  });
});
