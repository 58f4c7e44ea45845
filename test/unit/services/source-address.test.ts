import { expect } from 'chai';
import { cidrMatcher, clientAddress, invalidCidrs, parseCidr } from '../../../src/kernel/source-address';

describe('source addresses', () => {
  it('reads addresses and CIDRs of both families and names the entries that are neither', () => {
    expect(parseCidr('203.0.113.0/24')).to.deep.equal({ address: '203.0.113.0', prefix: 24, family: 'ipv4' });
    expect(parseCidr('2001:db8::/32')).to.deep.equal({ address: '2001:db8::', prefix: 32, family: 'ipv6' });
    expect(parseCidr(' 10.0.0.7 ')).to.deep.equal({ address: '10.0.0.7', prefix: 32, family: 'ipv4' });
    expect(invalidCidrs(['10.0.0.0/33', '10.0.0.0/8/1', 'example.com', '10.0.0.0/-1', '::1/129', '10.0.0.0/8'])).to.deep.equal([
      '10.0.0.0/33',
      '10.0.0.0/8/1',
      'example.com',
      '10.0.0.0/-1',
      '::1/129',
    ]);
  });

  it('matches addresses against a list, IPv4-mapped IPv6 as IPv4', () => {
    const allowed = cidrMatcher(['203.0.113.0/24', '2001:db8::/32']);
    expect(allowed('203.0.113.200')).to.equal(true);
    expect(allowed('::ffff:203.0.113.5')).to.equal(true);
    expect(allowed('2001:db8:1::9')).to.equal(true);
    expect(allowed('203.0.114.1')).to.equal(false);
    expect(allowed('unknown')).to.equal(false);
  });

  it('takes X-Forwarded-For only from a trusted proxy, and then its nearest untrusted hop', () => {
    const proxies = cidrMatcher(['10.0.0.0/8']);
    expect(clientAddress('198.51.100.1', '203.0.113.9', proxies)).to.equal('198.51.100.1');
    expect(clientAddress('10.0.0.2', '203.0.113.9', null)).to.equal('10.0.0.2');
    expect(clientAddress('::ffff:10.0.0.2', '203.0.113.9', proxies)).to.equal('203.0.113.9');
    // The client wrote the first hop itself; the proxies appended the rest.
    expect(clientAddress('10.0.0.2', '203.0.113.9, 198.51.100.7, 10.0.0.3', proxies)).to.equal('198.51.100.7');
    expect(clientAddress('10.0.0.2', '10.0.0.4, 10.0.0.3', proxies)).to.equal('10.0.0.4');
    expect(clientAddress('10.0.0.2', 'garbage', proxies)).to.equal('10.0.0.2');
    expect(clientAddress('10.0.0.2', undefined, proxies)).to.equal('10.0.0.2');
  });
});
