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
  @Field(() => Int, { nullable: true, description: 'Only the events of this company (its id).' }) companyId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Only the events of this terminal (its id).' }) deviceId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Only the events of this employee (its id).' }) employeeId?: number | null;
}

@ArgsType()
export class AttendanceDayUpdatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true, description: 'Only the events of this company (its id).' }) companyId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Only the events of this employee (its id).' }) employeeId?: number | null;
}

@ArgsType()
export class DeviceEventArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true, description: 'Only the device events of this company (its id).' }) companyId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Only the device events of this terminal (its id).' }) deviceId?: number | null;
}

@ArgsType()
export class DoorAlarmArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true, description: 'Only the door alarms of this company (its id).' }) companyId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Only the door alarms of this terminal (its id).' }) deviceId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Only the door alarms of this door (its id).' }) doorId?: number | null;
}

@ArgsType()
export class AccessDeniedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true, description: 'Only the events of this company (its id).' }) companyId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Only the events of this terminal (its id).' }) deviceId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Only the events of this employee (its id).' }) employeeId?: number | null;
}

@ArgsType()
export class DeviceActionUpdatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true, description: 'Only the events of this company (its id).' }) companyId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Only the events of this terminal (its id).' }) deviceId?: number | null;
}

@ArgsType()
export class DoorActionUpdatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true, description: 'Only the events of this terminal (its id).' }) deviceId?: number | null;
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
  @Field({ description: 'When the event happened and was written to the event feed (an ISO 8601 date-time in UTC).' }) createdAt!: Date;
}

@ObjectType({ implements: EventEnvelope, description: 'A punch was stored: from a terminal, or entered through the API.' })
export class PunchCreatedEvent extends EventEnvelope {
  @Field(() => PunchType, { description: 'The punch as stored.' }) punch!: PunchType;
}

@ObjectType('DoorOpening', { description: 'A door that opened.' })
export class DoorOpeningType {
  @Field(() => Int, { description: 'The id of the terminal (device) of this door opening.' }) deviceId!: number;
  @Field(() => Int, { description: 'The id of the company of this door opening.' }) companyId!: number;
  @Field({ description: 'The serial number of the terminal, as it sends it in the PUSH protocol (`SN`).' }) deviceSerial!: string;
  @Field(() => Int, { description: "The door's number on its terminal (1 …)." }) door!: number;
  @Field({ description: 'When the terminal opened the door (an ISO 8601 date-time in UTC).' }) openedAt!: Date;
  @Field({ description: '`remote_unlock` (a door action of the API), or how the terminal opened it.' }) source!: string;
  @Field(() => String, { nullable: true, description: 'The door action, for `remote_unlock`.' }) actionId?: string | null;
  @Field(() => Int, { nullable: true, description: 'The id of the employee of this door opening.' }) employeeId?: number | null;
  @Field(() => String, {
    nullable: true,
    description: 'The PIN of the person let in; null when the door opened without a person (a button, a schedule, a remote unlock).',
  })
  pin?: string | null;
}

@ObjectType({ implements: EventEnvelope, description: 'A terminal opened a door.' })
export class DoorOpenedEvent extends EventEnvelope {
  @Field(() => DoorOpeningType, { description: 'The door, when, and who.' }) doorOpening!: DoorOpeningType;
}

@ObjectType('DeviceStatusChange', { description: 'A terminal came online or went offline.' })
export class DeviceStatusChangeType {
  @Field(() => Int, { description: 'The id of the terminal (device) of this device status change.' }) deviceId!: number;
  @Field(() => Int, { description: 'The id of the company of this device status change.' }) companyId!: number;
  @Field({ description: 'The serial number of the terminal, as it sends it in the PUSH protocol (`SN`).' }) serialNumber!: string;
  @Field(() => DeviceStatus, { description: 'The new status: `online` or `offline`.' }) status!: DeviceStatus;
  @Field({ description: 'When the status changed (an ISO 8601 date-time in UTC): the contact, or the missed heartbeat.' }) at!: Date;
}

@ObjectType({ implements: EventEnvelope, description: 'A terminal came online or went offline.' })
export class DeviceStatusChangedEvent extends EventEnvelope {
  @Field(() => DeviceStatusChangeType, { description: 'The terminal and its new status.' }) change!: DeviceStatusChangeType;
}

@ObjectType({ implements: EventEnvelope, description: 'A door action changed status (sent, succeeded, failed, expired).' })
export class DoorActionUpdatedEvent extends EventEnvelope {
  @Field(() => DoorActionType, { description: 'The door action as it is now.' }) doorAction!: DoorActionType;
}

@ObjectType({ implements: EventEnvelope, description: "An employee's attendance day was computed again (a punch, a correction, a schedule change)." })
export class AttendanceDayUpdatedEvent extends EventEnvelope {
  @Field(() => AttendanceDayType, { description: 'The day as it is now.' }) day!: AttendanceDayType;
}

