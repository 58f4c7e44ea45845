import { PayPolicyInput, PayPolicyType } from './pay-policy.type';
import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection } from './connection';
import { Bounded } from './bounds';

@ObjectType('CompanySettings', { description: "A company's self-service settings (docs/self-service.md)." })
export class CompanySettingsType {
  @Field({ description: "Employees may punch from their phones inside the company's geofences (default false)." }) mobilePunch!: boolean;
  @Field(() => Int, { description: 'A phone punch whose position is less accurate than this many metres is refused with `location_inaccurate` (default 100).' })
  mobilePunchAccuracyM!: number;
  @Field({ description: "Employees made approvers of areas decide those areas' requests in the self-service app (default false)." }) managerApprovals!: boolean;
}

@InputType({ description: 'A change of self-service settings: a field left out keeps its value.' })
export class CompanySettingsInput {
  @Field(() => Boolean, { nullable: true, description: "Employees may punch from their phones inside the company's geofences." }) mobilePunch?: boolean | null;
  @Field(() => Int, { nullable: true, description: 'The worst accuracy, in metres (5 to 5,000), a phone punch may have.' }) mobilePunchAccuracyM?:
    number | null;
  @Field(() => Boolean, { nullable: true, description: "Employees made approvers of areas decide their reports' requests in the self-service app." })
  managerApprovals?: boolean | null;
}

@ObjectType('Company', { description: 'The enterprise that owns devices, employees and areas.' })
export class CompanyType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field({ description: 'Unique in the workspace.' }) code!: string;
  @Field(() => PayPolicyType, { description: 'The overtime and premium policy, defaults filled in.' }) payPolicy!: PayPolicyType;
  @Field(() => CompanySettingsType, { description: 'Self-service: punching from phones and manager approvals.' }) settings!: CompanySettingsType;
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
  @Field(() => CompanySettingsInput, { nullable: true, description: 'Self-service settings (all off by default).' }) settings?: CompanySettingsInput;
}

@InputType()
export class UpdateCompanyInput {
  @Bounded('companyName') @Field({ nullable: true }) name?: string;
  @Bounded('companyCode') @Field({ nullable: true }) code?: string;
  @Field(() => PayPolicyInput, { nullable: true, description: 'A field left out keeps its value; null resets it to the default.' }) payPolicy?: PayPolicyInput;
  @Field(() => CompanySettingsInput, { nullable: true, description: 'A field left out keeps its value.' }) settings?: CompanySettingsInput;
}
