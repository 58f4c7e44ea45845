import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Bounded } from './bounds';

@ObjectType('VisitorPassUse', { description: 'A verification of the pass at one of its doors (a door event of its pin), granted or refused.' })
export class VisitorPassUseType {
  @Field(() => Int) id!: number;
  @Field(() => Int, { nullable: true }) deviceId?: number | null;
  @Field(() => Int, { nullable: true, description: 'The door number on its controller.' }) door?: number | null;
  @Field(() => Int, { description: 'The rtlog event code (0 opened, 29 outside the validity window, …).' }) eventCode!: number;
  @Field() eventClass!: string;
  @Field() opened!: boolean;
  @Field() time!: Date;
  @Field() localTime!: string;
}

@ObjectType('VisitorPass', {
  description: "A visitor's time-limited access to doors: a user row on each controller of its doors that the controller refuses outside the window.",
})
export class VisitorPassType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field() name!: string;
  @Field(() => Int, { nullable: true }) hostEmployeeId?: number | null;
  @Field() validFrom!: Date;
  @Field() validUntil!: Date;
  @Field(() => [Int]) doorIds!: number[];
  @Field(() => String, { nullable: true }) cardNo?: string | null;
  @Field({ description: 'The terminal user id of the visitor (generated when none was given).' }) pin!: string;
  @Field({ description: '`scheduled`, `active` or `ended` (past its end, or revoked).' }) status!: string;
  @Field(() => Date, { nullable: true }) revokedAt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'When its rows were queued for deletion from the controllers.' }) removedAt?: Date | null;
  @Field() createdAt!: Date;
  @Field(() => [VisitorPassUseType], { nullable: true, description: 'Its door events (visitorPass(id) only), oldest first, at most 500.' }) uses?:
    VisitorPassUseType[] | null;
}

@InputType()
export class CreateVisitorPassInput {
  @Field(() => Int) companyId!: number;
  @Bounded('accessName') @Field() name!: string;
  @Field(() => Int) hostEmployeeId!: number;
  @Field() validFrom!: Date;
  @Field() validUntil!: Date;
  @Field(() => [Int]) doorIds!: number[];
  @Bounded('cardNo') @Field(() => String, { nullable: true, description: 'The card number (digits) as the reader sends it.' }) cardNo?: string | null;
  @Bounded('pin') @Field(() => String, { nullable: true, description: 'The terminal user id; generated (8 digits) when absent.' }) pin?: string | null;
}
