// Sandbox workspaces (docs/sandbox.md): created with a company, a few employees, a time clock and a
// door controller, all virtual, and reset to that at will. A sandbox is a workspace like any other
// (its own tenant, its own plan), so its data never mixes with a live workspace's.
import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Workspace } from '../../entities';
import { DeviceMode } from '../../entities/device.entity';
import { withEm, workspaceOf, type RequestContext } from '../../context/request-context';
import { SANDBOX_SERIAL_PREFIX } from '../../kernel/sandbox';
import { lockWorkspace } from '../common/workspace-lock';
import { createShift } from '../attendance/shift.service';
import { seedDefaultVerificationStates } from '../attendance/verification-state.service';
import type { IssuedApiKey } from '../identity/api-key.service';
import { notifyDeviceChanged } from '../terminals/device-changes';
import { createDevice } from '../terminals/device.service';
import { retryOnConflict } from '../common/transaction-conflict';
import { changeAreaEmployees, createArea } from '../directory/area.service';
import { changeEmployeeDevices } from '../directory/assignment.service';
import { createCompany } from '../directory/company.service';
import { createEmployee } from '../directory/employee.service';
import { createWorkspace as createLiveWorkspace, createWorkspaceWithAdminKey, requireOperator, type WorkspaceInput } from '../directory/workspace.service';
import { openSandboxLease } from './sandbox-lease.service';
import { requireSandbox } from './virtual-terminal.service';

/** What a sandbox starts with (created and after each reset): the ids a script goes on with. */
export interface SandboxSeed {
  companyId: number;
  areaId: number;
  shiftId: number;
  employeeIds: number[];
  /** The virtual time clock (attendance terminal). */
  clockId: number;
  /** The virtual door controller (access-control terminal, one door). */
  controllerId: number;
}

/** The people of a new sandbox; the last is on the clock only, so the controller refuses her badge. */
const PEOPLE = [
  { name: 'Ada', lastname: 'Lovelace', pin: '1001' },
  { name: 'Grace', lastname: 'Hopper', pin: '1002' },
  { name: 'Alan', lastname: 'Turing', pin: '1003' },
  { name: 'Katherine', lastname: 'Johnson', pin: '1004' },
] as const;

const SERIAL_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** `TGSBX` + 10 random characters: every seed's terminals are new serials (no cache anywhere knows them). */
function virtualSerial(): string {
  let serial = SANDBOX_SERIAL_PREFIX;
  for (const byte of crypto.randomBytes(10)) serial += SERIAL_ALPHABET[byte % SERIAL_ALPHABET.length];
  return serial;
}

/** The sandbox acting on itself, as its own admin (the seed is the sandbox's data like any other). */
function asSandbox(ctx: RequestContext, workspaceId: number, em: EntityManager): RequestContext {
  return {
    principal: { kind: 'workspace', workspaceId, keyId: null, scopes: ['admin'] },
    em,
    requestId: ctx.requestId,
    logger: ctx.logger,
    now: ctx.now,
    config: ctx.config,
    metrics: ctx.metrics,
  };
}

/**
 * The data of a new sandbox, through the same services as any client's: a company with a default
 * office shift, four employees, an area "Head office" with the first three, a time clock and a door
 * controller in that area, and the fourth employee assigned to the clock only.
 */
async function seedSandbox(ctx: RequestContext): Promise<SandboxSeed> {
  const company = await createCompany(ctx, { name: 'Sandbox Inc', code: 'SBX' });
  const shift = await createShift(ctx, { companyId: company.id, name: 'Office', startTime: '09:00', endTime: '17:00', breakMinutes: 30, isDefault: true });
  const employees = [];
  for (const person of PEOPLE) employees.push(await createEmployee(ctx, { companyId: company.id, ...person, code: `E-${person.pin}` }));
  const area = await createArea(ctx, { companyId: company.id, name: 'Head office', code: 'HQ' });
  await changeAreaEmployees(
    ctx,
    area.id,
    'add',
    employees.slice(0, 3).map((e) => ({ employeeId: e.id })),
  );
  const clock = await createDevice(ctx, {
    companyId: company.id,
    name: 'Front desk clock',
    serialNumber: virtualSerial(),
    modeType: DeviceMode.att,
    areaId: area.id,
  });
  const controller = await createDevice(ctx, {
    companyId: company.id,
    name: 'Main door',
    serialNumber: virtualSerial(),
    modeType: DeviceMode.acc,
    areaId: area.id,
  });
  await changeEmployeeDevices(ctx, employees[3]!.id, 'add', [{ deviceId: clock.id, permissionId: 0 }]);
  return { companyId: company.id, areaId: area.id, shiftId: shift.id, employeeIds: employees.map((e) => e.id), clockId: clock.id, controllerId: controller.id };
}

