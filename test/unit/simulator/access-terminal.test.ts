import { once } from 'node:events';
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { SimulatedTerminal, type HandshakeEvent } from '../../../src/simulator';
import { protocolScript, RecordingServer, type ScriptOptions } from './recording-server';

const md5 = (s: string): string => createHash('md5').update(s).digest('hex');

describe('simulator: access-control terminal against a recording server', () => {
  let server: RecordingServer;
  let terminal: SimulatedTerminal;

  async function boot(script: ScriptOptions = {}): Promise<void> {
    server = await RecordingServer.start(protocolScript(script));
    terminal = new SimulatedTerminal({ serverUrl: server.url, serialNumber: 'SIMACC1', family: 'acc', pollIntervalMs: 50, errorDelayMs: 50 });
  }

  afterEach(async () => {
    await terminal?.stop();
    await server?.close();
  });

  it('registers, fetches the push config and sends the md5 token cookie on every request', async () => {
    await boot();
    terminal.start();
    const [event] = (await once(terminal, 'handshake')) as [HandshakeEvent];
    await server.waitFor((r) => r.pathname === '/iclock/getrequest');
    const [hs, reg, push] = server.requests;
    expect(hs!.rawPath).to.equal('/iclock/cdata?SN=SIMACC1&options=all&pushver=3.1.2&DeviceType=acc');
    expect(hs!.headers.cookie).to.equal(undefined);
    expect(reg!.rawPath).to.equal('/iclock/registry?SN=SIMACC1');
    expect(reg!.headers['content-type']).to.equal('application/push;charset=UTF-8');
    expect(reg!.body).to.match(/^DeviceType=acc,~DeviceName=F20\/M,FirmVer=[^,]+,PushVersion=3\.1\.2,MAC=[0-9a-f:]{17},LockCount=1,/);
    expect([push!.method, push!.rawPath, push!.body, push!.headers['content-length']]).to.deep.equal(['POST', '/iclock/push?SN=SIMACC1', '', '0']);
    const token = md5('Uy47fxftP3' + 'SIMACC1' + '30BFB04B2C8AECC72C01C03BFD549D15');
    expect(event).to.include({ registryCode: 'Uy47fxftP3', sessionId: '30BFB04B2C8AECC72C01C03BFD549D15', token });
    for (const r of server.requests.slice(3)) expect(r.headers.cookie).to.equal(`token=${token}`);
    const rtstate = server.on('/iclock/cdata', 'rtstate')[0]!;
    expect(rtstate.body).to.match(/^time=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\tsensor=01\trelay=01\talarm=0{16}\n$/);
  });

  it('keeps its token across a reconnect: the next handshake and registry carry the cookie, as a controller does', async () => {
    await boot();
    terminal.start();
    const [first] = (await once(terminal, 'handshake')) as [HandshakeEvent];
    terminal.goOffline();
    const seen = server.requests.length;
    terminal.goOnline();
    await once(terminal, 'handshake');
    const after = server.requests.slice(seen);
    const handshake = after.find((r) => r.pathname === '/iclock/cdata' && r.method === 'GET');
    const registry = after.find((r) => r.pathname === '/iclock/registry');
    expect(handshake!.headers.cookie).to.equal(`token=${first.token}`);
    // The recording server answers every handshake "not registered": the terminal registers with its cookie.
    expect(registry!.headers.cookie).to.equal(`token=${first.token}`);
  });

  it('skips registry when the handshake says registry=ok and signs the push with that session', async () => {
    await boot({ registered: true });
    terminal.start();
    await once(terminal, 'handshake');
    expect(server.on('/iclock/registry')).to.have.length(0);
    expect(server.on('/iclock/push')[0]!.headers.cookie).to.equal(`token=${md5('REGCODE1SIMACC1SESSIONFROMHS')}`);
  });

  it('uploads punches as key=value rtlog with stable indexes', async () => {
    await boot();
    terminal.start();
    await once(terminal, 'handshake');
    terminal.punch({ pin: '41235478', at: new Date(Date.UTC(2026, 8, 28, 11, 40, 45)) });
    const up = await server.waitFor((r) => r.query.get('table') === 'rtlog');
    expect(up.rawPath).to.equal('/iclock/cdata?SN=SIMACC1&table=rtlog');
    expect(up.body).to.equal('time=2026-09-28 11:40:45\tpin=41235478\tcardno=0\teventaddr=1\tevent=0\tinoutstatus=0\tverifytype=1\tindex=1\n');
  });

  it('re-sends tabledata until the reply echoes <table>=<count>', async () => {
    let userUploads = 0;
    await boot({ upload: (r) => (r.query.get('tablename') === 'user' && ++userUploads === 1 ? 'OK' : undefined) });
    terminal.start();
    await once(terminal, 'handshake');
    terminal.enrollUser('1', { name: '', privilege: '14' });
    terminal.enrollUser('2', { name: '' });
    await server.waitFor(() => server.on('/iclock/cdata', 'tabledata').length >= 2);
    const [first, second] = server.on('/iclock/cdata', 'tabledata');
    expect(first!.rawPath).to.equal('/iclock/cdata?SN=SIMACC1&table=tabledata&tablename=user&count=2');
    expect(second!.body).to.equal(first!.body);
    expect(first!.body.split('\n')[0]).to.equal(
      'user uid=1\tcardno=\tpin=1\tpassword=\tgroup=1\tstarttime=0\tendtime=0\tname=\tprivilege=14\tdisable=0\tverify=0',
    );
  });

  it('opens the door on CONTROL DEVICE, echoes the full verb and logs event 8', async () => {
    await boot({ commandReplies: ['C:224:CONTROL DEVICE 01010105\nC:225:DATA UPDATE user CardNo=\tPin=3\tName=Di\tPrivilege=0'] });
    terminal.start();
    const results = await server.waitFor((r) => r.pathname === '/iclock/devicecmd');
    expect(results.body).to.equal('ID=224&Return=0&CMD=CONTROL DEVICE\nID=225&Return=0&CMD=DATA UPDATE');
    expect(results.headers.cookie).to.match(/^token=[0-9a-f]{32}$/);
    const rtlog = await server.waitFor((r) => r.query.get('table') === 'rtlog');
    expect(rtlog.body).to.match(/\tpin=0\tcardno=0\teventaddr=1\tevent=8\tinoutstatus=2\tverifytype=200\tindex=1\n$/);
    expect(terminal.store.doorOpens).to.equal(1);
    expect(terminal.store.users.get('3')?.name).to.equal('Di');
  });

  it('retries the whole handshake when the registry is refused', async () => {
    let refusals = 0;
    server = await RecordingServer.start((r) => (r.pathname === '/iclock/registry' && ++refusals === 1 ? { status: 406, body: '' } : protocolScript()(r)));
    terminal = new SimulatedTerminal({ serverUrl: server.url, serialNumber: 'SIMACC2', family: 'acc', pollIntervalMs: 50, errorDelayMs: 30 });
    const errors: Error[] = [];
    terminal.on('error', (e: Error) => errors.push(e));
    // events.once() would reject on the 'error' event this test expects
    const handshake = new Promise((resolve) => terminal.once('handshake', resolve));
    terminal.start();
    await handshake;
    expect(errors[0]?.message).to.match(/HTTP 406/);
    expect(server.on('/iclock/registry')).to.have.length(2);
  });
});
