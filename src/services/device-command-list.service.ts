// A device's command queue as operators see it: what was queued for the terminal, and how each
// command ended. The command's text is not shown, only its verb and table: it can carry a person's
// name, a biometric template or a photo.
import { DeviceCommand } from '../entities';
import { DeviceCommandStatus } from '../entities/device-command.entity';
import type { RequestContext } from './context';
import { getDevice } from './device.service';
import type { Page, PageRequest } from './pagination';
import { FieldChecker } from './validation';

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

const STATUSES = Object.values(DeviceCommandStatus) as string[];

/** `DATA UPDATE USERINFO PIN=…` → `DATA UPDATE USERINFO`; `CONTROL DEVICE 01010105` → `CONTROL DEVICE 01010105` (no personal data in it). */
export function commandVerb(command: string): string {
  const data = /^(DATA (?:UPDATE|DELETE|QUERY|COUNT)) ([^\s,=]+)/.exec(command);
  if (data) return `${data[1]} ${data[2]}`;
  const control = /^(CONTROL DEVICE [0-9A-Fa-f]+|SET OPTIONS? DateTime|VERIFY SUM ATTLOG|CLEAR \w+|[A-Z_]+)/.exec(command);
  return control?.[1] ?? command.split(/\s/)[0]!.slice(0, 40);
}

/** A device's commands, newest first, optionally only those of some statuses. */
export async function listDeviceCommands(ctx: RequestContext, deviceId: number, statuses: string[] | null, page: PageRequest): Promise<Page<DeviceCommandView>> {
  const device = await getDevice(ctx, deviceId);
  if (statuses) {
    const check = new FieldChecker();
    statuses.forEach((s, i) => {
      if (!STATUSES.includes(s)) check.add(`status.${i}`, 'invalid_value', `status must be one of ${STATUSES.join(', ')}.`);
    });
    check.done();
  }
  const [rows, totalCount] = await ctx.em.findAndCount(
    DeviceCommand,
    { deviceId: device.id, workspaceId: device.workspaceId, ...(statuses ? { status: { $in: statuses as DeviceCommandStatus[] } } : {}) },
    { orderBy: { id: 'desc' }, offset: page.offset, limit: page.limit, disableIdentityMap: true },
  );
  return {
    totalCount,
    offset: page.offset,
    items: rows.map((c) => ({
      id: c.id, commandId: c.commandId, kind: c.kind, verb: commandVerb(c.command), status: c.status, returnCode: c.returnCode ?? null, attempts: c.attempts,
      reference: c.reference ?? null, createdAt: c.createdAt, sentAt: c.sentAt ?? null, completedAt: c.completedAt ?? null, expiresAt: c.expiresAt ?? null,
    })),
  };
}
