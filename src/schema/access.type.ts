import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('WeekdayInterval', { description: 'Doors open on this ISO weekday from startTime to endTime (inclusive), local to the terminal.' })
export class WeekdayIntervalType {
  @Field(() => Int, { description: '1 Monday … 7 Sunday.' }) weekday!: number;
  @Field({ description: '`HH:MM`.' }) startTime!: string;
  @Field({ description: '`HH:MM`, after startTime.' }) endTime!: string;
}

@ObjectType('HolidayInterval', { description: "Doors open on the company's holidays of this type from startTime to endTime." })
export class HolidayIntervalType {
  @Field(() => Int, { description: '1, 2 or 3 (the holiday_type of the holidays).' }) holidayType!: number;
  @Field() startTime!: string;
  @Field() endTime!: string;
}

@InputType('WeekdayIntervalInput')
export class WeekdayIntervalInput {
  @Field(() => Int) weekday!: number;
  @Bounded('timeOfDay') @Field() startTime!: string;
  @Bounded('timeOfDay') @Field() endTime!: string;
}

@InputType('HolidayIntervalInput')
export class HolidayIntervalInput {
  @Field(() => Int) holidayType!: number;
  @Bounded('timeOfDay') @Field() startTime!: string;
  @Bounded('timeOfDay') @Field() endTime!: string;
}

@ObjectType('AccessSchedule', { description: 'When the doors of an access level open: up to 3 intervals per weekday and per holiday type.' })
export class AccessScheduleType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field() name!: string;
  @Field(() => [WeekdayIntervalType]) intervals!: WeekdayIntervalType[];
  @Field(() => [HolidayIntervalType]) holidayIntervals!: HolidayIntervalType[];
  @Field({ description: 'The company\'s built-in "Always" schedule: cannot be changed or deleted.' }) builtIn!: boolean;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('AccessScheduleConnection')
export class AccessScheduleConnection extends Connection(AccessScheduleType) {}

@ArgsType()
export class CompanyFilterArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) companyId?: number;
}

@InputType()
export class UpdateAccessScheduleInput {
  @Bounded('accessName') @Field({ nullable: true }) name?: string;
  @Field(() => [WeekdayIntervalInput], { nullable: true }) intervals?: WeekdayIntervalInput[];
  @Field(() => [HolidayIntervalInput], { nullable: true }) holidayIntervals?: HolidayIntervalInput[];
}

@InputType()
export class CreateAccessScheduleInput extends UpdateAccessScheduleInput {
  @Field(() => Int) companyId!: number;
  @Bounded('accessName') @Field() declare name: string;
}

@ObjectType('AccessLevel', { description: "Who may open which doors when: the level's doors, during its schedule, for its members." })
export class AccessLevelType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field() name!: string;
  @Field(() => Int) scheduleId!: number;
  @Field(() => [Int], { description: 'Doors of devices of the same company.' }) doorIds!: number[];
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('AccessLevelConnection')
export class AccessLevelConnection extends Connection(AccessLevelType) {}

@InputType()
export class UpdateAccessLevelInput {
  @Bounded('accessName') @Field({ nullable: true }) name?: string;
  @Field(() => Int, { nullable: true }) scheduleId?: number;
  @Field(() => [Int], { nullable: true }) doorIds?: number[];
}

@InputType()
export class CreateAccessLevelInput extends UpdateAccessLevelInput {
  @Field(() => Int) companyId!: number;
  @Bounded('accessName') @Field() declare name: string;
  @Field(() => Int) declare scheduleId: number;
}

@ObjectType('AccessLevelEmployee', { description: 'An employee member of a level, valid from startDate to endDate (inclusive; null: open).' })
export class AccessLevelEmployeeType {
  @Field(() => Int) accessLevelId!: number;
  @Field(() => Int) employeeId!: number;
  @Field(() => String, { nullable: true }) startDate?: string | null;
  @Field(() => String, { nullable: true }) endDate?: string | null;
}

@ObjectType('AccessLevelEmployeeConnection')
export class AccessLevelEmployeeConnection extends Connection(AccessLevelEmployeeType) {}

@ObjectType('AccessLevelArea', { description: "An area member of a level: the area's employees are members." })
export class AccessLevelAreaType {
  @Field(() => Int) accessLevelId!: number;
  @Field(() => Int) areaId!: number;
}

@ObjectType('AccessLevelAreaConnection')
export class AccessLevelAreaConnection extends Connection(AccessLevelAreaType) {}

@InputType()
export class AccessLevelEmployeeInput {
  @Field(() => Int) employeeId!: number;
  @Bounded('date') @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`: first day of access.' }) startDate?: string | null;
  @Bounded('date') @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`: last day of access.' }) endDate?: string | null;
}

@InputType({ description: 'An area named in a bulk request.' })
export class AreaRefInput {
  @Field(() => Int) areaId!: number;
}
