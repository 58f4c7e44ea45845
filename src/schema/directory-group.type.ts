import { Field, ID, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';

@ObjectType('DirectoryGroup', { description: "A group of a company's directory, provisioned over SCIM (docs/identity.md)." })
export class DirectoryGroupType {
  @Field(() => ID, { description: 'The SCIM id (a UUID).' }) id!: string;
  @Field(() => Int, { description: 'The id of the company of this directory group.' }) companyId!: number;
  @Field({ description: "The group's name in the directory (SCIM `displayName`)." }) displayName!: string;
  @Field(() => String, { nullable: true, description: "The directory's own id of the group." }) externalId!: string | null;
  @Field(() => [Int], { description: 'Employee ids of its members.' }) memberIds!: number[];
  @Field(() => Int, { nullable: true, description: 'The area its members belong to while they are in the group.' }) areaId!: number | null;
  @Field(() => [Int], { description: 'The access levels its members hold while they are in the group.' }) accessLevelIds!: number[];
}

@InputType({ description: "What a directory group's members get: an area and access levels of the group's company." })
export class DirectoryGroupMappingInput {
  @Field(() => Int, { nullable: true, description: "An area of the group's company; null: none." })
  areaId?: number | null;
  @Field(() => [Int], { description: "Access levels of the group's company (the whole list; empty: none)." })
  accessLevelIds!: number[];
}
