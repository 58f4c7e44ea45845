// Face photos as terminals want them. Terminals enrol faces from JPEGs of modest size (a data
// command must stay under 900 KB, and a 640 px face is plenty for their algorithms), so every
// upload is normalised once, when stored: decoded (which also proves it is a whole, readable
// image), turned upright by its EXIF orientation, scaled to fit 640 × 640 px, re-encoded as JPEG
// and stripped of metadata (camera EXIF can carry the place the picture was taken). sharp (libvips)
// does the work on libuv's thread pool, so a large upload does not block terminal traffic.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { DomainError } from '../../errors/domain-error';
import { photoLimits } from '../common/validation';

const PHOTO_MAX_BYTES = photoLimits.maxBytes;
/** Largest image accepted, in pixels (a 40-megapixel camera), so a decompression bomb is refused unread. */
const MAX_INPUT_PIXELS = 40_000_000;
/** Smallest side in pixels: a face in a smaller picture cannot be matched. */
export const PHOTO_MIN_SIDE = 100;
/** Longest side of the stored photo. */
export const PHOTO_STORED_SIDE = 640;

export interface NormalisedPhoto {
  jpeg: Buffer;
  width: number;
  height: number;
  sha256: string;
}

const invalid = (code: string, message: string) => DomainError.field('photo', code, message);

/** Checks and normalises an uploaded photo; a precise 422 (field `photo`) for anything unusable. */
export async function normalisePhoto(input: Buffer): Promise<NormalisedPhoto> {
  if (input.length === 0) throw invalid('required', 'photo is empty: send a JPEG or PNG image.');
  if (input.length > PHOTO_MAX_BYTES) throw invalid('too_large', `photo must be at most ${PHOTO_MAX_BYTES} bytes.`);
  let metadata: sharp.Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw invalid('invalid_image', 'photo is not a readable JPEG or PNG image.');
  }
  if (metadata.format !== 'jpeg' && metadata.format !== 'png')
    throw invalid('invalid_image', `photo must be a JPEG or PNG image, not ${metadata.format ?? 'this format'}.`);
  const { width = 0, height = 0 } = metadata;
  if (width * height > MAX_INPUT_PIXELS) throw invalid('too_large', `photo must have at most ${MAX_INPUT_PIXELS} pixels.`);
  if (Math.min(width, height) < PHOTO_MIN_SIDE) throw invalid('too_small', `photo must be at least ${PHOTO_MIN_SIDE} × ${PHOTO_MIN_SIDE} pixels.`);
  try {
    const { data, info } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize({ width: PHOTO_STORED_SIDE, height: PHOTO_STORED_SIDE, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 85 })
      .toBuffer({ resolveWithObject: true });
    return { jpeg: data, width: info.width, height: info.height, sha256: createHash('sha256').update(data).digest('hex') };
  } catch {
    throw invalid('invalid_image', 'photo could not be decoded: the image data is damaged or truncated.');
  }
}
