import { ArgsType, Field, InterfaceType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { DeviceStatus } from '../entities/device.entity';
import { DeviceActionType } from './device-action.type';
import { DoorActionType } from './door-action.type';
import { PunchType } from './punch.type';
import { AttendanceDayType } from './timesheet.type';
import { AbsenceRequestType, PunchCorrectionType } from './absence.type';
import { OvertimeApprovalType } from './overtime-approval.type';
import { Bounded } from './bounds';

@ArgsType()
export class EventCursorArgs {
  @Bounded('cursor')
  @Field(() => String, {
    nullable: true,
    description:
      'The `cursor` of the last event received: events after it are replayed from the outbox (kept 7 days), then live ones follow, without gaps or repeats.',
  })
  after?: string | null;
}

@ArgsType()
export class PunchCreatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true }) companyId?: number | null;
  @Field(() => Int, { nullable: true }) deviceId?: number | null;
  @Field(() => Int, { nullable: true }) employeeId?: number | null;
}

@ArgsType()
export class AttendanceDayUpdatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true }) companyId?: number | null;
  @Field(() => Int, { nullable: true }) employeeId?: number | null;
}

@ArgsType()
export class DeviceEventArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true }) companyId?: number | null;
  @Field(() => Int, { nullable: true }) deviceId?: number | null;
}

@ArgsType()
export class DoorAlarmArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true }) companyId?: number | null;
  @Field(() => Int, { nullable: true }) deviceId?: number | null;
  @Field(() => Int, { nullable: true }) doorId?: number | null;
}

@ArgsType()
export class AccessDeniedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true }) companyId?: number | null;
  @Field(() => Int, { nullable: true }) deviceId?: number | null;
  @Field(() => Int, { nullable: true }) employeeId?: number | null;
}

@ArgsType()
export class DeviceActionUpdatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true }) companyId?: number | null;
  @Field(() => Int, { nullable: true }) deviceId?: number | null;
}

@ArgsType()
export class DoorActionUpdatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true }) deviceId?: number | null;
}

@InterfaceType('Event', { description: 'What every event delivered by a subscription carries.' })
export abstract class EventEnvelope {
  @Field({ description: 'Pass as `after` when subscribing again to resume right after this event. Grows with every event of the workspace (not by 1).' })
  cursor!: string;
  @Field({ description: 'The event id webhooks send too (`evt_<cursor>`).' }) eventId!: string;
  @Field({
    description:
      '`attendance.created`, `door.opened`, `device.online`, `device.offline`, `door.action.updated`, `attendance.day.updated`, `door.alarm`, `door.alarm.cleared`, `access.denied`, `device.action.updated`, `absence_request.updated`, `punch_correction.updated`, `overtime_approval.updated`, `lockdown.updated` or `linkage.triggered`.',
  })
  type!: string;
  @Field() createdAt!: Date;
}

@ObjectType({ implements: EventEnvelope })
export class PunchCreatedEvent extends EventEnvelope {
  @Field(() => PunchType) punch!: PunchType;
}

@ObjectType('DoorOpening', { description: 'A door that opened.' })
export class DoorOpeningType {
  @Field(() => Int) deviceId!: number;
  @Field(() => Int) companyId!: number;
  @Field() deviceSerial!: string;
  @Field(() => Int) door!: number;
  @Field() openedAt!: Date;
  @Field({ description: '`remote_unlock` (a door action of the API), or how the terminal opened it.' }) source!: string;
  @Field(() => String, { nullable: true, description: 'The door action, for `remote_unlock`.' }) actionId?: string | null;
  @Field(() => Int, { nullable: true }) employeeId?: number | null;
  @Field(() => String, { nullable: true }) pin?: string | null;
}

@ObjectType({ implements: EventEnvelope })
export class DoorOpenedEvent extends EventEnvelope {
  @Field(() => DoorOpeningType) doorOpening!: DoorOpeningType;
}

@ObjectType('DeviceStatusChange', { description: 'A terminal came online or went offline.' })
export class DeviceStatusChangeType {
  @Field(() => Int) deviceId!: number;
  @Field(() => Int) companyId!: number;
  @Field() serialNumber!: string;
  @Field(() => DeviceStatus) status!: DeviceStatus;
  @Field() at!: Date;
}

@ObjectType({ implements: EventEnvelope })
export class DeviceStatusChangedEvent extends EventEnvelope {
  @Field(() => DeviceStatusChangeType) change!: DeviceStatusChangeType;
}

