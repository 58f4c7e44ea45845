import { expect } from 'chai';
import { parseAttlog, parseOperlog, parseOptions, parseRegistry, parseRtlog, queryParams } from '../../../src/devices/protocol';

describe('protocol: a NUL byte costs its line or segment only', () => {
  it('ATTLOG, OPERLOG and rtlog refuse the line with a NUL and keep the others', () => {
    const attlog = parseAttlog(Buffer.from('1\t2026-01-02 08:00:00\t0\t1\t\u0000\t0\n2\t2026-01-02 09:00:00\t0\t1\t\t0\n'));
    expect(attlog.records.map((r) => r.pin)).to.deep.equal(['2']);
    expect(attlog.errors).to.deep.equal([{ line: 1, text: '1\t2026-01-02 08:00:00\t0\t1\t\\0\t0', reason: 'contains a NUL byte' }]);
    const operlog = parseOperlog(Buffer.from('USER PIN=1\tName=A\u0000B\nUSER PIN=2\tName=Bo\n'));
    expect(operlog.errors.map((e) => e.reason)).to.deep.equal(['contains a NUL byte']);
    const rtlog = parseRtlog(Buffer.from('time=2026-01-02 08:00:00\tpin=1\u0000\tevent=0\n'));
    expect(rtlog.records).to.deep.equal([]);
    expect(rtlog.errors.map((e) => e.reason)).to.deep.equal(['contains a NUL byte']);
  });

  it('options and registry leave out the segment with a NUL', () => {
    const options = parseOptions(Buffer.from('~DeviceName=X\u0000,FWVersion=1.0'));
    expect(options.options).to.deep.equal({ FWVersion: '1.0' });
    expect(options.errors).to.deep.equal([{ segment: '~DeviceName=X\\0', reason: 'contains a NUL byte' }]);
    expect(parseRegistry(Buffer.from('DeviceType=acc,~DeviceName=A\u0000B')).deviceName).to.equal(null);
  });

  it('query values lose NUL bytes', () => {
    expect(queryParams('SN=A1&pushver=2.4%001').get('pushver')).to.equal('2.41');
  });
});
