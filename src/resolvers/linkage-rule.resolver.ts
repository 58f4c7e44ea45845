import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as linkage from '../services/access/linkage.service';
import { pageRequest, toConnection } from '../schema/connection';
import { CreateLinkageRuleInput, LinkageRuleConnection, LinkageRulesArgs, LinkageRuleType } from '../schema/linkage-rule.type';

@Resolver(() => LinkageRuleType)
export class LinkageRuleResolver {
  @Authorized('read')
  @Query(() => LinkageRuleType)
  linkageRule(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return linkage.getLinkageRule(ctx, id);
  }

  @Authorized('read')
  @Query(() => LinkageRuleConnection, { description: 'Linkage rules, oldest first.' })
  async linkageRules(@Ctx() ctx: RequestContext, @Args() { first, after, ...filter }: LinkageRulesArgs) {
    return toConnection(await linkage.listLinkageRules(ctx, filter, pageRequest({ first, after })));
  }

  @Authorized('doors:manage')
  @Mutation(() => LinkageRuleType)
  createLinkageRule(@Ctx() ctx: RequestContext, @Arg('input') input: CreateLinkageRuleInput) {
    return linkage.createLinkageRule(ctx, input);
  }

  @Authorized('doors:manage')
  @Mutation(() => LinkageRuleType)
  deleteLinkageRule(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return linkage.deleteLinkageRule(ctx, id);
  }
}
