import { ArgsType, Field, InputType, Int, registerEnumType } from 'type-graphql';
import { ObjectType } from './object-type';
import { DeviceMode, DeviceStatus } from '../entities/device.entity';
import { Connection, ConnectionArgs } from './connection';
import { Bounded, maxChars } from './bounds';

registerEnumType(DeviceStatus, {
  name: 'DeviceStatus',
  description: '`pending` until the terminal first connects, then `online` or `offline`.',
  valuesConfig: {
    pending: { description: 'Registered in Timegate; the terminal has never connected.' },
    online: { description: 'The terminal has polled within its heartbeat timeout.' },
    offline: { description: 'The terminal has not polled within its heartbeat timeout.' },
  },
});
registerEnumType(DeviceMode, {
  name: 'DeviceMode',
  description: '`att`: attendance terminal; `acc`: access-control terminal.',
  valuesConfig: {
    att: { description: 'An attendance terminal: punches, users and templates; one lock output at most.' },
    acc: { description: 'An access-control terminal or controller: doors, access levels, real-time events.' },
  },
});

/** Where an access-control terminal stands in its Security PUSH pairing (docs/security.md, terminals). */
export enum DevicePairing {
  unpaired = 'unpaired',
  registered = 'registered',
  paired = 'paired',
}
registerEnumType(DevicePairing, {
  name: 'DevicePairing',
  description:
    '`unpaired`: no RegistryCode issued (attendance terminals always; the next registry is accepted). `registered`: a RegistryCode was issued and the terminal has not yet proved its session; its registry and handshake need the token. `paired`: it proved its session; every request needs the token, and only resetTerminalPairing lets the serial register again.',
  valuesConfig: {
    unpaired: { description: 'No RegistryCode was issued: the next registry of the serial is accepted.' },
    registered: { description: 'A RegistryCode was issued; the terminal has not yet proved its session with it.' },
    paired: { description: 'The terminal proved its session: every request needs the token; only resetTerminalPairing lets the serial register again.' },
  },
});

@ObjectType('DeviceCapacity', {
  description:
    'Capacities as the terminal reports them (~MaxUserCount, ~MaxFingerCount, ~MaxFaceCount, ~MaxAttLogCount, ~MaxUserPhotoCount); many firmware count users in hundreds and records in ten-thousands. Null: not reported.',
})
export class DeviceCapacityType {
  @Field(() => Int, { nullable: true, description: 'How many users the terminal holds at most, as it reported it; null when not reported.' }) users?:
    number | null;
  @Field(() => Int, { nullable: true, description: 'How many fingerprint templates it holds at most; null when not reported.' }) fingerprints?: number | null;
  @Field(() => Int, { nullable: true, description: 'How many face templates it holds at most; null when not reported.' }) faces?: number | null;
  @Field(() => Int, { nullable: true, description: 'How many attendance records it keeps at most before overwriting; null when not reported.' }) records?:
    number | null;
  @Field(() => Int, { nullable: true, description: 'How many user photos it holds at most; null when not reported.' }) userPhotos?: number | null;
}

