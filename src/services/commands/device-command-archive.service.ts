// The device command log's history. `device_command` is a work queue first (a terminal's next
// commands, matched by id when it answers, one sync step per employee version): its unique keys
// cannot hold a month, so it cannot be partitioned (docs/history.md). What grows without bound is
// its finished rows; those that nothing needs any more are moved, in batches, to
// `device_command_archive`, partitioned by month of completion and dropped by its retention. The
// live table keeps the queue, the commands in flight and the recent past.
//
// A finished command stays live while something still reads it: a door action or a face enrollment
// referring to it (their foreign keys), or a command of the same sync version or reference still
// queued or sent (the outcome of an employee version or a device action is decided over all its
// commands together).
import { commandVerb } from '../../protocol';
import type { EntityManager } from '@mikro-orm/postgresql';

/** Commands moved per transaction. */
const ARCHIVE_BATCH = 1_000;
/** Batches per run: the first run after an upgrade meets years of commands; it moves them over several runs. */
const MAX_BATCHES_PER_RUN = 100;

interface MovedCommand {
  id: number;
  workspace_id: number;
  device_id: number;
  command_id: string;
  head: string;
  kind: string;
  status: string;
  return_code: number | null;
  attempts: number;
  reference: string | null;
  created_at: string;
  sent_at: string | null;
  completed_at: string;
  expires_at: string | null;
}

/** Moves the finished commands completed before `cutoff` that nothing reads any more; returns how many moved. */
export async function archiveFinishedCommands(em: EntityManager, cutoff: Date): Promise<number> {
  let moved = 0;
  for (let run = 0; run < MAX_BATCHES_PER_RUN; run++) {
    const batch = await em.transactional(async (tx) => {
      const rows = await tx.execute<MovedCommand[]>(
        `with candidates as (
           select c.id from device_command c
           where c.status in ('succeeded', 'failed', 'expired') and coalesce(c.completed_at, c.created_at) < ?
             and not exists (select 1 from door_action a where a.command_id = c.id)
             and not exists (select 1 from face_enrollment f where f.command_id = c.id)
             -- Two conditions rather than one with OR: each is a hash anti-join over the commands in flight.
             and not exists (
               select 1 from device_command o
               where o.status in ('queued', 'sent', 'batched') and o.device_user_id = c.device_user_id and o.device_user_version = c.device_user_version)
             and not exists (select 1 from device_command o where o.status in ('queued', 'sent', 'batched') and o.reference = c.reference)
           order by c.id
           limit ${ARCHIVE_BATCH}
           for update of c skip locked)
         delete from device_command c using candidates k where c.id = k.id
         returning c.id, c.workspace_id, c.device_id, c.command_id, left(c.command, 200) as head, c.kind, c.status, c.return_code,
           c.attempts, c.reference, c.created_at, c.sent_at, coalesce(c.completed_at, c.created_at) as completed_at, c.expires_at`,
        [cutoff],
      );
      if (rows.length === 0) return 0;
      await tx.execute(
        `insert into device_command_archive (id, workspace_id, device_id, command_id, verb, kind, status, return_code, attempts, reference,
           created_at, sent_at, completed_at, expires_at)
         select * from json_to_recordset(?::json) as t(id int, workspace_id int, device_id int, command_id varchar, verb varchar, kind varchar,
           status varchar, return_code int, attempts int, reference varchar, created_at timestamptz, sent_at timestamptz, completed_at timestamptz,
           expires_at timestamptz)`,
        [JSON.stringify(rows.map(({ head, ...row }) => ({ ...row, verb: commandVerb(head).slice(0, 64) })))],
      );
      return rows.length;
    });
    moved += batch;
    if (batch < ARCHIVE_BATCH) break;
  }
  return moved;
}
