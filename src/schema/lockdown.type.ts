import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { EventCursorArgs, EventEnvelope } from './event.type';
import { Bounded } from './bounds';

const DOOR_STATES =
  '`pending` (the command waits for the controller; `detail` `controller_restarted` when it was sent again after the controller handshook), `confirmed` (the controller carried it out), `failed` (see `detail`: `unsupported_by_device` for an attendance terminal, `device_refused` with the return code, `no_answer`, `expired`); after a release `releasing`, `released` or `release_failed`.';

@ObjectType('LockdownDoor', { description: 'One door of a lockdown and where its controller is with it.' })
export class LockdownDoorType {
  @Field(() => Int, { description: 'The id of the door of this lockdown door.' }) doorId!: number;
  @Field(() => Int, { description: 'The id of the terminal (device) of this lockdown door.' }) deviceId!: number;
  @Field(() => Int, { description: "The door's number on its controller." }) door!: number;
  @Field({ description: DOOR_STATES }) state!: string;
  @Field(() => String, { nullable: true, description: 'Why it failed, or `controller_restarted` while a command sent again is pending.' })
  detail?: string | null;
  @Field(() => Int, { nullable: true, description: "The controller's Return code (negative = refused)." }) returnCode?: number | null;
  @Field(() => Date, { nullable: true, description: 'When the controller confirmed the lock (or emergency open).' }) confirmedAt?: Date | null;
  @Field({ description: 'When the lockdown door was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('Lockdown', { description: 'A lockdown (doors locked, credentials refused) or evacuation (doors held open) of doors of one company.' })
export class LockdownType {
  @Field(() => Int, { description: "The lockdown's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this lockdown.' }) companyId!: number;
  @Field({ description: '`company`, `area` or `doors`: how the doors were chosen.' }) scope!: string;
  @Field(() => Int, { nullable: true, description: 'The id of the area of this lockdown.' }) areaId?: number | null;
  @Field({ description: '`lockdown` or `evacuate`.' }) mode!: string;
  @Field({ description: 'Why the lockdown was started, as whoever started it wrote it (kept in the audit log).' }) reason!: string;
  @Field({ description: '`active` until released, then `released`.' }) status!: string;
  @Field({ description: 'When the lockdown was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When the lockdown was released (an ISO 8601 date-time in UTC); null while active.' })
  releasedAt?: Date | null;
  @Field(() => [LockdownDoorType], { description: 'Each door of the lockdown with its state (pending, confirmed by the terminal, failed).' })
  doors!: LockdownDoorType[];
  @Field(() => Int, { description: 'Doors waiting for their controller (`pending`, `releasing`).' }) doorsPending!: number;
  @Field(() => Int, { description: 'Doors carried out (`confirmed`, `released`).' }) doorsConfirmed!: number;
  @Field(() => Int, { description: 'Doors that failed (`failed`, `release_failed`).' }) doorsFailed!: number;
  @Field(() => Int, {
    nullable: true,
    description: 'Mode `lockdown`: members of this access level are still let through (Timegate opens the door remotely after their refusal).',
  })
  overrideAccessLevelId?: number | null;
}

@ObjectType('LockdownConnection', {
  description:
    'A page of lockdowns: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class LockdownConnection extends Connection(LockdownType) {}

@ArgsType()
export class LockdownsArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the lockdowns of this company (its id).' }) companyId?: number;
  @Bounded('keyword') @Field(() => String, { nullable: true, description: '`active` or `released`.' }) status?: string;
}

@InputType({ description: 'The fields of a new lockdown.' })
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
  @Field(() => Int, { description: 'The id of the lockdown that changed.' }) lockdownId!: number;
  @Field(() => Int, { description: 'The id of the company of this lockdown update.' }) companyId!: number;
  @Field({ description: '`company`, `area` or `doors`: how the doors were chosen.' }) scope!: string;
  @Field(() => Int, { nullable: true, description: 'The id of the area of this lockdown update.' }) areaId?: number | null;
  @Field({ description: '`lockdown` (doors locked, credentials refused) or `evacuate` (doors held open).' }) mode!: string;
  @Field({ description: 'Why the lockdown was started.' }) reason!: string;
  @Field({ description: 'The lockdown: `active` or `released`.' }) status!: string;
  @Field({ description: '`created`, `door` (the door in `door` changed state) or `released`.' }) change!: string;
  @Field(() => LockdownDoorEventType, { nullable: true, description: 'The door that changed, for `door`.' }) door?: LockdownDoorEventType | null;
  @Field(() => Int, { description: 'How many doors the lockdown covers.' }) doorsTotal!: number;
  @Field(() => Int, { description: 'How many of them wait for their terminal to confirm.' }) doorsPending!: number;
  @Field(() => Int, { description: 'How many of them their terminal confirmed.' }) doorsConfirmed!: number;
  @Field(() => Int, { description: 'How many of them failed (the terminal refused, or did not answer in time).' }) doorsFailed!: number;
  @Field({ description: 'When the lockdown update was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When the lockdown was released (an ISO 8601 date-time in UTC); null while active.' })
  releasedAt?: Date | null;
}

@ObjectType('LockdownDoorChange', { description: 'The door of a `lockdown.updated` event.' })
export class LockdownDoorEventType {
  @Field(() => Int, { description: 'The id of the door of this lockdown door change.' }) doorId!: number;
  @Field(() => Int, { description: 'The id of the terminal (device) of this lockdown door change.' }) deviceId!: number;
  @Field(() => Int, { description: "The door's number on its terminal (1 …)." }) door!: number;
  @Field({ description: DOOR_STATES }) state!: string;
  @Field(() => String, { nullable: true, description: 'Why a door failed (the terminal refused, offline, no answer); null otherwise.' }) detail?: string | null;
  @Field(() => Int, { nullable: true, description: "The terminal's return code for the command; null until it answered." }) returnCode?: number | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601.' }) confirmedAt?: string | null;
}

@ObjectType({ implements: EventEnvelope, description: 'A lockdown was started, a door of it changed state, or it was released.' })
export class LockdownUpdatedEvent extends EventEnvelope {
  @Field(() => LockdownUpdateType, { description: 'The lockdown as it is now, and what changed.' }) lockdown!: LockdownUpdateType;
}

@ArgsType()
export class LockdownUpdatedArgs extends EventCursorArgs {
  @Field(() => Int, { nullable: true, description: 'Only the events of this company (its id).' }) companyId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Only the updates of this lockdown (its id).' }) lockdownId?: number | null;
}
