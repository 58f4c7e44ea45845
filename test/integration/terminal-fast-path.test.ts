import { expect } from 'chai';
import pino from 'pino';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import type { RequestContext } from '../../src/context/request-context';
import { enqueueCommand } from '../../src/services/commands/command-queue';
import { recordTemplateAlgorithms } from '../../src/services/terminals/terminal.service';
import { createWorkspace } from '../support/factories';
import { createTerminalDevice, iclock, rawExchange } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

const MANUAL = { TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' };

describe('terminal fast path (/iclock outside Express)', () => {
  let t: TestApp;
  let key: string;
  const clock = Date.parse('2026-03-02T07:00:00Z');
  const now = () => new Date(clock);
  const date = new Date(clock).toUTCString();
  before(async () => {
    t = await startTestApp(MANUAL, 'fastpath', { now });
    key = (await createWorkspace(t.url, { maxCompanies: 100, maxDevices: 100 })).key;
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const ctx = (): RequestContext => ({
    principal: { kind: 'terminal', serialNumber: '*' },
    em: t.app.database.orm.em.fork(),
    requestId: 'test',
    logger: t.app.logger,
    now,
    config: t.config,
  });
  const head = (line: string, extra = '') => `${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: iClock Proxy/1.09\r\nConnection: close\r\n${extra}\r\n`;
  const reply = (status: string, body: string) =>
    `HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nDate: ${date}\r\nConnection: close\r\n\r\n${body}`;

  it('answers handshake, empty poll, poll with commands and an upload with the same bytes as the Express adapter did', async () => {
    const device = await createTerminalDevice(t.url, key, { time_zone: 'America/Sao_Paulo' });
    const sn = device.serial_number;
    const handshake = await rawExchange(t.url, head(`GET /iclock/cdata?SN=${sn}&options=all&pushver=2.4.1&language=69`));
    const block = [
      `GET OPTION FROM: ${sn}`,
      'ATTLOGStamp=9999',
      'OPERLOGStamp=9999',
      'ATTPHOTOStamp=None',
      'BIODATAStamp=9999',
      'ErrorDelay=30',
      'Delay=10',
      'TransTimes=00:00;14:05',
      'TransInterval=1',
      'TransFlag=TransData AttLog\tOpLog\tEnrollUser\tChgUser\tEnrollFP\tChgFP\tFACE\tWORKCODE',
      'TimeZone=-3',
      'Realtime=1',
      'Encrypt=None',
      'ServerVer=2.3.0',
      'PushProtVer=2.3.0',
      'PushOptionsFlag=1',
      'PushOptions=FingerFunOn,FaceFunOn,MultiBioDataSupport,MultiBioPhotoSupport,MultiBioVersion,MultiBioDataCount,MaxMultiBioDataCount,BioPhotoFun,VisilightFun,PhotoFunOn',
    ].join('\n');
    expect(handshake).to.equal(reply('200 OK', block));
    expect(await rawExchange(t.url, head(`GET /iclock/getrequest?SN=${sn}`))).to.equal(reply('200 OK', 'OK'));

    const [{ workspace_id }] = await sql('select workspace_id from device where id = ?', [device.id]);
    const command = await enqueueCommand(ctx(), { workspaceId: workspace_id, deviceId: device.id, kind: 'test', command: 'INFO' });
    expect(await rawExchange(t.url, head(`GET /iclock/getrequest?SN=${sn}`))).to.equal(reply('200 OK', `C:${command.commandId}:INFO`));
    expect(await rawExchange(t.url, head(`GET /iclock/getrequest?SN=${sn}`))).to.equal(reply('200 OK', 'OK'));

    const body = '7\t2026-03-02 04:00:00\t0\t1\t\t0\t0\n';
    const upload = await rawExchange(t.url, head(`POST /iclock/cdata?SN=${sn}&table=ATTLOG&Stamp=9999`, `Content-Length: ${body.length}\r\n`), body);
    expect(upload).to.equal(reply('200 OK', 'OK: 1'));
    expect(await rawExchange(t.url, head(`GET /iclock/getrequest?SN=NOSUCH1`))).to.equal(
      reply('403 Forbidden', 'Unknown device NOSUCH1: register this serial number in Timegate'),
    );
    expect(await rawExchange(t.url, head(`GET /iclock/getrequest`))).to.equal(reply('400 Bad Request', 'SN is required'));
    expect(await rawExchange(t.url, head(`GET /iclock/nosuch?SN=${sn}`))).to.equal(reply('404 Not Found', 'Not Found'));
  });

  it('a heartbeat writes nothing: the device row keeps its xmin across many polls', async () => {
    const device = await createTerminalDevice(t.url, key);
    const sn = device.serial_number;
    await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all`);
    await t.app.terminals.flush();
    const [before] = await sql('select xmin::text as v from device where id = ?', [device.id]);
    const replies = await Promise.all(Array.from({ length: 200 }, () => iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`)));
    expect(new Set(replies.map((r) => r.text))).to.deep.equal(new Set(['OK']));
    const [after] = await sql('select xmin::text as v from device where id = ?', [device.id]);
    expect(after.v).to.equal(before.v);
  });

  it('a command queued by another process (no in-process notice) goes out once the device cache entry is reloaded', async () => {
    const device = await createTerminalDevice(t.url, key);
    const sn = device.serial_number;
    const reloading = await createApp(
      loadConfig({
        DATABASE_URL: t.config.databaseUrl!,
        PORT: '0',
        HOST: '127.0.0.1',
        TIMEGATE_MASTER_KEY: 'm'.repeat(40),
        TIMEGATE_DEVICE_CACHE_TTL_MS: '0',
        ...MANUAL,
      }),
      { logger: pino({ level: 'silent' }), now },
    );
    try {
      expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text).to.equal('OK');
      expect((await iclock(reloading.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text).to.equal('OK');
      const [{ workspace_id }] = await sql('select workspace_id from device where id = ?', [device.id]);
      await sql(
        `insert into device_command (workspace_id, device_id, command_id, command, kind, status, attempts, created_at) values (?, ?, 'other1', 'INFO', 'test', 'queued', 0, now())`,
        [workspace_id, device.id],
      );
      // This process's entry is fresh (TTL 5 s) and it heard of no command: still nothing to say.
      expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text).to.equal('OK');
      // A process whose entry is reloaded reads the queue flag from the database.
      expect((await iclock(reloading.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text).to.equal('C:other1:INFO');
    } finally {
      await reloading.stop();
    }
  });

  it('a poll whose INFO reports new algorithm versions stores them at once, not with the presence batch', async () => {
    const device = await createTerminalDevice(t.url, key);
    const info = encodeURIComponent('Ver 8.0.4-20190101,0,0,0,192.168.1.201,12,7,15,0,111');
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${device.serial_number}&INFO=${info}`)).text).to.equal('OK');
    // The presence batch (with the INFO counters) is an hour away here: the versions did not wait for it.
    expect(await sql('select fp_algorithm, face_algorithm, user_count from device where id = ?', [device.id])).to.deep.equal([
      { fp_algorithm: '12', face_algorithm: '7', user_count: null },
    ]);
    // A later report of one of them keeps the other.
    await recordTemplateAlgorithms(ctx(), device.id, { fpAlgorithm: '13' });
    expect(await sql('select fp_algorithm, face_algorithm from device where id = ?', [device.id])).to.deep.equal([{ fp_algorithm: '13', face_algorithm: '7' }]);
  });

  it('a poll whose versions could not be stored (503) stores them on the next poll with the same INFO', async () => {
    const device = await createTerminalDevice(t.url, key);
    const info = encodeURIComponent('Ver 8.0.4-20190101,0,0,0,192.168.1.201,66,7,15,0,111');
    // The first write of fingerprint version 66 fails (a sequence: its step survives the rollback).
    await sql(`create sequence fail_fp66`);
    await sql(`create function fail_fp66() returns trigger language plpgsql as $$
      begin
        if new.fp_algorithm = '66' and old.fp_algorithm is distinct from '66' and nextval('fail_fp66') = 1 then raise exception 'injected failure'; end if;
        return new;
      end $$`);
    await sql(`create trigger fail_fp66 before update on device for each row execute function fail_fp66()`);
    try {
      expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${device.serial_number}&INFO=${info}`)).status).to.equal(503);
      expect(await sql('select fp_algorithm from device where id = ?', [device.id])).to.deep.equal([{ fp_algorithm: null }]);
      expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${device.serial_number}&INFO=${info}`)).text).to.equal('OK');
      expect(await sql('select fp_algorithm from device where id = ?', [device.id])).to.deep.equal([{ fp_algorithm: '66' }]);
    } finally {
      await sql('drop trigger fail_fp66 on device');
      await sql('drop function fail_fp66()');
      await sql('drop sequence fail_fp66');
    }
  });

  it('a cache refresh picks up, without reloading each entry, commands queued, serials changed and devices deleted by another process', async () => {
    const device = await createTerminalDevice(t.url, key);
    const other = await createTerminalDevice(t.url, key);
    const gone = await createTerminalDevice(t.url, key);
    const sn = device.serial_number;
    // An hour's TTL: the timer refresh (every half TTL) cannot run during the test, only the one called below.
    const cached = await createApp(
      loadConfig({
        DATABASE_URL: t.config.databaseUrl!,
        PORT: '0',
        HOST: '127.0.0.1',
        TIMEGATE_MASTER_KEY: 'm'.repeat(40),
        TIMEGATE_DEVICE_CACHE_TTL_MS: '3600000',
        ...MANUAL,
      }),
      { logger: pino({ level: 'silent' }), now },
    );
    try {
      expect((await iclock(cached.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text).to.equal('OK');
      expect((await iclock(cached.url, 'GET', `/iclock/getrequest?SN=${other.serial_number}`)).text).to.equal('OK');
      expect((await iclock(cached.url, 'GET', `/iclock/getrequest?SN=${gone.serial_number}`)).text).to.equal('OK');
      const [{ workspace_id }] = await sql('select workspace_id from device where id = ?', [device.id]);
      await sql(
        `insert into device_command (workspace_id, device_id, command_id, command, kind, status, attempts, created_at) values (?, ?, 'other2', 'INFO', 'test', 'queued', 0, now())`,
        [workspace_id, device.id],
      );
      await sql('update device set serial_number = ? where id = ?', [`${other.serial_number}X`, other.id]);
      await sql('delete from device where id = ?', [gone.id]);
      // The entries are fresh and this process heard of nothing: still the cached answers.
      expect((await iclock(cached.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text).to.equal('OK');
      expect((await iclock(cached.url, 'GET', `/iclock/getrequest?SN=${other.serial_number}`)).text).to.equal('OK');
      await cached.terminals.refreshCache();
      expect((await iclock(cached.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text).to.equal('C:other2:INFO');
      expect((await iclock(cached.url, 'GET', `/iclock/getrequest?SN=${other.serial_number}`)).status).to.equal(403);
      expect((await iclock(cached.url, 'GET', `/iclock/getrequest?SN=${gone.serial_number}`)).status).to.equal(403);
    } finally {
      await cached.stop();
    }
  });
});
