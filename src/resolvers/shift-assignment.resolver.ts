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
  @Query(() => ShiftAssignmentType, { description: 'The shift assignment with this id; one of another workspace, or none, answers `not_found`.' })
  shiftAssignment(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The shift assignment's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return assignments.getShiftAssignment(ctx, id);
  }

  @Authorized('read')
  @Query(() => ShiftAssignmentConnection, { description: "The workspace's shift assignments, a page at a time (`first`, `after`)." })
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
  effectiveShift(
    @Ctx() ctx: RequestContext,
    @Arg('employeeId', () => Int, { description: "The employee's id; one of another workspace, or none, answers `not_found`." }) employeeId: number,
    @Arg('date', { description: 'The day, `YYYY-MM-DD`.' }) @Bounded('date') date: string,
  ) {
    return assignments.effectiveShift(ctx, employeeId, date);
  }

  @Authorized('write')
  @Mutation(() => ShiftAssignmentType, {
    description:
      'Creates a shift assignment and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing is stored.',
  })
  createShiftAssignment(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateShiftAssignmentInput,
  ) {
    return assignments.createShiftAssignment(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => ShiftAssignmentType, {
    description:
      'Changes a shift assignment and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing changes.',
  })
  updateShiftAssignment(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The shift assignment's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateShiftAssignmentInput,
  ) {
    return assignments.updateShiftAssignment(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => ShiftAssignmentType, { description: 'Deletes a shift assignment and returns it as it was last stored.' })
  deleteShiftAssignment(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The shift assignment's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return assignments.deleteShiftAssignment(ctx, id);
  }
}
