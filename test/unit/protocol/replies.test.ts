import { expect } from 'chai';
import {
  ALL_TRANS_FLAGS,
  OK,
  accessHandshakeReply,
  attendanceHandshakeReply,
  commandBatchReply,
  openDoorCommand,
  pushConfigReply,
  queryParams,
  rtdataTimeReply,
  timeZoneOption,
  updateUserInfoCommand,
} from '../../../src/protocol';
import { loadFixture } from './fixture';

describe('replies', () => {
  it('fx 01: attendance handshake block for BOCK200961014, LF separated, no trailing LF', () => {
    const fx = loadFixture('01');
    const q = queryParams(fx.query);
    expect(q.get('devicetype')).to.equal('middle east');
    const reply = attendanceHandshakeReply(q.get('sn')!, { timeZone: timeZoneOption('UTC', new Date()), pushOptions: ['FingerFunOn', 'FaceFunOn'] });
    expect(reply).to.equal(
      [
        'GET OPTION FROM: BOCK200961014',
        'ATTLOGStamp=9999',
        'OPERLOGStamp=9999',
        'ATTPHOTOStamp=None',
        'BIODATAStamp=9999',
        'ErrorDelay=30',
        'Delay=10',
        'TransTimes=00:00;14:05',
        'TransInterval=1',
        'TransFlag=TransData AttLog\tOpLog\tAttPhoto\tEnrollUser\tChgUser\tEnrollFP\tChgFP\tUserPic\tFACE\tWORKCODE\tBioPhoto',
        'TimeZone=0',
        'Realtime=1',
        'Encrypt=None',
        'ServerVer=2.3.0',
        'PushProtVer=2.3.0',
        'PushOptionsFlag=1',
        'PushOptions=FingerFunOn,FaceFunOn',
      ].join('\n'),
    );
    expect(reply).not.to.match(/\r|\n$/);
    expect(ALL_TRANS_FLAGS).to.include('OpLog');
  });

  it('fx 25: reproduces the vendor sample lines for SN 0316144680030 (TimeZone 8, stamps None/9999)', () => {
    const fx = loadFixture('25');
    const sn = queryParams(fx.query).get('SN')!;
    const reply = attendanceHandshakeReply(sn, {
      attlogStamp: 'None',
      operlogStamp: '9999',
      attphotoStamp: 'None',
      transFlags: ALL_TRANS_FLAGS.slice(0, 8),
      timeZone: timeZoneOption('Asia/Shanghai', new Date('2015-07-30T00:00:00Z')),
    });
    const lines = reply.split('\n');
    // Every line of the vendor sample appears verbatim; we add BIODATAStamp, ServerVer and PushProtVer.
    const sample = fx.expect
      .slice(fx.expect.indexOf('GET OPTION FROM'))
      .split(' / ')
      .map((l) => l.replace(/<TAB>/g, '\t'));
    for (const l of sample) expect(lines, l).to.include(l);
    expect(lines[0]).to.equal('GET OPTION FROM: 0316144680030');
    expect(lines).to.include.members(['TimeZone=8', 'Encrypt=None', 'PushProtVer=2.3.0']);
  });

  it('never advertises encryption', () => {
    const reply = attendanceHandshakeReply('X', { timeZone: 1, multiBioDataSupport: '0:1:0:0:0:0:0:0:0:1:0', attPhotoBase64: true, realtime: false });
    expect(reply).to.contain('Encrypt=None').and.not.contain('Encrypt=1');
    expect(reply).to.contain('\nMultiBioDataSupport=0:1:0:0:0:0:0:0:0:1:0\nATTPHOTOBase64=1');
    expect(reply).to.contain('\nRealtime=0\n');
    expect(() => attendanceHandshakeReply('X\nC:1:REBOOT', { timeZone: 0 })).to.throw(RangeError);
    expect(() => attendanceHandshakeReply('X', { timeZone: '0\nDelay=1' })).to.throw(RangeError);
  });

  it('fx 07, 27, 40: getrequest with nothing queued and ping answer plain OK', () => {
    const poll = loadFixture('07');
    const ping = loadFixture('40');
    expect(poll.body.length).to.equal(0);
    expect(ping.body.length).to.equal(0);
    expect(queryParams(poll.query).get('sn')).to.equal('SPK7240100098');
    expect(queryParams(ping.query).get('sn')).to.equal('3383154200002');
    expect(commandBatchReply([])).to.equal('OK');
    expect(OK).to.equal('OK');
  });

  it('command batch: C:<id>:<cmd> lines joined by LF, no trailing LF', () => {
    expect(
      commandBatchReply([
        { id: '1', command: 'CHECK' },
        { id: 'a2', command: updateUserInfoCommand({ pin: '7', name: 'Ann' }) },
        { id: '3', command: openDoorCommand(1, 5) },
      ]),
    ).to.equal('C:1:CHECK\nC:a2:DATA UPDATE USERINFO PIN=7\tName=Ann\nC:3:CONTROL DEVICE 01010105');
    expect(() => commandBatchReply([{ id: 'bad id', command: 'CHECK' }])).to.throw(RangeError);
  });

  it('fx 32: unregistered access device gets OK; registered gets registry=ok + RegistryCode + config', () => {
    const fx = loadFixture('32');
    expect(queryParams(fx.query).get('pushver')).to.equal('3.0.1');
    expect(fx.headers.connection).to.equal('starting');
    expect(accessHandshakeReply('Uy47fxftP3', { sessionId: '30BFB04B2C8AECC72C01C03BFD549D15' })).to.equal(
      [
        'registry=ok',
        'RegistryCode=Uy47fxftP3',
        'ServerVersion=3.0.1',
        'ServerName=ADMS',
        'PushVersion=3.0.1',
        'PushProtVer=3.0.1',
        'ErrorDelay=60',
        'RequestDelay=2',
        'TransTimes=00:00;14:00',
        'TransInterval=1',
        'TransTables=User Transaction',
        'Realtime=1',
        'SessionID=30BFB04B2C8AECC72C01C03BFD549D15',
        'TimeoutSec=10',
      ].join('\n'),
    );
  });

  it('fx 34: push config equals the vendor sample byte for byte (without PushProtVer), and adds it by default', () => {
    const fx = loadFixture('34');
    expect(fx.method).to.equal('POST');
    expect(fx.body.length).to.equal(0);
    const sample = fx.expect.slice(fx.expect.indexOf('ServerVersion')).split(' / ').join('\n');
    const settings = { sessionId: '30BFB04B2C8AECC72C01C03BFD549D15' };
    expect(pushConfigReply(settings, false)).to.equal(sample);
    expect(pushConfigReply(settings)).to.equal(sample.replace('PushVersion=3.0.1\n', 'PushVersion=3.0.1\nPushProtVer=3.0.1\n'));
    expect(pushConfigReply({ ...settings, extra: [['NewVFStyles', 1]] })).to.match(/\nTimeoutSec=10\nNewVFStyles=1$/);
  });

  it('rtdata time reply: ZK-encoded GMT seconds and the zone offset', () => {
    // 2024-03-05 12:34:56Z: ((24*12*31 + 2*31 + 4)*86400) + 12*3600 + 34*60 + 56
    const now = new Date('2024-03-05T12:34:56Z');
    const encoded = (24 * 12 * 31 + 2 * 31 + 4) * 86400 + 12 * 3600 + 34 * 60 + 56;
    expect(rtdataTimeReply(now, 'Asia/Shanghai')).to.equal(`DateTime=${encoded},ServerTZ=+0800`);
    expect(rtdataTimeReply(now, 'America/St_Johns')).to.equal(`DateTime=${encoded},ServerTZ=-0330`);
  });
});
