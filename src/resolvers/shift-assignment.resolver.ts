import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as assignments from '../services/attendance/shift-assignment.service';
import { pageRequest, toConnection } from '../schema/connection';
import {
  CreateShiftAssignmentInput,
  ShiftAssignmentConnection,
  ShiftAssignmentListArgs,
  ShiftAssignmentType,
  UpdateShiftAssignmentInput,
} from '../schema/shift-assignment.type';
import { ShiftType } from '../schema/shift.type';
import { Bounded } from '../schema/bounds';

@Resolver(() => ShiftAssignmentType)
export class ShiftAssignmentResolver {
  @Authorized('read')
  @Query(() => ShiftAssignmentType)
  shiftAssignment(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return assignments.getShiftAssignment(ctx, id);
  }

  @Authorized('read')
  @Query(() => ShiftAssignmentConnection)
  async shiftAssignments(@Ctx() ctx: RequestContext, @Args() args: ShiftAssignmentListArgs) {
    return toConnection(
      await assignments.listShiftAssignments(
        ctx,
        { shiftId: args.shiftId, rosterId: args.rosterId, employeeId: args.employeeId, areaId: args.areaId },
        pageRequest(args),
      ),
    );
  }

  @Authorized('read')
  @Query(() => ShiftType, {
    nullable: true,
    description: "The shift that applies to the employee on a date (`YYYY-MM-DD`): own assignment, else an area's, else the company default; null when none.",
  })
  effectiveShift(@Ctx() ctx: RequestContext, @Arg('employeeId', () => Int) employeeId: number, @Arg('date') @Bounded('date') date: string) {
    return assignments.effectiveShift(ctx, employeeId, date);
  }

  @Authorized('write')
  @Mutation(() => ShiftAssignmentType)
  createShiftAssignment(@Ctx() ctx: RequestContext, @Arg('input') input: CreateShiftAssignmentInput) {
    return assignments.createShiftAssignment(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => ShiftAssignmentType)
  updateShiftAssignment(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number, @Arg('input') input: UpdateShiftAssignmentInput) {
    return assignments.updateShiftAssignment(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => ShiftAssignmentType)
  deleteShiftAssignment(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return assignments.deleteShiftAssignment(ctx, id);
  }
}
