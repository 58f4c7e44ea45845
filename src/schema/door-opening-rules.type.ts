import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';

@ObjectType('FirstPersonIn', {
  description:
    'Inside the schedule, the first valid verification of a member of one of the access levels leaves the door normally open until the schedule ends (rtlog 2, then 1 for the verifications during the open period).',
})
export class FirstPersonInType {
  @Field(() => Int, { description: 'The access schedule inside which the door stays open.' }) scheduleId!: number;
  @Field(() => [Int], { description: 'Access levels whose members may start it; each level opens the door.' }) accessLevelIds!: number[];
}

@ObjectType('MultiPerson', {
  description:
    "The door opens only once `count` members of the access levels have verified within the controller's interval (rtlog 26 for each verification before, 3 when it opens).",
})
export class MultiPersonType {
  @Field(() => Int, { description: 'People needed, 2–5.' }) count!: number;
  @Field(() => [Int], { description: 'Access levels whose members count; each level opens the door.' }) accessLevelIds!: number[];
}

@ObjectType('DoorOpeningRules', { description: 'Rules that decide when one door of an access controller opens, and the state of their delivery.' })
export class DoorOpeningRulesType {
  @Field(() => Int, { description: 'The id of the door of this door opening rules.' }) doorId!: number;
  @Field(() => Int, { description: 'The id of the terminal (device) of this door opening rules.' }) deviceId!: number;
  @Field(() => FirstPersonInType, { nullable: true, description: 'Null: off.' }) firstPersonIn?: FirstPersonInType | null;
  @Field(() => Int, { description: 'The Door{N}FirstCardOpenDoor parameter written to the controller (0 off, 1 first-card normal open).' })
  firstCardValue!: number;
  @Field(() => Int, { description: 'The firstcard rows the controller was sent for the door: the people on it who may start the open period.' })
  firstCardRows!: number;
  @Field(() => MultiPersonType, { nullable: true, description: 'Null: off.' }) multiPerson?: MultiPersonType | null;
  @Field(() => Int, { description: 'The Door{N}MultiCardOpenDoor parameter written to the controller (0 off, 1 on).' }) multiCardValue!: number;
  @Field({
    description: '`none` (never set), `pending` (queued or sent), `applied` (the controller accepted SET OPTIONS), `failed` (refused, unanswered or expired).',
  })
  deliveryStatus!: string;
  @Field(() => Int, { nullable: true, description: "The controller's Return for the command." }) deliveryReturnCode?: number | null;
  @Field(() => Date, { nullable: true, description: 'When the door opening rules was last changed (ISO 8601 date-time, UTC).' }) updatedAt?: Date | null;
}

@InputType('FirstPersonInInput', {
  description: 'First person in: the door stays locked in normal-open time until a holder of one of these levels has passed.',
})
export class FirstPersonInInput {
  @Field(() => Int, { description: "The access schedule, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  scheduleId!: number;
  @Field(() => [Int], { description: 'The access levels whose holders count as a first person (their ids).' }) accessLevelIds!: number[];
}

@InputType('MultiPersonInput', { description: 'Multi-person opening: the door opens only after this many people of the levels have verified in turn.' })
export class MultiPersonInput {
  @Field(() => Int, { description: 'How many people must verify, 2–5 (`out_of_range` otherwise).' }) count!: number;
  @Field(() => [Int], { description: 'The access levels whose holders count towards `count` (their ids).' }) accessLevelIds!: number[];
}

@InputType('DoorOpeningRulesInput', {
  description: "A door's opening rules; a rule left out is turned off. A terminal without the feature refuses it (`unsupported_by_device`).",
})
export class DoorOpeningRulesInput {
  @Field(() => FirstPersonInInput, { nullable: true, description: 'Null or absent: off.' }) firstPersonIn?: FirstPersonInInput | null;
  @Field(() => MultiPersonInput, { nullable: true, description: 'Null or absent: off.' }) multiPerson?: MultiPersonInput | null;
}