@ObjectType('DeviceCapabilities', { description: 'What Timegate can do with this terminal, from its family and what it reported.' })
export class DeviceCapabilitiesType {
  @Field(() => Int, { description: "Its doors: an access-control terminal's reported LockCount (1–8), one lock output otherwise." }) doors!: number;
  @Field({
    description:
      'Whether the terminal enforces access levels: access-control terminals do (schedules, validity windows, per-door rights); attendance terminals do by their PUSH 2.x settings (weekday schedules, up to 3 time zones a person) until they refuse those tables, after which this is false and their members may open at any hour.',
  })
  accessLevels!: boolean;
  @Field({ description: 'Fingerprint templates (FingerFunOn, or a fingerprint algorithm version reported).' }) fingerprint!: boolean;
  @Field({ description: 'Face templates (FaceFunOn).' }) face!: boolean;
  @Field({ description: 'Faces enrolled from a photo (BioPhotoFun, VisilightFun, or MultiBioPhotoSupport for visible-light faces).' }) facePhoto!: boolean;
  @Field({ description: 'A display photo per user (PhotoFunOn or UserPicURLFunOn).' }) userPhoto!: boolean;
  @Field({
    description: 'Attendance records re-sent for a date range (attendance terminals: DATA QUERY ATTLOG), for attendance.count and attendance.backfill.',
  })
  attendanceBackfill!: boolean;
  @Field({
    description:
      'Anti-passback enforced by the terminal itself (access controllers of 1, 2 or 4 doors: the AntiPassback parameter); set with updateDeviceDoorRules.',
  })
  antiPassback!: boolean;
  @Field({
    description: 'Interlock enforced by the terminal itself (access controllers of 2 or 4 doors: the InterLock parameter); set with updateDeviceDoorRules.',
  })
  interlock!: boolean;
  @Field({
    description:
      'First-person-in enforced by the terminal itself (access controllers of 1 to 4 doors: the firstcard table and Door{N}FirstCardOpenDoor); set with updateDoorOpeningRules.',
  })
  firstPersonIn!: boolean;
  @Field({
    description:
      'The multi-person rule enforced by the terminal itself (access controllers of 1 to 4 doors: the multimcard table, the user Group and Door{N}MultiCardOpenDoor); set with updateDoorOpeningRules.',
  })
  multiPerson!: boolean;
  @Field(() => DeviceCapacityType, { description: 'The limits the terminal reported in its options (users, templates, records, photos).' })
  capacity!: DeviceCapacityType;
}

@ObjectType('DeviceSyncState', {
  description: "The terminal's people by sync status: what it holds as Timegate says (synced), what is on its way (pending), what it refused (failed).",
})
export class DeviceSyncStateType {
  @Field(() => Int, { description: "How many of the terminal's people it holds as Timegate says." }) synced!: number;
  @Field(() => Int, { description: 'How many have a change on its way to the terminal.' }) pending!: number;
  @Field(() => Int, { description: "How many the terminal refused (the commands' return codes say why)." }) failed!: number;
}

