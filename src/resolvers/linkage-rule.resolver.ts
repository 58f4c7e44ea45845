import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as linkage from '../services/access/linkage.service';
import { pageRequest, toConnection } from '../schema/connection';
import { CreateLinkageRuleInput, LinkageRuleConnection, LinkageRulesArgs, LinkageRuleType } from '../schema/linkage-rule.type';

@Resolver(() => LinkageRuleType)
export class LinkageRuleResolver {
  @Authorized('read')
  @Query(() => LinkageRuleType, { description: 'The linkage rule with this id; one of another workspace, or none, answers `not_found`.' })
  linkageRule(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The linkage rule's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return linkage.getLinkageRule(ctx, id);
  }

  @Authorized('read')
  @Query(() => LinkageRuleConnection, { description: 'Linkage rules, oldest first.' })
  async linkageRules(@Ctx() ctx: RequestContext, @Args() { first, after, ...filter }: LinkageRulesArgs) {
    return toConnection(await linkage.listLinkageRules(ctx, filter, pageRequest({ first, after })));
  }

  @Authorized('doors:manage')
  @Mutation(() => LinkageRuleType, {
    description:
      'Creates a linkage rule and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing is stored.',
  })
  createLinkageRule(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateLinkageRuleInput,
  ) {
    return linkage.createLinkageRule(ctx, input);
  }

  @Authorized('doors:manage')
  @Mutation(() => LinkageRuleType, { description: 'Deletes a linkage rule and returns it as it was last stored.' })
  deleteLinkageRule(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The linkage rule's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return linkage.deleteLinkageRule(ctx, id);
  }
}
