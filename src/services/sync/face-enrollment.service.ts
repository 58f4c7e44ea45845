// Where an employee's face photo stands on each terminal (`face_enrollment`). The sync engine asks
// `photosDue` which photo commands a user's sequence needs, records what it queued with
// `recordFaceEnrollments`, and the command results conclude the status (`mirrorFaceEnrollments`).
//
// The rule, per terminal the employee is on (ATT-DOC §14.4: never both a template and a photo for
// one person and type): a stored visible-light face template of the terminal's algorithm version
// goes as a template (the sync engine sends it like any template); otherwise a terminal with
// face-photo support gets the photo (BIOPHOTO, `PostBackTmpFlag=1`) and enrols the face itself,
// uploading the template it made, which then reaches the employee's terminals of that version.
// A terminal with neither is `not_supported`. The same photo is not sent twice to one terminal
// once it answered, so re-sending a user (a name change) does not re-enrol its face.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FaceEnrollmentMethod, FaceEnrollmentStatus } from '../../entities/face-enrollment.entity';
import type { RequestContext } from '../../context/request-context';
import { templateFits, type SyncTemplate, type SyncTerminal } from './sync-commands';

/** Biometric type index of visible-light faces, the type terminals extract from a photo. */
export const VISIBLE_FACE_TYPE = 9;

export interface StoredPhoto {
  employeeId: number;
  content: string;
  sha256: string;
}

interface EnrollmentRow {
  employee_id: number;
  photo_sha256: string;
  status: FaceEnrollmentStatus;
  method: FaceEnrollmentMethod | null;
}

/** What the sync engine needs to decide the photo commands of one device's rows. */
export interface PhotoContext {
  photos: Map<number, StoredPhoto>;
  enrollments: Map<number, EnrollmentRow>;
}

/** The photos of these employees and their enrolment rows on the device. */
export async function loadPhotoContext(em: EntityManager, deviceId: number, employeeIds: number[]): Promise<PhotoContext> {
  const photos = new Map<number, StoredPhoto>();
  const enrollments = new Map<number, EnrollmentRow>();
  if (employeeIds.length === 0) return { photos, enrollments };
  const list = employeeIds.map(() => '?').join(', ');
  const rows = await em.execute<{ employee_id: number; content: string; sha256: string }[]>(
    `select employee_id, encode(data, 'base64') as content, sha256 from employee_photo where employee_id in (${list})`,
    employeeIds,
  );
  // encode() wraps base64 every 76 characters; the wire wants one unbroken value.
  for (const r of rows) photos.set(r.employee_id, { employeeId: r.employee_id, content: r.content.replace(/\n/g, ''), sha256: r.sha256 });
  if (photos.size === 0) return { photos, enrollments };
  const existing = await em.execute<EnrollmentRow[]>(
    `select employee_id, photo_sha256, status, method from face_enrollment where device_id = ? and employee_id in (${list})`,
    [deviceId, ...employeeIds],
  );
  for (const e of existing) enrollments.set(e.employee_id, e);
  return { photos, enrollments };
}

/**
 * The photos a user's command sequence carries on this terminal: the face photo unless a stored
 * face template fits the terminal or the terminal already answered for this photo; the display
 * photo when the terminal shows one and has not been sent this photo. A user re-created under a
 * new pin lost both, so both go again.
 */
export function photosDue(
  terminal: SyncTerminal,
  context: PhotoContext,
  employeeId: number,
  recreated: boolean,
  templates: readonly Pick<SyncTemplate, 'type' | 'version'>[],
): { facePhoto: string | null; userPhoto: string | null } {
  const photo = context.photos.get(employeeId);
  if (!photo) return { facePhoto: null, userPhoto: null };
  const known = context.enrollments.get(employeeId);
  const samePhoto = !recreated && known?.photo_sha256 === photo.sha256;
  const faceTemplate = templates.some((t) => t.type === VISIBLE_FACE_TYPE && templateFits(terminal, t));
  const answered = samePhoto && known?.method === 'photo' && (known.status === 'enrolled' || known.status === 'failed');
  return {
    facePhoto: terminal.facePhoto && !faceTemplate && !answered ? photo.content : null,
    userPhoto: terminal.userPhoto && !samePhoto ? photo.content : null,
  };
}

export const isFacePhotoCommand = (command: string) => /^DATA UPDATE (BIOPHOTO|biophoto) /.test(command);

/** The step of a built sequence that carries the face: the photo, or a visible-light face template. */
function faceStep(commands: readonly string[]): { step: number; method: FaceEnrollmentMethod } | null {
  const photo = commands.findIndex(isFacePhotoCommand);
  if (photo >= 0) return { step: photo, method: 'photo' };
  const template = commands.findIndex((c) => /^DATA UPDATE (BIODATA|biodata) /.test(c) && new RegExp(`\\tType=${VISIBLE_FACE_TYPE}\\t`).test(c));
  return template >= 0 ? { step: template, method: 'template' } : null;
}