@ObjectType('DoorAlarm', { description: 'A door alarm raised or cleared.' })
export class DoorAlarmType {
  @Field(() => Int, { description: 'The id of the door of this door alarm.' }) doorId!: number;
  @Field(() => Int, { description: 'The id of the terminal (device) of this door alarm.' }) deviceId!: number;
  @Field(() => Int, { description: 'The id of the company of this door alarm.' }) companyId!: number;
  @Field({ description: 'The serial number of the terminal, as it sends it in the PUSH protocol (`SN`).' }) deviceSerial!: string;
  @Field(() => Int, { description: "The door's number on its terminal." }) door!: number;
  @Field({ description: '`forced_open`, `held_open`, `tamper`, `duress`, `power` or `battery`.' }) kind!: string;
  @Field({ description: 'When the terminal saw it (raised) or reported it gone (cleared).' }) at!: Date;
  @Field(() => String, { nullable: true, description: '`rtlog` (an alarm record) or `rtstate` (the door status); null when cleared.' }) source?: string | null;
  @Field(() => Int, { nullable: true, description: 'The raw rtlog code (28, 100–107), for `rtlog`.' }) eventCode?: number | null;
  @Field(() => Int, { nullable: true, description: 'The person, when the terminal names one (duress).' }) employeeId?: number | null;
  @Field(() => String, { nullable: true, description: 'The PIN of the person concerned (a duress verification); null for an alarm with no person.' }) pin?:
    string | null;
}

@ObjectType({ implements: EventEnvelope, description: 'A door raised an alarm (forced open, held open, tamper, duress).' })
export class DoorAlarmEvent extends EventEnvelope {
  @Field(() => DoorAlarmType, { description: 'The door and the alarm.' }) alarm!: DoorAlarmType;
}

@ObjectType('AccessDenial', { description: 'A person the terminal refused.' })
export class AccessDenialType {
  @Field(() => Int, { nullable: true, description: 'Null when the terminal names a door it does not have.' }) doorId?: number | null;
  @Field(() => Int, { description: 'The id of the terminal (device) of this access denial.' }) deviceId!: number;
  @Field(() => Int, { description: 'The id of the company of this access denial.' }) companyId!: number;
  @Field({ description: 'The serial number of the terminal, as it sends it in the PUSH protocol (`SN`).' }) deviceSerial!: string;
  @Field(() => Int, { nullable: true, description: "The door's number on its terminal (1 …)." }) door?: number | null;
  @Field({
    description:
      'One of the refusal reasons of docs/access-control-operations.md (`not_registered`, `outside_schedule`, `anti_passback`, `interlock`, `multi_person_wait`, `lockdown`, `expired`...) or `other`.',
  })
  reason!: string;
  @Field(() => Int, { description: 'The raw rtlog event code (27 not registered, 22 outside the time zone, 29 expired...).' }) eventCode!: number;
  @Field(() => Int, { nullable: true, description: 'The id of the employee of this access denial.' }) employeeId?: number | null;
  @Field(() => String, { nullable: true, description: 'The PIN of the person refused; null when the terminal did not know them.' }) pin?: string | null;
  @Field(() => String, { nullable: true, description: 'The card number read, when a card was used; null otherwise.' }) cardNo?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'How the person verified (`fingerprint`, `card`, `face`, `password`...), as the terminal reported it; null when unknown.',
  })
  verifyType?: string | null;
  @Field({ description: 'When the terminal refused them (an ISO 8601 date-time in UTC).' }) at!: Date;
}

@ObjectType({ implements: EventEnvelope, description: 'A controller refused someone at a door.' })
export class AccessDeniedEvent extends EventEnvelope {
  @Field(() => AccessDenialType, { description: 'Who, where, and why.' }) denial!: AccessDenialType;
}

@ObjectType({ implements: EventEnvelope, description: 'A device action changed status (sent, succeeded, failed, expired).' })
export class DeviceActionUpdatedEvent extends EventEnvelope {
  @Field(() => DeviceActionType, { description: 'The device action as it is now.' }) action!: DeviceActionType;
}

@ArgsType()
export class AbsenceRequestUpdatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true, description: 'Only the events of this company (its id).' }) companyId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Only the events of this employee (its id).' }) employeeId?: number | null;
}

@ObjectType({ implements: EventEnvelope, description: 'An absence request was filed, approved, rejected or cancelled.' })
export class AbsenceRequestUpdatedEvent extends EventEnvelope {
  @Field(() => AbsenceRequestType, { description: 'The request as it is now.' }) request!: AbsenceRequestType;
}

@ArgsType()
export class PunchCorrectionUpdatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true, description: 'Only the events of this company (its id).' }) companyId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Only the events of this employee (its id).' }) employeeId?: number | null;
}

@ObjectType({ implements: EventEnvelope, description: 'A punch correction was filed, approved, rejected or cancelled.' })
export class PunchCorrectionUpdatedEvent extends EventEnvelope {
  @Field(() => PunchCorrectionType, { description: 'The correction as it is now.' }) correction!: PunchCorrectionType;
}

@ArgsType()
export class OvertimeApprovalUpdatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true, description: 'Only the events of this company (its id).' }) companyId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Only the events of this employee (its id).' }) employeeId?: number | null;
}

@ObjectType({ implements: EventEnvelope, description: 'An overtime approval was filed, approved or rejected.' })
export class OvertimeApprovalUpdatedEvent extends EventEnvelope {
  @Field(() => OvertimeApprovalType, { description: 'The approval as it is now.' }) approval!: OvertimeApprovalType;
}
