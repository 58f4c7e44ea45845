// What we answer on each /iclock endpoint (PROTOCOL.md "HTTP endpoints"). Transport concerns (raw
// bodies, headers) live in iclock-handler.ts; parsing and reply texts in ./protocol; database work
// in the services. A reply is a status and a text body.
import type { Config } from '../config/config';
import { isSandboxSerial } from '../kernel/sandbox';
import type { RequestContext } from '../context/request-context';
import { interactiveWaiting, recordCommandResults, takeCommandsForDelivery } from '../services/commands/command-queue';
import { buildSyncCommands, markDeviceTemplatesPending } from '../services/sync/device-sync.service';
import { reapplyLockdownsAfterHandshake } from '../services/access/lockdown.service';
import {
  confirmPairing,
  ensureAccessSession,
  findTerminal,
  recordProtocol,
  recordTemplateAlgorithms,
  recordReportedOptions,
  reissueAccessSession,
  type ReportedInfo,
  type TerminalDevice,
  type TerminalProtocol,
} from '../services/terminals/terminal.service';
import {
  OK,
  accessHandshakeReply,
  attendanceHandshakeReply,
  commandBatchReply,
  parseCommandResults,
  parseInfo,
  parseRegistry,
  pushConfigReply,
  registryReply,
  rtdataTimeReply,
  timeZoneOption,
  uploadTable,
  requestFamily,
  type AccessConfigSettings,
  type IclockEndpoint,
  type IclockQuery,
} from '../protocol';
import type { PresenceBuffer } from './presence-buffer';
import { sourceAllowed, terminalProof, type TerminalProof } from './terminal-proof';
import type { TerminalCache } from './terminal-cache';
import { cutToCodePoints } from '../services/common/validation';
import { annotateSpan, inSpan } from '../observability/tracing';
import { handleAttPhoto, handleCdataUpload, handleQueriedOptions, handleTableData, type Upload } from './upload-handlers';

export interface TerminalRequest {
  endpoint: IclockEndpoint;
  method: string;
  query: IclockQuery;
  serialNumber: string;
  body: Buffer;
  cookie: string | undefined;
  remoteAddress: string;
  /** The terminal closed the connection before its answer (it timed out and will send again). */
  clientGone: () => boolean;
}

export interface TerminalReply {
  status: number;
  body: string;
}

export interface TerminalDeps {
  config: Config;
  cache: TerminalCache;
  presence: PresenceBuffer;
}

const reply = (body: string, status = 200): TerminalReply => ({ status, body });

/** Keys we ask attendance terminals to report through `table=options` (algorithm versions, capacities, photo support). */
export const PUSH_OPTION_KEYS = [
  'FingerFunOn',
  'FaceFunOn',
  'MultiBioDataSupport',
  'MultiBioPhotoSupport',
  'MultiBioVersion',
  'MultiBioDataCount',
  'MaxMultiBioDataCount',
  'BioPhotoFun',
  'VisilightFun',
  'PhotoFunOn',
];

function isHandshake(r: TerminalRequest): boolean {
  return r.endpoint === 'cdata' && r.method === 'GET' && r.query.has('options');
}

/** Endpoints that are part of (re)registration and therefore carry no valid token yet. */
function needsNoToken(r: TerminalRequest): boolean {
  return isHandshake(r) || r.endpoint === 'registry' || r.endpoint === 'push' || r.endpoint === 'rtdata';
}

/** The terminal's capability options (LockCount, algorithm versions...): what it says it is. */
function changesConfiguration(r: TerminalRequest): boolean {
  return r.endpoint === 'cdata' && r.method === 'POST' && uploadTable(r.query).table === 'options';
}

type RefusalReason = 'source_address' | 'push_comm_key' | 'session' | 'pairing';

function refuse(ctx: RequestContext, r: TerminalRequest, reason: RefusalReason, answer: TerminalReply): TerminalReply {
  ctx.metrics?.terminalRequestsRefused.labels(reason).inc();
  ctx.logger.warn(
    { serial: r.serialNumber, endpoint: r.endpoint, reason, remoteAddress: r.remoteAddress },
    'terminal request refused: it cannot prove it comes from the terminal',
  );
  return answer;
}

