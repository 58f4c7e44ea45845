import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded, maxChars } from './bounds';

@ObjectType('WeekdayInterval', { description: 'Doors open on this ISO weekday from startTime to endTime (inclusive), local to the terminal.' })
export class WeekdayIntervalType {
  @Field(() => Int, { description: '1 Monday … 7 Sunday.' }) weekday!: number;
  @Field({ description: '`HH:MM`.' }) startTime!: string;
  @Field({ description: '`HH:MM`, after startTime.' }) endTime!: string;
}

@ObjectType('HolidayInterval', { description: "Doors open on the company's holidays of this type from startTime to endTime." })
export class HolidayIntervalType {
  @Field(() => Int, { description: '1, 2 or 3 (the holiday_type of the holidays).' }) holidayType!: number;
  @Field({ description: 'When the doors start to open, `HH:MM`, 24-hour, local to the terminal.' }) startTime!: string;
  @Field({ description: 'When they stop (inclusive), `HH:MM`, 24-hour, local to the terminal; not before startTime (`reversed_interval`).' }) endTime!: string;
}

@InputType('WeekdayIntervalInput', { description: 'Doors open on this ISO weekday from startTime to endTime (inclusive), local to the terminal.' })
export class WeekdayIntervalInput {
  @Field(() => Int, { description: 'The ISO weekday: 1 Monday … 7 Sunday (`out_of_range` otherwise).' }) weekday!: number;
  @Bounded('timeOfDay') @Field({ description: 'When the doors start to open, `HH:MM`, 24-hour, local to the terminal.' }) startTime!: string;
  @Bounded('timeOfDay')
  @Field({ description: 'When they stop (inclusive), `HH:MM`, 24-hour, local to the terminal; before startTime is refused (`reversed_interval`).' })
  endTime!: string;
}

@InputType('HolidayIntervalInput', { description: "Doors open on the company's holidays of this type from startTime to endTime (inclusive)." })
export class HolidayIntervalInput {
  @Field(() => Int, { description: 'The holiday type the interval applies to: 1, 2 or 3 (`out_of_range` otherwise).' }) holidayType!: number;
  @Bounded('timeOfDay') @Field({ description: 'When the doors start to open, `HH:MM`, 24-hour, local to the terminal.' }) startTime!: string;
  @Bounded('timeOfDay')
  @Field({ description: 'When they stop (inclusive), `HH:MM`, 24-hour, local to the terminal; before startTime is refused (`reversed_interval`).' })
  endTime!: string;
}

