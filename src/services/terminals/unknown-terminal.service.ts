// Serials that reach /iclock/* without a device record. Contacts are buffered by the adapter and
// written in batches; a workspace sees the unclaimed ones that connect from an address one of its
// own terminals uses (same site), or the one whose exact serial it asks for (the serial printed on
// the terminal is the proof of possession). Claiming = creating a device with that serial.
import { UnknownTerminal } from '../../entities';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';

export interface UnknownContact {
  serialNumber: string;
  ip: string;
  model: string | null;
  firmware: string | null;
  protocol: string | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
  requests: number;
}

/** Upserts a batch of contacts in one statement, skipping serials claimed in the meantime. */
export async function recordUnknownContacts(ctx: RequestContext, contacts: UnknownContact[]): Promise<void> {
  if (contacts.length === 0) return;
  const params: unknown[] = [];
  const rows = contacts.map((c) => {
    params.push(
      c.serialNumber.slice(0, 64),
      c.ip.slice(0, 64),
      c.model?.slice(0, 100) ?? null,
      c.firmware?.slice(0, 100) ?? null,
      c.protocol,
      c.firstSeenAt,
      c.lastSeenAt,
      c.requests,
    );
    return '(?::varchar, ?::varchar, ?::varchar, ?::varchar, ?::varchar, ?::timestamptz, ?::timestamptz, ?::bigint)';
  });
  await ctx.em.execute(
    `insert into unknown_terminal (serial_number, ip, model, firmware, protocol, first_seen_at, last_seen_at, request_count)
     select * from (values ${rows.join(', ')}) v(serial_number, ip, model, firmware, protocol, first_seen_at, last_seen_at, request_count)
     where not exists (select 1 from device d where lower(d.serial_number) = lower(v.serial_number))
     on conflict (lower(serial_number)) do update set
       ip = excluded.ip,
       model = coalesce(excluded.model, unknown_terminal.model),
       firmware = coalesce(excluded.firmware, unknown_terminal.firmware),
       protocol = coalesce(excluded.protocol, unknown_terminal.protocol),
       first_seen_at = least(unknown_terminal.first_seen_at, excluded.first_seen_at),
       last_seen_at = greatest(unknown_terminal.last_seen_at, excluded.last_seen_at),
       request_count = unknown_terminal.request_count + excluded.request_count`,
    params,
  );
}

/** Called when a device with this serial is created: the terminal is no longer unknown. */
export async function clearUnknownTerminal(ctx: RequestContext, serialNumber: string): Promise<void> {
  await ctx.em.execute('delete from unknown_terminal where lower(serial_number) = lower(?)', [serialNumber]);
}

const VISIBLE = `not exists (select 1 from device d where lower(d.serial_number) = lower(u.serial_number))
  and (u.ip in (select remote_address from device where workspace_id = ? and remote_address is not null)
       or (?::varchar is not null and lower(u.serial_number) = lower(?::varchar)))`;

/** Unclaimed terminals this workspace may see (see the file comment), most recent contact first. */
export async function listUnknownTerminals(ctx: RequestContext, filter: { serialNumber?: string }, page: PageRequest): Promise<Page<UnknownTerminal>> {
  const serial = filter.serialNumber ?? null;
  const params = [workspaceOf(ctx), serial, serial];
  const connection = ctx.em.getConnection();
  const [{ count }] = await connection.execute<{ count: string }[]>(`select count(*) from unknown_terminal u where ${VISIBLE}`, params);
  const rows = await connection.execute<Record<string, unknown>[]>(
    `select u.* from unknown_terminal u where ${VISIBLE} order by u.last_seen_at desc, u.id limit ? offset ?`,
    [...params, page.limit, page.offset],
  );
  const items = rows.map((row) => ctx.em.map(UnknownTerminal, row));
  return { items, totalCount: Number(count), offset: page.offset };
}
