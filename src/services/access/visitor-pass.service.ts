// Visitor passes: time-limited access to some doors for a person who is not an employee. A pass is
// a `user` row (with the visitor's card and a validity window in the terminal's DateFmtFunOn format)
// and a `userauthorize` row (time zone 1, the pass's doors) on each controller of its doors, so the
// controller itself refuses the pass outside its window, also while it cannot reach Timegate
// (rtlog 29). Once the window ended (or the pass is revoked) the rows are deleted from the
// controllers by the `visitor_passes` job. The pass's uses are the door events of its pin on its
// controllers. docs/access-control.md, "Visitor passes".
import { randomInt } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { deleteAccessUserCommands, instantToLocal, terminalDialect, updateAccessUserCommand, updateUserAuthorizeCommand } from '../../protocol';
import { Company, Device, Door, Employee } from '../../entities';
import { DeviceMode } from '../../entities/device.entity';
import { VisitorPass } from '../../entities/visitor-pass.entity';
import { DomainError } from '../../errors/domain-error';
import { enqueueCommands, type NewCommand } from '../commands/command-queue';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import { intArray } from '../common/sql-arrays';
import { FieldChecker, limits } from '../common/validation';

/** The command kinds of a pass's rows and of their removal. */
export const VISITOR_PASS_COMMAND_KIND = 'visitor_pass';
/** How often ended passes are looked for (their rows are removed within this much of their end, when the controller is online). */
export const VISITOR_PASS_SWEEP_MS = 30_000;
/** A pass lasts at most this long. */
const MAX_PASS_DAYS = 366;
/** Uses listed with a pass, at most. */
const MAX_USES = 500;

export interface VisitorPassInput {
  companyId?: number | null;
  name?: string | null;
  hostEmployeeId?: number | null;
  validFrom?: Date | null;
  validUntil?: Date | null;
  doorIds?: number[] | null;
  cardNo?: string | null;
  pin?: string | null;
}

export interface VisitorPassUse {
  id: number;
  deviceId: number | null;
  door: number | null;
  eventCode: number;
  eventClass: string;
  opened: boolean;
  time: Date;
  localTime: string;
}

export interface VisitorPassView {
  id: number;
  companyId: number;
  name: string;
  hostEmployeeId: number | null;
  validFrom: Date;
  validUntil: Date;
  doorIds: number[];
  cardNo: string | null;
  pin: string;
  /** `scheduled` (before its start), `active`, `ended` (past its end or revoked; its rows are being or were removed). */
  status: string;
  revokedAt: Date | null;
  removedAt: Date | null;
  createdAt: Date;
  uses?: VisitorPassUse[];
}

function view(pass: VisitorPass, now: Date): VisitorPassView {
  const ended = pass.revokedAt != null || pass.removedAt != null || pass.validUntil <= now;
  return {
    id: pass.id,
    companyId: pass.companyId,
    name: pass.name,
    hostEmployeeId: pass.hostEmployeeId ?? null,
    validFrom: pass.validFrom,
    validUntil: pass.validUntil,
    doorIds: pass.doorIds,
    cardNo: pass.cardNo ?? null,
    pin: pass.pin,
    status: ended ? 'ended' : pass.validFrom > now ? 'scheduled' : 'active',
    revokedAt: pass.revokedAt ?? null,
    removedAt: pass.removedAt ?? null,
    createdAt: pass.createdAt,
  };
}

/** True when a pass of the company that is not yet removed from its controllers holds this pin. */
export async function visitorPinInUse(em: EntityManager, companyId: number, pin: string): Promise<boolean> {
  return (await em.count(VisitorPass, { companyId, pin, removedAt: null })) > 0;
}

async function pinTaken(em: EntityManager, companyId: number, pin: string): Promise<boolean> {
  return (await em.count(Employee, { companyId, pin })) > 0 || (await visitorPinInUse(em, companyId, pin));
}

