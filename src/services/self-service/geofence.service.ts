// Geofences: the circles on the map where a company's employees may punch from their phones
// (docs/self-service.md). A fence limited to areas or employees applies to the employees of those
// areas and to those employees; an unlimited one to every employee of its company. Changed with
// `write`, read with `read`; the employee sees the fences that apply to them (self-service).
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { Company, Geofence } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { intArray } from '../common/sql-arrays';
import { FieldChecker, limits } from '../common/validation';

/** The smallest and largest radius of a fence, in metres: a phone's position is rarely better than 10 m. */
export const GEOFENCE_RADIUS = { min: 10, max: 100_000 } as const;
export const GEOFENCE_NAME_MAX = 200;
/** Areas and employees one fence may be limited to. */
const MAX_LIMITS = limits.bulkItems;

export interface GeofenceInput {
  companyId?: number | null;
  name?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  radiusM?: number | null;
  areaIds?: number[] | null;
  employeeIds?: number[] | null;
}

/** Mean Earth radius (IUGG), metres. */
const EARTH_RADIUS_M = 6_371_008.8;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/**
 * The great-circle distance between two WGS 84 positions in metres (haversine on a sphere of the
 * mean Earth radius: within 0.5 % of the ellipsoid's distance, centimetres at a fence's scale).
 */
