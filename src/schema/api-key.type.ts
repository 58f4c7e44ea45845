import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Bounded } from './bounds';

const SCOPES_DESCRIPTION =
  "Scopes: `read`, `write` (attendance and the directory, people on attendance terminals; includes read), `admin` (everything in the workspace, keys included), `doors:unlock` (door actions, lockdowns, and rules that open, hold open, evacuate or lock down unattended), `doors:manage` (who may pass doors: access levels, schedules and their members, people on access controllers; includes read), `approve` (deciding absence requests, punch corrections and overtime approvals; includes read), `scim` (alone, with `companyId`: a directory's SCIM token, reaching `/scim/v2` of that company and nothing else).";

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
  @Bounded('apiKeyName') @Field({ nullable: true }) name?: string;
  @Bounded('scope', { items: 'scopes' }) @Field(() => [String], { description: SCOPES_DESCRIPTION }) scopes!: string[];
  @Field(() => Int, { nullable: true, description: 'Required with the `scim` scope (and only with it): the company whose people the directory provisions.' })
  companyId?: number;
}

@ObjectType('ScimSync', { description: 'A directory\'s last sync over a `scim` key (docs/identity.md, "Last sync").' })
export class ScimSyncType {
  @Field(() => Date, { nullable: true, description: 'When the directory last called /scim/v2 with this key; null: never.' }) lastRequestAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'Method and path of that request, e.g. `PATCH /Users/12` (no query).' }) lastRequest!: string | null;
  @Field(() => Int, { description: 'Requests made with this key.' }) requestCount!: number;
  @Field(() => Date, { nullable: true, description: 'When a request with this key last changed something (a successful POST, PUT, PATCH or DELETE).' })
  lastChangeAt!: Date | null;
  @Field(() => Date, { nullable: true, description: 'When a request with this key was last answered with an error.' }) lastErrorAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'Method and path of that request.' }) lastErrorRequest!: string | null;
  @Field(() => Int, { nullable: true, description: 'Its HTTP status.' }) lastErrorStatus!: number | null;
  @Field(() => String, { nullable: true, description: 'The SCIM error the directory was given: its `scimType` (if any) and detail.' })
  lastError!: string | null;
  @Field(() => Int, { description: "Users of the key's company provisioned over SCIM (by any of its keys)." }) users!: number;
  @Field(() => Int, { description: 'Of them, active (not deactivated by the directory or the API).' }) activeUsers!: number;
  @Field(() => Int, { description: "Directory groups of the key's company." }) groups!: number;
}