@ObjectType('AccessSchedule', { description: 'When the doors of an access level open: up to 3 intervals per weekday and per holiday type.' })
export class AccessScheduleType {
  @Field(() => Int, { description: "The access schedule's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this access schedule.' }) companyId!: number;
  @Field({ description: "The access schedule's name, as the console and reports show it." }) name!: string;
  @Field(() => [WeekdayIntervalType], {
    description: 'When the doors open on ordinary days: up to 3 intervals per weekday; a weekday without one stays closed.',
  })
  intervals!: WeekdayIntervalType[];
  @Field(() => [HolidayIntervalType], {
    description: "When the doors open on the company's holidays, by holiday type; these replace the weekday's intervals on a holiday.",
  })
  holidayIntervals!: HolidayIntervalType[];
  @Field({ description: 'The company\'s built-in "Always" schedule: cannot be changed or deleted.' }) builtIn!: boolean;
  @Field({ description: 'When the access schedule was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the access schedule was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('AccessScheduleConnection', {
  description:
    'A page of access schedules: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class AccessScheduleConnection extends Connection(AccessScheduleType) {}

@ArgsType()
export class CompanyFilterArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only those of this company (its id).' }) companyId?: number;
}

@InputType({ description: "The new values of a access schedule's fields; a field left out (where it may be) keeps its value." })
export class UpdateAccessScheduleInput {
  @Bounded('accessName')
  @Field({
    nullable: true,
    description: `The access schedule's name: not blank, ${maxChars('accessName')} (\`blank\`, \`too_long\`). Left out: the default on create, unchanged on update.`,
  })
  name?: string;
  @Field(() => [WeekdayIntervalInput], {
    nullable: true,
    description: 'The weekday intervals, the complete set (up to 3 per weekday), replacing the old ones; left out: the default on create, unchanged on update.',
  })
  intervals?: WeekdayIntervalInput[];
  @Field(() => [HolidayIntervalInput], {
    nullable: true,
    description:
      'The holiday intervals, the complete set (up to 3 per holiday type), replacing the old ones; left out: the default on create, unchanged on update.',
  })
  holidayIntervals?: HolidayIntervalInput[];
}

@InputType({ description: 'The fields of a new access schedule.' })
export class CreateAccessScheduleInput extends UpdateAccessScheduleInput {
  @Field(() => Int, { description: "The company, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  companyId!: number;
  @Bounded('accessName')
  @Field({ description: `The access schedule's name: not blank, ${maxChars('accessName')} (\`blank\`, \`too_long\`).` })
  declare name: string;
}

@ObjectType('AccessLevel', { description: "Who may open which doors when: the level's doors, during its schedule, for its members." })
export class AccessLevelType {
  @Field(() => Int, { description: "The access level's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this access level.' }) companyId!: number;
  @Field({ description: "The access level's name, as the console and reports show it." }) name!: string;
  @Field(() => Int, { description: 'The id of the access schedule of this access level.' }) scheduleId!: number;
  @Field(() => [Int], { description: 'Doors of devices of the same company.' }) doorIds!: number[];
  @Field({ description: 'When the access level was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the access level was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('AccessLevelConnection', {
  description:
    'A page of access levels: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class AccessLevelConnection extends Connection(AccessLevelType) {}

@InputType({ description: "The new values of a access level's fields; a field left out (where it may be) keeps its value." })
export class UpdateAccessLevelInput {
  @Bounded('accessName')
  @Field({
    nullable: true,
    description: `The access level's name: not blank, ${maxChars('accessName')} (\`blank\`, \`too_long\`). Left out: the default on create, unchanged on update.`,
  })
  name?: string;
  @Field(() => Int, {
    nullable: true,
    description: "The access schedule, by id; an id that is not one of this workspace's is refused (`not_found`).",
  })
  scheduleId?: number;
  @Field(() => [Int], {
    nullable: true,
    description:
      "The doors the level opens, the complete set (door ids of the workspace; another's is `not_found`); left out: the default on create, unchanged on update.",
  })
  doorIds?: number[];
}

@InputType({ description: 'The fields of a new access level.' })
export class CreateAccessLevelInput extends UpdateAccessLevelInput {
  @Field(() => Int, { description: "The company, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  companyId!: number;
  @Bounded('accessName')
  @Field({ description: `The access level's name: not blank, ${maxChars('accessName')} (\`blank\`, \`too_long\`).` })
  declare name: string;
  @Field(() => Int, { description: "The access schedule, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  declare scheduleId: number;
}

@ObjectType('AccessLevelEmployee', { description: 'An employee member of a level, valid from startDate to endDate (inclusive; null: open).' })
export class AccessLevelEmployeeType {
  @Field(() => Int, { description: 'The id of the access level of this access level employee.' }) accessLevelId!: number;
  @Field(() => Int, { description: 'The id of the employee of this access level employee.' }) employeeId!: number;
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`: the first day the employee holds the level; null: from the start.' }) startDate?:
    string | null;
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`: the last day the employee holds the level; null: open-ended.' }) endDate?: string | null;
}

@ObjectType('AccessLevelEmployeeConnection', {
  description:
    'A page of access level employees: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class AccessLevelEmployeeConnection extends Connection(AccessLevelEmployeeType) {}

@ObjectType('AccessLevelArea', { description: "An area member of a level: the area's employees are members." })
export class AccessLevelAreaType {
  @Field(() => Int, { description: 'The id of the access level of this access level area.' }) accessLevelId!: number;
  @Field(() => Int, { description: 'The id of the area of this access level area.' }) areaId!: number;
}

@ObjectType('AccessLevelAreaConnection', {
  description:
    'A page of access level areas: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class AccessLevelAreaConnection extends Connection(AccessLevelAreaType) {}

@InputType({ description: 'An employee to give an access level, optionally for a range of days.' })
export class AccessLevelEmployeeInput {
  @Field(() => Int, { description: "The employee, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  employeeId!: number;
  @Bounded('date') @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`: first day of access.' }) startDate?: string | null;
  @Bounded('date') @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`: last day of access.' }) endDate?: string | null;
}

@InputType({ description: 'An area named in a bulk request.' })
export class AreaRefInput {
  @Field(() => Int, { description: "The area, by id; an id that is not one of this workspace's is refused (`not_found`)." }) areaId!: number;
}
