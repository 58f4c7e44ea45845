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

@ObjectType('DoorOpeningRules', { description: 'Rules that decide when one door of an access controller opens, and the state of their delivery.' })
export class DoorOpeningRulesType {
  @Field(() => Int) doorId!: number;
  @Field(() => Int) deviceId!: number;
  @Field(() => FirstPersonInType, { nullable: true, description: 'Null: off.' }) firstPersonIn?: FirstPersonInType | null;
  @Field(() => Int, { description: 'The Door{N}FirstCardOpenDoor parameter written to the controller (0 off, 1 first-card normal open).' })
  firstCardValue!: number;
  @Field(() => Int, { description: 'firstcard rows the controller was sent for the door: the people on it who may start the open period.' })
  firstCardRows!: number;
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

@InputType('DoorOpeningRulesInput')
export class DoorOpeningRulesInput {
  @Field(() => FirstPersonInInput, { nullable: true, description: 'Null or absent: off.' }) firstPersonIn?: FirstPersonInInput | null;
}