/** A free numeric pin for a visitor: 8 digits starting with 9 (numeric, as many controllers require). */
async function generatePin(em: EntityManager, companyId: number): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const pin = `9${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
    if (!(await pinTaken(em, companyId, pin))) return pin;
  }
  throw DomainError.field('pin', 'already_taken', 'No free visitor pin was found in 20 draws; give one.');
}

/** The pass's doors grouped by controller, with their numbers. */
async function doorsByDevice(em: EntityManager, doorIds: readonly number[]): Promise<Map<number, { device: Device; numbers: number[] }>> {
  const doors = await em.find(Door, { id: { $in: [...doorIds] } }, { disableIdentityMap: true });
  const devices = new Map(
    (await em.find(Device, { id: { $in: [...new Set(doors.map((d) => d.deviceId))] } }, { disableIdentityMap: true })).map((d) => [d.id, d]),
  );
  const out = new Map<number, { device: Device; numbers: number[] }>();
  for (const door of doors) {
    const device = devices.get(door.deviceId);
    if (!device) continue;
    const entry = out.get(device.id) ?? { device, numbers: [] };
    entry.numbers.push(door.number);
    out.set(device.id, entry);
  }
  return out;
}

/** The rows of a pass on each controller of its doors: its user (window in the terminal's format) and its doors. */
function passCommands(pass: VisitorPass, targets: Map<number, { device: Device; numbers: number[] }>): NewCommand[] {
  const commands: NewCommand[] = [];
  for (const { device, numbers } of targets.values()) {
    const dialect = terminalDialect(device.reportedOptions);
    const window = { start: instantToLocal(pass.validFrom, device.timeZone), end: instantToLocal(new Date(pass.validUntil.getTime() - 1000), device.timeZone) };
    const base = {
      workspaceId: pass.workspaceId,
      deviceId: device.id,
      kind: VISITOR_PASS_COMMAND_KIND,
      lane: 'interactive' as const,
      reference: `visitor_pass:${pass.id}`,
    };
    commands.push({ ...base, command: updateAccessUserCommand({ pin: pass.pin, cardNo: pass.cardNo ?? '', name: pass.name, window }, dialect) });
    commands.push({ ...base, command: updateUserAuthorizeCommand({ pin: pass.pin, timezoneId: 1, doors: [...numbers].sort((a, b) => a - b) }, dialect) });
  }
  return commands;
}

/** The deletes of a pass's rows (authorisations, templates, user: the reference's order), as revocations. */
function removalCommands(pass: VisitorPass, deviceIds: Iterable<number>): NewCommand[] {
  return [...deviceIds].flatMap((deviceId) =>
    deleteAccessUserCommands(pass.pin).map((command) => ({
      workspaceId: pass.workspaceId,
      deviceId,
      kind: VISITOR_PASS_COMMAND_KIND,
      command,
      lane: 'revocation' as const,
      reference: `visitor_pass:${pass.id}`,
    })),
  );
}

/**
 * `POST /public/v2/visitor_passes`: checks the pass (company, host, window, doors of access
 * controllers of the company, card, pin free among the company's employees and live passes;
 * generated when none is given), stores it and queues its rows on each controller, in one transaction.
 */
export async function createVisitorPass(ctx: RequestContext, input: VisitorPassInput): Promise<VisitorPassView> {
  const check = new FieldChecker();
  check.text('name', input.name, { max: limits.accessName, required: true });
  if (input.companyId == null) check.add('companyId', 'required', 'companyId is required.');
  if (input.hostEmployeeId == null) check.add('hostEmployeeId', 'required', 'hostEmployeeId is required.');
  if (!(input.validFrom instanceof Date) || Number.isNaN(input.validFrom.getTime()))
    check.add('validFrom', 'required', 'validFrom is required (an ISO 8601 instant).');
  if (!(input.validUntil instanceof Date) || Number.isNaN(input.validUntil.getTime()))
    check.add('validUntil', 'required', 'validUntil is required (an ISO 8601 instant).');
  if (!input.doorIds?.length) check.add('doorIds', 'required', 'doorIds needs at least one door.');
  else if (new Set(input.doorIds).size !== input.doorIds.length) check.add('doorIds', 'duplicate', 'doorIds names a door twice.');
  if (input.cardNo != null && !/^[0-9]{1,20}$/.test(input.cardNo))
    check.add('cardNo', 'invalid_card_no', 'cardNo must be 1 to 20 digits (the card number as the reader sends it).');
  if (input.pin != null) check.pin('pin', input.pin);
  check.done();
  const now = ctx.now();
  const from = input.validFrom!;
  const until = input.validUntil!;
  if (until <= from) check.add('validUntil', 'before_start_date', 'validUntil must be after validFrom.');
  else if (until.getTime() - from.getTime() > MAX_PASS_DAYS * 86_400_000)
    check.add('validUntil', 'out_of_range', `A pass lasts at most ${MAX_PASS_DAYS} days.`);
  if (until <= now) check.add('validUntil', 'out_of_range', 'validUntil is in the past.');
  check.done();

  return ctx.em.transactional(async (em) => {
    const workspaceId = workspaceOf(ctx);
    const company = await em.findOne(Company, { id: input.companyId!, workspaceId });
    if (!company) throw DomainError.field('companyId', 'not_found', `Company ${input.companyId} was not found.`);
    const host = await em.findOne(Employee, { id: input.hostEmployeeId!, workspaceId }, { disableIdentityMap: true });
    if (!host) check.add('hostEmployeeId', 'not_found', `Employee ${input.hostEmployeeId} was not found.`);
    else if (host.companyId !== company.id) check.add('hostEmployeeId', 'company_mismatch', 'The host is an employee of another company.');
    const doors = new Map((await em.find(Door, { id: { $in: input.doorIds! }, workspaceId }, { disableIdentityMap: true })).map((d) => [d.id, d]));
    const devices = new Map(
      (await em.find(Device, { id: { $in: [...new Set([...doors.values()].map((d) => d.deviceId))] } }, { disableIdentityMap: true })).map((d) => [d.id, d]),
    );
    input.doorIds!.forEach((doorId, i) => {
      const door = doors.get(doorId);
      const device = door && devices.get(door.deviceId);
      if (!door || !device) check.add(`doorIds.${i}`, 'not_found', `Door ${doorId} was not found.`);
      else if (device.companyId !== company.id) check.add(`doorIds.${i}`, 'company_mismatch', `Door ${doorId} is a door of another company.`);
      else if (!door.present) check.add(`doorIds.${i}`, 'door_absent', `Door ${doorId} is absent: its controller reports fewer locks.`);
      else if (device.modeType !== DeviceMode.acc) {
        check.add(
          `doorIds.${i}`,
          'unsupported_by_device',
          `Door ${doorId} is the lock of an attendance terminal: it would not end the pass by itself (PUSH 2.x validity needs firmware with UserValidTimeFun).`,
        );
      }
    });
    if (input.pin != null && (await pinTaken(em, company.id, input.pin)))
      check.add('pin', 'already_taken', 'An employee or a live visitor pass of this company has this pin.');
    check.done();
    const pin = input.pin ?? (await generatePin(em, company.id));
    const pass = em.create(VisitorPass, {
      workspaceId,
      companyId: company.id,
      name: input.name!.trim(),
      hostEmployeeId: host!.id,
      validFrom: from,
      validUntil: until,
      doorIds: [...input.doorIds!],
      pin,
      cardNo: input.cardNo ?? null,
    } as VisitorPass);
    em.persist(pass);
    await em.flush();
    await enqueueCommands(em, passCommands(pass, await doorsByDevice(em, pass.doorIds)), now);
    return view(pass, now);
  });
}

async function findPass(ctx: RequestContext, id: number): Promise<VisitorPass> {
  const pass = await ctx.em.findOne(VisitorPass, { id, workspaceId: workspaceOf(ctx) }, { disableIdentityMap: true });
  if (!pass) throw DomainError.notFound('VisitorPass', id);
  return pass;
}

/**
 * A pass with its uses: the door events of its pin on its controllers from its creation until its
 * removal (granted and refused). Terminal times are whole seconds and may run a little behind the
 * service clock, so the lower bound is a minute before the creation.
 */
export async function getVisitorPass(ctx: RequestContext, id: number): Promise<VisitorPassView> {
  const pass = await findPass(ctx, id);
  const deviceIds = [...(await doorsByDevice(ctx.em, pass.doorIds)).keys()];
  const uses = await ctx.em.execute<
    Array<{
      id: string;
      device_id: number | null;
      door: number | null;
      event_code: number;
      event_class: string;
      opened: boolean;
      time: Date;
      local_time: string;
    }>
  >(
    `select id, device_id, door, event_code, event_class, opened, time, local_time from door_event
      where workspace_id = ? and company_id = ? and pin = ? and device_id = any(?::int[]) and time >= date_trunc('second', ?::timestamptz) - interval '1 minute' and (?::timestamptz is null or time <= ?::timestamptz)
      order by time, id limit ${MAX_USES}`,
    [pass.workspaceId, pass.companyId, pass.pin, intArray(deviceIds), pass.createdAt, pass.removedAt ?? null, pass.removedAt ?? null],
  );
  return {
    ...view(pass, ctx.now()),
    uses: uses.map((u) => ({
      id: Number(u.id),
      deviceId: u.device_id,
      door: u.door,
      eventCode: u.event_code,
      eventClass: u.event_class,
      opened: u.opened,
      time: new Date(u.time),
      localTime: u.local_time,
    })),
  };
}

/** A company's passes (the caller's workspace), newest first. */
export async function listVisitorPasses(ctx: RequestContext, companyId?: number | null): Promise<VisitorPassView[]> {
  const where = companyId == null ? { workspaceId: workspaceOf(ctx) } : { workspaceId: workspaceOf(ctx), companyId };
  const passes = await ctx.em.find(VisitorPass, where, { orderBy: { id: 'desc' }, limit: 1000, disableIdentityMap: true });
  const now = ctx.now();
  return passes.map((p) => view(p, now));
}

/** `DELETE /public/v2/visitor_passes/{id}`: the pass ends now and its rows are deleted from its controllers. */
export async function revokeVisitorPass(ctx: RequestContext, id: number): Promise<VisitorPassView> {
  return ctx.em.transactional(async (em) => {
    const pass = await em.findOne(VisitorPass, { id, workspaceId: workspaceOf(ctx) });
    if (!pass) throw DomainError.notFound('VisitorPass', id);
    const now = ctx.now();
    if (pass.removedAt == null) {
      pass.revokedAt = now;
      pass.removedAt = now;
      await enqueueCommands(em, removalCommands(pass, (await doorsByDevice(em, pass.doorIds)).keys()), now);
    }
    await em.flush();
    return view(pass, now);
  });
}

/**
 * The `visitor_passes` job: passes whose window ended get their rows deleted from their controllers
 * (the controller already refuses them by their EndTime; this frees its memory and the pin). Each
 * pass is claimed with `skip locked`, so two processes never queue its removal twice. Returns how many.
 */
export async function removeEndedVisitorPasses(em: EntityManager, now: Date): Promise<number> {
  return em.transactional(async (tx) => {
    const due = await tx.find(
      VisitorPass,
      { removedAt: null, validUntil: { $lte: now } },
      { limit: 200, orderBy: { validUntil: 'asc' }, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
    const commands: NewCommand[] = [];
    for (const pass of due) {
      pass.removedAt = now;
      commands.push(...removalCommands(pass, (await doorsByDevice(tx, pass.doorIds)).keys()));
    }
    await enqueueCommands(tx, commands, now);
    await tx.flush();
    return due.length;
  });
}