@ObjectType({ implements: EventEnvelope })
export class DoorActionUpdatedEvent extends EventEnvelope {
  @Field(() => DoorActionType) doorAction!: DoorActionType;
}

@ObjectType({ implements: EventEnvelope })
export class AttendanceDayUpdatedEvent extends EventEnvelope {
  @Field(() => AttendanceDayType) day!: AttendanceDayType;
}

@ObjectType('DoorAlarm', { description: 'A door alarm raised or cleared.' })
export class DoorAlarmType {
  @Field(() => Int) doorId!: number;
  @Field(() => Int) deviceId!: number;
  @Field(() => Int) companyId!: number;
  @Field() deviceSerial!: string;
  @Field(() => Int, { description: "The door's number on its terminal." }) door!: number;
  @Field({ description: '`forced_open`, `held_open`, `tamper`, `duress`, `power` or `battery`.' }) kind!: string;
  @Field({ description: 'When the terminal saw it (raised) or reported it gone (cleared).' }) at!: Date;
  @Field(() => String, { nullable: true, description: '`rtlog` (an alarm record) or `rtstate` (the door status); null when cleared.' }) source?: string | null;
  @Field(() => Int, { nullable: true, description: 'The raw rtlog code (28, 100–107), for `rtlog`.' }) eventCode?: number | null;
  @Field(() => Int, { nullable: true, description: 'The person, when the terminal names one (duress).' }) employeeId?: number | null;
  @Field(() => String, { nullable: true }) pin?: string | null;
}

@ObjectType({ implements: EventEnvelope })
export class DoorAlarmEvent extends EventEnvelope {
  @Field(() => DoorAlarmType) alarm!: DoorAlarmType;
}

@ObjectType('AccessDenial', { description: 'A person the terminal refused.' })
export class AccessDenialType {
  @Field(() => Int, { nullable: true, description: 'Null when the terminal names a door it does not have.' }) doorId?: number | null;
  @Field(() => Int) deviceId!: number;
  @Field(() => Int) companyId!: number;
  @Field() deviceSerial!: string;
  @Field(() => Int, { nullable: true }) door?: number | null;
  @Field({
    description:
      'One of the refusal reasons of docs/access-control-operations.md (`not_registered`, `outside_schedule`, `anti_passback`, `interlock`, `multi_person_wait`, `lockdown`, `expired`...) or `other`.',
  })
  reason!: string;
  @Field(() => Int, { description: 'The raw rtlog event code (27 not registered, 22 outside the time zone, 29 expired...).' }) eventCode!: number;
  @Field(() => Int, { nullable: true }) employeeId?: number | null;
  @Field(() => String, { nullable: true }) pin?: string | null;
  @Field(() => String, { nullable: true }) cardNo?: string | null;
  @Field(() => String, { nullable: true }) verifyType?: string | null;
  @Field() at!: Date;
}

@ObjectType({ implements: EventEnvelope })
export class AccessDeniedEvent extends EventEnvelope {
  @Field(() => AccessDenialType) denial!: AccessDenialType;
}

@ObjectType({ implements: EventEnvelope })
export class DeviceActionUpdatedEvent extends EventEnvelope {
  @Field(() => DeviceActionType) action!: DeviceActionType;
}

@ArgsType()
export class AbsenceRequestUpdatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true }) companyId?: number | null;
  @Field(() => Int, { nullable: true }) employeeId?: number | null;
}

@ObjectType({ implements: EventEnvelope })
export class AbsenceRequestUpdatedEvent extends EventEnvelope {
  @Field(() => AbsenceRequestType) request!: AbsenceRequestType;
}

@ArgsType()
export class PunchCorrectionUpdatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true }) companyId?: number | null;
  @Field(() => Int, { nullable: true }) employeeId?: number | null;
}

@ObjectType({ implements: EventEnvelope })
export class PunchCorrectionUpdatedEvent extends EventEnvelope {
  @Field(() => PunchCorrectionType) correction!: PunchCorrectionType;
}

@ArgsType()
export class OvertimeApprovalUpdatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true }) companyId?: number | null;
  @Field(() => Int, { nullable: true }) employeeId?: number | null;
}

@ObjectType({ implements: EventEnvelope })
export class OvertimeApprovalUpdatedEvent extends EventEnvelope {
  @Field(() => OvertimeApprovalType) approval!: OvertimeApprovalType;
}
