import { ArgsType, Field, InterfaceType, Int, ObjectType } from 'type-graphql';
import { DeviceStatus } from '../entities/device.entity';
import { DoorActionType } from './door-action.type';
import { PunchType } from './punch.type';
import { AttendanceDayType } from './timesheet.type';

@ArgsType()
export class EventCursorArgs {
  @Field(() => String, {
    nullable: true,
    description: 'The `cursor` of the last event received: events after it are replayed from the outbox (kept 7 days), then live ones follow, without gaps or repeats.',
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
export class DoorActionUpdatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true }) deviceId?: number | null;
}

@InterfaceType('Event', { description: 'What every event delivered by a subscription carries.' })
export abstract class EventEnvelope {
  @Field({ description: 'Pass as `after` when subscribing again to resume right after this event. Grows with every event of the workspace (not by 1).' }) cursor!: string;
  @Field({ description: 'The event id webhooks send too (`evt_<cursor>`).' }) eventId!: string;
  @Field({ description: '`attendance.created`, `door.opened`, `device.online`, `device.offline`, `door.action.updated` or `attendance.day.updated`.' }) type!: string;
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
