import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded, maxChars } from './bounds';

@ObjectType('Employee', { description: 'A person who uses terminals.' })
export class EmployeeType {
  @Field(() => Int, { description: "The employee's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this employee.' }) companyId!: number;
  @Field({ description: 'First name, shown on the terminal.' }) name!: string;
  @Field({ description: 'Last name, shown on the terminal.' }) lastname!: string;
  @Field({ description: 'Unique in the workspace.' }) code!: string;
  @Field(() => String, { nullable: true, description: 'The number the terminal knows the person by; unique per company.' })
  pin?: string | null;
  @Field(() => String, { nullable: true, description: "The employee's e-mail address; null when none." }) email?: string | null;
  @Field({ description: 'Whether the employee is active: an inactive one is sent to no terminal (a SCIM `active: false` makes them inactive).' })
  isActive!: boolean;
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, the first day of employment; days before it are `not_employed`. Null: open.' })
  employmentStartDate!: string | null;
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, the last day of employment (inclusive); days after it are `not_employed`. Null: open.' })
  employmentEndDate!: string | null;
  @Field({ description: 'When the employee was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the employee was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
  // A plain field rather than a field resolver: every resolver returns employees with their area
  // ids (employeeViews), and a resolved field costs a resolve-info object and type-graphql's
  // argument handling for each node of a list.
  @Field(() => [Int], { description: 'The areas the employee is registered in.' }) areaIds!: number[];
}

@ObjectType('EmployeeConnection', {
  description:
    'A page of employees: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class EmployeeConnection extends Connection(EmployeeType) {}

@ArgsType()
export class EmployeesArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the employees of this company (its id).' }) companyId?: number;
  @Field({ nullable: true, description: 'Only active employees (true) or only inactive ones (false).' }) isActive?: boolean;
  @Bounded('search') @Field({ nullable: true, description: 'Case-insensitive text found in name, last name, code, pin or e-mail.' }) search?: string;
  @Field(() => [Int], {
    nullable: true,
    description:
      'Only the employees with these ids (at most 1000; ids of other workspaces or deleted employees match nothing): names for the employee ids another list returns, at any size of the workspace.',
  })
  ids?: number[];
}

@InputType({ description: 'The fields of a new employee.' })
export class CreateEmployeeInput {
  @Field(() => Int, { description: "The company, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  companyId!: number;
  @Bounded('personName') @Field({ description: `The employee's name: not blank, ${maxChars('personName')} (\`blank\`, \`too_long\`).` }) name!: string;
  @Bounded('personName') @Field({ description: `The employee's last name: ${maxChars('personName')} (\`too_long\`).` }) lastname!: string;
  @Bounded('employeeCode')
  @Field({
    description: `The employee's code (payroll's or HR's short key for it): ${maxChars('employeeCode')} (\`too_long\`); unique in its scope (\`already_taken\`).`,
  })
  code!: string;
  @Bounded('pin') @Field(() => String, { nullable: true, description: 'Letters and digits, at most 23.' }) pin?: string | null;
  @Bounded('email')
  @Field(() => String, { nullable: true, description: `An e-mail address: ${maxChars('email')}, a valid address (\`invalid_email\`); optional.` })
  email?: string | null;
  @Field({ nullable: true, description: 'Default true.' }) isActive?: boolean;
  @Bounded('date') @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`; null: open.' }) employmentStartDate?: string | null;
  @Bounded('date') @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, inclusive; null: open.' }) employmentEndDate?: string | null;
}

@InputType({ description: 'Only the fields given change; `null` clears `pin` or `email`.' })
export class UpdateEmployeeInput {
  @Field(() => Int, { nullable: true, description: "The company, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  companyId?: number;
  @Bounded('personName')
  @Field({ nullable: true, description: `The employee's name: not blank, ${maxChars('personName')} (\`blank\`, \`too_long\`). Left out: unchanged.` })
  name?: string;
  @Bounded('personName')
  @Field({ nullable: true, description: `The employee's last name: ${maxChars('personName')} (\`too_long\`). Left out: unchanged.` })
  lastname?: string;
  @Bounded('employeeCode')
  @Field({
    nullable: true,
    description: `The employee's code (payroll's or HR's short key for it): ${maxChars('employeeCode')} (\`too_long\`); unique in its scope (\`already_taken\`). Left out: unchanged.`,
  })
  code?: string;
  @Bounded('pin')
  @Field(() => String, {
    nullable: true,
    description: `The employee's PIN, their user id on terminals: 1 to 23 letters and digits (${maxChars('pin')}; \`invalid_pin\`), unique in the company (\`already_taken\`). Left out: unchanged.`,
  })
  pin?: string | null;
  @Bounded('email')
  @Field(() => String, {
    nullable: true,
    description: `An e-mail address: ${maxChars('email')}, a valid address (\`invalid_email\`); null clears it. Left out: unchanged.`,
  })
  email?: string | null;
  @Field({ nullable: true, description: 'false takes the employee off every terminal; true sends them again. Left out: unchanged.' }) isActive?: boolean;
  @Bounded('date') @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`; null clears it.' }) employmentStartDate?: string | null;
  @Bounded('date') @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, inclusive; null clears it.' }) employmentEndDate?: string | null;
}
