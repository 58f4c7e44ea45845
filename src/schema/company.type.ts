import { PayPolicyInput, PayPolicyType } from './pay-policy.type';
import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection } from './connection';
import { Bounded } from './bounds';

@ObjectType('Company', { description: 'The enterprise that owns devices, employees and areas.' })
export class CompanyType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field({ description: 'Unique in the workspace.' }) code!: string;
  @Field(() => PayPolicyType, { description: 'The overtime and premium policy, defaults filled in.' }) payPolicy!: PayPolicyType;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('CompanyConnection')
export class CompanyConnection extends Connection(CompanyType) {}

@InputType()
export class CreateCompanyInput {
  @Bounded('companyName') @Field() name!: string;
  @Bounded('companyCode') @Field() code!: string;
  @Field(() => PayPolicyInput, { nullable: true }) payPolicy?: PayPolicyInput;
}

@InputType()
export class UpdateCompanyInput {
  @Bounded('companyName') @Field({ nullable: true }) name?: string;
  @Bounded('companyCode') @Field({ nullable: true }) code?: string;
  @Field(() => PayPolicyInput, { nullable: true, description: 'A field left out keeps its value; null resets it to the default.' }) payPolicy?: PayPolicyInput;
}
