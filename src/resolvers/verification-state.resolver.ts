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
  @Query(() => VerificationStateType)
  verificationState(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return states.getVerificationState(ctx, id);
  }

  @Authorized('read')
  @Query(() => VerificationStateConnection)
  async verificationStates(@Ctx() ctx: RequestContext, @Args() args: ConnectionArgs) {
    return toConnection(await states.listVerificationStates(ctx, pageRequest(args)));
  }

  @Authorized('write')
  @Mutation(() => VerificationStateType)
  createVerificationState(@Ctx() ctx: RequestContext, @Arg('input') input: CreateVerificationStateInput) {
    return states.createVerificationState(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => VerificationStateType)
  updateVerificationState(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number, @Arg('input') input: UpdateVerificationStateInput) {
    return states.updateVerificationState(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => VerificationStateType)
  deleteVerificationState(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return states.deleteVerificationState(ctx, id);
  }
}