/**
 * Records, after a row's commands were queued, where its face stands on the terminal: pending on
 * the step that carries it; unchanged when nothing needed sending (the terminal holds it, or
 * answered for this photo already); `not_supported` when the terminal can take neither the photo
 * nor a template. A row leaving the terminal forgets its enrolment.
 */
export async function recordFaceEnrollments(
  em: EntityManager,
  device: { id: number; workspaceId: number },
  context: PhotoContext,
  row: { employeeId: number; present: boolean; commands: readonly string[]; commandIds: readonly number[]; holdsFace: boolean },
  now: Date,
): Promise<void> {
  if (!row.present) {
    await em.execute('delete from face_enrollment where device_id = ? and employee_id = ?', [device.id, row.employeeId]);
    return;
  }
  const photo = context.photos.get(row.employeeId);
  if (!photo) return;
  const step = faceStep(row.commands);
  const known = context.enrollments.get(row.employeeId);
  let next: { status: FaceEnrollmentStatus; method: FaceEnrollmentMethod | null; commandId: number | null } | null;
  if (step) next = { status: 'pending', method: step.method, commandId: row.commandIds[step.step]! };
  else if (row.holdsFace)
    next = known?.photo_sha256 === photo.sha256 && known.status !== 'not_supported' ? null : { status: 'enrolled', method: 'template', commandId: null };
  else if (known?.photo_sha256 === photo.sha256 && known.method === 'photo') next = null;
  else next = { status: 'not_supported', method: null, commandId: null };
  if (!next) return;
  await em.execute(
    `insert into face_enrollment (workspace_id, employee_id, device_id, photo_sha256, status, method, command_id, return_code, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, null, ?)
     on conflict (employee_id, device_id) do update set photo_sha256 = excluded.photo_sha256, status = excluded.status,
       method = excluded.method, command_id = excluded.command_id, return_code = null, updated_at = excluded.updated_at`,
    [device.workspaceId, row.employeeId, device.id, photo.sha256, next.status, next.method, next.commandId, now],
  );
}

/**
 * Concludes the enrolments waiting on these commands (in the caller's transaction): a success
 * enrolled the face, a failure keeps the terminal's return code (see FACE_RETURN_CODES).
 */
export async function mirrorFaceEnrollments(ctx: RequestContext, commandIds: number[]): Promise<void> {
  if (commandIds.length === 0) return;
  await ctx.em.execute(
    `update face_enrollment fe set
       status = case when c.status = 'succeeded' then 'enrolled' else 'failed' end,
       return_code = case when c.status = 'succeeded' then null else c.return_code end,
       updated_at = ?
     from device_command c
     where fe.command_id = c.id and c.status in ('succeeded', 'failed') and c.id in (${commandIds.map(() => '?').join(', ')})`,
    [ctx.now(), ...commandIds],
  );
}

/**
 * What a terminal's answer to a photo means (ATT-DOC appendix 9 for the `D01E000n` photo codes,
 * appendix 1 for the general ones). Photo codes are hexadecimal on the wire and kept as their
 * signed 32-bit value.
 */
export const FACE_RETURN_CODES: ReadonlyMap<number, { reason: string; message: string }> = new Map([
  [0xd01e0001 | 0, { reason: 'no_face', message: 'The terminal found no face in the photo.' }],
  [0xd01e0002 | 0, { reason: 'face_covered', message: 'The face in the photo is covered (mask, glasses, hair, hand).' }],
  [0xd01e0003 | 0, { reason: 'not_sharp', message: 'The photo is not sharp enough.' }],
  [0xd01e0004 | 0, { reason: 'face_angle', message: 'The face is turned too far from the camera.' }],
  [0xd01e0005 | 0, { reason: 'liveness_failed', message: 'The face in the photo failed the liveness check.' }],
  [0xd01e0006 | 0, { reason: 'extraction_failed', message: 'The terminal could not extract a face template from the photo.' }],
  [-2, { reason: 'size_mismatch', message: 'The photo arrived incomplete (its size did not match).' }],
  [-1001, { reason: 'capacity_full', message: 'The terminal has no room for more faces or photos.' }],
  [-1002, { reason: 'not_supported', message: 'The terminal does not support enrolling faces from photos.' }],
  [-1004, { reason: 'not_configured', message: "The photo does not fit the terminal's configuration." }],
]);

/** A return code as the terminal wrote it: photo codes in hexadecimal (`D01E0001`), others in decimal. */
export function returnCodeText(code: number): string {
  const unsigned = code >>> 0;
  return code < 0 && unsigned >>> 16 === 0xd01e ? unsigned.toString(16).toUpperCase() : String(code);
}
