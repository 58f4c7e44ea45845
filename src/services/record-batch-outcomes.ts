// What a multi-record command's outcome means for the records it carried (record-batch-queue.ts).
// The terminal answers one Return for the whole command (Security PUSH document, section 12.1.1):
// a success concludes every record with it; a refusal (a negative Return, an attendance enrolment
// code, or no answer after the last attempt) cannot say which record was bad, so each record is
// queued again on its own, under its own command id: the good ones succeed, the bad one fails with
// its own return code, and the rows that mirror records (device_user, face_enrollment) end right.
// Runs in the transaction that concluded the commands, before those mirrors.
import type { EntityManager } from '@mikro-orm/postgresql';
import { notifyCommandsQueued } from './command-queue-changes';
import { intArray } from './sql-arrays';

/**
 * Carries the outcome of the concluded multi-record commands among `commandIds` to their records;
 * returns the ids of the records concluded with them (for the callers' mirrors). Records of a
 * refused command are queued alone.
 */
export async function concludeRecordBatches(em: EntityManager, commandIds: readonly number[]): Promise<number[]> {
  if (commandIds.length === 0) return [];
  const concluded = await em.execute<{ id: number }[]>(
    `update device_command r set status = b.status, return_code = b.return_code, attempts = b.attempts, sent_at = b.sent_at, completed_at = b.completed_at
     from device_command b
     where r.batch_id = b.id and r.status = 'batched' and b.id = any(?::int[]) and b.status in ('succeeded', 'expired')
     returning r.id`,
    [intArray([...commandIds])],
  );
  const retried = await em.execute<{ device_id: number }[]>(
    `update device_command r set status = 'queued', attempts = 0, sent_at = null, completed_at = null
     from device_command b
     where r.batch_id = b.id and r.status = 'batched' and b.id = any(?::int[]) and b.status = 'failed'
     returning r.device_id`,
    [intArray([...commandIds])],
  );
  notifyCommandsQueued(em, retried.map((r) => r.device_id));
  return concluded.map((r) => r.id);
}
