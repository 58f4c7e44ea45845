import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('Area', { description: 'A place in a company; its devices inherit every employee registered in it (permission 0).' })
export class AreaType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field() name!: string;
  @Field({ description: 'Unique in the company.' }) code!: string;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('AreaConnection')
export class AreaConnection extends Connection(AreaType) {}

@ArgsType()
export class AreasArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) companyId?: number;
}

@InputType()
export class CreateAreaInput {
  @Field(() => Int) companyId!: number;
  @Bounded('areaName') @Field() name!: string;
  @Bounded('areaCode') @Field() code!: string;
}

@InputType({ description: 'Only the fields given change. `companyId` can change only while the area has no members.' })
export class UpdateAreaInput {
  @Field(() => Int, { nullable: true }) companyId?: number;
  @Bounded('areaName') @Field({ nullable: true }) name?: string;
  @Bounded('areaCode') @Field({ nullable: true }) code?: string;
}

@InputType({ description: 'An employee named in a bulk request.' })
export class EmployeeRefInput {
  @Field(() => Int) employeeId!: number;
}

@InputType({ description: 'A device named in a bulk request.' })
export class DeviceRefInput {
  @Field(() => Int) deviceId!: number;
}
