// Face photos: stored per employee (normalised, photo-image.ts), enrolled on the employee's
// terminals by the sync engine (face-enrollment.service.ts), and removed with the faces made from
// them. Photos are personal data: readable with the `read` scope like the employee, never logged.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Employee, EmployeePhoto } from '../../entities';
import type { FaceEnrollmentMethod, FaceEnrollmentStatus } from '../../entities/face-enrollment.entity';
import { DomainError } from '../../errors/domain-error';
import { deleteBioPhotoCommand, deleteUserPicCommand } from '../../protocol';
import { notifyCommandsQueued } from '../commands/command-queue-changes';
import { requireScopeFor, workspaceOf, withEm, type RequestContext } from '../../context/request-context';
import { findOwned } from '../common/owned';
import { queueOnHolders, templateHolders } from './employee-template.service';
import { FACE_RETURN_CODES, returnCodeText, VISIBLE_FACE_TYPE } from './face-enrollment.service';
import { normalisePhoto } from './photo-image';
import { templateDeleteCommand } from './sync-commands';
import { lockWorkspace } from '../common/workspace-lock';

/** NIR faces (type 2) and visible-light faces (type 9): what deleting a photo removes. */
const FACE_TYPES = [2, VISIBLE_FACE_TYPE];

export interface PhotoView {
  employeeId: number;
  contentType: 'image/jpeg';
  size: number;
  width: number;
  height: number;
  sha256: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface PhotoContentView extends PhotoView {
  imageBase64: string;
}

export interface FaceEnrollmentView {
  deviceId: number;
  serialNumber: string;
  status: FaceEnrollmentStatus;
  method: FaceEnrollmentMethod | null;
  returnCode: string | null;
  reason: string | null;
  message: string | null;
  updatedAt: Date | null;
}

export interface PhotoStatusView {
  employeeId: number;
  photo: PhotoView;
  devices: FaceEnrollmentView[];
}

const view = (p: EmployeePhoto): PhotoView => ({
  employeeId: p.employeeId,
  contentType: 'image/jpeg',
  size: p.size,
  width: p.width,
  height: p.height,
  sha256: p.sha256,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

async function findPhoto(ctx: RequestContext, employeeId: number, withData = false): Promise<EmployeePhoto> {
  await findOwned(ctx, Employee, employeeId, 'Employee');
  const photo = await ctx.em.findOne(EmployeePhoto, { employeeId, workspaceId: workspaceOf(ctx) }, withData ? { populate: ['data'] } : {});
  if (!photo) throw new DomainError('not_found', `Employee ${JSON.stringify(String(employeeId))} has no photo.`);
  return photo;
}

/** Base64 as both APIs carry images: strict alphabet and padding, so a damaged copy is refused, not guessed at. */
function decodeImageBase64(text: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) {
    throw DomainError.field('photo', 'invalid_image', 'photo must be base64 (RFC 4648, with padding).');
  }
  return Buffer.from(compact, 'base64');
}

/**
 * Stores (or replaces) an employee's photo (base64 JPEG or PNG) and sends it to the employee's terminals: their rows
 * become pending, and the sync engine sends the photo where it is due. A replaced photo's faces
 * are stale: the stored visible-light face templates are deleted, and removed from the terminals
 * that cannot enrol from the new photo (the others overwrite the face when they enrol).
 */
export async function putEmployeePhoto(ctx: RequestContext, employeeId: number, imageBase64: string): Promise<PhotoView> {
  const workspaceId = workspaceOf(ctx);
  await findOwned(ctx, Employee, employeeId, 'Employee');
  const photo = await normalisePhoto(decodeImageBase64(imageBase64));
  const { stored, devices } = await ctx.em.transactional(async (em) => {
    await lockWorkspace(em, workspaceId);
    const employee = await findOwned(withEm(ctx, em), Employee, employeeId, 'Employee');
    // On an access controller a photo is a credential: the controller enrols the face in it, and
    // that face then opens the person's doors.
    const [onController] = await em.execute<{ device_id: number }[]>(
      `select u.device_id from device_user u join device d on d.id = u.device_id where u.employee_id = ? and u.present and d.mode_type = 'acc' limit 1`,
      [employee.id],
    );
    if (onController) {
      requireScopeFor(ctx, 'doors:manage', `Employee ${employee.id} is on access controller ${onController.device_id}, which enrols a face from the photo`);
    }
    const now = ctx.now();
    const [saved] = await em.execute<{ id: number }[]>(
      `insert into employee_photo (workspace_id, employee_id, data, size, width, height, sha256, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (employee_id) do update set data = excluded.data, size = excluded.size, width = excluded.width, height = excluded.height,
         sha256 = excluded.sha256, updated_at = excluded.updated_at
       returning id`,
      [workspaceId, employee.id, photo.jpeg, photo.jpeg.length, photo.width, photo.height, photo.sha256, now, now],
    );
    // Every terminal starts again for this photo (also when the same picture is uploaded again).
    await em.execute('delete from face_enrollment where employee_id = ?', [employee.id]);
    await removeFaces(ctx, em, employee.id, [VISIBLE_FACE_TYPE], { keepOnPhotoTerminals: true });
    const marked = await em.execute<{ device_id: number }[]>(
      `update device_user set sync_status = 'pending', return_code = null, changed_at = ? where employee_id = ? and present returning device_id`,
      [now, employee.id],
    );
    return { stored: await em.findOneOrFail(EmployeePhoto, { id: saved!.id }), devices: marked.map((m) => m.device_id) };
  });
  // Once committed: a poll woken earlier would find the rows not yet pending and go back to sleep.
  notifyCommandsQueued(ctx.em, devices);
  return view(stored);
}

/** The stored photo with its JPEG bytes (base64). */
export async function getEmployeePhoto(ctx: RequestContext, employeeId: number): Promise<PhotoContentView> {
  const photo = await findPhoto(ctx, employeeId, true);
  return { ...view(photo), imageBase64: photo.data.toString('base64') };
}

/**
 * Deletes the photo and every face template of the employee, here and on every terminal that may
 * hold them (the employee's terminals and those the faces were captured on): the face templates,
 * the comparison photo and the display photo, each deleted by its own key.
 */
export async function deleteEmployeePhoto(ctx: RequestContext, employeeId: number): Promise<PhotoView> {
  const workspaceId = workspaceOf(ctx);
  return ctx.em.transactional(async (em) => {
    await lockWorkspace(em, workspaceId);
    const photo = await findPhoto(withEm(ctx, em), employeeId);
    const snapshot = view(photo);
    await em.execute('delete from employee_photo where id = ?', [photo.id]);
    await em.execute('delete from face_enrollment where employee_id = ?', [employeeId]);
    await removeFaces(ctx, em, employeeId, FACE_TYPES, { keepOnPhotoTerminals: false, photos: true });
    return snapshot;
  });
}

/**
 * Deletes the employee's stored templates of these types and queues their removal from every
 * terminal that may hold them (queueOnHolders: under each device's sync lock). `keepOnPhotoTerminals`: terminals that enrol from photos are
 * left alone (a new photo overwrites their face). `photos`: also delete the comparison and display photos.
 */
async function removeFaces(
  ctx: RequestContext,
  em: EntityManager,
  employeeId: number,
  types: number[],
  options: { keepOnPhotoTerminals: boolean; photos?: boolean },
): Promise<void> {
  const removed = await em.execute<{ type: number; no: number; version: string | null; duress: boolean; source_device_id: number | null }[]>(
    `delete from employee_template where employee_id = ? and type in (${types.map(() => '?').join(', ')}) returning type, no, version, duress, source_device_id`,
    [employeeId, ...types],
  );
  if (removed.length === 0 && !options.photos) return;
  const sources = [...new Set(removed.map((t) => t.source_device_id).filter((id): id is number => id !== null))];
  const holders = await templateHolders(em, employeeId, sources);
  await queueOnHolders(withEm(ctx, em), holders, { kind: 'face_delete', reference: `employee:${employeeId}` }, (terminal, pin) => {
    if (options.keepOnPhotoTerminals && terminal.facePhoto) return [];
    const family = terminal.access ? 'access' : 'attendance';
    return [
      ...removed.map((t) => templateDeleteCommand(terminal, pin, t)),
      ...(options.photos && terminal.facePhoto ? [deleteBioPhotoCommand(family, pin)] : []),
      ...(options.photos && terminal.userPhoto ? [deleteUserPicCommand(family, pin)] : []),
    ];
  });
}

/**
 * Where the photo stands on each terminal the employee is on: `pending` until the terminal
 * answered (also before the sync engine reached it), `enrolled`, `failed` with the terminal's
 * return code and its meaning, or `not_supported`.
 */
export async function employeePhotoStatus(ctx: RequestContext, employeeId: number): Promise<PhotoStatusView> {
  const photo = await findPhoto(ctx, employeeId);
  const rows = await ctx.em.execute<
    {
      device_id: number;
      serial_number: string;
      status: FaceEnrollmentStatus | null;
      method: FaceEnrollmentMethod | null;
      return_code: number | null;
      updated_at: string | null;
    }[]
  >(
    `select du.device_id, d.serial_number,
       case when fe.photo_sha256 = ? then fe.status end as status,
       case when fe.photo_sha256 = ? then fe.method end as method,
       case when fe.photo_sha256 = ? then fe.return_code end as return_code,
       case when fe.photo_sha256 = ? then fe.updated_at end as updated_at
     from device_user du join device d on d.id = du.device_id
     left join face_enrollment fe on fe.employee_id = du.employee_id and fe.device_id = du.device_id
     where du.employee_id = ? and du.present and du.workspace_id = ?
     order by du.device_id`,
    [photo.sha256, photo.sha256, photo.sha256, photo.sha256, employeeId, workspaceOf(ctx)],
  );
  return {
    employeeId,
    photo: view(photo),
    devices: rows.map((r) => {
      const failure = r.status === 'failed' && r.return_code !== null ? FACE_RETURN_CODES.get(r.return_code) : undefined;
      return {
        deviceId: r.device_id,
        serialNumber: r.serial_number,
        status: r.status ?? 'pending',
        method: r.method,
        returnCode: r.status === 'failed' && r.return_code !== null ? returnCodeText(r.return_code) : null,
        reason: r.status === 'failed' ? (failure?.reason ?? 'terminal_error') : null,
        message: r.status === 'failed' ? (failure?.message ?? 'The terminal refused the photo.') : null,
        updatedAt: r.updated_at === null ? null : new Date(r.updated_at),
      };
    }),
  };
}
