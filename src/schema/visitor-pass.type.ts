import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Bounded, maxChars } from './bounds';

@ObjectType('VisitorPassUse', { description: 'A verification of the pass at one of its doors (a door event of its pin), granted or refused.' })
export class VisitorPassUseType {
  @Field(() => Int, { description: "The visitor pass use's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { nullable: true, description: 'The id of the terminal (device) of this visitor pass use.' }) deviceId?: number | null;
  @Field(() => Int, { nullable: true, description: 'The door number on its controller.' }) door?: number | null;
  @Field(() => Int, { description: 'The rtlog event code (0 opened, 29 outside the validity window, …).' }) eventCode!: number;
  @Field({ description: '`granted` or `denied`.' }) eventClass!: string;
  @Field({ description: 'Whether the door actually opened.' }) opened!: boolean;
  @Field({ description: 'When the card was used (an ISO 8601 date-time in UTC).' }) time!: Date;
  @Field({ description: "The same moment on the terminal's clock, `YYYY-MM-DDTHH:MM:SS` without an offset." }) localTime!: string;
}

@ObjectType('VisitorPass', {
  description: "A visitor's time-limited access to doors: a user row on each controller of its doors that the controller refuses outside the window.",
})
export class VisitorPassType {
  @Field(() => Int, { description: "The visitor pass's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this visitor pass.' }) companyId!: number;
  @Field({ description: "The visitor pass's name, as the console and reports show it." }) name!: string;
  @Field(() => Int, { nullable: true, description: 'The id of the employee the visitor comes to see.' }) hostEmployeeId?: number | null;
  @Field({ description: 'From when the card opens the doors (an ISO 8601 date-time in UTC).' }) validFrom!: Date;
  @Field({ description: 'Until when (an ISO 8601 date-time in UTC); the pass is removed from the terminals then.' }) validUntil!: Date;
  @Field(() => [Int], { description: 'The doors the card opens in that time.' }) doorIds!: number[];
  @Field(() => String, { nullable: true, description: 'The card number given to the visitor.' }) cardNo?: string | null;
  @Field({ description: 'The terminal user id of the visitor (generated when none was given).' }) pin!: string;
  @Field({ description: '`scheduled`, `active` or `ended` (past its end, or revoked).' }) status!: string;
  @Field(() => Date, { nullable: true, description: 'When the pass was revoked before its end (an ISO 8601 date-time in UTC); null otherwise.' })
  revokedAt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'When its rows were queued for deletion from the controllers.' }) removedAt?: Date | null;
  @Field({ description: 'When the visitor pass was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field(() => [VisitorPassUseType], { nullable: true, description: 'Its door events (visitorPass(id) only), oldest first, at most 500.' }) uses?:
    VisitorPassUseType[] | null;
}

@InputType({ description: 'The fields of a new visitor pass.' })
export class CreateVisitorPassInput {
  @Field(() => Int, { description: "The company, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  companyId!: number;
  @Bounded('accessName') @Field({ description: `The visitor pass's name: not blank, ${maxChars('accessName')} (\`blank\`, \`too_long\`).` }) name!: string;
  @Field(() => Int, {
    description: 'The employee the visitor comes to see, by id: one of another company is refused (`company_mismatch`), none (`not_found`).',
  })
  hostEmployeeId!: number;
  @Field({ description: 'From when the card opens the doors (an ISO 8601 date-time with an offset).' }) validFrom!: Date;
  @Field({ description: 'Until when: after validFrom (`before_start_date`), at most 366 days later and not in the past (`out_of_range`).' }) validUntil!: Date;
  @Field(() => [Int], { description: 'The doors the card opens (their ids): at least one (`required`), each once (`duplicate`).' }) doorIds!: number[];
  @Bounded('cardNo') @Field(() => String, { nullable: true, description: 'The card number (digits) as the reader sends it.' }) cardNo?: string | null;
  @Bounded('pin') @Field(() => String, { nullable: true, description: 'The terminal user id; generated (8 digits) when absent.' }) pin?: string | null;
}
