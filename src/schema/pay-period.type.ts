import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';

@ObjectType('PayPeriod', { description: "A company's pay period; once locked by an admin its attendance days never change." })
export class PayPeriodType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field({ description: '`YYYY-MM-DD`, inclusive.' }) startDate!: string;
  @Field({ description: '`YYYY-MM-DD`, inclusive.' }) endDate!: string;
  @Field(() => Date, { nullable: true, description: 'When an admin locked it; null while open.' }) lockedAt?: Date | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('PayPeriodConnection')
export class PayPeriodConnection extends Connection(PayPeriodType) {}

@ArgsType()
export class PayPeriodListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) companyId?: number;
}

@InputType()
export class UpdatePayPeriodInput {
  @Field({ nullable: true }) startDate?: string;
  @Field({ nullable: true }) endDate?: string;
}

@InputType()
export class CreatePayPeriodInput {
  @Field(() => Int) companyId!: number;
  @Field() startDate!: string;
  @Field() endDate!: string;
}
