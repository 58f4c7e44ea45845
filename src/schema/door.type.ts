import { ArgsType, Field, InputType, Int, registerEnumType } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { DoorRelay, DoorSensor } from '../entities/door.entity';
import { Bounded } from './bounds';

registerEnumType(DoorSensor, { name: 'DoorSensor', description: 'The door sensor: `open`, `closed`, or `unknown` (not reported yet, or no sensor).' });
registerEnumType(DoorRelay, {
  name: 'DoorRelay',
  description: 'The lock relay: `locked` (released), `unlocked` (energised), or `unknown` (not reported yet).',
});

@ObjectType('DoorState', { description: 'What the terminal last reported about the door (rtstate, rtlog).' })
export class DoorStateType {
  @Field(() => DoorSensor) sensor!: DoorSensor;
  @Field(() => DoorRelay) relay!: DoorRelay;
  @Field(() => [String], { description: 'Active alarms: `forced_open`, `held_open`, `tamper`, `duress`, `power`, `battery`.' }) alarms!: string[];
}

@ObjectType('Door', { description: "A terminal's door: an access-control terminal has as many as it reports, an attendance terminal one (its lock output)." })
export class DoorType {
  @Field(() => Int) id!: number;
  @Field(() => Int) deviceId!: number;
  @Field(() => Int, { description: "The door's number on its terminal (1 …)." }) number!: number;
  @Field() name!: string;
  @Field({
    description:
      'Whether the terminal has this door now. A door past a lower reported LockCount is absent: kept with its id, name and access levels, left out of what the terminal is sent, and present again when the count rises.',
  })
  present!: boolean;
  @Field(() => Date, { nullable: true, description: 'Since when the door is absent; null while present.' }) absentSince?: Date | null;
  @Field(() => DoorStateType) state!: DoorStateType;
  @Field() updatedAt!: Date;
}

@ObjectType('DoorConnection')
export class DoorConnection extends Connection(DoorType) {}

@ArgsType()
export class DoorsArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'The doors of this device only.' }) deviceId?: number;
  @Field(() => Boolean, { nullable: true, description: 'true: only doors with an active alarm; false: only doors without one.' }) alarmed?: boolean;
}

@InputType()
export class UpdateDoorInput {
  @Bounded('doorName') @Field() name!: string;
}

@InputType()
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
