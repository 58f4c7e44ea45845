// Punching from a phone (docs/self-service.md): an employee of a company that enabled it punches
// where one of the company's geofences applies to them. The punch is stored like a terminal's (the
// same idempotent insert, `attendance.created` with `source: "mobile"`, the same day engine), with
// the position, its accuracy and the fence it was inside. A punch the phone kept while offline comes
// with the time it was made, within 72 hours.
import { Company, Employee, Workspace } from '../../entities';
import { PunchRecordType, type Punch } from '../../entities/punch.entity';
import { DomainError } from '../../errors/domain-error';
import { employeeOf, type RequestContext } from '../../context/request-context';
import { isoDateMessage, isoToInstant, readIsoDate } from '../../kernel/iso-date';
import { formatLocalTime } from '../../protocol/time';
import { countPunches, recordPunches } from '../attendance/punch.service';
import { verificationStateExists } from '../attendance/verification-state.service';
import { normalisePhoto } from '../sync/photo-image';
import { FieldChecker, photoLimits } from '../common/validation';
import { checkPosition, fencesOfEmployee, matchFence } from './geofence.service';

/** A punch kept on the phone while offline is accepted this long after it was made. */
export const OFFLINE_PUNCH_MAX_HOURS = 72;
/** A phone's clock may run this far ahead of the service's before its offline punch counts as dated in the future. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;
/** The worst accuracy a phone may report at all (a company's limit is at most this). */
export const MAX_ACCURACY_M = 10_000;

export interface MobilePunchInput {
  punchState?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  accuracyM?: number | null;
  /** Base64 JPEG or PNG, checked as the punch-photo rules say and not kept. */
  photo?: string | null;
  /** True for a punch the phone kept while offline; `punchTime` is then when it was made. */
  offlineQueued?: boolean | null;
  punchTime?: string | null;
}

export interface MobilePunchResult {
  punch: Punch;
  /** False when this punch (same employee, same second) was already stored: a resent offline punch. */
  created: boolean;
}

/** The device serial of an employee's phone punches: no terminal serial has a colon, and each employee has their own. */
export const mobileSerialOf = (employeeId: number) => `mobile:${employeeId}`;

function checkInput(input: MobilePunchInput, now: Date): Date {
  const check = new FieldChecker();
  check.text('punchState', input.punchState, { max: 16, required: true });
  checkPosition(check, input, true);
  if (input.accuracyM == null) check.add('accuracyM', 'required', 'accuracyM is required: the accuracy the phone reports with its position, in metres.');
  else if (typeof input.accuracyM !== 'number' || !Number.isFinite(input.accuracyM) || input.accuracyM < 0 || input.accuracyM > MAX_ACCURACY_M) {
    check.add('accuracyM', 'out_of_range', `accuracyM must be a number of metres from 0 to ${MAX_ACCURACY_M}.`);
  }
  if (input.photo != null && input.photo.length > Math.ceil((photoLimits.maxBytes * 4) / 3) + 4) {
    check.add('photo', 'too_large', `photo must be at most ${photoLimits.maxBytes} bytes.`);
  } else if (input.photo != null && !/^[A-Za-z0-9+/]*={0,2}$/.test(input.photo)) {
    check.add('photo', 'invalid_image', 'photo must be a base64 JPEG or PNG image.');
  }
  let at = now;
  if (input.offlineQueued) {
    const parsed = typeof input.punchTime === 'string' ? readIsoDate(input.punchTime) : ({ ok: false, code: 'required' } as const);
    if (!parsed.ok || parsed.value.kind !== 'instant') {
      const code = parsed.ok ? 'invalid_date' : parsed.code;
      check.add(
        'punchTime',
        code,
        code === 'required'
          ? 'punchTime is required with offlineQueued: the time the phone made the punch.'
          : isoDateMessage('punchTime', code, 'an ISO 8601 date-time with Z or an offset (2026-11-27T08:30:00+01:00): the moment the phone made the punch'),
      );
    } else {
      at = isoToInstant(parsed.value, 'UTC');
    }
  } else if (input.punchTime != null) {
    check.add('punchTime', 'not_allowed', 'punchTime is only for a punch the phone kept offline (offlineQueued): a live punch takes the time it arrives.');
  }
  check.done();
  if (input.offlineQueued) {
    const age = now.getTime() - at.getTime();
    if (age > OFFLINE_PUNCH_MAX_HOURS * 3_600_000) {
      throw new DomainError(
        'offline_punch_too_old',
        `This punch was made ${Math.floor(age / 3_600_000)} hours ago; a punch kept offline is accepted within ${OFFLINE_PUNCH_MAX_HOURS} hours. Ask for a punch correction instead.`,
      );
    }
    if (age < -FUTURE_TOLERANCE_MS) throw new DomainError('offline_punch_too_old', "This punch is dated in the future: the phone's clock is wrong.");
  }
  return at;
}

