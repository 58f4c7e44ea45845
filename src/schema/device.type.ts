import { ArgsType, Field, InputType, Int, registerEnumType } from 'type-graphql';
import { ObjectType } from './object-type';
import { DeviceMode, DeviceStatus } from '../entities/device.entity';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

registerEnumType(DeviceStatus, { name: 'DeviceStatus', description: '`pending` until the terminal first connects, then `online` or `offline`.' });
registerEnumType(DeviceMode, { name: 'DeviceMode', description: '`att`: attendance terminal; `acc`: access-control terminal.' });

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
});

@ObjectType('DeviceCapacity', {
  description:
    'Capacities as the terminal reports them (~MaxUserCount, ~MaxFingerCount, ~MaxFaceCount, ~MaxAttLogCount, ~MaxUserPhotoCount); many firmware count users in hundreds and records in ten-thousands. Null: not reported.',
})
export class DeviceCapacityType {
  @Field(() => Int, { nullable: true }) users?: number | null;
  @Field(() => Int, { nullable: true }) fingerprints?: number | null;
  @Field(() => Int, { nullable: true }) faces?: number | null;
  @Field(() => Int, { nullable: true }) records?: number | null;
  @Field(() => Int, { nullable: true }) userPhotos?: number | null;
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
  @Field(() => DeviceCapacityType) capacity!: DeviceCapacityType;
}

@ObjectType('DeviceSyncState', {
  description: "The terminal's people by sync status: what it holds as Timegate says (synced), what is on its way (pending), what it refused (failed).",
})
export class DeviceSyncStateType {
  @Field(() => Int) synced!: number;
  @Field(() => Int) pending!: number;
  @Field(() => Int) failed!: number;
}

@ObjectType('Device', { description: 'A terminal (time clock or door controller).' })
export class DeviceType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field(() => Int, { nullable: true, description: 'The area whose employees the device inherits (at most one).' }) areaId?: number | null;
  @Field() name!: string;
  @Field({ description: 'Unique across the whole service: a terminal reports to one owner only.' }) serialNumber!: string;
  @Field(() => DeviceStatus, { description: 'Read-only: follows the terminal.' }) status!: DeviceStatus;
  @Field(() => DeviceMode) modeType!: DeviceMode;
  @Field({ description: "IANA zone of the terminal's clock (default: the workspace's)." }) timeZone!: string;
  @Field(() => Date, { nullable: true }) lastSeenAt?: Date | null;
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
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('DeviceConnection')
export class DeviceConnection extends Connection(DeviceType) {}

@ArgsType()
export class DevicesArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) companyId?: number;
}

const PUSH_COMM_KEY_DESCRIPTION =
  'The `pushcommkey` the terminal\'s handshake carries: once set, a handshake without it or with another value is refused, and it proves the terminal when its token is missing. Write-only (see pushCommKeySet); null or "" removes it.';
const SOURCE_CIDRS_DESCRIPTION = 'Source addresses or CIDRs the terminal may call from (at most 32); null or [] allows any.';

@InputType()
export class CreateDeviceInput {
  @Field(() => Int) companyId!: number;
  @Bounded('deviceName') @Field() name!: string;
  @Bounded('serialNumber') @Field() serialNumber!: string;
  @Field(() => DeviceMode, { nullable: true, description: 'Default `att`.' }) modeType?: DeviceMode;
  @Bounded('timeZone') @Field({ nullable: true }) timeZone?: string;
  @Field(() => Int, { nullable: true, description: 'An area of the same company; `null` takes the device out of its area.' }) areaId?: number | null;
  @Bounded('pushCommKey')
  @Field(() => String, { nullable: true, description: PUSH_COMM_KEY_DESCRIPTION })
  pushCommKey?: string | null;
  @Bounded('cidr', { items: 'cidrs' })
  @Field(() => [String], { nullable: true, description: SOURCE_CIDRS_DESCRIPTION })
  allowedSourceCidrs?: string[] | null;
}

@InputType()
export class UpdateDeviceInput {
  @Field(() => Int, { nullable: true }) companyId?: number;
  @Bounded('deviceName') @Field({ nullable: true }) name?: string;
  @Bounded('serialNumber') @Field({ nullable: true }) serialNumber?: string;
  @Field(() => DeviceMode, { nullable: true }) modeType?: DeviceMode;
  @Bounded('timeZone') @Field({ nullable: true }) timeZone?: string;
  @Field(() => Int, { nullable: true, description: 'An area of the same company; `null` takes the device out of its area.' }) areaId?: number | null;
  @Bounded('pushCommKey')
  @Field(() => String, { nullable: true, description: PUSH_COMM_KEY_DESCRIPTION })
  pushCommKey?: string | null;
  @Bounded('cidr', { items: 'cidrs' })
  @Field(() => [String], { nullable: true, description: SOURCE_CIDRS_DESCRIPTION })
  allowedSourceCidrs?: string[] | null;
}