/**
 * Whether the request may act for the device (docs/security.md, "Terminals"), or the refusal to
 * answer. Once a RegistryCode is issued the serial is registered: its handshake and options need
 * proof (the session token, or the device's PushCommKey; an unproven attendance upload is stored
 * but does not switch its family, see cdataUpload), and once the terminal has proved its session
 * (paired) every request does. An unproven registry of a registered serial that has not paired yet
 * is taken as a new registration (new codes, see registry()): a terminal whose push or registry
 * reply was lost gets back in without an operator. Refusals are the protocol's own: 406 for a
 * paired serial's registry (SEC-DOC §7.4), `OK` ("not registered") for an access handshake, which
 * leaks nothing and sends a real terminal to the registry, 401 for a session request, 403 for a
 * source address or PushCommKey.
 */
function admission(ctx: RequestContext, r: TerminalRequest, device: TerminalDevice, proof: TerminalProof): TerminalReply | null {
  if (device.registryCode === null) {
    // No session yet: a token can only be stale or forged (the terminal registers again).
    if (proof.token === 'wrong' && !needsNoToken(r)) return refuse(ctx, r, 'session', reply('token mismatch: register again', 401));
    return null;
  }
  if (proof.proven) return null;
  // Registered but never proven: the registration is taken again, with new codes (see registry()).
  if (r.endpoint === 'registry') return device.paired ? refusePairedRegistry(ctx, r) : null;
  if (isHandshake(r)) return refuse(ctx, r, 'pairing', reply(OK));
  // Right after registering, the terminal fetches its SessionID here before it can compute a token.
  if (r.endpoint === 'push') return device.paired ? refuse(ctx, r, 'session', reply('token required', 401)) : null;
  if (r.endpoint === 'rtdata') return null;
  if (changesConfiguration(r) || proof.token === 'wrong' || device.paired) {
    return refuse(ctx, r, 'session', reply(proof.token === 'wrong' ? 'token mismatch: register again' : 'token required', 401));
  }
  // Registered but not yet paired (it never sent a token): the serial is its credential.
  return null;
}

function refusePairedRegistry(ctx: RequestContext, r: TerminalRequest): TerminalReply {
  return refuse(ctx, r, 'pairing', reply('Registration refused: this terminal is paired; reset its pairing in Timegate', 406));
}

/**
 * The reply to one terminal request. Synchronous when it can be answered from memory (a heartbeat
 * of a cached device with nothing queued), so the transport can reply without a promise hop.
 */
export function handleTerminalRequest(ctx: RequestContext, deps: TerminalDeps, r: TerminalRequest): TerminalReply | Promise<TerminalReply> {
  const cached = deps.cache.peek(r.serialNumber);
  if (cached) return knownTerminal(ctx, deps, r, cached);
  return deps.cache
    .get(r.serialNumber, (serial) => findTerminal(ctx, serial))
    .then((device) => (device ? knownTerminal(ctx, deps, r, device) : unknownTerminal(ctx, deps, r, requestFamily(r.endpoint, r.query))));
}

function knownTerminal(ctx: RequestContext, deps: TerminalDeps, r: TerminalRequest, device: TerminalDevice): TerminalReply | Promise<TerminalReply> {
  const family = requestFamily(r.endpoint, r.query);

  if (!sourceAllowed(device, r.remoteAddress)) {
    return refuse(ctx, r, 'source_address', r.endpoint === 'registry' ? reply('Registration refused', 406) : reply('source address not allowed', 403));
  }
  const proof = terminalProof(device, r.serialNumber, r.cookie, r.query);
  // The vendor key travels in the handshake (ATT-DOC): required there once set, and never wrong.
  if (proof.commKey === 'wrong' || (proof.commKey === 'missing' && isHandshake(r))) {
    return refuse(ctx, r, 'push_comm_key', r.endpoint === 'registry' ? reply('Registration refused', 406) : reply('pushcommkey mismatch', 403));
  }
  const refused = admission(ctx, r, device, proof);
  if (refused) return refused;
  if (proof.token === 'valid' && !device.paired) return confirmThenServe(ctx, deps, r, device, family, proof);
  return serve(ctx, deps, r, device, family, proof);
}

