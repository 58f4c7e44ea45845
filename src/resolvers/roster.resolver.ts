import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as rosters from '../services/attendance/roster.service';
import { pageRequest, toConnection } from '../schema/connection';
import { CreateRosterInput, RosterConnection, RosterListArgs, RosterType, UpdateRosterInput } from '../schema/roster.type';

@Resolver(() => RosterType)
export class RosterResolver {
  @Authorized('read')
  @Query(() => RosterType)
  roster(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return rosters.getRoster(ctx, id);
  }

  @Authorized('read')
  @Query(() => RosterConnection)
  async rosters(@Ctx() ctx: RequestContext, @Args() args: RosterListArgs) {
    return toConnection(await rosters.listRosters(ctx, { companyId: args.companyId }, pageRequest(args)));
  }

  @Authorized('write')
  @Mutation(() => RosterType)
  createRoster(@Ctx() ctx: RequestContext, @Arg('input') input: CreateRosterInput) {
    return rosters.createRoster(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => RosterType)
  updateRoster(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number, @Arg('input') input: UpdateRosterInput) {
    return rosters.updateRoster(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => RosterType)
  deleteRoster(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return rosters.deleteRoster(ctx, id);
  }
}
