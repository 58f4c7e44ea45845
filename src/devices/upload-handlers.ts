// The ONE place terminal uploads arrive after parsing: one function per table. Each parses the
// body with the pure protocol layer, logs rejected lines, and returns the acknowledgement the
// protocol expects. Punches and door events (ATTLOG, rtlog) are stored here; templates (OPERLOG,
// BIODATA, tabledata) are stored per employee (employee-template.service.ts).
import type { DoorStateSnapshot } from '../entities/device.entity';
import type { RequestContext } from '../context/request-context';
import { ATTLOG_CHUNK, ingestAttlog, ingestRtlog } from '../services/terminals/terminal-ingest.service';
import { applyDoorStates } from '../services/access/door-state.service';
import { noteClockReading } from '../services/fleet/device-clock.service';
import { concludeClockSyncs } from '../services/fleet/device-action.service';
import { recordReportedUsers } from '../services/fleet/user-reconcile.service';
import { recordDoorStates, recordReportedOptions, type TerminalDevice } from '../services/terminals/terminal.service';
import { attachCommandResultFields } from '../services/commands/command-queue';
import { recordTerminalTemplates } from '../services/sync/employee-template.service';
import { storingUpload, uploadLane, uploadSlots } from './upload-slots';
import { biodataTemplate, operlogTemplates, tableDataTemplates } from './uploaded-templates';
import {
  OK,
  parseAttlogChunks,
  parseAttPhoto,
  parseBiodata,
  parseOperlog,
  parseOptions,
  parseRtlog,
  localTimeToInstant,
  parseRtstate,
  parseTableData,
  tableDataAck,
  tableDataTag,
  truncate,
  uploadAck,
  type LineError,
  type RtstateRecord,
} from '../protocol';

export interface Upload {
  ctx: RequestContext;
  device: TerminalDevice;
  body: Buffer;
  /** Lower-cased `tablename` (tabledata / querydata). */
  tablename: string | null;
  /** Declared `count`, echoed in the tabledata acknowledgement. */
  declaredCount: string | null;
  /** The terminal closed the connection before its answer. */
  clientGone: () => boolean;
}

/**
 * The terminal hung up while its upload waited for a slot (under a burst, past the terminal's own
 * timeout). Nothing of it is parsed or stored: the terminal keeps every record it was not
 * acknowledged and sends the body again, so working on it now would only lengthen the queue for
 * the terminals still waiting. Slices stored before it hung up stay stored (a re-send finds them).
 */
export class TerminalGone extends Error {
  constructor(serialNumber: string) {
    super(`terminal ${serialNumber} closed the connection while its upload waited; left for its re-send`);
    this.name = 'TerminalGone';
  }
}

/** Throws TerminalGone when the upload's terminal has hung up (checked as each slot is granted). */

/**
 * The one new record of an upload as a candidate reading of the terminal's clock
 * (device-clock.service.ts); a stored reading may conclude a waiting clock.sync.
 */
async function readClock(u: Upload, localTime: string): Promise<void> {
  if (await noteClockReading(u.ctx, u.device, localTimeToInstant(localTime, u.device.timeZone), u.ctx.now())) await concludeClockSyncs(u.ctx, u.device.id);
}

function stillWanted(u: Upload): void {
  if (u.clientGone()) throw new TerminalGone(u.device.serialNumber);
}

function logRejected(u: Upload, table: string, errors: ReadonlyArray<LineError | { segment: string; reason: string }>): void {
  if (errors.length === 0) return;
  // The label is the table family, never a terminal-chosen tabledata name (bounded series).
  u.ctx.metrics?.terminalLinesRejected.inc({ table: table.startsWith('tabledata:') ? 'tabledata' : table }, errors.length);
  u.ctx.logger.warn({ serial: u.device.serialNumber, table, errors: errors.slice(0, 20), rejected: errors.length }, 'terminal upload lines rejected');
}

/**
 * Attendance punches: every good line is stored (or was already); bad lines are logged and left
 * out. `OK: n` counts the good lines — stored plus already stored, in the punches or in the
 * quarantine (impossible dates) — so n is the number of records the service holds from this body; the terminal only needs the 200 and an `OK` to move on.
 */
