import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as passes from '../services/access/visitor-pass.service';
import { CreateVisitorPassInput, VisitorPassType } from '../schema/visitor-pass.type';

@Resolver(() => VisitorPassType)
export class VisitorPassResolver {
  @Authorized('read')
  @Query(() => [VisitorPassType], { description: "Visitor passes (a company's, or the workspace's), newest first, at most 1,000." })
  visitorPasses(
    @Ctx() ctx: RequestContext,
    @Arg('companyId', () => Int, { nullable: true, description: "The company's id; one of another workspace, or none, answers `not_found`." })
    companyId?: number,
  ) {
    return passes.listVisitorPasses(ctx, companyId);
  }

  @Authorized('read')
  @Query(() => VisitorPassType, { description: 'A visitor pass with its uses.' })
  visitorPass(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The visitor pass's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return passes.getVisitorPass(ctx, id);
  }

  @Authorized('doors:manage')
  @Mutation(() => VisitorPassType, { description: 'Creates a visitor pass and queues its rows on the controllers of its doors.' })
  createVisitorPass(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateVisitorPassInput,
  ) {
    return passes.createVisitorPass(ctx, input);
  }

  @Authorized('doors:manage')
  @Mutation(() => VisitorPassType, { description: 'Ends a visitor pass now: its rows are deleted from its controllers.' })
  revokeVisitorPass(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The visitor pass's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return passes.revokeVisitorPass(ctx, id);
  }
}