@ObjectType('Device', { description: 'A terminal (time clock or door controller).' })
export class DeviceType {
  @Field(() => Int, { description: "The terminal's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this terminal.' }) companyId!: number;
  @Field(() => Int, { nullable: true, description: 'The area whose employees the device inherits (at most one).' }) areaId?: number | null;
  @Field({ description: "The terminal's name, as the console and reports show it." }) name!: string;
  @Field({ description: 'Unique across the whole service: a terminal reports to one owner only.' }) serialNumber!: string;
  @Field(() => DeviceStatus, { description: 'Read-only: follows the terminal.' }) status!: DeviceStatus;
  @Field(() => DeviceMode, { description: '`att` for an attendance terminal, `acc` for an access-control terminal (doors, access levels).' })
  modeType!: DeviceMode;
  @Field({ description: "IANA zone of the terminal's clock (default: the workspace's)." }) timeZone!: string;
  @Field(() => Date, {
    nullable: true,
    description: 'When the terminal last contacted the service (an ISO 8601 date-time in UTC); null if it never has. Offline after the heartbeat timeout.',
  })
  lastSeenAt?: Date | null;
  @Field(() => Int, {
    nullable: true,
    description:
      'The terminal\'s clock minus the real time, in seconds, read from records made just now (two that agree, docs/device-operations.md "Clocks"); null until read.',
  })
  clockSkewSeconds?: number | null;
  @Field(() => Date, { nullable: true, description: 'When clockSkewSeconds was measured.' }) clockCheckedAt?: Date | null;
  @Field(() => String, { nullable: true, description: 'Reported by the terminal.' }) firmware?: string | null;
  @Field(() => String, { nullable: true, description: 'Reported by the terminal.' }) ip?: string | null;
  @Field(() => String, { nullable: true, description: 'Reported by the terminal.' }) model?: string | null;
  @Field(() => String, { nullable: true, description: '`att-push` or `acc-push`, as last seen on the wire.' }) protocol?: string | null;
  @Field(() => Int, { nullable: true, description: 'Reported by the terminal.' }) userCount?: number | null;
  @Field(() => Int, { nullable: true, description: 'Reported by the terminal.' }) fingerprintCount?: number | null;
  @Field(() => Int, { nullable: true, description: 'Reported by the terminal.' }) faceCount?: number | null;
  @Field(() => Int, { nullable: true, description: 'Reported by the terminal.' }) attlogCount?: number | null;
  @Field(() => Date, { nullable: true, description: 'When the access-control terminal first proved its session (see pairing); null until then.' })
  pairedAt?: Date | null;
  @Field(() => [String], {
    nullable: true,
    description: "Source addresses (CIDRs) the terminal's requests must come from; null: any. Others are refused and counted.",
  })
  allowedSourceCidrs?: string[] | null;
  @Field({ description: 'When the terminal was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the terminal was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('DeviceConnection', {
  description:
    'A page of terminals: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class DeviceConnection extends Connection(DeviceType) {}

@ArgsType()
export class DevicesArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the terminals of this company (its id).' }) companyId?: number;
}

const PUSH_COMM_KEY_DESCRIPTION =
  'The `pushcommkey` the terminal\'s handshake carries: once set, a handshake without it or with another value is refused, and it proves the terminal when its token is missing. Write-only (see pushCommKeySet); null or "" removes it.';
const SOURCE_CIDRS_DESCRIPTION = 'Source addresses or CIDRs the terminal may call from (at most 32); null or [] allows any.';

@InputType({ description: 'The fields of a new terminal.' })
export class CreateDeviceInput {
  @Field(() => Int, { description: "The company, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  companyId!: number;
  @Bounded('deviceName') @Field({ description: `The terminal's name: not blank, ${maxChars('deviceName')} (\`blank\`, \`too_long\`).` }) name!: string;
  @Bounded('serialNumber')
  @Field({
    description: `The terminal's serial number, exactly as it sends it as \`SN\` in the PUSH protocol: ${maxChars('serialNumber')}; one already registered is refused (\`already_taken\`).`,
  })
  serialNumber!: string;
  @Field(() => DeviceMode, { nullable: true, description: 'Default `att`.' }) modeType?: DeviceMode;
  @Bounded('timeZone')
  @Field({
    nullable: true,
    description: `The IANA time zone the terminal's clock runs in (\`Europe/Berlin\`), ${maxChars('timeZone')}; an unknown zone is refused (\`invalid_time_zone\`). Its local punch times are read in it.`,
  })
  timeZone?: string;
  @Field(() => Int, { nullable: true, description: 'An area of the same company; `null` takes the device out of its area.' }) areaId?: number | null;
  @Bounded('pushCommKey')
  @Field(() => String, { nullable: true, description: PUSH_COMM_KEY_DESCRIPTION })
  pushCommKey?: string | null;
  @Bounded('cidr', { items: 'cidrs' })
  @Field(() => [String], { nullable: true, description: SOURCE_CIDRS_DESCRIPTION })
  allowedSourceCidrs?: string[] | null;
}

@InputType({ description: "The new values of a terminal's fields; a field left out (where it may be) keeps its value." })
export class UpdateDeviceInput {
  @Field(() => Int, { nullable: true, description: "The company, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  companyId?: number;
  @Bounded('deviceName')
  @Field({ nullable: true, description: `The terminal's name: not blank, ${maxChars('deviceName')} (\`blank\`, \`too_long\`). Left out: unchanged.` })
  name?: string;
  @Bounded('serialNumber')
  @Field({
    nullable: true,
    description: `The terminal's serial number as it sends it as \`SN\`: ${maxChars('serialNumber')}; one already registered is refused (\`already_taken\`). Left out: unchanged.`,
  })
  serialNumber?: string;
  @Field(() => DeviceMode, { nullable: true, description: '`att` (attendance) or `acc` (access control). Left out: unchanged.' }) modeType?: DeviceMode;
  @Bounded('timeZone')
  @Field({
    nullable: true,
    description: `The IANA time zone of the terminal's clock, ${maxChars('timeZone')}; an unknown zone is refused (\`invalid_time_zone\`). Left out: unchanged.`,
  })
  timeZone?: string;
  @Field(() => Int, { nullable: true, description: 'An area of the same company; `null` takes the device out of its area.' }) areaId?: number | null;
  @Bounded('pushCommKey')
  @Field(() => String, { nullable: true, description: PUSH_COMM_KEY_DESCRIPTION })
  pushCommKey?: string | null;
  @Bounded('cidr', { items: 'cidrs' })
  @Field(() => [String], { nullable: true, description: SOURCE_CIDRS_DESCRIPTION })
  allowedSourceCidrs?: string[] | null;
}