/** The first valid token after registration: the terminal is paired from now on. */
async function confirmThenServe(
  ctx: RequestContext,
  deps: TerminalDeps,
  r: TerminalRequest,
  device: TerminalDevice,
  family: 'access' | 'attendance',
  proof: TerminalProof,
): Promise<TerminalReply> {
  await confirmPairing(ctx, device.id, device.registryCode!);
  deps.cache.patch(device.serialNumber, { paired: true });
  return serve(ctx, deps, r, { ...device, paired: true }, family, proof);
}

function serve(
  ctx: RequestContext,
  deps: TerminalDeps,
  r: TerminalRequest,
  device: TerminalDevice,
  family: 'access' | 'attendance',
  proof: TerminalProof,
): TerminalReply | Promise<TerminalReply> {
  if (device.reported.remoteAddress === r.remoteAddress) deps.presence.touch(device.id, ctx.now().getTime());
  else {
    deps.presence.touch(device.id, ctx.now().getTime(), { remoteAddress: r.remoteAddress });
    deps.cache.patch(device.serialNumber, { reported: { ...device.reported, remoteAddress: r.remoteAddress } });
  }

  // An explicit DeviceType=att outranks a remembered access-control mode (the terminal was reset or
  // re-flashed as a time clock); otherwise access once seen stays access.
  const access = r.query.get('devicetype')?.toLowerCase() === 'att' ? false : family === 'access' || device.protocol === 'acc-push';
  switch (r.endpoint) {
    case 'cdata':
      if (r.method === 'GET') return isHandshake(r) ? handshake(ctx, deps, device, r, access) : reply(OK);
      return cdataUpload(ctx, deps, device, r, device.registryCode === null || proof.proven);
    case 'getrequest':
      return poll(ctx, deps, device, r);
    case 'ping':
      return reply(OK);
    case 'devicecmd':
      return commandResults(ctx, deps, device, r);
    case 'registry':
      return registry(ctx, deps, device, r, proof.proven);
    case 'push':
      return push(ctx, deps, device);
    case 'querydata': {
      const { tablename, count } = uploadTable(r.query);
      // `type=tablename` is how the vendor document's own query examples spell `tabledata`.
      const type = r.query.get('type')?.toLowerCase();
      if (type === 'options') return handleQueriedOptions(upload(ctx, device, r, tablename, count), r.query.get('cmdid') ?? null).then((body) => reply(body));
      if (type !== 'tabledata' && type !== 'tablename') return reply(OK);
      return handleTableData(upload(ctx, device, r, tablename, count)).then((body) => reply(body));
    }
    case 'rtdata':
      return reply(r.query.get('type')?.toLowerCase() === 'time' ? rtdataTimeReply(ctx.now(), device.timeZone) : OK);
    case 'fdata':
      return handleAttPhoto(upload(ctx, device, r, null, null)).then((body) => reply(body));
    default:
      // exchange (we never advertise encryption) and file (no firmware downloads are offered)
      return reply('Not Found', 404);
  }
}

async function commandResults(ctx: RequestContext, deps: TerminalDeps, device: TerminalDevice, r: TerminalRequest): Promise<TerminalReply> {
  const { results, errors } = parseCommandResults(r.body);
  annotateSpan({ 'timegate.commands.count': results.length, 'timegate.commands.ids': results.slice(0, 50).map((c) => c.id) });
  if (errors.length > 0) ctx.logger.warn({ serial: r.serialNumber, errors: errors.slice(0, 20) }, 'unreadable command results');
  await recordCommandResults(
    ctx,
    device.id,
    results,
    { timeoutSeconds: deps.config.commandTimeoutSeconds, maxAttempts: deps.config.commandMaxAttempts },
    device.protocol === 'acc-push' ? 'access' : 'attendance',
  );
  return reply(OK);
}

async function push(ctx: RequestContext, deps: TerminalDeps, device: TerminalDevice): Promise<TerminalReply> {
  await detectProtocol(ctx, deps, device, 'acc-push');
  // Before pairing, the codes are read from the database: another process may have issued new ones
  // (a registration again) since this one cached the device.
  const session = device.paired ? await accessSession(ctx, deps, device) : await ensureAccessSession(ctx, device.id);
  if (!device.paired) deps.cache.patch(device.serialNumber, session);
  return reply(pushConfigReply(accessSettings(deps.config, session.sessionId)));
}

