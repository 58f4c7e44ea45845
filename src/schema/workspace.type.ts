import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { ApiKeyType } from './api-key.type';
import { Bounded } from './bounds';
import { SandboxSeedType } from './sandbox.type';

@ObjectType('Workspace', { description: 'The tenant: every resource belongs to exactly one workspace.' })
export class WorkspaceType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field({ description: 'IANA time zone; bare dates are read in it and new devices default to it.' }) timeZone!: string;
  @Field(() => Int, { description: 'Plan limit: companies in this workspace.' }) maxCompanies!: number;
  @Field(() => Int, { description: 'Plan limit: devices in this workspace.' }) maxDevices!: number;
  @Field(() => Int, { description: 'Plan limit: employees in this workspace.' }) maxEmployees!: number;
  @Field({ description: 'A sandbox (docs/sandbox.md): `tg_test_` keys, virtual terminals only, data that can be reset. Set at creation, never changed.' })
  sandbox!: boolean;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType()
export class CreateWorkspacePayload {
  @Field(() => WorkspaceType) workspace!: WorkspaceType;
  @Field(() => ApiKeyType, { description: 'An admin key of the new workspace (`tg_test_…` for a sandbox); its `key` is shown only here.' }) apiKey!: ApiKeyType;
  @Field(() => SandboxSeedType, {
    nullable: true,
    description: "What a sandbox was created with (its company, employees and virtual terminals' ids); null for a live workspace.",
  })
  sandbox?: SandboxSeedType | null;
}

@InputType()
export class CreateWorkspaceInput {
  @Bounded('workspaceName')
  @Field({ nullable: true, description: 'Up to 200 characters; required for a live workspace, "Sandbox" by default for a sandbox.' })
  name?: string;
  @Field({
    nullable: true,
    description:
      'true: a sandbox workspace (docs/sandbox.md), seeded with a company, four employees, a virtual clock and a virtual controller, on the sandbox plan, with `tg_test_` keys. Default false.',
  })
  sandbox?: boolean;
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
