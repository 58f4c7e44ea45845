import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded, maxChars } from './bounds';

@ObjectType('LinkageRule', {
  description: 'When a controller (or one of its doors) reports the trigger, the service runs the actions and sends `linkage.triggered`.',
})
export class LinkageRuleType {
  @Field(() => Int, { description: "The linkage rule's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this linkage rule.' }) companyId!: number;
  @Field({ description: "The linkage rule's name, as the console and reports show it." }) name!: string;
  @Field({ description: '`forced_open`, `held_open`, `duress` or `refusals` (refusalCount within refusalWindowMinutes).' }) trigger!: string;
  @Field(() => Int, { description: 'The controller whose events trigger it.' }) deviceId!: number;
  @Field(() => Int, { nullable: true, description: 'One door of it; null for any door.' }) doorId?: number | null;
  @Field(() => Int, { nullable: true, description: '`refusals` trigger: this many refusals (1–1000) ...; null for other triggers.' }) refusalCount?:
    number | null;
  @Field(() => Int, { nullable: true, description: '... within this many minutes (1–1440); null for other triggers.' }) refusalWindowMinutes?: number | null;
  @Field(() => String, {
    nullable: true,
    description: 'Action: a lockdown of this mode (`lockdown`, `evacuate`) of the area, the doors, or (neither) the company.',
  })
  lockdownMode?: string | null;
  @Field(() => Int, { nullable: true, description: 'Action: lock down the doors of this area; null when the rule locks no area.' }) lockdownAreaId?:
    number | null;
  @Field(() => [Int], { nullable: true, description: 'Action: lock down these doors; null or empty when none.' }) lockdownDoorIds?: number[] | null;
  @Field(() => Int, { nullable: true, description: "Action: pulse this auxiliary output of the rule's controller." }) auxOutput?: number | null;
  @Field(() => Int, { nullable: true, description: 'How long the auxiliary output is pulsed, in seconds (1–254); null with no auxOutput.' }) auxOutputSeconds?:
    number | null;
  @Field(() => Date, { nullable: true, description: 'When the rule last fired (an ISO 8601 date-time in UTC); null if it never has.' })
  lastTriggeredAt?: Date | null;
  @Field({ description: 'When the linkage rule was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
}

@ObjectType('LinkageRuleConnection', {
  description:
    'A page of linkage rules: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class LinkageRuleConnection extends Connection(LinkageRuleType) {}

@ArgsType()
export class LinkageRulesArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the linkage rules of this company (its id).' }) companyId?: number;
  @Field(() => Int, { nullable: true, description: 'Only the linkage rules of this terminal (its id).' }) deviceId?: number;
}

@InputType({ description: 'The fields of a new linkage rule.' })
export class CreateLinkageRuleInput {
  @Bounded('accessName') @Field({ description: `The linkage rule's name: not blank, ${maxChars('accessName')} (\`blank\`, \`too_long\`).` }) name!: string;
  @Bounded('keyword') @Field({ description: '`forced_open`, `held_open`, `duress` or `refusals`.' }) trigger!: string;
  @Field(() => Int, { nullable: true, description: 'An access controller: any of its doors (give deviceId or doorId).' }) deviceId?: number | null;
  @Field(() => Int, { nullable: true, description: 'One door.' }) doorId?: number | null;
  @Field(() => Int, { nullable: true, description: '`refusals`: this many (1–1000) ...' }) refusalCount?: number | null;
  @Field(() => Int, { nullable: true, description: '... within this many minutes (1–1440).' }) refusalWindowMinutes?: number | null;
  @Bounded('keyword')
  @Field(() => String, {
    nullable: true,
    description: `Action: start a lockdown of this mode, \`lockdown\` (doors locked) or \`evacuate\` (doors held open), of the area, the doors, or (neither) the company; ${maxChars('keyword')}; null: no lockdown.`,
  })
  lockdownMode?: string | null;
  @Field(() => Int, { nullable: true, description: 'With lockdownMode: the area whose doors the lockdown covers (its id).' }) lockdownAreaId?: number | null;
  @Field(() => [Int], { nullable: true, description: 'With lockdownMode: the doors the lockdown covers (their ids).' }) lockdownDoorIds?: number[] | null;
  @Field(() => Int, { nullable: true, description: '1–255.' }) auxOutput?: number | null;
  @Field(() => Int, { nullable: true, description: '1–254.' }) auxOutputSeconds?: number | null;
}
