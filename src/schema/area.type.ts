import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded, maxChars } from './bounds';

@ObjectType('Area', { description: 'A place in a company; its devices inherit every employee registered in it (permission 0).' })
export class AreaType {
  @Field(() => Int, { description: "The area's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this area.' }) companyId!: number;
  @Field({ description: "The area's name, as the console and reports show it." }) name!: string;
  @Field({ description: 'Unique in the company.' }) code!: string;
  @Field({ description: 'When the area was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the area was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('AreaConnection', {
  description: 'A page of areas: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class AreaConnection extends Connection(AreaType) {}

@ArgsType()
export class AreasArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the areas of this company (its id).' }) companyId?: number;
}

@InputType({ description: 'The fields of a new area.' })
export class CreateAreaInput {
  @Field(() => Int, { description: "The company, by id; an id that is not one of this workspace's is refused (`not_found`)." }) companyId!: number;
  @Bounded('areaName') @Field({ description: `The area's name: not blank, ${maxChars('areaName')} (\`blank\`, \`too_long\`).` }) name!: string;
  @Bounded('areaCode')
  @Field({
    description: `The area's code (payroll's or HR's short key for it): ${maxChars('areaCode')} (\`too_long\`); unique in its scope (\`already_taken\`).`,
  })
  code!: string;
}

@InputType({ description: 'Only the fields given change. `companyId` can change only while the area has no members.' })
export class UpdateAreaInput {
  @Field(() => Int, { nullable: true, description: "The company, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  companyId?: number;
  @Bounded('areaName')
  @Field({ nullable: true, description: `The area's name: not blank, ${maxChars('areaName')} (\`blank\`, \`too_long\`). Left out: unchanged.` })
  name?: string;
  @Bounded('areaCode')
  @Field({
    nullable: true,
    description: `The area's code (payroll's or HR's short key for it): ${maxChars('areaCode')} (\`too_long\`); unique in its scope (\`already_taken\`). Left out: unchanged.`,
  })
  code?: string;
}

@InputType({ description: 'An employee named in a bulk request.' })
export class EmployeeRefInput {
  @Field(() => Int, { description: "The employee, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  employeeId!: number;
}

@InputType({ description: 'A device named in a bulk request.' })
export class DeviceRefInput {
  @Field(() => Int, { description: "The terminal (device), by id; an id that is not one of this workspace's is refused (`not_found`)." })
  deviceId!: number;
}