/**
 * Stores a punch of the calling employee from their phone. Refused (nothing stored) when the
 * company has not enabled it (403 `mobile_punch_disabled`), when the position is less accurate than
 * the company allows (`location_inaccurate`), and when it is outside every fence that applies to
 * the employee (`outside_geofence`, with the distance to the nearest).
 */
export async function createMobilePunch(ctx: RequestContext, input: MobilePunchInput): Promise<MobilePunchResult> {
  const me = employeeOf(ctx);
  const punchTime = checkInput(input, ctx.now());
  const em = ctx.em;
  const company = await em.findOneOrFail(Company, { id: me.companyId, workspaceId: me.workspaceId });
  if (!company.mobilePunch) {
    throw new DomainError('mobile_punch_disabled', `Company ${company.id} has not enabled punching from a phone: punch at a terminal, or ask HR.`);
  }
  if (!(await verificationStateExists(ctx, input.punchState!, me.workspaceId))) {
    throw DomainError.field('punchState', 'unknown_state', `punchState "${input.punchState}" is not the value of a verification state of this workspace.`);
  }
  const accuracyM = Math.ceil(input.accuracyM!);
  if (accuracyM > company.mobilePunchAccuracyM) {
    throw new DomainError(
      'location_inaccurate',
      `The phone places you within ${accuracyM} m; your company accepts at most ${company.mobilePunchAccuracyM} m. Wait for a better position (outdoors, with location services on) and punch again.`,
      [],
      undefined,
      { accuracy_m: accuracyM, max_accuracy_m: company.mobilePunchAccuracyM },
    );
  }
  const employee = await em.findOneOrFail(Employee, { id: me.employeeId, workspaceId: me.workspaceId });
  const position = { latitude: input.latitude!, longitude: input.longitude! };
  const match = matchFence(await fencesOfEmployee(em, employee), position);
  if (!match.inside) {
    throw new DomainError(
      'outside_geofence',
      match.nearest
        ? `You are ${Math.round(match.distanceOutsideM!)} m outside "${match.nearest.name}", the nearest place you may punch from.`
        : 'No place you may punch from is set for you: ask HR to add a geofence.',
      [],
      undefined,
      { distance_m: match.distanceOutsideM === null ? null : Math.round(match.distanceOutsideM), geofence_id: match.nearest?.id ?? null },
    );
  }
  // The photo follows the rules of punch photos: checked (a real image), never kept (docs/decisions.md, "Photos").
  if (input.photo) await normalisePhoto(Buffer.from(input.photo, 'base64'));
  const zone = (await em.findOneOrFail(Workspace, { id: me.workspaceId })).timeZone;
  const { inserted, duplicates } = await recordPunches(ctx, me.workspaceId, [
    {
      companyId: employee.companyId,
      employeeId: employee.id,
      deviceId: null,
      deviceSerial: mobileSerialOf(employee.id),
      pin: employee.pin ?? '',
      punchTime,
      localTime: formatLocalTime(new Date(Math.floor(punchTime.getTime() / 1000) * 1000), zone),
      timeZone: zone,
      punchState: input.punchState!,
      verifyType: 'mobile',
      verifyCode: null,
      recordType: PunchRecordType.mobile,
      workCode: null,
      deviceRecordIndex: null,
      receivedAt: ctx.now(),
      location: { ...position, accuracyM, geofenceId: match.fence.id, offlineQueued: input.offlineQueued === true },
    },
  ]);
  countPunches(ctx, 'mobile', inserted.length);
  return inserted.length > 0 ? { punch: inserted[0]!, created: true } : { punch: duplicates[0]!, created: false };
}
