import { ArgsType, Field, InputType, Int, registerEnumType } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { DoorRelay, DoorSensor } from '../entities/door.entity';
import { Bounded, maxChars } from './bounds';

registerEnumType(DoorSensor, {
  name: 'DoorSensor',
  description: 'The door sensor: `open`, `closed`, or `unknown` (not reported yet, or no sensor).',
  valuesConfig: {
    open: { description: 'The door sensor reports the door open.' },
    closed: { description: 'The door sensor reports the door closed.' },
    unknown: { description: 'Not reported yet, or the door has no sensor.' },
  },
});
registerEnumType(DoorRelay, {
  name: 'DoorRelay',
  description: 'The lock relay: `locked` (released), `unlocked` (energised), or `unknown` (not reported yet).',
  valuesConfig: {
    locked: { description: 'The lock relay is released: the door is locked.' },
    unlocked: { description: 'The lock relay is energised: the door can be opened.' },
    unknown: { description: 'Not reported yet.' },
  },
});

@ObjectType('DoorState', { description: 'What the terminal last reported about the door (rtstate, rtlog).' })
export class DoorStateType {
  @Field(() => DoorSensor, { description: 'The door sensor: `open`, `closed` or `unknown`.' }) sensor!: DoorSensor;
  @Field(() => DoorRelay, { description: 'The lock relay: `locked`, `unlocked` or `unknown`.' }) relay!: DoorRelay;
  @Field(() => [String], { description: 'Active alarms: `forced_open`, `held_open`, `tamper`, `duress`, `power`, `battery`.' }) alarms!: string[];
}

@ObjectType('Door', { description: "A terminal's door: an access-control terminal has as many as it reports, an attendance terminal one (its lock output)." })
export class DoorType {
  @Field(() => Int, { description: "The door's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the terminal (device) of this door.' }) deviceId!: number;
  @Field(() => Int, { description: "The door's number on its terminal (1 …)." }) number!: number;
  @Field({ description: "The door's name, as the console and reports show it." }) name!: string;
  @Field({
    description:
      'Whether the terminal has this door now. A door past a lower reported LockCount is absent: kept with its id, name and access levels, left out of what the terminal is sent, and present again when the count rises.',
  })
  present!: boolean;
  @Field(() => Date, { nullable: true, description: 'Since when the door is absent; null while present.' }) absentSince?: Date | null;
  @Field(() => DoorStateType, { description: 'What the terminal last reported about the door: sensor, relay and active alarms.' }) state!: DoorStateType;
  @Field({ description: 'When the door was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('DoorConnection', {
  description: 'A page of doors: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class DoorConnection extends Connection(DoorType) {}

@ArgsType()
export class DoorsArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'The doors of this device only.' }) deviceId?: number;
  @Field(() => Boolean, { nullable: true, description: 'true: only doors with an active alarm; false: only doors without one.' }) alarmed?: boolean;
}

@InputType({ description: "The new values of a door's fields; a field left out (where it may be) keeps its value." })
export class UpdateDoorInput {
  @Bounded('doorName') @Field({ description: `The door's name: not blank, ${maxChars('doorName')} (\`blank\`, \`too_long\`).` }) name!: string;
}

@InputType({ description: 'A command for a door: unlock for some seconds, hold open, close, or cancel an alarm.' })
export class DoorActionInput {
  @Bounded('keyword')
  @Field({ description: '`unlock` (with `duration`), `hold_open` (normally open until `close`), `close`, or `cancel_alarm`.' })
  action!: string;
  @Field(() => Int, { nullable: true, description: 'Seconds the lock stays released, 1–254: `unlock` only.' }) duration?: number | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Undo an active lockdown (unlock, hold_open) or evacuation (close) of the door: an `admin` key only; otherwise `lockdown_active`.',
  })
  override?: boolean | null;
}
