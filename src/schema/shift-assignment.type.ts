import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('ShiftAssignment', {
  description:
    "A shift (or a roster of shifts) for an employee or an area's employees, from a date; an employee's own wins over an area's, which wins over the company default.",
})
export class ShiftAssignmentType {
  @Field(() => Int, { description: "The shift assignment's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { nullable: true, description: 'The shift; null when the assignment names a roster.' }) shiftId?: number | null;
  @Field(() => Int, { nullable: true, description: 'The roster; null when the assignment names a shift.' }) rosterId?: number | null;
  @Field(() => Int, { nullable: true, description: 'The id of the employee of this shift assignment.' }) employeeId?: number | null;
  @Field(() => Int, { nullable: true, description: 'The id of the area of this shift assignment.' }) areaId?: number | null;
  @Field({ description: '`YYYY-MM-DD`, inclusive.' }) startDate!: string;
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, inclusive; null: open-ended.' }) endDate?: string | null;
  @Field({ description: 'When the shift assignment was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the shift assignment was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('ShiftAssignmentConnection', {
  description:
    'A page of shift assignments: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class ShiftAssignmentConnection extends Connection(ShiftAssignmentType) {}

@ArgsType()
export class ShiftAssignmentListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the shift assignments of this shift (its id).' }) shiftId?: number;
  @Field(() => Int, { nullable: true, description: 'Only the shift assignments of this roster (its id).' }) rosterId?: number;
  @Field(() => Int, { nullable: true, description: 'Only the shift assignments of this employee (its id).' }) employeeId?: number;
  @Field(() => Int, { nullable: true, description: 'Only the shift assignments of this area (its id).' }) areaId?: number;
}

@InputType({ description: "The new values of a shift assignment's fields; a field left out (where it may be) keeps its value." })
export class UpdateShiftAssignmentInput {
  @Field(() => Int, { nullable: true, description: 'A shift instead of the current shift or roster.' }) shiftId?: number;
  @Field(() => Int, { nullable: true, description: 'A roster instead of the current shift or roster.' }) rosterId?: number;
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`, the first day the assignment applies. Left out: unchanged.' }) startDate?: string;
  @Bounded('date')
  @Field(() => String, {
    nullable: true,
    description: '`YYYY-MM-DD`, the last day; null: open-ended; not before startDate (`before_start_date`). Left out: unchanged.',
  })
  endDate?: string | null;
}

@InputType({ description: 'The fields of a new shift assignment.' })
export class CreateShiftAssignmentInput {
  @Field(() => Int, { nullable: true, description: 'Exactly one of shiftId and rosterId.' }) shiftId?: number;
  @Field(() => Int, {
    nullable: true,
    description: "The roster, by id; an id that is not one of this workspace's is refused (`not_found`).",
  })
  rosterId?: number;
  @Field(() => Int, {
    nullable: true,
    description: "The employee, by id; an id that is not one of this workspace's is refused (`not_found`).",
  })
  employeeId?: number;
  @Field(() => Int, {
    nullable: true,
    description: "The area, by id; an id that is not one of this workspace's is refused (`not_found`).",
  })
  areaId?: number;
  @Bounded('date') @Field({ description: '`YYYY-MM-DD`, the first day the assignment applies.' }) startDate!: string;
  @Bounded('date')
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, the last day; null: open-ended; not before startDate (`before_start_date`).' })
  endDate?: string | null;
}
