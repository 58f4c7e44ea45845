// A device's command queue as operators see it: what was queued for the terminal, and how each
// command ended. The command's text is not shown, only its verb and table: it can carry a person's
// name, a biometric template or a photo.
import { commandVerb } from '../../protocol';
import { DeviceCommandRowStatus } from '../../entities/device-command.entity';
import type { RequestContext } from '../../context/request-context';
import { getDevice } from './device.service';
import type { Page, PageRequest } from '../common/pagination';
import { FieldChecker } from '../common/validation';

export interface DeviceCommandView {
  id: number;
  commandId: string;
  kind: string;
  verb: string;
  status: string;
  returnCode: number | null;
  attempts: number;
  reference: string | null;
  createdAt: Date;
  sentAt: Date | null;
  completedAt: Date | null;
  expiresAt: Date | null;
}

const STATUSES = Object.values(DeviceCommandRowStatus) as string[];

/** A device's commands, newest first, optionally only those of some statuses. */
export async function listDeviceCommands(
  ctx: RequestContext,
  deviceId: number,
  statuses: string[] | null,
  page: PageRequest,
): Promise<Page<DeviceCommandView>> {
  const device = await getDevice(ctx, deviceId);
  if (statuses) {
    const check = new FieldChecker();
    statuses.forEach((s, i) => {
      if (!STATUSES.includes(s)) check.add(`status.${i}`, 'invalid_value', `status must be one of ${STATUSES.join(', ')}.`);
    });
    check.done();
  }
  // The live queue and the archive (finished commands past the archive age) together, by id.
  const statusFilter = statuses ? `and status in (${statuses.map(() => '?').join(', ')})` : '';
  const filterParams = [device.id, device.workspaceId, ...(statuses ?? [])];
  const rows = await ctx.em.execute<CommandRow[]>(
    `with listed as (
       select id, command_id, kind, left(command, 200) as head, status, return_code, attempts, reference, created_at, sent_at, completed_at, expires_at
       from device_command where device_id = ? and workspace_id = ? ${statusFilter}
       union all
       select id, command_id, kind, verb as head, status, return_code, attempts, reference, created_at, sent_at, completed_at, expires_at
       from device_command_archive where device_id = ? and workspace_id = ? ${statusFilter})
     select listed.*, count(*) over () as total from listed order by id desc limit ? offset ?`,
    [...filterParams, ...filterParams, page.limit, page.offset],
  );
  const date = (value: string | Date | null) => (value === null ? null : value instanceof Date ? value : (ctx.em.getPlatform().parseDate(value) as Date));
  return {
    totalCount: rows.length > 0 ? Number(rows[0]!.total) : await countCommands(ctx, filterParams, statusFilter),
    offset: page.offset,
    items: rows.map((c) => ({
      id: c.id,
      commandId: c.command_id,
      kind: c.kind,
      verb: commandVerb(c.head),
      status: c.status,
      returnCode: c.return_code,
      attempts: c.attempts,
      reference: c.reference,
      createdAt: date(c.created_at)!,
      sentAt: date(c.sent_at),
      completedAt: date(c.completed_at),
      expiresAt: date(c.expires_at),
    })),
  };
}

interface CommandRow {
  id: number;
  command_id: string;
  kind: string;
  /** The live command's first 200 characters, or the archived command's verb. */
  head: string;
  status: string;
  return_code: number | null;
  attempts: number;
  reference: string | null;
  created_at: string | Date;
  sent_at: string | Date | null;
  completed_at: string | Date | null;
  expires_at: string | Date | null;
  total: string | number;
}

/** The total of a page past the end (no row carried it). */
async function countCommands(ctx: RequestContext, filterParams: unknown[], statusFilter: string): Promise<number> {
  const [row] = await ctx.em.execute<{ n: string | number }[]>(
    `select (select count(*) from device_command where device_id = ? and workspace_id = ? ${statusFilter})
          + (select count(*) from device_command_archive where device_id = ? and workspace_id = ? ${statusFilter}) as n`,
    [...filterParams, ...filterParams],
  );
  return Number(row!.n);
}
