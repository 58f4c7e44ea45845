import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('LinkageRule', {
  description: 'When a controller (or one of its doors) reports the trigger, the service runs the actions and sends `linkage.triggered`.',
})
export class LinkageRuleType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field() name!: string;
  @Field({ description: '`forced_open`, `held_open`, `duress` or `refusals` (refusalCount within refusalWindowMinutes).' }) trigger!: string;
  @Field(() => Int, { description: 'The controller whose events trigger it.' }) deviceId!: number;
  @Field(() => Int, { nullable: true, description: 'One door of it; null for any door.' }) doorId?: number | null;
  @Field(() => Int, { nullable: true }) refusalCount?: number | null;
  @Field(() => Int, { nullable: true }) refusalWindowMinutes?: number | null;
  @Field(() => String, {
    nullable: true,
    description: 'Action: a lockdown of this mode (`lockdown`, `evacuate`) of the area, the doors, or (neither) the company.',
  })
  lockdownMode?: string | null;
  @Field(() => Int, { nullable: true }) lockdownAreaId?: number | null;
  @Field(() => [Int], { nullable: true }) lockdownDoorIds?: number[] | null;
  @Field(() => Int, { nullable: true, description: "Action: pulse this auxiliary output of the rule's controller." }) auxOutput?: number | null;
  @Field(() => Int, { nullable: true }) auxOutputSeconds?: number | null;
  @Field(() => Date, { nullable: true }) lastTriggeredAt?: Date | null;
  @Field() createdAt!: Date;
}

@ObjectType('LinkageRuleConnection')
export class LinkageRuleConnection extends Connection(LinkageRuleType) {}

@ArgsType()
export class LinkageRulesArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) companyId?: number;
  @Field(() => Int, { nullable: true }) deviceId?: number;
}

@InputType()
export class CreateLinkageRuleInput {
  @Bounded('accessName') @Field() name!: string;
  @Bounded('keyword') @Field({ description: '`forced_open`, `held_open`, `duress` or `refusals`.' }) trigger!: string;
  @Field(() => Int, { nullable: true, description: 'An access controller: any of its doors (give deviceId or doorId).' }) deviceId?: number | null;
  @Field(() => Int, { nullable: true, description: 'One door.' }) doorId?: number | null;
  @Field(() => Int, { nullable: true, description: '`refusals`: this many (1–1000) ...' }) refusalCount?: number | null;
  @Field(() => Int, { nullable: true, description: '... within this many minutes (1–1440).' }) refusalWindowMinutes?: number | null;
  @Bounded('keyword') @Field(() => String, { nullable: true }) lockdownMode?: string | null;
  @Field(() => Int, { nullable: true }) lockdownAreaId?: number | null;
  @Field(() => [Int], { nullable: true }) lockdownDoorIds?: number[] | null;
  @Field(() => Int, { nullable: true, description: '1–255.' }) auxOutput?: number | null;
  @Field(() => Int, { nullable: true, description: '1–254.' }) auxOutputSeconds?: number | null;
}
