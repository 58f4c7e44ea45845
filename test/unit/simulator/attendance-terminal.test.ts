import { once } from 'node:events';
import { expect } from 'chai';
import { SimulatedTerminal, type CommandEvent, type SimulatedTerminalConfig } from '../../../src/simulator';
import { protocolScript, RecordingServer, type ScriptOptions } from './recording-server';

describe('simulator: attendance terminal against a recording server', () => {
  let server: RecordingServer;
  let terminal: SimulatedTerminal;

  async function boot(script: ScriptOptions = {}, config: Partial<SimulatedTerminalConfig> = {}): Promise<void> {
    server = await RecordingServer.start(protocolScript(script));
    terminal = new SimulatedTerminal({ serverUrl: server.url, serialNumber: 'SIMATT1', family: 'att', pollIntervalMs: 50, errorDelayMs: 50, ...config });
  }

  afterEach(async () => {
    await terminal?.stop();
    await server?.close();
  });

  it('handshakes with the documented query and headers, then polls with INFO at the interval', async () => {
    await boot({ options: ['PushOptionsFlag=1', 'PushOptions=FingerFunOn,FaceFunOn'] });
    terminal.start();
    await server.waitFor(() => server.on('/iclock/getrequest').length >= 3);
    const [hs] = server.requests;
    expect(hs!.rawPath).to.equal('/iclock/cdata?SN=SIMATT1&options=all&pushver=2.4.1&language=69&DeviceType=att&PushOptionsFlag=1');
    expect(hs!.headers['user-agent']).to.equal('iClock Proxy/1.09');
    expect(hs!.headers['content-type']).to.equal(undefined);
    const options = server.on('/iclock/cdata', 'options')[0]!;
    expect(options.body).to.equal('FingerFunOn=1,FaceFunOn=1');
    const polls = server.on('/iclock/getrequest');
    expect(polls[0]!.rawPath).to.match(/^\/iclock\/getrequest\?SN=SIMATT1&INFO=Ver%208\.0\.4\.7-20230615,0,0,0,[\d.]+,10,7,15,0,111$/);
    expect(polls[1]!.rawPath).to.equal('/iclock/getrequest?SN=SIMATT1');
    const gap = polls[2]!.at - polls[1]!.at;
    expect(gap).to.be.within(40, 200);
  });

  it('obeys the server Delay when no interval override is given', async () => {
    await boot({ delaySeconds: 1 }, { pollIntervalMs: undefined });
    const handshake = once(terminal, 'handshake');
    terminal.start();
    const [event] = await handshake;
    expect(event.pollIntervalMs).to.equal(1000);
  });

  it('uploads a punch at once with the exact ATTLOG bytes', async () => {
    await boot({}, { pollIntervalMs: 10_000, lineEnding: 'crlf' });
    terminal.start();
    await once(terminal, 'handshake');
    terminal.punch({ pin: '1452', at: new Date(Date.UTC(2015, 6, 30, 15, 16, 28)), status: 0, verify: 1 });
    const up = await server.waitFor((r) => r.query.get('table') === 'ATTLOG');
    expect(up.rawPath).to.equal('/iclock/cdata?SN=SIMATT1&table=ATTLOG&Stamp=9999');
    expect(up.body).to.equal('1452\t2015-07-30 15:16:28\t0\t1\t0\t0\t0\r\n');
    expect(up.headers['content-type']).to.equal(undefined);
    expect(up.headers['content-length']).to.equal(String(Buffer.byteLength(up.body)));
    await once(terminal, 'upload');
    expect(terminal.stats).to.include({ punchesSent: 1, punchesAcknowledged: 1 });
  });

  it('executes several commands of one poll and posts all results in one devicecmd body', async () => {
    await boot(
      {
        commandReplies: [
          'C:info8487:DATA UPDATE USERINFO PIN=7\tName=Ann Lee\tPri=0\nC:fp7464:DATA UPDATE FINGERTMP PIN=7\tFID=0\tSize=4\tValid=1\tTMP=QUJD\nC:12:USER ADD PIN=1\nC:13:AC_UNLOCK',
        ],
      },
      { failCommands: (c) => (c.id === '13' ? -3 : null) },
    );
    const seen: CommandEvent[] = [];
    terminal.on('command', (e: CommandEvent) => seen.push(e));
    terminal.start();
    const results = await server.waitFor((r) => r.pathname === '/iclock/devicecmd');
    expect(results.rawPath).to.equal('/iclock/devicecmd?SN=SIMATT1');
    expect(results.body).to.equal('ID=info8487&Return=0&CMD=DATA\nID=fp7464&Return=0&CMD=DATA\nID=12&Return=-1002&CMD=USER\nID=13&Return=-3&CMD=AC_UNLOCK');
    expect(seen.map((e) => e.rc)).to.deep.equal([0, 0, -1002, -3]);
    expect(terminal.store.users.get('7')?.name).to.equal('Ann Lee');
    expect(terminal.store.doorOpens).to.equal(0);
    const nextPoll = await server.waitFor((r) => r.pathname === '/iclock/getrequest' && r.query.has('INFO') && r.at > results.at);
    expect(nextPoll.query.get('INFO')).to.match(/^Ver 8\.0\.4\.7-20230615,1,1,0,/);
  });

  it('keeps a record the server did not acknowledge and sends the same bytes again', async () => {
    let attlogs = 0;
    await boot({ upload: (r) => (r.query.get('table') === 'ATTLOG' && ++attlogs === 1 ? 'ERROR: database down' : undefined) });
    terminal.start();
    await once(terminal, 'handshake');
    terminal.punch({ pin: '5', at: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) });
    await server.waitFor(() => server.on('/iclock/cdata', 'ATTLOG').length >= 2);
    const [first, second] = server.on('/iclock/cdata', 'ATTLOG');
    expect(second!.body).to.equal(first!.body).and.equal('5\t2024-01-02 03:04:05\t0\t1\t0\t0\t0\n');
    await server.waitFor((r) => r.pathname === '/iclock/getrequest' && r.at > second!.at);
    expect(terminal.pendingCount).to.equal(0);
    expect(terminal.stats).to.include({ punchesSent: 2, punchesAcknowledged: 1, uploadsRejected: 1 });
  });

  it('keeps records across a non-200 and re-sends its history on demand', async () => {
    let fail = true;
    await boot({ upload: (r) => (r.query.get('table') === 'ATTLOG' && fail ? { status: 500, body: 'boom' } : undefined) });
    terminal.start();
    await once(terminal, 'handshake');
    terminal.punch({ pin: '1' });
    terminal.punch({ pin: '2' });
    await server.waitFor((r) => r.query.get('table') === 'ATTLOG');
    expect(terminal.pendingCount).to.equal(2);
    fail = false;
    const retried = await server.waitFor(() => server.on('/iclock/cdata', 'ATTLOG').length >= 2);
    expect(retried.body.split('\n').filter(Boolean)).to.have.length(2);
    await server.waitFor((r) => r.pathname === '/iclock/getrequest' && r.at > retried.at);
    expect(terminal.pendingCount).to.equal(0);
    terminal.resendHistory();
    const before = server.on('/iclock/cdata', 'ATTLOG').length;
    await server.waitFor(() => server.on('/iclock/cdata', 'ATTLOG').length > before);
    expect(server.on('/iclock/cdata', 'ATTLOG').at(-1)!.body.split('\n').filter(Boolean)).to.have.length(2);
  });

  it('uploads users and fingerprints enrolled on the terminal as OPERLOG', async () => {
    await boot();
    terminal.start();
    await once(terminal, 'handshake');
    terminal.enrollUser('36234', { name: '36234', card: '133440', timeZones: '0001000000000000' });
    terminal.enrollFingerprint('36234', 6);
    const up = await server.waitFor((r) => r.query.get('table') === 'OPERLOG' && r.body.includes('FP PIN='));
    const lines = server
      .on('/iclock/cdata', 'OPERLOG')
      .map((r) => r.body)
      .join('')
      .split('\n')
      .filter(Boolean);
    expect(lines[0]).to.equal('USER PIN=36234\tName=36234\tPri=0\tPasswd=\tCard=133440\tGrp=1\tTZ=0001000000000000\tVerify=0\tViceCard=');
    expect(lines.at(-1)).to.match(/^FP PIN=36234\tFID=6\tSize=512\tValid=1\tTMP=[A-Za-z0-9+/]{512}$/);
    expect(up.rawPath).to.equal('/iclock/cdata?SN=SIMATT1&table=OPERLOG&Stamp=9999');
  });

  it('sends nothing after goOffline(), keeps punches, and handshakes again on goOnline()', async () => {
    await boot();
    terminal.start();
    await server.waitFor((r) => r.pathname === '/iclock/getrequest');
    terminal.goOffline();
    const count = server.requests.length;
    terminal.punch({ pin: '9' });
    await new Promise((r) => setTimeout(r, 200));
    expect(server.requests.length).to.equal(count);
    expect(terminal.pendingCount).to.equal(1);
    terminal.goOnline();
    const up = await server.waitFor((r) => r.query.get('table') === 'ATTLOG');
    expect(server.requests[count]!.query.get('options')).to.equal('all');
    expect(up.body.startsWith('9\t')).to.equal(true);
  });
});
