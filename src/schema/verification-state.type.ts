import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection } from './connection';
import { Bounded } from './bounds';

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
  @Bounded('stateName') @Field() name!: string;
  @Bounded('punchState') @Field() value!: string;
}

@InputType()
export class UpdateVerificationStateInput {
  @Bounded('stateName') @Field({ nullable: true }) name?: string;
  @Bounded('punchState') @Field({ nullable: true }) value?: string;
}
