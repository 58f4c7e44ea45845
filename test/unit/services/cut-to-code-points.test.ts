import { expect } from 'chai';
import { codePoints, cutToCodePoints } from '../../../src/services/common/validation';

describe('cutToCodePoints', () => {
  it('keeps a value that fits, and cuts by code points, never through a surrogate pair', () => {
    expect(cutToCodePoints('abc', 3)).to.equal('abc');
    expect(cutToCodePoints('abcd', 3)).to.equal('abc');
    // 'a😀b' is 4 UTF-16 units and 3 code points.
    expect(cutToCodePoints('a😀b', 3)).to.equal('a😀b');
    expect(cutToCodePoints('a😀bc', 2)).to.equal('a😀');
    expect(cutToCodePoints('a😀bc', 1)).to.equal('a');
    expect(cutToCodePoints('😀😀😀', 2)).to.equal('😀😀');
    expect(cutToCodePoints('abc', 0)).to.equal('');
    const cut = cutToCodePoints(`${'x'.repeat(31)}😀😀`, 32);
    expect(cut).to.equal(`${'x'.repeat(31)}😀`);
    expect(codePoints(cut)).to.equal(32);
  });
});
