import { expect } from 'chai';
import { localTimeToInstant, parseAttlog, parseLocalTime, parseOperlog, parseOptions, parseRegistry, parseRtlog, queryParams } from '../../../src/protocol';

describe('protocol: a NUL byte costs its line or segment only', () => {
  it('ATTLOG, OPERLOG and rtlog refuse the line with a NUL and keep the others', () => {
    const attlog = parseAttlog(Buffer.from('1\t2026-01-02 08:00:00\t0\t1\t\u0000\t0\n2\t2026-01-02 09:00:00\t0\t1\t\t0\n'));
    expect(attlog.records.map((r) => r.pin)).to.deep.equal(['2']);
    expect(attlog.errors).to.deep.equal([{ line: 1, text: '1\t2026-01-02 08:00:00\t0\t1\t\u0000\t0', reason: 'contains a NUL byte' }]);
    const operlog = parseOperlog(Buffer.from('USER PIN=1\tName=A\u0000B\nUSER PIN=2\tName=Bo\n'));
    expect(operlog.errors.map((e) => e.reason)).to.deep.equal(['contains a NUL byte']);
    const rtlog = parseRtlog(Buffer.from('time=2026-01-02 08:00:00\tpin=1\u0000\tevent=0\n'));
    expect(rtlog.records).to.deep.equal([]);
    expect(rtlog.errors.map((e) => e.reason)).to.deep.equal(['contains a NUL byte']);
  });

  it('options and registry leave out the segment with a NUL', () => {
    const options = parseOptions(Buffer.from('~DeviceName=X\u0000,FWVersion=1.0'));
    expect(options.options).to.deep.equal({ FWVersion: '1.0' });
    expect(options.errors).to.deep.equal([{ segment: '~DeviceName=X\u0000', reason: 'contains a NUL byte' }]);
    expect(parseRegistry(Buffer.from('DeviceType=acc,~DeviceName=A\u0000B')).deviceName).to.equal(null);
  });

  it('query values lose NUL bytes', () => {
    expect(queryParams('SN=A1&pushver=2.4%001').get('pushver')).to.equal('2.41');
  });
});

describe('protocol: implausible record times', () => {
  it('refuses ATTLOG and rtlog records dated outside 1900–2199 instead of storing them 1,900 years off (1999 is a record, which the service quarantines)', () => {
    const attlog = parseAttlog(
      Buffer.from(
        '1\t0024-03-02 08:00:00\t0\t1\t\t0\n2\t1999-12-31 23:59:59\t0\t1\t\t0\n3\t2000-01-01 00:00:00\t0\t1\t\t0\n4\t2200-01-01 00:00:00\t0\t1\t\t0\n',
      ),
    );
    expect(attlog.records.map((r) => r.pin)).to.deep.equal(['2', '3']);
    expect(attlog.errors.map((e) => e.reason)).to.deep.equal([
      'bad date: year 0024 is implausible (accepted: 1900–2199)',
      'bad date: year 2200 is implausible (accepted: 1900–2199)',
    ]);
    const rtlog = parseRtlog(Buffer.from('time=0099-01-02 08:00:00\tpin=1\tcardno=0\teventaddr=1\tevent=0\tinoutstatus=0\tverifytype=1\tindex=1\n'));
    expect(rtlog.records).to.deep.equal([]);
    expect(rtlog.errors[0]!.reason).to.equal('bad date: year 0099 is implausible (accepted: 1900–2199)');
  });

  it('converts years 0–99 as those years (no two-digit-year trap)', () => {
    expect(localTimeToInstant('0024-02-29 12:00:00', 'UTC').toISOString()).to.equal('0024-02-29T12:00:00.000Z');
    expect(parseLocalTime('0100-02-29 00:00:00').ok).to.equal(false); // 100 is no leap year
  });
});

describe('protocol: registry keys after a comma and a space', () => {
  // Regression: `…, ~DeviceName=SpeedFace` lost the field to a key with a leading space.
  it('trims keys, so a space after a comma keeps the field', () => {
    const parsed = parseRegistry(Buffer.from('DeviceType=acc, ~DeviceName=SpeedFace,  FirmVer=AC Ver 4.7'));
    expect(parsed.deviceName).to.equal('SpeedFace');
    expect(parsed.firmwareVersion).to.equal('AC Ver 4.7');
  });
});
