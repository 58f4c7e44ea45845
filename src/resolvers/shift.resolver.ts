import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as shifts from '../services/attendance/shift.service';
import { pageRequest, toConnection } from '../schema/connection';
import { CreateShiftInput, ShiftConnection, ShiftListArgs, ShiftType, UpdateShiftInput } from '../schema/shift.type';

@Resolver(() => ShiftType)
export class ShiftResolver {
  @Authorized('read')
  @Query(() => ShiftType, { description: 'The shift with this id; one of another workspace, or none, answers `not_found`.' })
  shift(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The shift's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return shifts.getShift(ctx, id);
  }

  @Authorized('read')
  @Query(() => ShiftConnection, { description: "The workspace's shifts, a page at a time (`first`, `after`)." })
  async shifts(@Ctx() ctx: RequestContext, @Args() args: ShiftListArgs) {
    return toConnection(await shifts.listShifts(ctx, { companyId: args.companyId }, pageRequest(args)));
  }

  @Authorized('write')
  @Mutation(() => ShiftType, {
    description:
      'Creates a shift and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing is stored.',
  })
  createShift(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateShiftInput,
  ) {
    return shifts.createShift(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => ShiftType, {
    description:
      'Changes a shift and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing changes.',
  })
  updateShift(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The shift's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateShiftInput,
  ) {
    return shifts.updateShift(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => ShiftType, {
    description:
      'Deletes a shift and returns it as it was last stored; one an assignment, a roster or an override still uses is refused with `resource_in_use`.',
  })
  deleteShift(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The shift's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return shifts.deleteShift(ctx, id);
  }
}
