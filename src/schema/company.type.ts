import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection } from './connection';

@ObjectType('Company', { description: 'The enterprise that owns devices, employees and areas.' })
export class CompanyType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field({ description: 'Unique in the workspace.' }) code!: string;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('CompanyConnection')
export class CompanyConnection extends Connection(CompanyType) {}

@InputType()
export class CreateCompanyInput {
  @Field() name!: string;
  @Field() code!: string;
}

@InputType()
export class UpdateCompanyInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) code?: string;
}
