import { Field, Float, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { DeviceType } from './device.type';
import { Bounded } from './bounds';

// Sandbox workspaces and their virtual terminals (docs/sandbox.md).

@ObjectType('SandboxSeed', { description: 'What a sandbox starts with, when created and after each reset: the ids a script goes on with.' })
export class SandboxSeedType {
  @Field(() => Int, { description: 'The company "Sandbox Inc".' }) companyId!: number;
  @Field(() => Int, { description: 'The area "Head office", which holds both terminals and the first three employees.' }) areaId!: number;
  @Field(() => Int, { description: "The company's default shift (09:00–17:00, 30 minutes' break)." }) shiftId!: number;
  @Field(() => [Int], { description: 'The four employees (pins 1001–1004); the fourth is on the clock only, so the controller refuses her badge.' })
  employeeIds!: number[];
  @Field(() => Int, { description: 'The virtual time clock (an attendance terminal, serial `TGSBX…`).' }) clockId!: number;
  @Field(() => Int, { description: 'The virtual door controller (an access-control terminal with one door, serial `TGSBX…`).' }) controllerId!: number;
}

@ObjectType('VirtualTerminalPatternTime', {
  description: 'One time of a daily pattern: each person of the terminal punches at it, one simulated minute after the other.',
})
export class PatternTimeType {
  @Field({ description: '`HH:MM`, local to the terminal (its time zone).' }) time!: string;
  @Field(() => Int, { description: 'The attendance state punched: 0 check-in, 1 check-out, 2 break-out, 3 break-in, 4 overtime-in, 5 overtime-out.' })
  punchState!: number;
}

@InputType('VirtualTerminalPatternTimeInput', { description: 'One time of a daily pattern.' })
export class PatternTimeInput {
  @Bounded('timeOfDay') @Field({ description: '`HH:MM` (00:00–23:59), local to the terminal.' }) time!: string;
  @Field(() => Int, { description: 'The attendance state punched, 0–5 (0 check-in, 1 check-out, 2 break-out, 3 break-in, 4 overtime-in, 5 overtime-out).' })
  punchState!: number;
}

@ObjectType('VirtualTerminal', {
  description:
    "A sandbox's device as the terminal Timegate plays for it: its punch schedule on a simulated clock (punches per hour or a daily pattern, sped up by `speed`).",
})
export class VirtualTerminalType {
  @Field(() => Int, { description: 'The device it plays.' }) deviceId!: number;
  @Field(() => DeviceType, { description: 'The device it plays (serial `TGSBX…`).' }) device!: DeviceType;
  @Field({ description: 'Whether the schedule plays; a disabled terminal still connects, takes commands and carries out triggers.' }) enabled!: boolean;
  @Field(() => Int, {
    nullable: true,
    description: 'Punches (badges at a controller) per simulated hour, one person each in turn; null when the daily pattern is the schedule.',
  })
  punchesPerHour?: number | null;
  @Field(() => [PatternTimeType], {
    nullable: true,
    description: 'Each person punches at each of these times of every simulated day; null when punchesPerHour is the schedule.',
  })
  dailyPattern?: PatternTimeType[] | null;
  @Field(() => Float, { description: 'Simulated seconds per real second (1–3600).' }) speed!: number;
  @Field({ description: 'When the schedule was last set: the simulated clock showed the real time then.' }) scheduleStartedAt!: Date;
  @Field({ description: "The schedule's simulated clock now." }) simulatedTime!: Date;
  @Field(() => Date, { nullable: true, description: "The real time the schedule's next step is due; null while disabled." }) nextStepAt?: Date | null;
}

@InputType('VirtualTerminalInput', {
  description: "A virtual terminal's new settings; fields left out keep their value. Every change starts the simulated clock again at the real time.",
})
export class VirtualTerminalInput {
  @Field({ nullable: true, description: 'Whether the schedule plays.' }) enabled?: boolean;
  @Field(() => Int, { nullable: true, description: 'Punches per simulated hour, 1–3600 (replaces a daily pattern).' }) punchesPerHour?: number;
  @Field(() => [PatternTimeInput], { nullable: true, description: 'Up to 12 times a simulated day, distinct (replaces punchesPerHour).' })
  dailyPattern?: PatternTimeInput[];
  @Field(() => Float, { nullable: true, description: 'Simulated seconds per real second, 1–3600 (3600: a simulated hour each real second).' }) speed?: number;
}

@InputType('VirtualTerminalTriggerInput', { description: 'Something to happen at a virtual terminal now.' })
export class VirtualTerminalTriggerInput {
  @Bounded('keyword')
  @Field({
    description:
      '`punch` (a clock records a punch; a controller decides a badge from its tables), `unknown_badge` (a card nobody holds: refused), `forced_open` or `held_open` (a door alarm), `close_door` (ends a held-open alarm); all but `punch` at controllers only.',
  })
  action!: string;
  @Field(() => Int, { nullable: true, description: "Whose punch or badge (`punch` only); absent: the next person of the terminal's turn." })
  employeeId?: number;
}

@ObjectType('VirtualTerminalTrigger', {
  description: 'A trigger queued for the process that plays the terminal (carried out within TIMEGATE_SANDBOX_POLL_MS).',
})
export class VirtualTerminalTriggerType {
  @Field(() => Int, { description: 'The trigger.' }) id!: number;
  @Field(() => Int, { description: 'The device it happens at.' }) deviceId!: number;
  @Field({ description: 'What happens (see VirtualTerminalTriggerInput.action).' }) action!: string;
  @Field({ description: 'When it was asked.' }) createdAt!: Date;
}
