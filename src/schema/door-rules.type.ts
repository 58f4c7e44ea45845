import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { FirstPersonInType, MultiPersonType } from './door-opening-rules.type';
import { Bounded } from './bounds';

@ObjectType('AntiPassbackPair', {
  description: 'Between doors: a person alternates between passing an entry door and an exit door (the first passage may be at either).',
})
export class AntiPassbackPairType {
  @Field(() => [Int], { description: 'The doors that count as entry to the zone.' }) entryDoorIds!: number[];
  @Field(() => [Int], { description: 'The doors that count as exit from it.' }) exitDoorIds!: number[];
}

@ObjectType('AntiPassback', {
  description: "A controller's anti-passback: a second passage in the same direction is refused (rtlog 24) until the opposite one.",
})
export class AntiPassbackType {
  @Field({ description: '`in_out`: between the in and out readers of each door of doorIds; `between_doors`: between the sides of each pair.' }) type!: string;
  @Field({ description: '`hard`: the controller refuses. The only mode controllers enforce.' }) mode!: string;
  @Field({ description: 'Always false: controllers keep the state until the opposite passage.' }) dailyReset!: boolean;
  @Field(() => [Int], { nullable: true, description: 'The doors anti-passback applies to on the controller.' }) doorIds?: number[] | null;
  @Field(() => [AntiPassbackPairType], {
    nullable: true,
    description: 'The entry and exit door groups: a person must leave through an exit before entering again.',
  })
  pairs?: AntiPassbackPairType[] | null;
}

@ObjectType('Interlock', {
  description: 'Groups of doors of one controller of which only one may be open at a time: a verification at another is refused (rtlog 25).',
})
export class InterlockType {
  @Field(() => [[Int]], { description: 'Door ids, per group.' }) groups!: number[][];
}

@ObjectType('DeviceDoorRules', { description: 'Door rules an access controller enforces itself, and the state of their delivery.' })
export class DeviceDoorRulesType {
  @Field(() => Int, { description: 'The id of the terminal (device) of this device door rules.' }) deviceId!: number;
  @Field(() => AntiPassbackType, { nullable: true, description: 'Null: off.' }) antiPassback?: AntiPassbackType | null;
  @Field(() => InterlockType, { nullable: true, description: 'Null: none.' }) interlock?: InterlockType | null;
  @Field(() => Int, { description: 'The AntiPassback parameter written to the controller (0 off).' }) antiPassbackValue!: number;
  @Field(() => Int, { description: 'The InterLock parameter written to the controller (0 none).' }) interlockValue!: number;
  @Field({
    description: '`none` (never set), `pending` (queued or sent), `applied` (the controller accepted SET OPTIONS), `failed` (refused, unanswered or expired).',
  })
  deliveryStatus!: string;
  @Field(() => Int, { nullable: true, description: "The controller's Return for the command." }) deliveryReturnCode?: number | null;
  @Field(() => Date, { nullable: true, description: 'When the device door rules was last changed (ISO 8601 date-time, UTC).' }) updatedAt?: Date | null;
}

@ObjectType('DoorRules', { description: "The controller's rules as they concern this door." })
export class DoorRulesType {
  @Field(() => AntiPassbackType, { nullable: true, description: "The controller's anti-passback when it involves this door." })
  antiPassback?: AntiPassbackType | null;
  @Field(() => [Int], { nullable: true, description: "The door ids of this door's interlock group." }) interlockGroup?: number[] | null;
  @Field({ description: 'Delivery of the controller rules (see DeviceDoorRules.deliveryStatus).' }) deliveryStatus!: string;
  @Field(() => FirstPersonInType, { nullable: true, description: "The door's first-person-in (DoorOpeningRules); null: off." })
  firstPersonIn?: FirstPersonInType | null;
  @Field(() => MultiPersonType, { nullable: true, description: "The door's multi-person rule (DoorOpeningRules); null: off." })
  multiPerson?: MultiPersonType | null;
  @Field({ description: "Delivery of the door's opening rules (see DoorOpeningRules.deliveryStatus)." }) openingDeliveryStatus!: string;
}

@InputType('AntiPassbackPairInput', { description: 'An entry group and an exit group of doors of one controller.' })
export class AntiPassbackPairInput {
  @Field(() => [Int], { description: "The doors that count as entry (ids of doors of this terminal; another's is `not_on_device`)." }) entryDoorIds!: number[];
  @Field(() => [Int], { description: "The doors that count as exit (ids of doors of this terminal; another's is `not_on_device`)." }) exitDoorIds!: number[];
}

@InputType('AntiPassbackInput', { description: 'Anti-passback on a controller: a person who entered must exit before entering again.' })
export class AntiPassbackInput {
  @Bounded('keyword') @Field({ description: '`in_out` or `between_doors`.' }) type!: string;
  @Bounded('keyword') @Field(() => String, { nullable: true, description: '`hard` (default). `soft` is refused: no controller enforces it.' }) mode?: string;
  @Field(() => Boolean, { nullable: true, description: 'true is refused: no controller resets its anti-passback state by time.' }) dailyReset?: boolean;
  @Field(() => [Int], { nullable: true, description: "The doors it applies to (ids of doors of this terminal; another's is `not_on_device`)." })
  doorIds?: number[];
  @Field(() => [AntiPassbackPairInput], { nullable: true, description: 'The entry and exit groups of doors.' }) pairs?: AntiPassbackPairInput[];
}

@InputType('InterlockInput', { description: 'Interlock (mantrap): of the doors of a group only one may be open at a time.' })
export class InterlockInput {
  @Field(() => [[Int]], {
    description:
      'Groups of door ids of this controller: 2 doors at least each (`too_few_doors`), a door in one group at most (`overlapping`); a door of another terminal is `not_on_device`.',
  })
  groups!: number[][];
}

@InputType('DeviceDoorRulesInput', {
  description: "A controller's rules across its doors; a rule left out is turned off. A terminal without the feature refuses it (`unsupported_by_device`).",
})
export class DeviceDoorRulesInput {
  @Field(() => AntiPassbackInput, { nullable: true, description: 'Null or absent: off.' }) antiPassback?: AntiPassbackInput | null;
  @Field(() => InterlockInput, { nullable: true, description: 'Null or absent: none.' }) interlock?: InterlockInput | null;
}