export async function handleAttlog(u: Upload): Promise<string> {
  const errors: LineError[] = [];
  const result = { stored: 0, duplicates: 0, quarantined: 0 };
  let records = 0;
  let only: string | null = null;
  // Slice by slice: parsing 200,000 lines at once would hold the event loop for every other request.
  // Each slice is parsed and stored holding an upload slot (upload-slots.ts), given back between
  // slices, so a long upload takes its turn with the others, and a live punch goes before them.
  const chunks = parseAttlogChunks(u.body, ATTLOG_CHUNK);
  const lane = uploadLane(u.body.length);
  await storingUpload(lane, async () => {
    for (let last = false; !last;) {
      last = await uploadSlots.run(async () => {
        stillWanted(u);
        const { value: chunk } = chunks.next();
        if (!chunk) return true;
        errors.push(...chunk.errors);
        records += chunk.records.length;
        const ingested = await ingestAttlog(u.ctx, u.device, chunk.records);
        // A record already stored (a re-send) was not made just now.
        only = chunk.records.length === 1 && ingested.stored === 1 ? chunk.records[0]!.localTime : null;
        result.stored += ingested.stored;
        result.duplicates += ingested.duplicates;
        result.quarantined += ingested.quarantined;
        if (chunk.records.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
        return chunk.last;
      }, lane);
    }
  });
  logRejected(u, 'ATTLOG', errors);
  u.ctx.logger.debug({ serial: u.device.serialNumber, ...result }, 'ATTLOG stored');
  // One new record: perhaps a punch sent as it happened, a candidate reading of the terminal's clock.
  if (records === 1 && only !== null) await readClock(u, only);
  // Quarantined records are acknowledged too: the terminal must not send them again for ever.
  return uploadAck(result.stored + result.duplicates + result.quarantined);
}

/**
 * Operation log with USER/FP/FACE/... records made on the terminal. Templates are stored for the
 * employees with those pins; USER records are NOT turned into employees (people are managed in
 * Timegate; the terminal's copy is what we send), only counted in the log.
 */
export async function handleOperlog(u: Upload): Promise<string> {
  const { records, errors } = parseOperlog(u.body);
  logRejected(u, 'OPERLOG', errors);
  const users = records.filter((r) => r.kind === 'user');
  // Not turned into employees: remembered as what the terminal holds (users.reconcile compares).
  await recordReportedUsers(
    u.ctx,
    u.device,
    users.map((r) => ({ pin: r.pin, name: r.name, privilege: r.privilege })),
  );
  await recordTerminalTemplates(u.ctx, u.device, operlogTemplates(records, u.device.reported));
  return uploadAck(records.length);
}

/** Unified templates (BIODATA): stored per employee. */
export async function handleBiodata(u: Upload): Promise<string> {
  const { records, errors } = parseBiodata(u.body);
  logRejected(u, 'BIODATA', errors);
  await recordTerminalTemplates(u.ctx, u.device, records.map(biodataTemplate));
  return uploadAck(records.length);
}

/** Attendance photos (`table=ATTPHOTO` or `/iclock/fdata`): one per request. */
export async function handleAttPhoto(u: Upload): Promise<string> {
  const parsed = parseAttPhoto(u.body);
  if (!parsed.ok) logRejected(u, 'ATTPHOTO', [{ segment: '', reason: parsed.reason }]);
  return OK;
}

/** Access-control events: door events and (granted, with a person) punches, deduped on serial + index. */
export async function handleRtlog(u: Upload): Promise<string> {
  // Parsed and stored holding an upload slot, like ATTLOG (upload-slots.ts).
  const lane = uploadLane(u.body.length);
  const { only, result } = await storingUpload(lane, () =>
    uploadSlots.run(async () => {
      stillWanted(u);
      const { records, errors } = parseRtlog(u.body);
      logRejected(u, 'rtlog', errors);
      const result = await ingestRtlog(u.ctx, u.device, records);
      // A record already stored (a re-send) was not made just now.
      return { only: records.length === 1 && result.doorEvents.stored === 1 ? records[0]!.localTime : null, result };
    }, lane),
  );
  logRejected(
    u,
    'rtlog',
    result.rejected.map((r) => ({ ...r, text: '' })),
  );
  // One new record: perhaps an event sent as it happened, a candidate reading of the terminal's clock.
  if (only !== null) await readClock(u, only);
  u.ctx.logger.debug({ serial: u.device.serialNumber, punches: result.punches, doorEvents: result.doorEvents }, 'rtlog stored');
  return OK;
}

function doorSnapshot(record: RtstateRecord): DoorStateSnapshot[] {
  return record.doors.map((d) => ({
    door: d.door,
    sensor: d.sensor,
    relay: d.relay,
    alarms: Object.entries(d.alarms)
      .filter(([, on]) => on)
      .map(([name]) => name),
    localTime: record.localTime,
  }));
}

/** Door sensor/relay/alarm state: the latest record replaces the device's door snapshot. */
export async function handleRtstate(u: Upload): Promise<string> {
  const { records, errors } = parseRtstate(u.body);
  logRejected(u, 'rtstate', errors);
  const latest = records[records.length - 1];
  if (latest) {
    await recordDoorStates(u.ctx, u.device.id, doorSnapshot(latest));
    await applyDoorStates(u.ctx, u.device, latest.doors, localTimeToInstant(latest.localTime, u.device.timeZone));
  }
  return OK;
}

/**
 * Security PUSH table uploads and DATA QUERY answers: `<tablename>=<declared count>`. Without a
 * `tablename=` the rows' own tag names the table (the vendor document's query answers); a body
 * naming no table at all is logged and acknowledged with `OK`, never as a made-up table.
 */
export async function handleTableData(u: Upload): Promise<string> {
  const tablename = u.tablename ?? tableDataTag(u.body);
  if (tablename === null) {
    u.ctx.logger.warn({ serial: u.device.serialNumber, body: truncate(u.body.toString('latin1'), 500) }, 'table rows without a table name acknowledged');
    return OK;
  }
  const { rows, errors } = parseTableData(tablename, u.body);
  logRejected(u, `tabledata:${tablename}`, errors);
  // Users are remembered as what the terminal holds (users.reconcile compares), never made employees.
  const users = rows.filter((r) => r.kind === 'user');
  await recordReportedUsers(
    u.ctx,
    u.device,
    users.map((r) => ({ pin: r.pin, name: r.name, privilege: r.privilege })),
  );
  await recordTerminalTemplates(u.ctx, u.device, tableDataTemplates(rows));
  // Without a declared count, the number of records received (stored or refused): the terminal
  // compares it with what it sent and would send the table again on `<table>=0`.
  const count = u.declaredCount !== null && /^\d+$/.test(u.declaredCount) ? u.declaredCount : String(rows.length + errors.length);
  return /^[A-Za-z][A-Za-z0-9_]*$/.test(tablename) ? tableDataAck(tablename, count) : OK;
}

/** Device parameters (`table=options`): stored raw (algorithm versions are read from them later). */
export async function handleOptions(u: Upload): Promise<string> {
  const { options, errors } = parseOptions(u.body);
  logRejected(u, 'options', errors);
  await recordReportedOptions(u.ctx, u.device.id, options, { model: options.DeviceName ?? null, firmware: options.FWVersion ?? options.FirmVer ?? null });
  return OK;
}

/**
 * The answer to a Security PUSH `GET OPTIONS` (`/iclock/querydata?type=options&cmdid=…`): the pairs
 * are what the terminal reports about itself (stored like a `table=options` push) and the result of
 * that command (`info.refresh` shows them). Acknowledged `OK`.
 */
export async function handleQueriedOptions(u: Upload, commandId: string | null): Promise<string> {
  const { options, errors } = parseOptions(u.body);
  logRejected(u, 'options', errors);
  await recordReportedOptions(u.ctx, u.device.id, options, { model: options.DeviceName ?? null, firmware: options.FirmVer ?? options.FWVersion ?? null });
  if (commandId !== null && !(await attachCommandResultFields(u.ctx, u.device.id, commandId, options))) {
    u.ctx.logger.warn({ serial: u.device.serialNumber, commandId }, 'options posted for an unknown or concluded command: stored as reported options only');
  }
  return OK;
}

const CDATA_HANDLERS: Record<string, (u: Upload) => Promise<string>> = {
  attlog: handleAttlog,
  operlog: handleOperlog,
  biodata: handleBiodata,
  attphoto: handleAttPhoto,
  rtlog: handleRtlog,
  rtstate: handleRtstate,
  tabledata: handleTableData,
  options: handleOptions,
};

/** `POST /iclock/cdata?table=...`: dispatch by table; an unknown table is logged with its body (pitfall 2) and acknowledged. */
export async function handleCdataUpload(u: Upload, table: string | null): Promise<string> {
  const handler = table ? CDATA_HANDLERS[table] : undefined;
  if (handler) return handler(u);
  u.ctx.logger.warn({ serial: u.device.serialNumber, table, body: truncate(u.body.toString('latin1'), 500) }, 'upload of an unhandled table acknowledged');
  return OK;
}