export interface CreatedWorkspace {
  workspace: Workspace;
  issued: IssuedApiKey;
  /** What a sandbox was created with; null for a live workspace. */
  sandbox: SandboxSeed | null;
}

/**
 * The operator creates a workspace: a live one (directory) or a sandbox, which comes seeded and
 * with its lease row, so that a process starts playing its terminals within a poll.
 */
export async function createWorkspace(ctx: RequestContext, input: WorkspaceInput): Promise<CreatedWorkspace> {
  requireOperator(ctx);
  if (input.sandbox !== true) return { ...(await createLiveWorkspace(ctx, input)), sandbox: null };
  const created = await ctx.em.transactional(async (em) => {
    const { workspace, issued } = await createWorkspaceWithAdminKey(em, { ...input, name: input.name ?? 'Sandbox', sandbox: true });
    const seed = await seedSandbox(asSandbox(ctx, workspace.id, em));
    await openSandboxLease(em, workspace.id);
    return { workspace, issued, sandbox: seed };
  });
  ctx.logger.info({ workspaceId: created.workspace.id }, 'sandbox created');
  return created;
}

/**
 * Tables a reset keeps: the workspace itself, its keys (`scim` tokens go with their company), its
 * webhook endpoints, its console sessions, its audit log and its idempotency records, and the lease.
 */
const KEPT_BY_RESET = new Set(['workspace', 'api_key', 'webhook_endpoint', 'console_session', 'audit_event', 'idempotency_record', 'sandbox_lease']);

/**
 * Every table holding a workspace's rows that a reset empties, in an order that deletes the rows
 * referring to others first (foreign keys without ON DELETE CASCADE are then never in the way).
 * Read from the catalog, so that a table added later is emptied too.
 */
async function tablesToEmpty(em: EntityManager): Promise<string[]> {
  const tables = (
    await em.execute<{ name: string }[]>(
      `select c.relname as name from pg_class c
         join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
         join pg_attribute a on a.attrelid = c.oid and a.attname = 'workspace_id' and not a.attisdropped
        where c.relkind in ('r', 'p') and not c.relispartition`,
    )
  )
    .map((r) => r.name)
    .filter((name) => !KEPT_BY_RESET.has(name));
  const edges = await em.execute<{ child: string; parent: string }[]>(
    `select ch.relname as child, pa.relname as parent from pg_constraint f
       join pg_class ch on ch.oid = f.conrelid join pg_class pa on pa.oid = f.confrelid
      where f.contype = 'f' and not ch.relispartition and ch.relname <> pa.relname`,
  );
  const set = new Set(tables);
  // Kahn's order on "child before parent": a table goes once no remaining table refers to it.
  const referrers = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of edges) if (set.has(child) && set.has(parent)) referrers.get(parent)!.add(child);
  const order: string[] = [];
  const left = new Set(tables.sort());
  while (left.size > 0) {
    const free = [...left].filter((t) => [...referrers.get(t)!].every((child) => !left.has(child)));
    // A circle of references (none today) would leave tables: they go last, in name order.
    const next = free.length > 0 ? free : [...left];
    for (const table of next) {
      order.push(table);
      left.delete(table);
    }
  }
  return order;
}

/**
 * Empties the sandbox (every row of it but what KEPT_BY_RESET names) and seeds it anew, in one
 * transaction; its keys keep working. The process playing its terminals stops the old ones (their
 * devices are gone) and starts the new ones at its next poll.
 */
export async function resetSandbox(ctx: RequestContext): Promise<SandboxSeed> {
  await requireSandbox(ctx);
  const workspaceId = workspaceOf(ctx);
  // The sandbox's virtual terminals keep polling and uploading while the rows go: their requests
  // and the reset can meet in a deadlock, which PostgreSQL resolves by aborting one; the reset is
  // then run again whole (it computes everything from what it reads).
  const { seed, serials } = await retryOnConflict(() =>
    ctx.em.transactional(async (em) => {
      // Under the workspace lock: no create of this workspace counts its plan while rows go.
      await lockWorkspace(em, workspaceId);
      // The devices first: a terminal request that already holds one finishes before the reset
      // deletes the rows it writes, and one that comes later waits for the reset.
      const old = await em.execute<{ serial_number: string }[]>('select serial_number from device where workspace_id = ? order by id for update', [
        workspaceId,
      ]);
      for (const table of await tablesToEmpty(em)) await em.execute(`delete from "${table}" where workspace_id = ?`, [workspaceId]);
      await seedDefaultVerificationStates(em, workspaceId);
      const seeded = await seedSandbox(withEm(ctx, em));
      return { seed: seeded, serials: old.map((d) => d.serial_number) };
    }),
  );
  if (serials.length > 0) notifyDeviceChanged(ctx.em, ...serials);
  ctx.logger.info({ workspaceId }, 'sandbox reset');
  return seed;
}
