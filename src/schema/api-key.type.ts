import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';

const SCOPES_DESCRIPTION =
  "Scopes: `read`, `write` (includes read), `admin` (everything in the workspace, keys included), `doors:unlock` (door actions), `doors:manage` (access levels, schedules and their members; includes read), `approve` (deciding absence requests, punch corrections and overtime approvals; includes read), `scim` (alone, with `companyId`: a directory's SCIM token, reaching `/scim/v2` of that company and nothing else).";

@ObjectType('ApiKey')
export class ApiKeyType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field({ description: 'The public beginning of the key, e.g. `tg_live_AbC1`.' }) prefix!: string;
  @Field({ description: 'The last four characters of the key.' }) last4!: string;
  @Field(() => [String], { description: SCOPES_DESCRIPTION }) scopes!: string[];
  @Field(() => Int, { nullable: true, description: 'The company a `scim` key provisions; null for other keys.' }) companyId?: number | null;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) revokedAt?: Date | null;
  @Field(() => String, { nullable: true, description: 'The secret key: present only in the response that created it.' })
  key?: string | null;
}

@InputType()
export class CreateApiKeyInput {
  @Field(() => Int, { nullable: true, description: 'Required for the operator key; a workspace key creates keys of its own workspace.' })
  workspaceId?: number;
  @Field({ nullable: true }) name?: string;
  @Field(() => [String], { description: SCOPES_DESCRIPTION }) scopes!: string[];
  @Field(() => Int, { nullable: true, description: 'Required with the `scim` scope (and only with it): the company whose people the directory provisions.' })
  companyId?: number;
}