/**
 * Unknown serial: recorded (batched) for the unknown-terminal list, and answered so the terminal
 * keeps its records and tries again later: an access-control handshake gets `OK` (the protocol's
 * "not registered"), its registry 406 (the refusal SEC-DOC §7.4 defines), and every other request
 * — attendance handshake, polls, uploads — 403, which every firmware treats as a failed exchange:
 * nothing is deleted, and it retries after its ErrorDelay with a fresh handshake.
 */
function unknownTerminal(ctx: RequestContext, deps: TerminalDeps, r: TerminalRequest, family: 'access' | 'attendance'): TerminalReply {
  const registered = r.endpoint === 'registry' ? parseRegistry(r.body) : null;
  const info = r.endpoint === 'getrequest' && r.query.get('INFO') ? parseInfo(r.query.get('INFO')!) : null;
  // A virtual terminal whose device is gone (a sandbox reset, a delete) until its player notices:
  // never an unclaimed terminal for a workspace to see (its serial is reserved anyway).
  if (!isSandboxSerial(r.serialNumber))
    deps.presence.contact(
      {
        serialNumber: r.serialNumber,
        ip: r.remoteAddress,
        model: registered?.deviceName ?? null,
        firmware: registered?.firmwareVersion ?? info?.firmware ?? null,
        protocol: family === 'access' ? 'acc-push' : isHandshake(r) || r.endpoint === 'getrequest' ? 'att-push' : null,
      },
      ctx.now(),
    );
  if (isHandshake(r) && family === 'access') return reply(OK);
  if (r.endpoint === 'registry') return reply('Unknown device', 406);
  return reply(`Unknown device ${r.serialNumber}: register this serial number in Timegate`, 403);
}

/** The reported values that differ from what the device row holds (only those are written). */
function changedReported(device: TerminalDevice, values: Partial<ReportedInfo>): Partial<ReportedInfo> | undefined {
  const changed: Partial<ReportedInfo> = {};
  let any = false;
  for (const [key, value] of Object.entries(values) as Array<[keyof ReportedInfo, string | number | null]>) {
    if (value === null || value === undefined || device.reported[key] === value) continue;
    (changed as Record<string, unknown>)[key] = value;
    any = true;
  }
  return any ? changed : undefined;
}

/** Remembers the family once seen (and the matching mode_type), and the poll interval we advertised. */
async function detectProtocol(ctx: RequestContext, deps: TerminalDeps, device: TerminalDevice, protocol: TerminalProtocol): Promise<void> {
  const poll = protocol === 'acc-push' ? deps.config.accessRequestDelaySeconds : deps.config.attendanceDelaySeconds;
  if (device.protocol === protocol && device.pollIntervalSeconds === poll) return;
  await recordProtocol(ctx, device.id, protocol, poll);
  deps.cache.patch(device.serialNumber, { protocol, pollIntervalSeconds: poll });
}

async function accessSession(ctx: RequestContext, deps: TerminalDeps, device: TerminalDevice): Promise<{ registryCode: string; sessionId: string }> {
  if (device.registryCode !== null && device.sessionId !== null) return { registryCode: device.registryCode, sessionId: device.sessionId };
  const session = await ensureAccessSession(ctx, device.id);
  deps.cache.patch(device.serialNumber, session);
  return session;
}

function accessSettings(config: Config, sessionId: string): AccessConfigSettings {
  return { sessionId, requestDelay: config.accessRequestDelaySeconds, errorDelay: config.attendanceErrorDelaySeconds };
}

async function handshake(ctx: RequestContext, deps: TerminalDeps, device: TerminalDevice, r: TerminalRequest, access: boolean): Promise<TerminalReply> {
  if (access) {
    await detectProtocol(ctx, deps, device, 'acc-push');
    // Registered = we issued this terminal a RegistryCode; otherwise `OK` sends it to /iclock/registry.
    if (device.registryCode === null) return reply(OK);
    const session = await accessSession(ctx, deps, device);
    // A controller that restarted has lost its lock-down state: its active lockdowns are sent again.
    await reapplyLockdownsAfterHandshake(ctx, device.id);
    return reply(accessHandshakeReply(session.registryCode, accessSettings(deps.config, session.sessionId)));
  }
  await detectProtocol(ctx, deps, device, 'att-push');
  return reply(
    attendanceHandshakeReply(r.serialNumber, {
      timeZone: timeZoneOption(device.timeZone, ctx.now()),
      delay: deps.config.attendanceDelaySeconds,
      errorDelay: deps.config.attendanceErrorDelaySeconds,
      pushOptions: PUSH_OPTION_KEYS,
      transFlags: STORED_TRANS_FLAGS,
    }),
  );
}

