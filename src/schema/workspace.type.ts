import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { ApiKeyType } from './api-key.type';
import { Bounded, maxChars } from './bounds';
import { SandboxSeedType } from './sandbox.type';

@ObjectType('Workspace', { description: 'The tenant: every resource belongs to exactly one workspace.' })
export class WorkspaceType {
  @Field(() => Int, { description: "The workspace's id, given by the service when it was created and never reused." }) id!: number;
  @Field({ description: "The workspace's name, as the console and reports show it." }) name!: string;
  @Field({ description: 'IANA time zone; bare dates are read in it and new devices default to it.' }) timeZone!: string;
  @Field(() => Int, { description: 'Plan limit: companies in this workspace.' }) maxCompanies!: number;
  @Field(() => Int, { description: 'Plan limit: devices in this workspace.' }) maxDevices!: number;
  @Field(() => Int, { description: 'Plan limit: employees in this workspace.' }) maxEmployees!: number;
  @Field({ description: 'A sandbox (docs/sandbox.md): `tg_test_` keys, virtual terminals only, data that can be reset. Set at creation, never changed.' })
  sandbox!: boolean;
  @Field({ description: 'When the workspace was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the workspace was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType({ description: 'The result of createWorkspace.' })
export class CreateWorkspacePayload {
  @Field(() => WorkspaceType, { description: 'The new workspace.' }) workspace!: WorkspaceType;
  @Field(() => ApiKeyType, { description: 'An admin key of the new workspace (`tg_test_…` for a sandbox); its `key` is shown only here.' }) apiKey!: ApiKeyType;
  @Field(() => SandboxSeedType, {
    nullable: true,
    description: "What a sandbox was created with (its company, employees and virtual terminals' ids); null for a live workspace.",
  })
  sandbox?: SandboxSeedType | null;
}

@InputType({ description: 'The fields of a new workspace.' })
export class CreateWorkspaceInput {
  @Bounded('workspaceName')
  @Field({
    nullable: true,
    description: `The workspace's name: not blank, ${maxChars('workspaceName')} (\`blank\`, \`too_long\`); required for a live workspace, "Sandbox" by default for a sandbox.`,
  })
  name?: string;
  @Field({
    nullable: true,
    description:
      'true: a sandbox workspace (docs/sandbox.md), seeded with a company, four employees, a virtual clock and a virtual controller, on the sandbox plan, with `tg_test_` keys. Default false.',
  })
  sandbox?: boolean;
  @Bounded('timeZone') @Field({ nullable: true, description: 'IANA time zone (default UTC).' }) timeZone?: string;
}

@InputType({ description: "The new values of a workspace's fields; a field left out (where it may be) keeps its value." })
export class UpdateWorkspaceInput {
  @Bounded('workspaceName')
  @Field({ nullable: true, description: `The workspace's name: not blank, ${maxChars('workspaceName')} (\`blank\`, \`too_long\`). Left out: unchanged.` })
  name?: string;
  @Bounded('timeZone')
  @Field({
    nullable: true,
    description: `The IANA time zone of the workspace (\`Europe/Berlin\`), ${maxChars('timeZone')} (\`invalid_time_zone\`). Left out: unchanged.`,
  })
  timeZone?: string;
}

@InputType({ description: "A workspace's plan limits: a create beyond one is refused (`plan_limit_reached`); a limit left out stays as it is." })
export class WorkspacePlanInput {
  @Field(() => Int, { nullable: true, description: 'The most companies, 0 to 1,000,000 (`out_of_range` otherwise). Left out: unchanged.' })
  maxCompanies?: number;
  @Field(() => Int, { nullable: true, description: 'The most terminals, 0 to 1,000,000 (`out_of_range` otherwise). Left out: unchanged.' }) maxDevices?: number;
  @Field(() => Int, { nullable: true, description: 'The most employees, 0 to 1,000,000 (`out_of_range` otherwise). Left out: unchanged.' })
  maxEmployees?: number;
}
