import { expect } from 'chai';
import { fixtureNames, loadFixture } from './fixture';
import { iclockEndpoint, iclockMethods, isIclockMethod, queryParams, requestFamily, uploadTable } from '../../../src/protocol';

describe('iclockEndpoint', () => {
  it('accepts trailing slash, .aspx, any case; rejects others', () => {
    expect(iclockEndpoint('/iclock/cdata')).to.equal('cdata');
    expect(iclockEndpoint('/iclock/cdata/')).to.equal('cdata');
    expect(iclockEndpoint('/iclock/cdata.aspx')).to.equal('cdata');
    expect(iclockEndpoint('/ICLOCK/GetRequest')).to.equal('getrequest');
    expect(iclockEndpoint('/iclock/getrequest.aspx?SN=1')).to.equal('getrequest');
    for (const p of ['devicecmd', 'ping', 'registry', 'push', 'querydata', 'rtdata', 'fdata', 'exchange', 'file'])
      expect(iclockEndpoint(`/iclock/${p}`)).to.equal(p);
    expect(iclockEndpoint('/iclock/unknown')).to.equal(null);
    expect(iclockEndpoint('/cdata')).to.equal(null);
    expect(iclockEndpoint('/iclock/cdata/extra')).to.equal(null);
  });
});

describe('queryParams', () => {
  it('case-insensitive names, percent-decoding, literal +, malformed escapes kept', () => {
    const q = queryParams('?SN=ABC&Table=ATTLOG&DeviceType=middle%20east&k=a+b&bad=%zz&flag');
    expect(q.get('sn')).to.equal('ABC');
    expect(q.get('TABLE')).to.equal('ATTLOG');
    expect(q.get('devicetype')).to.equal('middle east');
    expect(q.get('k')).to.equal('a+b');
    expect(q.get('bad')).to.equal('%zz');
    expect(q.has('FLAG')).to.equal(true);
    expect(q.get('missing')).to.equal(undefined);
  });

  it('resolves the vendor-doc typo table=tablename=user', () => {
    expect(uploadTable(queryParams('SN=1&table=tablename=user&count=2'))).to.deep.equal({ table: 'tabledata', tablename: 'user', count: '2' });
  });
});

describe('requestFamily over every fixture', () => {
  const expected: Record<string, 'attendance' | 'access'> = {
    '01': 'attendance',
    '02': 'attendance',
    '05': 'attendance',
    '07': 'attendance',
    '12': 'attendance',
    '19': 'access',
    '21': 'access',
    '23': 'access',
    '25': 'attendance',
    '26': 'attendance',
    '27': 'attendance',
    '28': 'attendance',
    '29': 'attendance',
    '30': 'attendance',
    '31': 'attendance',
    // fx 32 is an access device, but its first handshake carries only pushver=3.0.1, which is not proof.
    '32': 'attendance',
    '33': 'access',
    '34': 'access',
    '35': 'access',
    '36': 'access',
    // Options, devicecmd and ping look the same in both families: the adapter keeps per-device state.
    '37': 'attendance',
    '38': 'access',
    '39': 'attendance',
    '40': 'attendance',
  };
  it('classifies each request by endpoint, DeviceType and table; every path maps to an endpoint', () => {
    expect(Object.keys(expected).sort()).to.deep.equal(fixtureNames().map((n) => n.slice(0, 2)));
    for (const n of Object.keys(expected).sort()) {
      const fx = loadFixture(n);
      const endpoint = iclockEndpoint(fx.path);
      expect(endpoint, n).to.not.equal(null);
      expect(requestFamily(endpoint, queryParams(fx.query)), n).to.equal(expected[n]);
    }
    expect(requestFamily('cdata', queryParams('SN=1&options=all&DeviceType=ACC'))).to.equal('access');
  });
});

describe('iclockMethods', () => {
  it('the poll is GET only, command results POST only, every other endpoint GET and POST', () => {
    expect(iclockMethods('getrequest')).to.deep.equal(['GET']);
    expect(iclockMethods('devicecmd')).to.deep.equal(['POST']);
    expect(iclockMethods('cdata')).to.deep.equal(['GET', 'POST']);
    expect(isIclockMethod('POST', 'getrequest')).to.equal(false);
    expect(isIclockMethod('GET', 'devicecmd')).to.equal(false);
    expect(isIclockMethod('PUT', 'ping')).to.equal(false);
    expect(isIclockMethod('POST', 'registry')).to.equal(true);
  });
});
