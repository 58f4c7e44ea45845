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
  @Field(() => Int) doorId!: number;
  @Field(() => Int) deviceId!: number;
  @Field(() => FirstPersonInType, { nullable: true, description: 'Null: off.' }) firstPersonIn?: FirstPersonInType | null;
  @Field(() => Int, { description: 'The Door{N}FirstCardOpenDoor parameter written to the controller (0 off, 1 first-card normal open).' })
  firstCardValue!: number;
  @Field(() => Int, { description: 'firstcard rows the controller was sent for the door: the people on it who may start the open period.' })
  firstCardRows!: number;
  @Field(() => MultiPersonType, { nullable: true, description: 'Null: off.' }) multiPerson?: MultiPersonType | null;
  @Field(() => Int, { description: 'The Door{N}MultiCardOpenDoor parameter written to the controller (0 off, 1 on).' }) multiCardValue!: number;
  @Field({
    description: '`none` (never set), `pending` (queued or sent), `applied` (the controller accepted SET OPTIONS), `failed` (refused, unanswered or expired).',
  })
  deliveryStatus!: string;
  @Field(() => Int, { nullable: true, description: "The controller's Return for the command." }) deliveryReturnCode?: number | null;
  @Field(() => Date, { nullable: true }) updatedAt?: Date | null;
}

@InputType('FirstPersonInInput')
export class FirstPersonInInput {
  @Field(() => Int) scheduleId!: number;
  @Field(() => [Int]) accessLevelIds!: number[];
}

@InputType('MultiPersonInput')
export class MultiPersonInput {
  @Field(() => Int) count!: number;
  @Field(() => [Int]) accessLevelIds!: number[];
}

@InputType('DoorOpeningRulesInput')
export class DoorOpeningRulesInput {
  @Field(() => FirstPersonInInput, { nullable: true, description: 'Null or absent: off.' }) firstPersonIn?: FirstPersonInInput | null;
  @Field(() => MultiPersonInput, { nullable: true, description: 'Null or absent: off.' }) multiPerson?: MultiPersonInput | null;
}