/**
 * What attendance terminals are asked to upload: punches, the operation log with user and template
 * changes, faces and work codes. Photos (attendance, user and comparison photos) are not asked for:
 * Timegate does not store images, and asking for data it would discard costs the terminal's uplink.
 */
const STORED_TRANS_FLAGS = ['AttLog', 'OpLog', 'EnrollUser', 'ChgUser', 'EnrollFP', 'ChgFP', 'FACE', 'WORKCODE'] as const;

/**
 * `proven`: the request carries the session's token or the PushCommKey. A registered serial that has
 * not paired yet and registers again without proof is a terminal that lost a reply of its first
 * registration (its RegistryCode or its SessionID, e.g. a 503 in a start-up storm) or someone else:
 * either way it gets new codes, which void the earlier ones (docs/security.md, "Terminals: who may
 * speak for a serial"). A paired serial never gets here without proof (admission).
 */
async function registry(ctx: RequestContext, deps: TerminalDeps, device: TerminalDevice, r: TerminalRequest, proven: boolean): Promise<TerminalReply> {
  const parsed = parseRegistry(r.body);
  if (parsed.errors.length > 0) ctx.logger.warn({ serial: r.serialNumber, errors: parsed.errors.slice(0, 20) }, 'unreadable registry segments');
  await detectProtocol(ctx, deps, device, 'acc-push');
  let session: { registryCode: string; sessionId: string };
  if (device.registryCode !== null && !proven) {
    const reissued = await reissueAccessSession(ctx, device.id);
    if (!reissued) return refusePairedRegistry(ctx, r);
    deps.cache.patch(device.serialNumber, reissued);
    ctx.logger.warn(
      { serial: r.serialNumber, remoteAddress: r.remoteAddress },
      'registered again before pairing: new RegistryCode and SessionID, the earlier ones no longer work',
    );
    session = reissued;
  } else session = await accessSession(ctx, deps, device);
  await recordReportedOptions(ctx, device.id, parsed.options, { model: parsed.deviceName, firmware: parsed.firmwareVersion });
  return reply(registryReply(session.registryCode));
}

const OK_REPLY: TerminalReply = Object.freeze({ status: 200, body: OK });

function poll(ctx: RequestContext, deps: TerminalDeps, device: TerminalDevice, r: TerminalRequest): TerminalReply | Promise<TerminalReply> {
  const infoText = r.query.get('INFO');
  const changed = infoText ? reportedChanges(device, infoText) : undefined;
  if (changed) return pollAfterInfoChange(ctx, deps, device, changed);
  // The heartbeat fast path: nothing pending as far as this process knows, no query (see TerminalCache).
  if (!device.hasPendingCommands) return OK_REPLY;
  return deliverCommands(ctx, deps, device, device.reported);
}

function reportedChanges(device: TerminalDevice, infoText: string): Partial<ReportedInfo> | undefined {
  const info = parseInfo(infoText);
  const cut = (value: string | null | undefined, max: number) => (value == null ? null : cutToCodePoints(value, max));
  return changedReported(device, {
    firmware: cut(info.firmware, 100),
    ip: cut(info.ip, 64),
    userCount: info.userCount,
    fingerprintCount: info.fpCount,
    faceCount: info.faceCount,
    attlogCount: info.attlogCount,
    fpAlgorithm: cut(info.fpAlgorithm, 32),
    faceAlgorithm: cut(info.faceAlgorithm, 32),
  });
}

