// ATTPHOTO upload (`table=ATTPHOTO` or `POST /iclock/fdata`): a text header, one NUL byte, then the
// raw JPEG (binary, so the body must reach us as bytes, never as decoded text).

export interface AttPhoto {
  /** `PIN=` header value, e.g. `20150730151628-1452.jpg`. */
  fileName: string;
  /** `YYYY-MM-DD HH:MM:SS` from the file name, or null when it does not carry one. */
  localTime: string | null;
  /** PIN from the file name; null for a failed-verification photo (`<datetime>.jpg`). */
  pin: string | null;
  sn: string | null;
  /** Declared size, or null when absent. */
  size: number | null;
  /** `uploadphoto` or `realupload` (real-time). */
  cmd: string | null;
  /** All header pairs (keys lower-cased). */
  header: Record<string, string>;
  image: Buffer;
}

export type AttPhotoResult = { ok: true; photo: AttPhoto } | { ok: false; reason: string };

/** Split the photo upload into header and image; checks `size=` against the image length. Never throws. */
export function parseAttPhoto(body: Uint8Array): AttPhotoResult {
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const nul = buffer.indexOf(0);
  if (nul < 0) return { ok: false, reason: 'no NUL byte between header and image' };
  const header: Record<string, string> = {};
  for (const raw of buffer.subarray(0, nul).toString('latin1').split('\n')) {
    const line = raw.replace(/\r$/, '');
    const at = line.indexOf('=');
    if (at > 0) header[line.slice(0, at).toLowerCase()] = line.slice(at + 1);
  }
  const fileName = header.pin;
  if (!fileName) return { ok: false, reason: 'header has no PIN= (file name)' };
  const image = buffer.subarray(nul + 1);
  let size: number | null = null;
  if (header.size !== undefined) {
    if (!/^\d+$/.test(header.size)) return { ok: false, reason: `size ${JSON.stringify(header.size)} is not a number` };
    size = Number(header.size);
    if (size !== image.length) return { ok: false, reason: `size=${size} but ${image.length} image bytes follow the header (cut short?)` };
  }
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:-(.+?))?\.jpg$/i.exec(fileName);
  return {
    ok: true,
    photo: {
      fileName,
      localTime: m ? `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}` : null,
      pin: m?.[7] ?? null,
      sn: header.sn ?? null,
      size,
      cmd: header.cmd ?? null,
      header,
      image,
    },
  };
}
