// How the sync engines queue table rows for a terminal: many records per command. Each record
// keeps its own `device_command` row (its text, kind, reference, desired-state row and step), so
// everything that reads the outcome of one record (a person's sync status, a face enrolment)
// works as for a command of its own; records packed together are rows with status `batched`
// pointing at the multi-record command that carries them (`batch_id`), which alone is delivered.
// The queue concludes the records with the command that carried them (`concludeRecordBatches` in
// command-queue.ts):
// success concludes every record, a refusal queues each record on its own so one bad row does not
// block the rest. Part of the queue: the only other module that writes `device_command`.
import type { EntityManager } from '@mikro-orm/postgresql';
import { commandByteBudget, packRecordCommands, type RecordFamily, reportedOption } from '../../protocol';
import { newCommandId, priorityOf, type CommandLane } from './command-queue';

/** The kind of a multi-record command (bulk work: table rows of one kind, many people). */
export const RECORD_BATCH_COMMAND_KIND = 'record_batch';

/** Commands a poll delivers by default (TIMEGATE_COMMAND_BATCH_SIZE), for callers without the settings at hand. */
export const DEFAULT_COMMANDS_PER_POLL = 5;

/** One record to queue, as its own command text. */
export interface QueuedRecord {
  command: string;
  kind: string;
  /** Default `bulk`; the records of one multi-record command share a lane (one table, one verb). */
  lane?: CommandLane;
  reference: string | null;
  deviceUserId?: number | null;
  deviceUserVersion?: string | null;
  step?: number | null;
  /** Set by queueRecords: the record's `device_command` id. */
  id?: number;
}

/** The terminal the records go to: its family and how many bytes one command may take. */
export interface RecordTarget {
  id: number;
  workspaceId: number;
  family: RecordFamily;
  /** commandByteBudget of the terminal. */
  maxCommandBytes: number;
}

/** A device's target: its `MaxPackageSize` (registry options) shared among the commands of a poll. */
export async function recordTarget(em: EntityManager, deviceId: number, commandsPerPoll: number): Promise<RecordTarget | null> {
  const [device] = await em.execute<{ workspace_id: number; mode_type: string; reported_options: Record<string, string> | null }[]>(
    'select workspace_id, mode_type, reported_options from device where id = ?',
    [deviceId],
  );
  if (!device) return null;
  return {
    id: deviceId,
    workspaceId: device.workspace_id,
    family: device.mode_type === 'acc' ? 'access' : 'attendance',
    maxCommandBytes: commandByteBudget(reportedOption(device.reported_options ?? {}, 'MaxPackageSize'), commandsPerPoll),
  };
}

const COLUMNS =
  '(workspace_id, device_id, command_id, command, kind, priority, reference, device_user_id, device_user_version, step, status, batch_id, created_at)';
const VALUES = '(?, ?, ?, ?, ?, ?, ?, ?, ?::timestamptz, ?, ?, ?, ?)';

/**
 * Queues the records of `sequences` (each in the order it must reach the terminal; see
 * packRecordCommands) packed into as few commands as the terminal's budget and the vendor's
 * grammar allow, in the caller's transaction. Sets each record's `id`.
 */
export async function queueRecords(em: EntityManager, target: RecordTarget, sequences: ReadonlyArray<ReadonlyArray<QueuedRecord>>, now: Date): Promise<number> {
  const packed = packRecordCommands(
    target.family,
    sequences.map((records) => records.map((record) => ({ command: record.command, item: record }))),
    target.maxCommandBytes,
  );
  let singles: QueuedRecord[] = [];
  const row = (r: QueuedRecord, status: string, batchId: number | null) => [
    target.workspaceId,
    target.id,
    newCommandId(),
    r.command,
    r.kind,
    priorityOf(r.lane ?? 'bulk'),
    r.reference,
    r.deviceUserId ?? null,
    r.deviceUserVersion ?? null,
    r.step ?? null,
    status,
    batchId,
    now,
  ];
  const insert = async (records: QueuedRecord[], status: string, batchId: number | null) => {
    if (records.length === 0) return;
    const ids = await em.execute<{ id: number }[]>(
      `insert into device_command ${COLUMNS} values ${records.map(() => VALUES).join(', ')} returning id`,
      records.flatMap((r) => row(r, status, batchId)),
    );
    // Ids are drawn in the order of the VALUES (one statement, one sequence).
    const sorted = ids.map((r) => r.id).sort((a, b) => a - b);
    records.forEach((r, i) => (r.id = sorted[i]!));
  };
  for (const command of packed) {
    if (command.items.length === 1) {
      singles.push(command.items[0]!);
      continue;
    }
    await insert(singles, 'queued', null);
    singles = [];
    const [batch] = await em.execute<{ id: number }[]>(
      `insert into device_command ${COLUMNS} values ${VALUES} returning id`,
      row({ command: command.command, kind: RECORD_BATCH_COMMAND_KIND, lane: command.items[0]!.lane, reference: null }, 'queued', null),
    );
    await insert(command.items, 'batched', batch!.id);
  }
  await insert(singles, 'queued', null);
  return packed.length;
}
