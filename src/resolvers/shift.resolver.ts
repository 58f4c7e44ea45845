import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as shifts from '../services/attendance/shift.service';
import { pageRequest, toConnection } from '../schema/connection';
import { CreateShiftInput, ShiftConnection, ShiftListArgs, ShiftType, UpdateShiftInput } from '../schema/shift.type';

@Resolver(() => ShiftType)
export class ShiftResolver {
  @Authorized('read')
  @Query(() => ShiftType)
  shift(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return shifts.getShift(ctx, id);
  }

  @Authorized('read')
  @Query(() => ShiftConnection)
  async shifts(@Ctx() ctx: RequestContext, @Args() args: ShiftListArgs) {
    return toConnection(await shifts.listShifts(ctx, { companyId: args.companyId }, pageRequest(args)));
  }

  @Authorized('write')
  @Mutation(() => ShiftType)
  createShift(@Ctx() ctx: RequestContext, @Arg('input') input: CreateShiftInput) {
    return shifts.createShift(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => ShiftType)
  updateShift(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number, @Arg('input') input: UpdateShiftInput) {
    return shifts.updateShift(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => ShiftType)
  deleteShift(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return shifts.deleteShift(ctx, id);
  }
}