export function distanceMetres(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Checks a position (both APIs and the phone punch name the same fields). */
export function checkPosition(check: FieldChecker, input: { latitude?: number | null; longitude?: number | null }, required: boolean): void {
  for (const [field, max] of [
    ['latitude', 90],
    ['longitude', 180],
  ] as const) {
    const value = input[field];
    if (value == null) {
      if (required) check.add(field, 'required', `${field} is required.`);
    } else if (typeof value !== 'number' || !Number.isFinite(value) || value < -max || value > max) {
      check.add(field, 'out_of_range', `${field} must be a number of degrees from -${max} to ${max} (WGS 84).`);
    }
  }
}

function checkIds(check: FieldChecker, field: string, ids: number[] | null | undefined): void {
  if (ids == null) return;
  if (ids.length > MAX_LIMITS) check.add(field, 'too_many_items', `${field} may hold at most ${MAX_LIMITS} ids.`);
  if (ids.some((id) => !Number.isInteger(id) || id < 1 || id > 2_147_483_647)) check.add(field, 'out_of_range', `${field} must hold ids from 1 to 2147483647.`);
  if (new Set(ids).size !== ids.length) check.add(field, 'duplicate', `${field} names the same id twice.`);
}

function checkInput(input: GeofenceInput, creating: boolean): void {
  const check = new FieldChecker();
  if (creating && input.companyId == null) check.add('companyId', 'required', 'companyId is required.');
  check.text('name', input.name, { max: GEOFENCE_NAME_MAX, required: creating || input.name !== undefined });
  checkPosition(check, input, creating);
  if (input.radiusM == null) {
    if (creating || input.radiusM === null) check.add('radiusM', 'required', 'radiusM is required.');
  } else if (!Number.isInteger(input.radiusM) || input.radiusM < GEOFENCE_RADIUS.min || input.radiusM > GEOFENCE_RADIUS.max) {
    check.add('radiusM', 'out_of_range', `radiusM must be a whole number of metres from ${GEOFENCE_RADIUS.min} to ${GEOFENCE_RADIUS.max}.`);
  }
  if (!creating && input.latitude === null) check.add('latitude', 'required', 'latitude cannot be removed.');
  if (!creating && input.longitude === null) check.add('longitude', 'required', 'longitude cannot be removed.');
  checkIds(check, 'areaIds', input.areaIds);
  checkIds(check, 'employeeIds', input.employeeIds);
  check.done();
}

/** Refuses areas and employees that are not the company's (an id of another company or workspace is unknown). */
async function checkLimits(em: EntityManager, companyId: number, input: GeofenceInput): Promise<void> {
  const check = new FieldChecker();
  for (const [field, table, ids] of [
    ['areaIds', 'area', input.areaIds],
    ['employeeIds', 'employee', input.employeeIds],
  ] as const) {
    if (!ids || ids.length === 0) continue;
    const rows = await em.execute<{ id: number }[]>(
      `select id from ${table} where company_id = ? and id = any(?::int[])${table === 'employee' ? ' and deleted_at is null' : ''}`,
      [companyId, intArray(ids)],
    );
    const found = new Set(rows.map((r) => r.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0)
      check.add(field, 'not_found', `${field}: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not of company ${companyId}.`);
  }
  check.done();
}

export async function getGeofence(ctx: RequestContext, id: number): Promise<Geofence> {
  const fence = await ctx.em.findOne(Geofence, { id, workspaceId: workspaceOf(ctx) });
  if (!fence) throw DomainError.notFound('Geofence', id);
  return fence;
}

export async function listGeofences(ctx: RequestContext, filter: { companyId?: number | null }, page: PageRequest): Promise<Page<Geofence>> {
  const where: FilterQuery<Geofence> = { workspaceId: workspaceOf(ctx) };
  if (filter.companyId != null) where.companyId = filter.companyId;
  const [items, totalCount] = await ctx.em.findAndCount(Geofence, where, { orderBy: { id: 'asc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}

export async function createGeofence(ctx: RequestContext, input: GeofenceInput): Promise<Geofence> {
  checkInput(input, true);
  const workspaceId = workspaceOf(ctx);
  if (!(await ctx.em.findOne(Company, { id: input.companyId!, workspaceId }))) {
    throw DomainError.field('companyId', 'not_found', `Company ${input.companyId} does not exist in this workspace.`);
  }
  await checkLimits(ctx.em, input.companyId!, input);
  const fence = ctx.em.create(Geofence, {
    workspaceId,
    companyId: input.companyId!,
    name: input.name!,
    latitude: input.latitude!,
    longitude: input.longitude!,
    radiusM: input.radiusM!,
    areaIds: input.areaIds ?? [],
    employeeIds: input.employeeIds ?? [],
  } as Geofence);
  await ctx.em.persist(fence).flush();
  return fence;
}

/** Changes a fence; it stays in its company. A field left out keeps its value; empty lists lift the limits. */
export async function updateGeofence(ctx: RequestContext, id: number, input: Omit<GeofenceInput, 'companyId'>): Promise<Geofence> {
  checkInput(input, false);
  const fence = await getGeofence(ctx, id);
  await checkLimits(ctx.em, fence.companyId, input);
  if (input.name != null) fence.name = input.name;
  if (input.latitude != null) fence.latitude = input.latitude;
  if (input.longitude != null) fence.longitude = input.longitude;
  if (input.radiusM != null) fence.radiusM = input.radiusM;
  if (input.areaIds != null) fence.areaIds = input.areaIds;
  if (input.employeeIds != null) fence.employeeIds = input.employeeIds;
  await ctx.em.flush();
  return fence;
}

/** Deletes a fence. Punches made inside it keep its id. */
export async function deleteGeofence(ctx: RequestContext, id: number): Promise<Geofence> {
  const fence = await getGeofence(ctx, id);
  const snapshot = { ...fence };
  await ctx.em.remove(fence).flush();
  return Object.assign(new Geofence(), snapshot);
}

/**
 * The fences that apply to an employee: their company's unlimited fences, and those limited to
 * them or to an area they are in.
 */
export async function fencesOfEmployee(em: EntityManager, employee: { id: number; companyId: number }): Promise<Geofence[]> {
  const rows = await em.execute<{ id: number }[]>(
    `select g.id from geofence g
     where g.company_id = ? and (
       (cardinality(g.area_ids) = 0 and cardinality(g.employee_ids) = 0)
       or ? = any(g.employee_ids)
       or exists (select 1 from area_employee ae where ae.employee_id = ? and ae.area_id = any(g.area_ids)))
     order by g.id`,
    [employee.companyId, employee.id, employee.id],
  );
  if (rows.length === 0) return [];
  return em.find(Geofence, { id: { $in: rows.map((r) => r.id) } }, { orderBy: { id: 'asc' } });
}

/** Where a position stands against fences: the fence it is inside (the nearest centre), or the nearest edge outside. */
export type FenceMatch = { inside: true; fence: Geofence; distanceM: number } | { inside: false; nearest: Geofence | null; distanceOutsideM: number | null };

export function matchFence(fences: readonly Geofence[], position: { latitude: number; longitude: number }): FenceMatch {
  let inside: { fence: Geofence; distanceM: number } | null = null;
  let nearest: { fence: Geofence; outsideM: number } | null = null;
  for (const fence of fences) {
    const distance = distanceMetres(fence, position);
    if (distance <= fence.radiusM) {
      if (!inside || distance < inside.distanceM) inside = { fence, distanceM: distance };
    } else if (!nearest || distance - fence.radiusM < nearest.outsideM) {
      nearest = { fence, outsideM: distance - fence.radiusM };
    }
  }
  if (inside) return { inside: true, fence: inside.fence, distanceM: inside.distanceM };
  return { inside: false, nearest: nearest?.fence ?? null, distanceOutsideM: nearest ? nearest.outsideM : null };
}
