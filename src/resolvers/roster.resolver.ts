import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as rosters from '../services/attendance/roster.service';
import { pageRequest, toConnection } from '../schema/connection';
import { CreateRosterInput, RosterConnection, RosterListArgs, RosterType, UpdateRosterInput } from '../schema/roster.type';

@Resolver(() => RosterType)
export class RosterResolver {
  @Authorized('read')
  @Query(() => RosterType, { description: 'The roster with this id; one of another workspace, or none, answers `not_found`.' })
  roster(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The roster's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return rosters.getRoster(ctx, id);
  }

  @Authorized('read')
  @Query(() => RosterConnection, { description: "The workspace's rosters, a page at a time (`first`, `after`)." })
  async rosters(@Ctx() ctx: RequestContext, @Args() args: RosterListArgs) {
    return toConnection(await rosters.listRosters(ctx, { companyId: args.companyId }, pageRequest(args)));
  }

  @Authorized('write')
  @Mutation(() => RosterType, {
    description:
      'Creates a roster and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing is stored.',
  })
  createRoster(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateRosterInput,
  ) {
    return rosters.createRoster(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => RosterType, {
    description:
      'Changes a roster and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing changes.',
  })
  updateRoster(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The roster's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateRosterInput,
  ) {
    return rosters.updateRoster(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => RosterType, {
    description: 'Deletes a roster and returns it as it was last stored; one a shift assignment still names is refused with `resource_in_use`.',
  })
  deleteRoster(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The roster's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return rosters.deleteRoster(ctx, id);
  }
}
