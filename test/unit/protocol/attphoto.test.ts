import { expect } from 'chai';
import { parseAttPhoto } from '../../../src/protocol';

const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x0a, 0x0d, 0xff, 0xd9]);
const photo = (header: string, image = jpeg) => Buffer.concat([Buffer.from(header), Buffer.from([0]), image]);

describe('parseAttPhoto', () => {
  it('splits the text header at the first NUL and keeps the binary image intact', () => {
    const r = parseAttPhoto(photo(`PIN=20150730151628-1452.jpg\nSN=0316144680030\nsize=${jpeg.length}\nCMD=uploadphoto`));
    if (!r.ok) throw new Error(r.reason);
    expect(r.photo).to.deep.include({
      fileName: '20150730151628-1452.jpg',
      localTime: '2015-07-30 15:16:28',
      pin: '1452',
      sn: '0316144680030',
      size: 10,
      cmd: 'uploadphoto',
    });
    expect(Buffer.compare(r.photo.image, jpeg)).to.equal(0);
  });

  it('failed-verification photo has no PIN', () => {
    const r = parseAttPhoto(photo('PIN=20150730151628.jpg\r\nSN=X\r\nCMD=realupload'));
    expect(r.ok && r.photo.pin).to.equal(null);
    expect(r.ok && r.photo.cmd).to.equal('realupload');
  });

  it('rejects missing NUL, missing PIN and a cut-short image', () => {
    expect(parseAttPhoto(Buffer.from('PIN=1.jpg'))).to.deep.equal({ ok: false, reason: 'no NUL byte between header and image' });
    expect(parseAttPhoto(photo('SN=X'))).to.deep.equal({ ok: false, reason: 'header has no PIN= (file name)' });
    expect(parseAttPhoto(photo('PIN=1.jpg\nsize=99'))).to.deep.equal({ ok: false, reason: 'size=99 but 10 image bytes follow the header (cut short?)' });
  });
});
