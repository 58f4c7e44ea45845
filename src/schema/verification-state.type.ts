import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection } from './connection';

@ObjectType('VerificationState', { description: 'A name for an attendance state number the terminals send (check-in, check-out, ...).' })
export class VerificationStateType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field({ description: 'The number as a string, "0" to "255", unique in the workspace.' }) value!: string;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('VerificationStateConnection')
export class VerificationStateConnection extends Connection(VerificationStateType) {}

@InputType()
export class CreateVerificationStateInput {
  @Field() name!: string;
  @Field() value!: string;
}

@InputType()
export class UpdateVerificationStateInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) value?: string;
}
