// Biometric templates: stored when terminals upload them, listed (metadata only) and deleted
// through the API. A stored template reaches the employee's other terminals through the sync
// engine (device-sync.service.ts), only where the algorithm version matches.
import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { Employee, EmployeeTemplate } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext, withEm } from '../../context/request-context';
import { lockDeviceSync, markTemplatesChanged, syncTerminal } from './device-sync.service';
import { findOwned } from '../common/owned';
import { enqueueCommand } from '../commands/command-queue';
import { majorVersion, templateDeleteCommand, type SyncTemplate, type SyncTerminal } from './sync-commands';
import { lockWorkspace } from '../common/workspace-lock';

/** A template as a terminal uploaded it, normalised across the five upload forms. */
export interface UploadedTemplate extends SyncTemplate {
  pin: string;
}

/** `10` → `10.0`, `12.1` → `12.1`, `VX10.0` → `10.0`; null when there is no number. */
export function normaliseVersion(text: string | null | undefined): string | null {
  const major = majorVersion(text);
  if (major === null) return null;
  const minor = /\d+\.(\d+)/.exec(text ?? '')?.[1] ?? '0';
  return `${major}.${Number(minor)}`;
}

/** BIODATA `Format`: a number, or the text some firmware writes (`ZK`, fx 20). */
export function templateFormat(text: string | null): number {
  const t = (text ?? '').trim().toUpperCase();
  if (t === '1' || t === 'ISO') return 1;
  if (t === '2' || t === 'ANSI') return 2;
  return 0;
}

const sameSlot = (a: UploadedTemplate, b: UploadedTemplate) => a.pin === b.pin && a.type === b.type && a.no === b.no && a.subIndex === b.subIndex;

/**
 * Stores the templates a terminal uploaded under the employees of the terminal's company with
 * those pins (re-uploading the same template changes nothing; a different one replaces it) and
 * marks the employees' rows on their other terminals pending. Templates of pins no employee has
 * are not stored: Timegate does not create people from terminal data. Returns how many were stored.
 */
export async function recordTerminalTemplates(
  ctx: RequestContext,
  device: { id: number; workspaceId: number; companyId: number; serialNumber: string },
  uploaded: UploadedTemplate[],
): Promise<number> {
  // The last upload of a slot wins (one statement cannot update a row twice).
  const templates = uploaded.filter((t, i) => !uploaded.slice(i + 1).some((later) => sameSlot(t, later)));
  if (templates.length === 0) return 0;
  return ctx.em.transactional(async (em) => {
    await lockWorkspace(em, device.workspaceId);
    const pins = [...new Set(templates.map((t) => t.pin))];
    const employees = await em.execute<{ id: number; pin: string }[]>(
      `select id, pin from employee where company_id = ? and deleted_at is null and pin in (${pins.map(() => '?').join(', ')})`,
      [device.companyId, ...pins],
    );
    const employeeOf = new Map(employees.map((e) => [e.pin, e.id]));
    const known = templates.filter((t) => employeeOf.has(t.pin));
    const unknown = pins.filter((p) => !employeeOf.has(p));
    if (unknown.length > 0) ctx.logger.info({ serial: device.serialNumber, pins: unknown.slice(0, 20) }, 'templates of pins without an employee not stored');
    if (known.length === 0) return 0;
    const now = ctx.now();
    const changed = await em.execute<{ employee_id: number }[]>(
      `insert into employee_template (workspace_id, employee_id, type, no, sub_index, version, format, valid, duress, data, size, source_device_id, created_at, updated_at)
       values ${known.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
       on conflict (employee_id, type, no, sub_index) do update set
         version = excluded.version, format = excluded.format, valid = excluded.valid, duress = excluded.duress,
         data = excluded.data, size = excluded.size, source_device_id = excluded.source_device_id, updated_at = excluded.updated_at
       where (employee_template.data, employee_template.version, employee_template.valid, employee_template.duress, employee_template.format)
         is distinct from (excluded.data, excluded.version, excluded.valid, excluded.duress, excluded.format)
       returning employee_id`,
      known.flatMap((t) => [
        device.workspaceId,
        employeeOf.get(t.pin),
        t.type,
        t.no,
        t.subIndex,
        t.version,
        t.format,
        t.valid,
        t.duress,
        t.data,
        t.data.length,
        device.id,
        now,
        now,
      ]),
    );
    await markTemplatesChanged(em, [...new Set(changed.map((c) => c.employee_id))], device.id, now);
    return known.length;
  });
}

/**
 * Template loaders per EntityManager (so per request, and inside its transaction when there is one).
 * Batching only, no cache: a template deleted during the request is not read back.
 */
const templateLoaders = new WeakMap<EntityManager, DataLoader<number, EmployeeTemplate[]>>();

