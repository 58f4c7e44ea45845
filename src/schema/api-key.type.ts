import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Bounded, maxChars } from './bounds';

const SCOPES_DESCRIPTION =
  "Scopes: `read`, `write` (attendance and the directory, people on attendance terminals; includes read), `admin` (everything in the workspace, keys included), `doors:unlock` (door actions, lockdowns, and rules that open, hold open, evacuate or lock down unattended), `doors:manage` (who may pass doors: access levels, schedules and their members, people on access controllers; includes read), `approve` (deciding absence requests, punch corrections and overtime approvals; includes read), `scim` (alone, with `companyId`: a directory's SCIM token, reaching `/scim/v2` of that company and nothing else).";

@ObjectType('ApiKey', { description: 'A key a program uses to call the API: its scopes bound what it may do; the secret itself is shown once, on creation.' })
export class ApiKeyType {
  @Field(() => Int, { description: "The API key's id, given by the service when it was created and never reused." }) id!: number;
  @Field({ description: "The API key's name, as the console and reports show it." }) name!: string;
  @Field({ description: 'The public beginning of the key, e.g. `tg_live_AbC1`.' }) prefix!: string;
  @Field({ description: 'The last four characters of the key.' }) last4!: string;
  @Field(() => [String], { description: SCOPES_DESCRIPTION }) scopes!: string[];
  @Field(() => Int, { nullable: true, description: 'The company a `scim` key provisions; null for other keys.' }) companyId?: number | null;
  @Field({ description: 'When the API key was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field(() => Date, {
    nullable: true,
    description: 'When the key was revoked (an ISO 8601 date-time in UTC); null while it works. A revoked key is refused with `unauthenticated`.',
  })
  revokedAt?: Date | null;
  @Field(() => String, { nullable: true, description: 'The secret key: present only in the response that created it.' })
  key?: string | null;
}

@InputType({ description: 'The fields of a new API key.' })
export class CreateApiKeyInput {
  @Field(() => Int, { nullable: true, description: 'Required for the operator key; a workspace key creates keys of its own workspace.' })
  workspaceId?: number;
  @Bounded('apiKeyName')
  @Field({ nullable: true, description: `The API key's name: not blank, ${maxChars('apiKeyName')} (\`blank\`, \`too_long\`).` })
  name?: string;
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
