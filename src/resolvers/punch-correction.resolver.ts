import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as corrections from '../services/leave/punch-correction.service';
import { pageRequest, toConnection } from '../schema/connection';
import {
  CreatePunchCorrectionInput,
  PunchCorrectionConnection,
  PunchCorrectionListArgs,
  punchCorrectionObject,
  PunchCorrectionType,
} from '../schema/absence.type';
import type { PunchCorrection } from '../entities';
import { Bounded, maxChars } from '../schema/bounds';

const correctionObject = (correction: PunchCorrection) => punchCorrectionObject(corrections.punchCorrectionData(correction));

@Resolver()
export class PunchCorrectionResolver {
  @Authorized('read')
  @Query(() => PunchCorrectionType, { description: 'The punch correction with this id; one of another workspace, or none, answers `not_found`.' })
  async punchCorrection(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The punch correction's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return correctionObject(await corrections.getPunchCorrection(ctx, id));
  }

  @Authorized('read')
  @Query(() => PunchCorrectionConnection, { description: 'Punch corrections, oldest first; filters by company, employee, state, and a date range they touch.' })
  async punchCorrections(@Ctx() ctx: RequestContext, @Args() args: PunchCorrectionListArgs) {
    const { first: _first, after: _after, ...filter } = args;
    const page = await corrections.listPunchCorrections(ctx, filter, pageRequest(args));
    return toConnection({ ...page, items: page.items.map(correctionObject) });
  }

  @Authorized('write')
  @Mutation(() => PunchCorrectionType, { description: 'Files a correction (pending): punches to add (one or several), or a punch to void.' })
  async createPunchCorrection(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreatePunchCorrectionInput,
  ) {
    return correctionObject(await corrections.createPunchCorrection(ctx, input));
  }

  @Authorized('approve')
  @Mutation(() => PunchCorrectionType, {
    description:
      'Approves a pending correction (scope `approve` or `admin`): its manual punches are created (or its punch voided) and the days recomputed at once.',
  })
  async approvePunchCorrection(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The punch correction's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('comment', () => String, {
      nullable: true,
      description: `A comment on the decision, kept with it and shown to the requester: optional, ${maxChars('comment')} (\`too_long\`).`,
    })
    @Bounded('comment')
    comment?: string | null,
  ) {
    return correctionObject(await corrections.decidePunchCorrection(ctx, id, 'approve', comment));
  }

  @Authorized('approve')
  @Mutation(() => PunchCorrectionType, { description: 'Rejects a pending correction (scope `approve` or `admin`); nothing changes.' })
  async rejectPunchCorrection(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The punch correction's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('comment', () => String, {
      nullable: true,
      description: `A comment on the decision, kept with it and shown to the requester: optional, ${maxChars('comment')} (\`too_long\`).`,
    })
    @Bounded('comment')
    comment?: string | null,
  ) {
    return correctionObject(await corrections.decidePunchCorrection(ctx, id, 'reject', comment));
  }

  @Authorized('write', 'approve')
  @Mutation(() => PunchCorrectionType, { description: 'Cancels a pending correction.' })
  async cancelPunchCorrection(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The punch correction's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('comment', () => String, {
      nullable: true,
      description: `A comment on the decision, kept with it and shown to the requester: optional, ${maxChars('comment')} (\`too_long\`).`,
    })
    @Bounded('comment')
    comment?: string | null,
  ) {
    return correctionObject(await corrections.decidePunchCorrection(ctx, id, 'cancel', comment));
  }
}