/**
 * The templates of an employee the request has already read from its workspace (the `templates`
 * field of a list): the lookups a page makes in one turn of the event loop are ONE query (DataLoader),
 * instead of two per employee. Scoped to the caller's workspace like every read.
 */
export function templatesOfEmployee(ctx: RequestContext, employeeId: number): Promise<EmployeeTemplate[]> {
  const em = ctx.em;
  let loader = templateLoaders.get(em);
  if (!loader) {
    const workspaceId = workspaceOf(ctx);
    loader = new DataLoader<number, EmployeeTemplate[]>(
      async (employeeIds) => {
        const templates = await em.find(
          EmployeeTemplate,
          { employeeId: { $in: [...employeeIds] }, workspaceId },
          { orderBy: { employeeId: 'asc', type: 'asc', no: 'asc', subIndex: 'asc' } },
        );
        const byEmployee = new Map<number, EmployeeTemplate[]>();
        for (const template of templates)
          (byEmployee.get(template.employeeId) ?? byEmployee.set(template.employeeId, []).get(template.employeeId)!).push(template);
        return employeeIds.map((id) => byEmployee.get(id) ?? []);
      },
      { cache: false },
    );
    templateLoaders.set(em, loader);
  }
  return loader.load(employeeId);
}

/** An employee's templates (404 for an employee of another workspace). */
export async function listEmployeeTemplates(ctx: RequestContext, employeeId: number): Promise<EmployeeTemplate[]> {
  await findOwned(ctx, Employee, employeeId, 'Employee');
  return ctx.em.find(EmployeeTemplate, { employeeId, workspaceId: workspaceOf(ctx) }, { orderBy: { type: 'asc', no: 'asc', subIndex: 'asc' } });
}

/**
 * Deletes a template and queues its removal from every terminal that may hold it: the terminals
 * the employee is on and the one it was enrolled on. Each device's sync lock is held while its
 * delete is queued, so a user write built at the same moment cannot overtake it with the template.
 */
export async function deleteEmployeeTemplate(ctx: RequestContext, id: number): Promise<EmployeeTemplate> {
  const workspaceId = workspaceOf(ctx);
  return ctx.em.transactional(async (em) => {
    const template = await em.findOne(EmployeeTemplate, { id, workspaceId });
    if (!template) throw DomainError.notFound('Template', id);
    const holders = await templateHolders(em, template.employeeId, template.sourceDeviceId ? [template.sourceDeviceId] : []);
    const snapshot = Object.assign(new EmployeeTemplate(), template);
    await em.remove(template).flush();
    await queueOnHolders(withEm(ctx, em), holders, { kind: 'template_delete', reference: `employee_template:${snapshot.id}` }, (terminal, pin) => [
      templateDeleteCommand(terminal, pin, { ...snapshot, version: snapshot.version ?? null }),
    ]);
    return snapshot;
  });
}

/** A terminal that may hold an employee's templates, and the pin it knows the employee by. */
export interface TemplateHolder {
  deviceId: number;
  pin: string;
}

/** The terminals the employee is on, and those the templates were captured on (where the employee has a pin). */
export async function templateHolders(em: EntityManager, employeeId: number, sourceDeviceIds: number[]): Promise<TemplateHolder[]> {
  const rows = await em.execute<{ device_id: number; pin: string }[]>(
    `select device_id, pin from device_user where employee_id = ? and present
     union select d.id, e.pin from device d join employee e on e.id = ? where d.id = any(?::int[]) and e.pin is not null
     order by 1`,
    [employeeId, employeeId, `{${sourceDeviceIds.join(',')}}`],
  );
  return rows.map((r) => ({ deviceId: r.device_id, pin: r.pin }));
}

/**
 * Queues on each holder the commands `commandsFor` builds for its terminal (none: nothing), each
 * under the device's sync lock, so that a user write built at the same moment cannot overtake them.
 */
export async function queueOnHolders(
  ctx: RequestContext,
  holders: TemplateHolder[],
  what: { kind: string; reference: string },
  commandsFor: (terminal: SyncTerminal & { workspaceId: number }, pin: string) => string[],
): Promise<void> {
  const em = ctx.em;
  for (const holder of holders) {
    await lockDeviceSync(em, holder.deviceId, true);
    const terminal = await syncTerminal(em, holder.deviceId);
    if (!terminal) continue;
    for (const command of [...new Set(commandsFor(terminal, holder.pin))]) {
      // Taking a template or a photo off a terminal revokes what a person can use there: ahead of additions.
      const lane = command.startsWith('DATA DELETE ') ? 'revocation' : 'bulk';
      await enqueueCommand(ctx, { workspaceId: terminal.workspaceId, deviceId: holder.deviceId, kind: what.kind, command, lane, reference: what.reference });
    }
  }
}
