import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { EventCursorArgs, EventEnvelope } from './event.type';
import { Bounded } from './bounds';

const DOOR_STATES =
  '`pending` (the command waits for the controller; `detail` `controller_restarted` when it was sent again after the controller handshook), `confirmed` (the controller carried it out), `failed` (see `detail`: `unsupported_by_device` for an attendance terminal, `device_refused` with the return code, `no_answer`, `expired`); after a release `releasing`, `released` or `release_failed`.';

@ObjectType('LockdownDoor', { description: 'One door of a lockdown and where its controller is with it.' })
export class LockdownDoorType {
  @Field(() => Int) doorId!: number;
  @Field(() => Int) deviceId!: number;
  @Field(() => Int, { description: "The door's number on its controller." }) door!: number;
  @Field({ description: DOOR_STATES }) state!: string;
  @Field(() => String, { nullable: true, description: 'Why it failed, or `controller_restarted` while a command sent again is pending.' })
  detail?: string | null;
  @Field(() => Int, { nullable: true, description: "The controller's Return code (negative = refused)." }) returnCode?: number | null;
  @Field(() => Date, { nullable: true, description: 'When the controller confirmed the lock (or emergency open).' }) confirmedAt?: Date | null;
  @Field() updatedAt!: Date;
}

@ObjectType('Lockdown', { description: 'A lockdown (doors locked, credentials refused) or evacuation (doors held open) of doors of one company.' })
export class LockdownType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field({ description: '`company`, `area` or `doors`: how the doors were chosen.' }) scope!: string;
  @Field(() => Int, { nullable: true }) areaId?: number | null;
  @Field({ description: '`lockdown` or `evacuate`.' }) mode!: string;
  @Field() reason!: string;
  @Field({ description: '`active` until released, then `released`.' }) status!: string;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) releasedAt?: Date | null;
  @Field(() => [LockdownDoorType]) doors!: LockdownDoorType[];
  @Field(() => Int, { description: 'Doors waiting for their controller (`pending`, `releasing`).' }) doorsPending!: number;
  @Field(() => Int, { description: 'Doors carried out (`confirmed`, `released`).' }) doorsConfirmed!: number;
  @Field(() => Int, { description: 'Doors that failed (`failed`, `release_failed`).' }) doorsFailed!: number;
  @Field(() => Int, {
    nullable: true,
    description: 'Mode `lockdown`: members of this access level are still let through (Timegate opens the door remotely after their refusal).',
  })
  overrideAccessLevelId?: number | null;
}

@ObjectType('LockdownConnection')
export class LockdownConnection extends Connection(LockdownType) {}

@ArgsType()
export class LockdownsArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) companyId?: number;
  @Bounded('keyword') @Field(() => String, { nullable: true, description: '`active` or `released`.' }) status?: string;
}

@InputType()
export class CreateLockdownInput {
  @Field(() => Int, { nullable: true, description: 'Every door of the company (give exactly one of companyId, areaId, doorIds).' }) companyId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Every door of the devices of the area.' }) areaId?: number | null;
  @Field(() => [Int], { nullable: true, description: 'These doors (of devices of one company), at most 1000.' }) doorIds?: number[] | null;
  @Bounded('keyword') @Field({ description: '`lockdown` (doors locked, credentials refused) or `evacuate` (doors held open).' }) mode!: string;
  @Bounded('reason') @Field({ description: 'Why, for the record (at most 500 characters).' }) reason!: string;
  @Field(() => Int, {
    nullable: true,
    description: 'Mode `lockdown` only: an access level of the company whose members are still let through (a remote opening after their refusal).',
  })
  overrideAccessLevelId?: number | null;
}

@ObjectType('LockdownUpdate', { description: 'A lockdown started, one of its doors changed state, or it was released.' })
export class LockdownUpdateType {
  @Field(() => Int) lockdownId!: number;
  @Field(() => Int) companyId!: number;
  @Field() scope!: string;
  @Field(() => Int, { nullable: true }) areaId?: number | null;
  @Field() mode!: string;
  @Field() reason!: string;
  @Field({ description: 'The lockdown: `active` or `released`.' }) status!: string;
  @Field({ description: '`created`, `door` (the door in `door` changed state) or `released`.' }) change!: string;
  @Field(() => LockdownDoorEventType, { nullable: true, description: 'The door that changed, for `door`.' }) door?: LockdownDoorEventType | null;
  @Field(() => Int) doorsTotal!: number;
  @Field(() => Int) doorsPending!: number;
  @Field(() => Int) doorsConfirmed!: number;
  @Field(() => Int) doorsFailed!: number;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) releasedAt?: Date | null;
}

@ObjectType('LockdownDoorChange', { description: 'The door of a `lockdown.updated` event.' })
export class LockdownDoorEventType {
  @Field(() => Int) doorId!: number;
  @Field(() => Int) deviceId!: number;
  @Field(() => Int) door!: number;
  @Field({ description: DOOR_STATES }) state!: string;
  @Field(() => String, { nullable: true }) detail?: string | null;
  @Field(() => Int, { nullable: true }) returnCode?: number | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601.' }) confirmedAt?: string | null;
}

@ObjectType({ implements: EventEnvelope })
export class LockdownUpdatedEvent extends EventEnvelope {
  @Field(() => LockdownUpdateType) lockdown!: LockdownUpdateType;
}

@ArgsType()
export class LockdownUpdatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true }) companyId?: number | null;
  @Field(() => Int, { nullable: true }) lockdownId?: number | null;
}
