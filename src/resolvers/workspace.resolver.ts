import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as workspaces from '../services/directory/workspace.service';
import { createWorkspace } from '../services/sandbox/sandbox.service';
import { CreateWorkspaceInput, CreateWorkspacePayload, UpdateWorkspaceInput, WorkspacePlanInput, WorkspaceType } from '../schema/workspace.type';

@Resolver(() => WorkspaceType)
export class WorkspaceResolver {
  @Authorized('read')
  @Query(() => WorkspaceType, { description: "The caller's workspace." })
  workspace(@Ctx() ctx: RequestContext) {
    return workspaces.currentWorkspace(ctx);
  }

  @Authorized('operator')
  @Query(() => [WorkspaceType], { description: 'Every workspace (operator key only).' })
  workspaces(@Ctx() ctx: RequestContext) {
    return workspaces.listWorkspaces(ctx);
  }

  @Authorized('operator')
  @Mutation(() => CreateWorkspacePayload, {
    description:
      'Creates a workspace and its first admin key (operator key only); `sandbox: true` creates a seeded sandbox with a `tg_test_` key (docs/sandbox.md).',
  })
  async createWorkspace(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateWorkspaceInput,
  ) {
    const { workspace, issued, sandbox } = await createWorkspace(ctx, input);
    return { workspace, apiKey: { ...issued.apiKey, key: issued.key }, sandbox };
  }

  @Authorized('admin')
  @Mutation(() => WorkspaceType, {
    description:
      'Changes a workspace and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing changes.',
  })
  updateWorkspace(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateWorkspaceInput,
  ) {
    return workspaces.updateWorkspace(ctx, input);
  }

  @Authorized('operator')
  @Mutation(() => WorkspaceType, { description: "Changes a workspace's plan limits (operator key only)." })
  setWorkspacePlan(
    @Ctx() ctx: RequestContext,
    @Arg('workspaceId', () => Int, { description: 'The workspace whose plan to change, by id; none answers `not_found`.' }) workspaceId: number,
    @Arg('input', { description: 'The new limits; a limit left out stays as it is.' }) input: WorkspacePlanInput,
  ) {
    return workspaces.setWorkspacePlan(ctx, workspaceId, input);
  }
}
