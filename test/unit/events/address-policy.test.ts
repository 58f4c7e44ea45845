import { expect } from 'chai';
import { isPrivateAddress, resolveTarget } from '../../../src/events/address-policy';

describe('webhook address policy (TIMEGATE_WEBHOOK_ALLOW_PRIVATE=false)', () => {
  // Regression: these IPv6 forms embedding loopback or using deprecated ranges were accepted.
  const refused = [
    '::',
    '::1',
    '::127.0.0.1',
    '::7f00:1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:7f00:0001',
    '::ffff:10.1.2.3',
    '::ffff:169.254.169.254',
    '2002:7f00:1::',
    '2002:a00:1::1',
    '2002:c0a8:101::1', // 6to4 of 127.0.0.1, 10.0.0.1, 192.168.1.1
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    'fec0::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '64:ff9b::7f00:1',
    '64:ff9b:1::1',
    '100::1',
    '2001:db8::1',
    '3fff::1',
    '127.0.0.1',
    '10.0.0.1',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.88.99.1',
    'not-an-ip',
  ];
  for (const address of refused) {
    it(`refuses ${address}`, () => expect(isPrivateAddress(address)).to.equal(true));
  }

  const allowed = ['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '::ffff:808:808', '8.8.8.8', '93.184.216.34'];
  for (const address of allowed) {
    it(`allows the public address ${address}`, () => expect(isPrivateAddress(address)).to.equal(false));
  }

  it('decides on the address: a bracketed literal is refused at resolution', async () => {
    const error = await resolveTarget('::127.0.0.1', false).catch((e: Error) => e);
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).message).to.match(/private, loopback or link-local/);
    expect(await resolveTarget('::127.0.0.1', true)).to.deep.equal({ address: '::127.0.0.1', family: 6 });
  });
});
