import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('Employee', { description: 'A person who uses terminals.' })
export class EmployeeType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field({ description: 'First name, shown on the terminal.' }) name!: string;
  @Field({ description: 'Last name, shown on the terminal.' }) lastname!: string;
  @Field({ description: 'Unique in the workspace.' }) code!: string;
  @Field(() => String, { nullable: true, description: 'The number the terminal knows the person by; unique per company.' })
  pin?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field() isActive!: boolean;
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, the first day of employment; days before it are `not_employed`. Null: open.' })
  employmentStartDate!: string | null;
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, the last day of employment (inclusive); days after it are `not_employed`. Null: open.' })
  employmentEndDate!: string | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
  // A plain field rather than a field resolver: every resolver returns employees with their area
  // ids (employeeViews), and a resolved field costs a resolve-info object and type-graphql's
  // argument handling for each node of a list.
  @Field(() => [Int], { description: 'The areas the employee is registered in.' }) areaIds!: number[];
}

@ObjectType('EmployeeConnection')
export class EmployeeConnection extends Connection(EmployeeType) {}

@ArgsType()
export class EmployeesArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) companyId?: number;
  @Field({ nullable: true }) isActive?: boolean;
  @Bounded('search') @Field({ nullable: true, description: 'Case-insensitive text found in name, last name, code, pin or e-mail.' }) search?: string;
  @Field(() => [Int], {
    nullable: true,
    description:
      'Only the employees with these ids (at most 1000; ids of other workspaces or deleted employees match nothing): names for the employee ids another list returns, at any size of the workspace.',
  })
  ids?: number[];
}

@InputType()
export class CreateEmployeeInput {
  @Field(() => Int) companyId!: number;
  @Bounded('personName') @Field() name!: string;
  @Bounded('personName') @Field() lastname!: string;
  @Bounded('employeeCode') @Field() code!: string;
  @Bounded('pin') @Field(() => String, { nullable: true, description: 'Letters and digits, at most 23.' }) pin?: string | null;
  @Bounded('email') @Field(() => String, { nullable: true }) email?: string | null;
  @Field({ nullable: true, description: 'Default true.' }) isActive?: boolean;
  @Bounded('date') @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`; null: open.' }) employmentStartDate?: string | null;
  @Bounded('date') @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, inclusive; null: open.' }) employmentEndDate?: string | null;
}

@InputType({ description: 'Only the fields given change; `null` clears `pin` or `email`.' })
export class UpdateEmployeeInput {
  @Field(() => Int, { nullable: true }) companyId?: number;
  @Bounded('personName') @Field({ nullable: true }) name?: string;
  @Bounded('personName') @Field({ nullable: true }) lastname?: string;
  @Bounded('employeeCode') @Field({ nullable: true }) code?: string;
  @Bounded('pin') @Field(() => String, { nullable: true }) pin?: string | null;
  @Bounded('email') @Field(() => String, { nullable: true }) email?: string | null;
  @Field({ nullable: true }) isActive?: boolean;
  @Bounded('date') @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`; null clears it.' }) employmentStartDate?: string | null;
  @Bounded('date') @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, inclusive; null clears it.' }) employmentEndDate?: string | null;
}
