import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as states from '../services/attendance/verification-state.service';
import { ConnectionArgs, pageRequest, toConnection } from '../schema/connection';
import {
  CreateVerificationStateInput,
  UpdateVerificationStateInput,
  VerificationStateConnection,
  VerificationStateType,
} from '../schema/verification-state.type';

@Resolver(() => VerificationStateType)
export class VerificationStateResolver {
  @Authorized('read')
  @Query(() => VerificationStateType, { description: 'The verification state with this id; one of another workspace, or none, answers `not_found`.' })
  verificationState(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The verification state's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return states.getVerificationState(ctx, id);
  }

  @Authorized('read')
  @Query(() => VerificationStateConnection, { description: "The workspace's verification states, a page at a time (`first`, `after`)." })
  async verificationStates(@Ctx() ctx: RequestContext, @Args() args: ConnectionArgs) {
    return toConnection(await states.listVerificationStates(ctx, pageRequest(args)));
  }

  @Authorized('write')
  @Mutation(() => VerificationStateType, {
    description:
      'Creates a verification state and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing is stored.',
  })
  createVerificationState(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateVerificationStateInput,
  ) {
    return states.createVerificationState(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => VerificationStateType, {
    description:
      'Changes a verification state and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing changes.',
  })
  updateVerificationState(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The verification state's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateVerificationStateInput,
  ) {
    return states.updateVerificationState(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => VerificationStateType, { description: 'Deletes a verification state and returns it as it was last stored.' })
  deleteVerificationState(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The verification state's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return states.deleteVerificationState(ctx, id);
  }
}
