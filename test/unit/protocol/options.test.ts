import { expect } from 'chai';
import { OK, parseInfo, parseOptions, parseRegistry, queryParams, registryReply } from '../../../src/protocol';
import { loadFixture } from './fixture';

describe('parseOptions', () => {
  it('fx 26: one line without final newline, reply OK', () => {
    const { options, errors } = parseOptions(loadFixture('26').body);
    expect(options).to.deep.equal({ FingerFunOn: '1', FaceFunOn: '1' });
    expect(errors).to.deep.equal([]);
    expect(OK).to.equal('OK');
  });

  it('fx 37: strips ~ from keys, keeps raw keys, empty values and leading spaces', () => {
    const { options, entries, errors } = parseOptions(loadFixture('37').body);
    expect(errors).to.deep.equal([]);
    expect(options).to.deep.include({
      UserCount: '7',
      FPCount: '4',
      FaceCount: '3',
      TransactionCount: '23',
      Platform: 'ZMM220_TFT',
      DeviceName: 'ProBio',
      MAC: '00:17:61:11:ad:4f',
      MaxPvCount: '',
      OEMVendor: ' ZKTeco Inc.',
      PushVersion: 'Ver 2.0.34-20180822',
    });
    expect(entries.find((e) => e.key === 'Platform')!.rawKey).to.equal('~Platform');
  });

  it('tolerates CR LF at the end, keeps a comma inside a value, reports empty keys', () => {
    expect(parseOptions('A=1,Vendor=ZK, Inc.,B=2\r\n').options).to.deep.equal({ A: '1', Vendor: 'ZK, Inc.', B: '2' });
    expect(parseOptions('=1,A=2').errors).to.deep.equal([{ segment: '=1', reason: 'empty key' }]);
    expect(parseOptions('').options).to.deep.equal({});
  });
});

describe('parseRegistry', () => {
  it('fx 23: BioFace A1 trimmed registry line; reply is RegistryCode=<code> with no newline', () => {
    const r = parseRegistry(loadFixture('23').body);
    expect(r.errors).to.deep.equal([]);
    expect(r).to.deep.include({
      deviceType: 'acc',
      deviceName: 'BioFace A1',
      firmwareVersion: 'Ver 8.0.1.3-20151229',
      pushVersion: 'Ver 2.0.22-20161201',
      lockCount: 1,
      readerCount: null,
    });
    expect(r.options.MultiBioDataSupport).to.equal('0:0:0:0:0:0:0:0:1:1');
    expect(r.options.authKey).to.equal('dassas');
    expect(registryReply('Uy47fxftP3')).to.equal('RegistryCode=Uy47fxftP3');
  });

  it('fx 33: F20/M registry with ~60 keys; vendor reply is exactly 23 bytes', () => {
    const r = parseRegistry(loadFixture('33').body);
    expect(r.errors).to.deep.equal([]);
    expect(r.entries.length).to.be.greaterThan(60);
    expect(r).to.deep.include({ deviceType: 'acc', deviceName: 'F20/M', lockCount: 1, readerCount: 2 });
    expect(r.options).to.deep.include({
      ZKFPVersion: '10',
      VerifyStyles: 'ff7f0000',
      MaxUserCount: '50',
      AccSupportFunList: '0101010000111000000111010100011010',
    });
    expect(r.options.EventTypes).to.have.length(64);
    expect(Buffer.byteLength(registryReply('Uy47fxftP3'))).to.equal(23);
    expect(() => registryReply('bad\ncode')).to.throw(RangeError);
    expect(() => registryReply('x'.repeat(33))).to.throw(RangeError);
  });
});

describe('parseInfo', () => {
  it('fx 27: ten INFO values after percent-decoding', () => {
    const fx = loadFixture('27');
    const info = parseInfo(queryParams(fx.query).get('info')!);
    expect(info).to.deep.include({
      firmware: 'Ver 2.0.12-20150625',
      userCount: 0,
      fpCount: 0,
      attlogCount: 0,
      ip: '192.168.16.27',
      fpAlgorithm: '10',
      faceAlgorithm: '7',
      facesNeeded: 15,
      faceCount: 0,
      featureBits: '111',
      cardCount: null,
      userPhotoCount: null,
      attPhotoCount: null,
    });
    expect(info.features).to.deep.equal({ fingerprint: true, face: true, userPhoto: true, comparisonPhoto: false, visibleLightFace: false });
  });

  it('handles a firmware without the Ver prefix, 13 values, and junk counts', () => {
    const info = parseInfo('ZMM720-NF-Ver1.2.7,12,x,300,10.0.0.2,10,,,,11011,5,6,7');
    expect(info).to.deep.include({
      firmware: 'ZMM720-NF-Ver1.2.7',
      userCount: 12,
      fpCount: null,
      attlogCount: 300,
      faceAlgorithm: null,
      cardCount: 5,
      attPhotoCount: 7,
    });
    expect(info.features.visibleLightFace).to.equal(true);
    expect(parseInfo('').firmware).to.equal(null);
  });
});