/** INFO values changed (rare): stored with the next presence batch, new algorithms at once (they re-send templates). */
async function pollAfterInfoChange(ctx: RequestContext, deps: TerminalDeps, device: TerminalDevice, changed: Partial<ReportedInfo>): Promise<TerminalReply> {
  deps.presence.touch(device.id, ctx.now().getTime(), changed);
  const reported = { ...device.reported, ...changed };
  const algorithmsChanged = changed.fpAlgorithm !== undefined || changed.faceAlgorithm !== undefined;
  // Templates to send again in the new formats; none (a terminal's first INFO, before any user is
  // assigned) means nothing new to deliver, and the poll costs no sync build and no delivery query.
  // Two statements, each committed alone: no transaction holds the device row while it waits for
  // user rows that a sync build may hold.
  if (algorithmsChanged) await recordTemplateAlgorithms(ctx, device.id, changed);
  const resend = algorithmsChanged ? await markDeviceTemplatesPending(ctx, device.id) : 0;
  // Only now: had a write failed (503), the cache would already hold the new versions, and the
  // terminal's next INFO, the same, would no longer count as a change to store and act on.
  deps.cache.patch(device.serialNumber, { reported });
  if (resend > 0) deps.cache.markPending([device.id]);
  if (resend === 0 && !device.hasPendingCommands) return OK_REPLY;
  return deliverCommands(ctx, deps, device, reported);
}

/**
 * A poll with commands to deliver. Traced always (`terminal.commands.deliver`): a child of the poll's
 * span when the poll was sampled, else a trace of its own (heartbeats are sampled down, deliveries not).
 */
function deliverCommands(ctx: RequestContext, deps: TerminalDeps, device: TerminalDevice, reported: ReportedInfo): Promise<TerminalReply> {
  return inSpan('terminal.commands.deliver', { attributes: { 'timegate.terminal.serial': device.serialNumber } }, async (span) => {
    const version = deps.cache.pendingVersion(device.serialNumber);
    // A door or device action waiting goes out in this reply without waiting for the sync build
    // (hundreds of people's rows, and their row locks, while a level syncs): the next poll (or the
    // sweep) builds. Nothing is reordered: the build only adds commands behind the queued ones.
    const urgent = await interactiveWaiting(ctx.em, device.id);
    if (urgent) span?.setAttribute('timegate.sync.build', 'deferred');
    else await syncBeforeDelivery(ctx, device, reported);
    const commands = await takeCommandsForDelivery(ctx, device.id, deps.config.commandBatchSize);
    // Drained only when nothing was left unbuilt: a deferred build keeps the device pending.
    if (!urgent && commands.length < deps.config.commandBatchSize) deps.cache.drained(device.serialNumber, version);
    span?.setAttributes({ 'timegate.commands.count': commands.length, 'timegate.commands.ids': commands.slice(0, 50).map((c) => String(c.id)) });
    return reply(commandBatchReply(commands));
  });
}

/** Turns the device's pending desired-state rows into commands, so this poll can deliver them. */
async function syncBeforeDelivery(ctx: RequestContext, device: TerminalDevice, reported: ReportedInfo): Promise<void> {
  try {
    await buildSyncCommands(ctx, device.id, { fpAlgorithm: reported.fpAlgorithm, faceAlgorithm: reported.faceAlgorithm });
  } catch (err) {
    // The poll still delivers what is queued; the sweep builds again later.
    ctx.logger.error({ err, serial: device.serialNumber }, 'building sync commands failed');
  }
}

function upload(ctx: RequestContext, device: TerminalDevice, r: TerminalRequest, tablename: string | null, declaredCount: string | null): Upload {
  return { ctx, device, body: r.body, tablename, declaredCount, clientGone: r.clientGone };
}

/** `mayChangeFamily`: the terminal has no session, or proved it (a registered serial's family is not an anonymous upload's to switch). */
async function cdataUpload(
  ctx: RequestContext,
  deps: TerminalDeps,
  device: TerminalDevice,
  r: TerminalRequest,
  mayChangeFamily: boolean,
): Promise<TerminalReply> {
  const { table, tablename, count } = uploadTable(r.query);
  // Attendance-only tables are positive evidence that the terminal (now) speaks attendance PUSH.
  if ((table === 'attlog' || table === 'operlog') && mayChangeFamily) await detectProtocol(ctx, deps, device, 'att-push');
  else if (table === 'rtlog' || table === 'rtstate' || table === 'tabledata') await detectProtocol(ctx, deps, device, 'acc-push');
  return reply(await handleCdataUpload(upload(ctx, device, r, tablename, count), table));
}
