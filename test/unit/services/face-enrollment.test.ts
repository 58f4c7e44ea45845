import { expect } from 'chai';
import { FACE_RETURN_CODES, photosDue, returnCodeText, type PhotoContext } from '../../../src/services/sync/face-enrollment.service';
import { syncCommands, terminalOf } from '../../../src/services/sync/sync-commands';
import { parseCommandResults } from '../../../src/protocol';

const row = { pin: '42', previousPin: null, name: 'Ada Lovelace', privilege: 0, present: true };

describe('faces from photos', () => {
  it('photos: a face photo goes where no stored face template fits and the terminal has not answered for it; the display photo once per photo', () => {
    const photoTerminal = terminalOf({
      access: false,
      reportedOptions: { BioPhotoFun: '1', VisilightFun: '1', PhotoFunOn: '1', MultiBioVersion: '0:10.0:0:0:0:0:0:0:0:58.0:0' },
    });
    const plain = terminalOf({ access: false, fpAlgorithm: '10' });
    expect([photoTerminal.facePhoto, photoTerminal.userPhoto, plain.facePhoto, plain.userPhoto]).to.deep.equal([true, true, false, false]);
    const photo = { employeeId: 1, content: 'QUJD', sha256: 'a'.repeat(64) };
    const context = (enrollment?: { status: string; photo_sha256?: string }) =>
      ({
        photos: new Map([[1, photo]]),
        enrollments: new Map(enrollment ? [[1, { employee_id: 1, photo_sha256: photo.sha256, method: 'photo', ...enrollment }]] : []),
      }) as PhotoContext;
    const face58 = { type: 9, version: '58.0' };
    expect(photosDue(photoTerminal, context(), 1, false, [])).to.deep.equal({ facePhoto: 'QUJD', userPhoto: 'QUJD' });
    // A stored face template of the terminal's version goes instead of the photo (never both).
    expect(photosDue(photoTerminal, context(), 1, false, [face58]).facePhoto).to.equal(null);
    expect(photosDue(photoTerminal, context(), 1, false, [{ type: 9, version: '39.0' }]).facePhoto).to.equal('QUJD');
    // Answered for this photo (enrolled or refused): not again, unless the user was re-created.
    expect(photosDue(photoTerminal, context({ status: 'enrolled' }), 1, false, [])).to.deep.equal({ facePhoto: null, userPhoto: null });
    expect(photosDue(photoTerminal, context({ status: 'failed' }), 1, false, []).facePhoto).to.equal(null);
    expect(photosDue(photoTerminal, context({ status: 'pending' }), 1, false, []).facePhoto).to.equal('QUJD');
    expect(photosDue(photoTerminal, context({ status: 'enrolled', photo_sha256: 'b'.repeat(64) }), 1, false, []).facePhoto).to.equal('QUJD');
    expect(photosDue(photoTerminal, context({ status: 'enrolled' }), 1, true, [])).to.deep.equal({ facePhoto: 'QUJD', userPhoto: 'QUJD' });
    expect(photosDue(plain, context(), 1, false, [])).to.deep.equal({ facePhoto: null, userPhoto: null });
    expect(photosDue(photoTerminal, context(), 2, false, [])).to.deep.equal({ facePhoto: null, userPhoto: null });
    expect(syncCommands(photoTerminal, { ...row, facePhoto: 'QUJD', userPhoto: 'QUJD' }, []).slice(1)).to.deep.equal([
      'DATA UPDATE BIOPHOTO PIN=42\tType=9\tNo=0\tIndex=0\tSize=4\tContent=QUJD\tFormat=0\tUrl=\tPostBackTmpFlag=1',
      'DATA UPDATE USERPIC PIN=42\tSize=4\tContent=QUJD',
    ]);
  });

  it('every photo return code has its meaning, and is shown as the terminal wrote it', () => {
    const written = ['D01E0001', 'D01E0002', 'D01E0003', 'D01E0004', 'D01E0005', 'D01E0006', '-2', '-1001', '-1002', '-1004'];
    const reasons = written.map((text) => {
      const code = parseCommandResults(`ID=1&Return=${text}&CMD=DATA`).results[0]!.returnCode;
      expect(returnCodeText(code)).to.equal(text);
      return FACE_RETURN_CODES.get(code)?.reason;
    });
    expect(reasons).to.deep.equal([
      'no_face',
      'face_covered',
      'not_sharp',
      'face_angle',
      'liveness_failed',
      'extraction_failed',
      'size_mismatch',
      'capacity_full',
      'not_supported',
      'not_configured',
    ]);
    expect(returnCodeText(-1005)).to.equal('-1005');
  });
});
