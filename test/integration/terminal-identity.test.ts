import { once } from 'node:events';
import { expect } from 'chai';
import { SimulatedTerminal, type HandshakeEvent } from '../../src/simulator';
import { createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData, rest } from '../support/http';
import { createTerminalDevice, fixtureBody, iclock, registerAccessTerminal, type PairedTerminal } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

const FOUR_DOORS = 'DeviceType=acc,~DeviceName=inBio460,FirmVer=AC Ver 5.7.8,PushVersion=3.1.2,LockCount=4,ReaderCount=4';

/**
 * Terminals prove who they are: an anonymous request that knows a serial can neither
 * re-register a paired controller nor learn its RegistryCode/SessionID; re-registration is an admin
 * action; PushCommKey and source allow-lists; a lower LockCount never deletes doors. Real protocol
 * bytes over HTTP, the attacker being any HTTP client without the terminal's token.
 */
describe('terminal identity: a request must prove it comes from the terminal', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  before(async () => {
    // Requests from this test come through "a proxy" on the loopback address (the allow-list test).
    t = await startTestApp(
      { TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000', TIMEGATE_TRUSTED_PROXIES: '127.0.0.1' },
      'terminal-identity',
    );
    ws = await createWorkspace(t.url, { maxCompanies: 20, maxDevices: 20 });
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const call = (method: string, path: string, body?: unknown, key = ws.key) => rest(t.url, method, path, { key, body });
  const doorsOf = async (deviceId: number) =>
    (await call('GET', `/public/v2/devices/${deviceId}/doors`)).body as Array<{ id: number; number: number; present: boolean; absent_since: string | null }>;
  const refusals = async (reason: string) => (await t.app.metrics.terminalRequestsRefused.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;

  /** A controller of the workspace, registered with four doors and paired (it sent its token once). */
  async function pairedController(): Promise<{ device: { id: number; serial_number: string; company_id: number }; session: PairedTerminal }> {
    const device = (await createTerminalDevice(t.url, ws.key, { mode_type: 'acc' })) as any;
    expect((await iclock(t.url, 'GET', `/iclock/cdata?SN=${device.serial_number}&options=all&pushver=3.1.2&DeviceType=acc`)).text).to.equal('OK');
    const session = await registerAccessTerminal(t.url, device.serial_number, FOUR_DOORS);
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${device.serial_number}`, undefined, session.cookie)).status).to.equal(200);
    expect((await call('GET', `/public/v2/devices/${device.id}`)).body).to.include({ pairing: 'paired' });
    return { device, session };
  }

  /** An access level over all four doors of the controller, with one member; returns its id and the member's grant on the terminal. */
  async function levelOverAllDoors(device: { id: number; company_id: number }) {
    const doors = await doorsOf(device.id);
    const always = (await call('GET', `/public/v2/access_schedules?company_id=${device.company_id}`)).body[0];
    const level = (
      await call('POST', '/public/v2/access_levels', {
        company_id: device.company_id,
        name: 'All doors',
        schedule_id: always.id,
        door_ids: doors.map((d) => d.id),
      })
    ).body;
    const ada = await createEmployee(t.url, ws.key, device.company_id, { pin: '4401' });
    expect((await call('POST', `/public/v2/access_levels/${level.id}/employees`, [{ employee_id: ada.id }])).status).to.be.lessThan(300);
    return { level, ada, doorIds: doors.map((d) => d.id) };
  }
  const grantMask = async (deviceId: number, employeeId: number) =>
    ((await sql('select access from device_user where device_id = ? and employee_id = ?', [deviceId, employeeId]))[0]?.access ?? []).reduce(
      (mask: number, g: any) => mask | g.doorMask,
      0,
    );

  it('an anonymous registry with LockCount=1 for a paired controller is refused (406) and its four doors and access level stay intact', async () => {
    const { device } = await pairedController();
    const { level, ada, doorIds } = await levelOverAllDoors(device);
    expect(await grantMask(device.id, ada.id)).to.equal(0b1111);

    // The attack of the finding, from anyone on the internet who knows the serial (no cookie).
    const attack = await iclock(t.url, 'POST', `/iclock/registry?SN=${device.serial_number}`, 'DeviceType=acc,~DeviceName=x,LockCount=1', {
      'content-type': 'application/push;charset=UTF-8',
    });
    expect(attack.status).to.equal(406);
    expect(attack.text).to.not.match(/RegistryCode/);
    // Nor does a forged attendance handshake or upload switch it to a one-door time clock.
    expect((await iclock(t.url, 'GET', `/iclock/cdata?SN=${device.serial_number}&options=all&DeviceType=att`)).text).to.equal('OK');
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG`, '4401\t2026-01-15 10:00:00\t0\t1\t\t0\t0')).status).to.equal(
      401,
    );

    const [row] = await sql("select protocol, mode_type, reported_options->>'LockCount' as lock_count from device where id = ?", [device.id]);
    expect(row).to.deep.equal({ protocol: 'acc-push', mode_type: 'acc', lock_count: '4' });
    expect((await doorsOf(device.id)).map((d) => [d.id, d.present])).to.deep.equal(doorIds.map((id) => [id, true]));
    expect((await call('GET', `/public/v2/access_levels/${level.id}`)).body.door_ids).to.have.members(doorIds);
    expect(await grantMask(device.id, ada.id)).to.equal(0b1111);
  });

  it('a missing session cookie is refused like a wrong one', async () => {
    const { device, session } = await pairedController();
    const sn = device.serial_number;
    const wrong = { cookie: 'token=0123456789abcdef0123456789abcdef' };
    const options = '~DeviceName=inBio460,LockCount=1,MultiBioVersion=0:10.0:0:0';
    for (const headers of [{}, wrong] as Array<Record<string, string>>) {
      const label = Object.keys(headers).length === 0 ? 'missing' : 'wrong';
      expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${sn}&table=options`, options, headers)).status, `options, ${label}`).to.equal(401);
      expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`, undefined, headers)).status, `poll, ${label}`).to.equal(401);
      expect((await iclock(t.url, 'POST', `/iclock/registry?SN=${sn}`, FOUR_DOORS, headers)).status, `registry, ${label}`).to.equal(406);
      const rtlog = 'time=2026-01-15 10:00:00\tpin=0\tcardno=0\teventaddr=1\tevent=8\tinoutstatus=0\tverifytype=200\tindex=77';
      expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${sn}&table=rtlog`, rtlog, headers)).status, `rtlog, ${label}`).to.equal(401);
    }
    expect((await sql('select count(*)::int as n from door_event where device_id = ?', [device.id]))[0].n).to.equal(0);
    expect((await sql("select reported_options->>'LockCount' as n from device where id = ?", [device.id]))[0].n).to.equal('4');
    // The terminal itself, with its cookie, goes on as before.
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${sn}&table=options`, options.replace('LockCount=1', 'LockCount=4'), session.cookie)).text).to.equal(
      'OK',
    );
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`, undefined, session.cookie)).text).to.equal('OK');
  });

  it('the handshake and push give no RegistryCode or SessionID to a request that cannot prove it is the paired terminal', async () => {
    const { device, session } = await pairedController();
    const sn = device.serial_number;
    for (const headers of [{}, { cookie: 'token=0123456789abcdef0123456789abcdef' }] as Array<Record<string, string>>) {
      const handshake = await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=3.1.2&DeviceType=acc`, undefined, headers);
      expect(handshake.text).to.equal('OK');
      const push = await iclock(t.url, 'POST', `/iclock/push?SN=${sn}`, '', headers);
      expect(push.status).to.equal(401);
      for (const text of [handshake.text, push.text]) {
        expect(text).to.not.include(session.registryCode);
        expect(text).to.not.include(session.sessionId);
      }
    }
    const proven = await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=3.1.2`, undefined, session.cookie);
    expect(proven.text.split('\n').slice(0, 2)).to.deep.equal(['registry=ok', `RegistryCode=${session.registryCode}`]);
    expect(proven.text).to.include(`SessionID=${session.sessionId}`);
    expect(await refusals('pairing')).to.be.greaterThan(0);
  });

  it('resetting the pairing (admin only, audited) lets the next registration in, with new codes; the old token no longer works', async () => {
    const { device, session } = await pairedController();
    const sn = device.serial_number;
    const writer = await createKey(t.url, ws.key, ['read', 'write']);
    expect((await call('POST', `/public/v2/devices/${device.id}/reset_pairing`, undefined, writer)).status).to.equal(403);
    const other = await createWorkspace(t.url);
    expect((await call('POST', `/public/v2/devices/${device.id}/reset_pairing`, undefined, other.key)).status).to.equal(404);
    expect((await iclock(t.url, 'POST', `/iclock/registry?SN=${sn}`, FOUR_DOORS)).status).to.equal(406);

    const reset = await call('POST', `/public/v2/devices/${device.id}/reset_pairing`);
    expect(reset.status).to.equal(200);
    expect(reset.body).to.include({ id: device.id, pairing: 'unpaired', paired_at: null });
    const [audit] = await sql("select outcome, arguments from audit_event where operation = 'resetTerminalPairing' order by id desc limit 1");
    expect(audit).to.deep.equal({ outcome: 'ok', arguments: { deviceId: device.id } });

    // The replaced controller registers as a new one would.
    expect((await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=3.1.2&DeviceType=acc`)).text).to.equal('OK');
    const again = await registerAccessTerminal(t.url, sn, FOUR_DOORS);
    expect(again.registryCode).to.not.equal(session.registryCode);
    expect(again.sessionId).to.not.equal(session.sessionId);
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`, undefined, session.cookie)).status).to.equal(401);
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`, undefined, again.cookie)).status).to.equal(200);
    const gql = await gqlData(t.url, ws.key, `{ device(id: ${device.id}) { pairing pairedAt } }`);
    expect(gql.device.pairing).to.equal('paired');
    expect(gql.device.pairedAt).to.be.a('string');
    // The GraphQL mutation is the same operation.
    const viaGraphql = await gqlData(t.url, ws.key, `mutation { resetTerminalPairing(deviceId: ${device.id}) { pairing } }`);
    expect(viaGraphql.resetTerminalPairing.pairing).to.equal('unpaired');
  });

  it('PushCommKey: once set, an attendance handshake without it or with another is refused (403), the right one is answered; it is never shown or audited', async () => {
    const clock = await createTerminalDevice(t.url, ws.key);
    const sn = clock.serial_number;
    const key = '4a9594af164f2b9779b59e8554b5df26';
    const updated = await call('PUT', `/public/v2/devices/${clock.id}`, { push_comm_key: key });
    expect(updated.status).to.equal(200);
    expect(updated.body.push_comm_key_set).to.equal(true);
    expect(JSON.stringify(updated.body)).to.not.include(key);
    const [audit] = await sql("select arguments from audit_event where operation = 'updateDevice' order by id desc limit 1");
    expect(JSON.stringify(audit.arguments)).to.not.include(key);

    // fx 25's request line, this device's serial.
    const handshake = (commKey?: string) =>
      iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=2.2.14&language=83${commKey === undefined ? '' : `&pushcommkey=${commKey}`}`);
    expect((await handshake()).status).to.equal(403);
    expect((await handshake('00000000000000000000000000000000')).status).to.equal(403);
    const ok = await handshake(key);
    expect(ok.status).to.equal(200);
    expect(ok.text).to.match(new RegExp(`^GET OPTION FROM: ${sn}\n`));
    // A request carrying a wrong key is refused wherever it comes; uploads without one go on (the firmware sends it in the handshake).
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}&pushcommkey=nope`)).status).to.equal(403);
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`)).status).to.equal(200);
    expect((await call('PUT', `/public/v2/devices/${clock.id}`, { push_comm_key: 'has space' })).status).to.equal(422);
    expect((await call('PUT', `/public/v2/devices/${clock.id}`, { push_comm_key: null })).body.push_comm_key_set).to.equal(false);
    expect((await handshake()).status).to.equal(200);

    // For a paired controller, the key proves the terminal where its cookie is missing.
    const { device, session } = await pairedController();
    await call('PUT', `/public/v2/devices/${device.id}`, { push_comm_key: key });
    const proven = await iclock(t.url, 'GET', `/iclock/cdata?SN=${device.serial_number}&options=all&pushver=3.1.2&pushcommkey=${key}`);
    expect(proven.text).to.include(`RegistryCode=${session.registryCode}`);
  });

  it('a source allow-list refuses requests from other addresses (counted), taking X-Forwarded-For only from a trusted proxy', async () => {
    const { device, session } = await pairedController();
    const sn = device.serial_number;
    const bad = await call('PUT', `/public/v2/devices/${device.id}`, { allowed_source_cidrs: ['203.0.113.0/24', '10.0.0.0/33'] });
    expect(bad.status).to.equal(422);
    expect(bad.body.error.details[0]).to.include({ field: 'allowed_source_cidrs', code: 'invalid_cidr' });
    const set = await call('PUT', `/public/v2/devices/${device.id}`, { allowed_source_cidrs: ['203.0.113.0/24', '2001:db8::/32'] });
    expect(set.body.allowed_source_cidrs).to.deep.equal(['203.0.113.0/24', '2001:db8::/32']);

    const before = await refusals('source_address');
    const from = (address: string) => ({ ...session.cookie, 'x-forwarded-for': address });
    // The test's loopback peer is the trusted proxy; the client is the nearest untrusted hop.
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`, undefined, from('198.51.100.7'))).status).to.equal(403);
    expect((await iclock(t.url, 'POST', `/iclock/registry?SN=${sn}`, FOUR_DOORS, from('198.51.100.7'))).status).to.equal(406);
    // A client cannot pick its own address by writing the header itself: only the last hop counts.
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`, undefined, from('203.0.113.9, 198.51.100.7'))).status).to.equal(403);
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`, undefined, session.cookie)).status).to.equal(403);
    expect(await refusals('source_address')).to.equal(before + 4);
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`, undefined, from('198.51.100.7, 203.0.113.9'))).status).to.equal(200);
    await t.app.terminals.flush();
    expect((await sql('select remote_address from device where id = ?', [device.id]))[0].remote_address).to.equal('203.0.113.9');

    expect((await call('PUT', `/public/v2/devices/${device.id}`, { allowed_source_cidrs: [] })).body.allowed_source_cidrs).to.equal(null);
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`, undefined, session.cookie)).status).to.equal(200);
  });

  it('LockCount 4 → 1 → 4 keeps the door ids, names and access-level membership; absent doors are left out of what the terminal is sent', async () => {
    const { device, session } = await pairedController();
    const { level, ada, doorIds } = await levelOverAllDoors(device);
    await call('PUT', `/public/v2/doors/${doorIds[2]}`, { name: 'Loading bay' });

    expect(
      (await iclock(t.url, 'POST', `/iclock/registry?SN=${device.serial_number}`, FOUR_DOORS.replace('LockCount=4', 'LockCount=1'), session.cookie)).text,
    ).to.equal(`RegistryCode=${session.registryCode}`);
    const one = await doorsOf(device.id);
    expect(one.map((d) => [d.id, d.present])).to.deep.equal([
      [doorIds[0], true],
      [doorIds[1], false],
      [doorIds[2], false],
      [doorIds[3], false],
    ]);
    expect(one[1]!.absent_since).to.be.a('string');
    expect((await call('GET', `/public/v2/access_levels/${level.id}`)).body.door_ids).to.have.members(doorIds);
    expect(await grantMask(device.id, ada.id)).to.equal(0b0001);
    const unlock = await call('POST', `/public/v2/doors/${doorIds[1]}/actions`, { action: 'unlock', duration: 3 });
    expect(unlock.status).to.equal(422);
    expect(unlock.body.error.details[0]).to.include({ field: 'door_id', code: 'door_absent' });

    await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=options`, 'LockCount=4', session.cookie);
    const four = await doorsOf(device.id);
    expect(four.map((d) => [d.id, d.present, d.absent_since])).to.deep.equal(doorIds.map((id) => [id, true, null]));
    expect(four[2]).to.include({ name: 'Loading bay' });
    expect((await call('GET', `/public/v2/access_levels/${level.id}`)).body.door_ids).to.have.members(doorIds);
    expect(await grantMask(device.id, ada.id)).to.equal(0b1111);
  });

  it('a controller that lost its push reply (registered, never paired) registers again and pairs without an operator; the earlier codes stop working', async () => {
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc' });
    const sn = device.serial_number;
    // The start-up storm: the registry was answered, the push too, but the push reply never reached
    // the terminal (a 503 from the balancer, a dropped connection): it holds no SessionID.
    expect((await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=3.1.2&DeviceType=acc`)).text).to.equal('OK');
    const lost = await registerAccessTerminal(t.url, sn, FOUR_DOORS);
    expect((await call('GET', `/public/v2/devices/${device.id}`)).body.pairing).to.equal('registered');

    // It starts over as the protocol has it (handshake, registry, push, then the token), with real bytes.
    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: sn, family: 'acc', lockCount: 4, pollIntervalMs: 50, errorDelayMs: 50 });
    terminal.start();
    try {
      const [handshake] = (await once(terminal, 'handshake')) as [HandshakeEvent];
      await waitUntil(
        'the controller is paired',
        async () => (await call('GET', `/public/v2/devices/${device.id}`)).body.pairing,
        (v) => v === 'paired',
      );
      expect(terminal.stats.errors).to.equal(0);
      expect(handshake.registryCode).to.not.equal(lost.registryCode);
      expect(handshake.sessionId).to.not.equal(lost.sessionId);
      // Whoever held the first codes (the terminal itself, or someone who raced it) is out.
      expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`, undefined, lost.cookie)).status).to.equal(401);

      // Paired now: an impersonator's registry is refused, with or without the stale token, and learns nothing.
      for (const headers of [{}, lost.cookie] as Array<Record<string, string>>) {
        const attack = await iclock(t.url, 'POST', `/iclock/registry?SN=${sn}`, FOUR_DOORS.replace('LockCount=4', 'LockCount=1'), headers);
        expect(attack.status).to.equal(406);
        expect(attack.text).to.not.include(handshake.registryCode!);
      }
      const [row] = await sql("select registry_code, session_id, reported_options->>'LockCount' as lock_count from device where id = ?", [device.id]);
      expect(row).to.deep.equal({ registry_code: handshake.registryCode, session_id: handshake.sessionId, lock_count: '4' });
      const polled = terminal.stats.polls;
      await waitUntil(
        'the controller goes on polling with its token',
        async () => terminal.stats.polls,
        (n) => n > polled + 2,
      );
      expect(terminal.stats.errors).to.equal(0);
    } finally {
      await terminal.stop();
    }
  });

  it('a simulated controller stays paired across a reconnect: its stored cookie proves it on the next handshake', async () => {
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc' });
    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: device.serial_number, family: 'acc', pollIntervalMs: 50, errorDelayMs: 50 });
    terminal.start();
    try {
      const [first] = (await once(terminal, 'handshake')) as [HandshakeEvent];
      await waitUntil(
        'the controller is paired',
        async () => (await call('GET', `/public/v2/devices/${device.id}`)).body.pairing,
        (v) => v === 'paired',
      );
      terminal.goOffline();
      terminal.goOnline();
      const [second] = (await once(terminal, 'handshake')) as [HandshakeEvent];
      expect(second).to.include({ registryCode: first.registryCode, sessionId: first.sessionId });
      expect(terminal.stats.errors).to.equal(0);
    } finally {
      await terminal.stop();
    }
  });

  it('the first registration and handshake of a new controller need no cookie; attendance terminals have no session and are not asked for one', async () => {
    const device = await createTerminalDevice(t.url, ws.key);
    const sn = device.serial_number;
    expect((await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=3.1.2&DeviceType=acc`)).text).to.equal('OK');
    const session = await registerAccessTerminal(t.url, sn, fixtureBody('33-zkdoc-acc-registry-F20M.txt'));
    expect((await call('GET', `/public/v2/devices/${device.id}`)).body.pairing).to.equal('registered');
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${sn}&table=options`, '~DeviceName=F20/M', session.cookie)).text).to.equal('OK');
    expect((await call('GET', `/public/v2/devices/${device.id}`)).body.pairing).to.equal('paired');

    const clock = await createTerminalDevice(t.url, ws.key);
    expect((await iclock(t.url, 'GET', `/iclock/cdata?SN=${clock.serial_number}&options=all&pushver=2.4.1`)).text).to.match(/^GET OPTION FROM: /);
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${clock.serial_number}&table=ATTLOG`, '1\t2026-01-15 10:00:00\t0\t1\t\t0\t0')).text).to.equal(
      'OK: 1',
    );
    expect((await call('GET', `/public/v2/devices/${clock.id}`)).body.pairing).to.equal('unpaired');
  });
});
