import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as lockdowns from '../services/access/lockdown.service';
import { pageRequest, toConnection } from '../schema/connection';
import { CreateLockdownInput, LockdownConnection, LockdownsArgs, LockdownType } from '../schema/lockdown.type';

@Resolver(() => LockdownType)
export class LockdownResolver {
  @Authorized('read')
  @Query(() => LockdownType, { description: 'A lockdown with the state of each of its doors.' })
  lockdown(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The lockdown's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return lockdowns.getLockdown(ctx, id);
  }

  @Authorized('read')
  @Query(() => LockdownConnection, { description: 'Lockdowns and evacuations, newest first.' })
  async lockdowns(@Ctx() ctx: RequestContext, @Args() { first, after, ...filter }: LockdownsArgs) {
    return toConnection(await lockdowns.listLockdowns(ctx, filter, pageRequest({ first, after })));
  }

  @Authorized('doors:unlock')
  @Mutation(() => LockdownType, {
    description: 'Locks down (or evacuates) every door of the scope; returns at once with each door `pending`, then follow lockdownUpdated or lockdown(id).',
  })
  createLockdown(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateLockdownInput,
  ) {
    return lockdowns.createLockdown(ctx, input);
  }

  @Authorized('doors:unlock')
  @Mutation(() => LockdownType, {
    description: 'Releases a lockdown: each door gets the opposite command (`releasing`, then `released`). Releasing a released lockdown changes nothing.',
  })
  releaseLockdown(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The lockdown's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return lockdowns.releaseLockdown(ctx, id);
  }
}
