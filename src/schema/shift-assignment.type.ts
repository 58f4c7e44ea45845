import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('ShiftAssignment', {
  description:
    "A shift (or a roster of shifts) for an employee or an area's employees, from a date; an employee's own wins over an area's, which wins over the company default.",
})
export class ShiftAssignmentType {
  @Field(() => Int) id!: number;
  @Field(() => Int, { nullable: true, description: 'The shift; null when the assignment names a roster.' }) shiftId?: number | null;
  @Field(() => Int, { nullable: true, description: 'The roster; null when the assignment names a shift.' }) rosterId?: number | null;
  @Field(() => Int, { nullable: true }) employeeId?: number | null;
  @Field(() => Int, { nullable: true }) areaId?: number | null;
  @Field({ description: '`YYYY-MM-DD`, inclusive.' }) startDate!: string;
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, inclusive; null: open-ended.' }) endDate?: string | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('ShiftAssignmentConnection')
export class ShiftAssignmentConnection extends Connection(ShiftAssignmentType) {}

@ArgsType()
export class ShiftAssignmentListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) shiftId?: number;
  @Field(() => Int, { nullable: true }) rosterId?: number;
  @Field(() => Int, { nullable: true }) employeeId?: number;
  @Field(() => Int, { nullable: true }) areaId?: number;
}

@InputType()
export class UpdateShiftAssignmentInput {
  @Field(() => Int, { nullable: true, description: 'A shift instead of the current shift or roster.' }) shiftId?: number;
  @Field(() => Int, { nullable: true, description: 'A roster instead of the current shift or roster.' }) rosterId?: number;
  @Bounded('date') @Field({ nullable: true }) startDate?: string;
  @Bounded('date') @Field(() => String, { nullable: true }) endDate?: string | null;
}

@InputType()
export class CreateShiftAssignmentInput {
  @Field(() => Int, { nullable: true, description: 'Exactly one of shiftId and rosterId.' }) shiftId?: number;
  @Field(() => Int, { nullable: true }) rosterId?: number;
  @Field(() => Int, { nullable: true }) employeeId?: number;
  @Field(() => Int, { nullable: true }) areaId?: number;
  @Bounded('date') @Field() startDate!: string;
  @Bounded('date') @Field(() => String, { nullable: true }) endDate?: string | null;
}
