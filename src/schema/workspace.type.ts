import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { ApiKeyType } from './api-key.type';
import { Bounded } from './bounds';

@ObjectType('Workspace', { description: 'The tenant: every resource belongs to exactly one workspace.' })
export class WorkspaceType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field({ description: 'IANA time zone; bare dates are read in it and new devices default to it.' }) timeZone!: string;
  @Field(() => Int, { description: 'Plan limit: companies in this workspace.' }) maxCompanies!: number;
  @Field(() => Int, { description: 'Plan limit: devices in this workspace.' }) maxDevices!: number;
  @Field(() => Int, { description: 'Plan limit: employees in this workspace.' }) maxEmployees!: number;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType()
export class CreateWorkspacePayload {
  @Field(() => WorkspaceType) workspace!: WorkspaceType;
  @Field(() => ApiKeyType, { description: 'An admin key of the new workspace; its `key` is shown only here.' }) apiKey!: ApiKeyType;
}

@InputType()
export class CreateWorkspaceInput {
  @Bounded('workspaceName') @Field() name!: string;
  @Bounded('timeZone') @Field({ nullable: true, description: 'IANA time zone (default UTC).' }) timeZone?: string;
}

@InputType()
export class UpdateWorkspaceInput {
  @Bounded('workspaceName') @Field({ nullable: true }) name?: string;
  @Bounded('timeZone') @Field({ nullable: true }) timeZone?: string;
}

@InputType()
export class WorkspacePlanInput {
  @Field(() => Int, { nullable: true }) maxCompanies?: number;
  @Field(() => Int, { nullable: true }) maxDevices?: number;
  @Field(() => Int, { nullable: true }) maxEmployees?: number;
}
