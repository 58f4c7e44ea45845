import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fixtureNames, loadFixture } from './fixture';

describe('protocol fixtures', () => {
  it('loads every fixture: request line, expect line, body split at the first empty line', () => {
    const names = fixtureNames();
    expect(names).to.have.length(24);
    for (const name of names) {
      const fx = loadFixture(name);
      expect(fx.method, name).to.be.oneOf(['GET', 'POST']);
      expect(fx.path, name).to.match(/^\/iclock\//);
      expect(fx.expect, name).to.not.equal('');
    }
  });

  it('keeps body bytes verbatim (CR LF, trailing TAB, no final newline)', () => {
    expect(loadFixture('02').body.toString('utf8')).to.equal(
      '1\t2024-07-28 01:25:24\t0\t1\t\t0\t0\t\r\n1\t2024-07-28 10:41:21\t0\t1\t\t0\t0\t\r\n4\t2024-07-28 10:41:31\t0\t1\t\t0\t0\t\r\n',
    );
    expect(loadFixture('26').body.toString('utf8')).to.equal('FingerFunOn=1,FaceFunOn=1');
    expect(loadFixture('28').body.length).to.equal(Number(loadFixture('28').headers['content-length']));
    expect(loadFixture('07').body.length).to.equal(0);
    expect(loadFixture('07').headers['user-agent']).to.equal('iClock Proxy/1.09');
  });

  it('joins a multi-line expect comment', () => {
    expect(loadFixture('25').expect).to.contain('GET OPTION FROM: 0316144680030');
  });

  // Guards the "every fixture is exercised" rule: each file must be named by some protocol test.
  it('every fixture is used by at least one protocol test file', () => {
    const sourceDir = resolve(__dirname, '../../../../test/unit/protocol');
    const sources = readdirSync(sourceDir)
      .filter((f) => f.endsWith('.test.ts') && f !== 'fixtures.test.ts')
      .map((f) => readFileSync(resolve(sourceDir, f), 'utf8'))
      .join('\n');
    const unused = fixtureNames().filter((n) => !sources.includes(`loadFixture('${n.slice(0, 2)}')`));
    expect(unused).to.deep.equal([]);
  });
});
