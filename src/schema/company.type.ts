import { PayPolicyInput, PayPolicyType } from './pay-policy.type';
import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection } from './connection';
import { Bounded, maxChars } from './bounds';

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
  @Field(() => Int, { description: "The company's id, given by the service when it was created and never reused." }) id!: number;
  @Field({ description: "The company's name, as the console and reports show it." }) name!: string;
  @Field({ description: 'Unique in the workspace.' }) code!: string;
  @Field(() => PayPolicyType, { description: 'The overtime and premium policy, defaults filled in.' }) payPolicy!: PayPolicyType;
  @Field(() => CompanySettingsType, { description: 'Self-service: punching from phones and manager approvals.' }) settings!: CompanySettingsType;
  @Field({ description: 'When the company was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the company was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('CompanyConnection', {
  description:
    'A page of companies: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class CompanyConnection extends Connection(CompanyType) {}

@InputType({ description: 'The fields of a new company.' })
export class CreateCompanyInput {
  @Bounded('companyName') @Field({ description: `The company's name: not blank, ${maxChars('companyName')} (\`blank\`, \`too_long\`).` }) name!: string;
  @Bounded('companyCode')
  @Field({
    description: `The company's code (payroll's or HR's short key for it): ${maxChars('companyCode')} (\`too_long\`); unique in its scope (\`already_taken\`).`,
  })
  code!: string;
  @Field(() => PayPolicyInput, {
    nullable: true,
    description: "How the company's worked minutes become pay items (overtime thresholds, night work); the defaults when left out.",
  })
  payPolicy?: PayPolicyInput;
  @Field(() => CompanySettingsInput, { nullable: true, description: 'Self-service settings (all off by default).' }) settings?: CompanySettingsInput;
}

@InputType({ description: "The new values of a company's fields; a field left out (where it may be) keeps its value." })
export class UpdateCompanyInput {
  @Bounded('companyName')
  @Field({ nullable: true, description: `The company's name: not blank, ${maxChars('companyName')} (\`blank\`, \`too_long\`). Left out: unchanged.` })
  name?: string;
  @Bounded('companyCode')
  @Field({
    nullable: true,
    description: `The company's code (payroll's or HR's short key for it): ${maxChars('companyCode')} (\`too_long\`); unique in its scope (\`already_taken\`). Left out: unchanged.`,
  })
  code?: string;
  @Field(() => PayPolicyInput, { nullable: true, description: 'A field left out keeps its value; null resets it to the default.' }) payPolicy?: PayPolicyInput;
  @Field(() => CompanySettingsInput, { nullable: true, description: 'A field left out keeps its value.' }) settings?: CompanySettingsInput;
}
