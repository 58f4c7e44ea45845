import { Field, Float, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Bounded } from './bounds';

const d = {
  earlyOvertime: 'Work before the shift start is paid (default false: paid from the start).',
  overtimeMinMinutes: 'Overtime and double time of a day below this many minutes are not paid (default 0).',
  dailyOvertimeAfterMinutes: "Worked minutes of a workday beyond this are overtime; null: beyond the day's scheduled minutes.",
  weeklyOvertimeAfterMinutes: 'Regular minutes of a pay week beyond this become overtime; null: no weekly overtime. Company only.',
  weekStart: 'ISO weekday the pay week starts on, 1 (Monday, default) to 7. Company only.',
  doubleTimeAfterMinutes: 'Worked minutes of a workday beyond this are double time; null: none.',
  nightStart: '`HH:MM` start of the night window (local to the shift); null: no night premium.',
  nightEnd: '`HH:MM` end of the night window; at or before nightStart: the next day.',
  holidayWork: 'Work on a holiday is paid as `holiday` (default) or `overtime`.',
  restDayWork: 'Work on a rest day is paid as `rest_day` (default) or `overtime`.',
  overtimeRequiresApproval:
    'Overtime and double time count only once approved (overtime approvals); until then a day shows them as pendingOvertimeMinutes. Default false. Company only.',
  overtimeRatePercent: 'The overtime rate in percent of the base rate (default 150), stated in the payroll export. Company only.',
  doubleTimeRatePercent: 'The double-time rate in percent of the base rate (default 200). Company only.',
  nightPremiumPercent: "The night premium in percent of the base rate, paid on top of the minutes' own code (default 25). Company only.",
  holidayRatePercent: 'The rate of holiday work in percent of the base rate (default 200). Company only.',
  restDayRatePercent: 'The rate of rest-day work in percent of the base rate (default 150). Company only.',
};

@ObjectType('PayPolicy', { description: 'A company\'s overtime and premium policy, defaults filled in (docs/attendance.md, "Pay items").' })
export class PayPolicyType {
  @Field({ description: d.earlyOvertime }) earlyOvertime!: boolean;
  @Field(() => Int, { description: d.overtimeMinMinutes }) overtimeMinMinutes!: number;
  @Field(() => Int, { nullable: true, description: d.dailyOvertimeAfterMinutes }) dailyOvertimeAfterMinutes!: number | null;
  @Field(() => Int, { nullable: true, description: d.weeklyOvertimeAfterMinutes }) weeklyOvertimeAfterMinutes!: number | null;
  @Field(() => Int, { description: d.weekStart }) weekStart!: number;
  @Field(() => Int, { nullable: true, description: d.doubleTimeAfterMinutes }) doubleTimeAfterMinutes!: number | null;
  @Field(() => String, { nullable: true, description: d.nightStart }) nightStart!: string | null;
  @Field(() => String, { nullable: true, description: d.nightEnd }) nightEnd!: string | null;
  @Field({ description: d.holidayWork }) holidayWork!: string;
  @Field({ description: d.restDayWork }) restDayWork!: string;
  @Field({ description: d.overtimeRequiresApproval }) overtimeRequiresApproval!: boolean;
  @Field(() => Float, { description: d.overtimeRatePercent }) overtimeRatePercent!: number;
  @Field(() => Float, { description: d.doubleTimeRatePercent }) doubleTimeRatePercent!: number;
  @Field(() => Float, { description: d.nightPremiumPercent }) nightPremiumPercent!: number;
  @Field(() => Float, { description: d.holidayRatePercent }) holidayRatePercent!: number;
  @Field(() => Float, { description: d.restDayRatePercent }) restDayRatePercent!: number;
}

@ObjectType('PayPolicyOverrides', { description: "A shift's overrides of its company's pay policy; null: the company's value." })
export class PayPolicyOverridesType {
  @Field(() => Boolean, { nullable: true, description: d.earlyOvertime }) earlyOvertime?: boolean | null;
  @Field(() => Int, { nullable: true, description: d.overtimeMinMinutes }) overtimeMinMinutes?: number | null;
  @Field(() => Int, { nullable: true, description: d.dailyOvertimeAfterMinutes }) dailyOvertimeAfterMinutes?: number | null;
  @Field(() => Int, { nullable: true, description: d.doubleTimeAfterMinutes }) doubleTimeAfterMinutes?: number | null;
  @Field(() => String, { nullable: true, description: d.nightStart }) nightStart?: string | null;
  @Field(() => String, { nullable: true, description: d.nightEnd }) nightEnd?: string | null;
  @Field(() => String, { nullable: true, description: d.holidayWork }) holidayWork?: string | null;
  @Field(() => String, { nullable: true, description: d.restDayWork }) restDayWork?: string | null;
}

@InputType({
  description: "A change of a pay policy: a field left out keeps its value; null resets it (a company: to the default; a shift: to the company's).",
})
export class PayPolicyInput {
  @Field(() => Boolean, { nullable: true, description: d.earlyOvertime }) earlyOvertime?: boolean | null;
  @Field(() => Int, { nullable: true, description: d.overtimeMinMinutes }) overtimeMinMinutes?: number | null;
  @Field(() => Int, { nullable: true, description: d.dailyOvertimeAfterMinutes }) dailyOvertimeAfterMinutes?: number | null;
  @Field(() => Int, { nullable: true, description: d.weeklyOvertimeAfterMinutes }) weeklyOvertimeAfterMinutes?: number | null;
  @Field(() => Int, { nullable: true, description: d.weekStart }) weekStart?: number | null;
  @Field(() => Int, { nullable: true, description: d.doubleTimeAfterMinutes }) doubleTimeAfterMinutes?: number | null;
  @Bounded('timeOfDay') @Field(() => String, { nullable: true, description: d.nightStart }) nightStart?: string | null;
  @Bounded('timeOfDay') @Field(() => String, { nullable: true, description: d.nightEnd }) nightEnd?: string | null;
  @Bounded('keyword') @Field(() => String, { nullable: true, description: d.holidayWork }) holidayWork?: string | null;
  @Bounded('keyword') @Field(() => String, { nullable: true, description: d.restDayWork }) restDayWork?: string | null;
  @Field(() => Boolean, { nullable: true, description: d.overtimeRequiresApproval }) overtimeRequiresApproval?: boolean | null;
  @Field(() => Float, { nullable: true, description: d.overtimeRatePercent }) overtimeRatePercent?: number | null;
  @Field(() => Float, { nullable: true, description: d.doubleTimeRatePercent }) doubleTimeRatePercent?: number | null;
  @Field(() => Float, { nullable: true, description: d.nightPremiumPercent }) nightPremiumPercent?: number | null;
  @Field(() => Float, { nullable: true, description: d.holidayRatePercent }) holidayRatePercent?: number | null;
  @Field(() => Float, { nullable: true, description: d.restDayRatePercent }) restDayRatePercent?: number | null;
}
