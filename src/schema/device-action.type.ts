import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { DEVICE_ACTION_TYPES } from '../services/fleet/device-action.service';
import { Connection } from './connection';
import { ActionStatusDetail, STATUS_DETAIL_DESCRIPTION } from './door-action.type';
import { Bounded } from './bounds';

@ObjectType('DeviceActionOptions', { description: 'The range of a record count or backfill (terminal-local dates, inclusive); fix for a reconcile.' })
export class DeviceActionOptionsType {
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, terminal-local: the first day of the record count or backfill (inclusive).' }) startDate?:
    string | null;
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, terminal-local: the last day of the record count or backfill (inclusive).' }) endDate?:
    string | null;
  @Field(() => Boolean, { nullable: true, description: '`users.reconcile`: whether the commands that close the gap were queued too.' }) fix?: boolean | null;
}

@ObjectType('InfoField', { description: 'One value the terminal reported (its own key spelling).' })
export class InfoFieldType {
  @Field({ description: 'The name of the item the terminal reported (as it spells it: `FWVersion`, `UserCount`...).' }) key!: string;
  @Field({ description: 'Its value, as text exactly as the terminal sent it.' }) value!: string;
}

@ObjectType('TemplateCounts', { description: '`users.reconcile`: templates the terminal says it holds against what Timegate put there.' })
export class TemplateCountsType {
  @Field(() => Int, {
    nullable: true,
    description: "Fingerprints by the terminal's own counter (INFO); null when it does not report one (access-control terminals).",
  })
  fingerprintsOnDevice?: number | null;
  @Field(() => Int, { description: 'Stored fingerprints of its users of the algorithm version it takes.' }) fingerprintsExpected!: number;
  @Field(() => Int, { nullable: true, description: "People with a face by the terminal's own counter; null when not reported." }) facesOnDevice?: number | null;
  @Field(() => Int, { description: 'Its users with a stored face template of a version it takes.' }) facesExpected!: number;
}

@ObjectType('DeviceActionResult', { description: 'What the action found out; the fields of its type are set.' })
export class DeviceActionResultType {
  @Field(() => [InfoFieldType], { nullable: true, description: '`info.refresh`: what the terminal reported.' }) info?: InfoFieldType[] | null;
  @Field(() => Int, { nullable: true, description: "`attendance.count`: the terminal's records in the range." }) deviceRecords?: number | null;
  @Field(() => Int, { nullable: true, description: "`attendance.count`: Timegate's punches of this terminal in the range." }) timegateRecords?: number | null;
  @Field(() => Boolean, { nullable: true, description: '`attendance.count`: the two agree (a mismatch is what a backfill is for).' }) matched?: boolean | null;
  @Field(() => Int, { nullable: true, description: '`attendance.backfill`: queries sent (one per 31 days).' }) windows?: number | null;
  @Field(() => Int, { nullable: true, description: '`attendance.backfill`: records the terminal found and uploads again.' }) recordsReceived?: number | null;
  @Field(() => Int, { nullable: true, description: '`attendance.backfill`: punches of the range Timegate did not have before.' }) punchesNew?: number | null;
  @Field(() => Int, { nullable: true, description: "`clock.sync`: the terminal's clock skew (seconds) when it was set." }) skewBefore?: number | null;
  @Field(() => Int, { nullable: true, description: '`clock.sync`: the first reading of the clock after it was set (null until one).' })
  skewAfter?: number | null;
  @Field(() => Boolean, { nullable: true, description: '`users.reconcile`: every user the terminal counted has arrived and was compared.' }) complete?:
    boolean | null;
  @Field(() => Int, { nullable: true, description: '`users.reconcile`: users the terminal holds.' }) usersReported?: number | null;
  @Field(() => [String], { nullable: true, description: '`users.reconcile`: pins Timegate sends to this terminal that it does not hold.' }) missingOnDevice?:
    string[] | null;
  @Field(() => [String], { nullable: true, description: '`users.reconcile`: pins the terminal holds that Timegate does not send it.' }) unexpectedOnDevice?:
    string[] | null;
  @Field(() => [String], { nullable: true, description: '`users.reconcile`: pins whose name or privilege differ.' }) differing?: string[] | null;
  @Field(() => TemplateCountsType, { nullable: true, description: '`users.reconcile`: template counts, terminal against Timegate.' })
  templates?: TemplateCountsType | null;
  @Field(() => Int, { nullable: true, description: '`users.reconcile` with fix: users sent again plus delete commands queued.' }) fixed?: number | null;
  @Field(() => Int, { nullable: true, description: 'A failed action: the terminal return code.' }) returnCode?: number | null;
}

@ObjectType('DeviceAction', { description: 'An operation on a terminal; its status follows its commands.' })
export class DeviceActionType {
  @Field({ description: 'Public id (`dact_...`).' }) actionId!: string;
  @Field(() => Int, { description: 'The id of the terminal (device) of this device action.' }) deviceId!: number;
  @Field({ description: `The action: ${DEVICE_ACTION_TYPES.map((type) => `\`${type}\``).join(', ')}.` }) type!: string;
  @Field(() => DeviceActionOptionsType, { description: 'The options the action was created with; null for an action that takes none.' })
  options!: DeviceActionOptionsType;
  @Field({ description: '`queued`, `sent`, `succeeded`, `failed` or `expired`.' }) status!: string;
  @Field(() => ActionStatusDetail, { nullable: true, description: STATUS_DETAIL_DESCRIPTION }) statusDetail?: string | null;
  @Field(() => DeviceActionResultType, {
    nullable: true,
    description: 'What the terminal answered (records re-sent, clock reading, info items); null until it answered.',
  })
  result?: DeviceActionResultType | null;
  @Field({ description: 'When the device action was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field(() => Date, { nullable: true, description: "When the terminal's answer settled the action (an ISO 8601 date-time in UTC); null until then." })
  completedAt?: Date | null;
  @Field({ description: 'The deadline (an ISO 8601 date-time in UTC): an action the terminal has not answered by then ends `expired`.' }) expiresAt!: Date;
}

@InputType({ description: 'Options of a device action; each applies to some actions only (the others refuse it with `unsupported_combination`).' })
export class DeviceActionOptionsInput {
  @Bounded('date')
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, terminal-local: the first day of a record count or backfill (inclusive); with endDate.' })
  startDate?: string | null;
  @Bounded('date')
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`, terminal-local: the last day (inclusive); not before startDate (`before_start_date`).' })
  endDate?: string | null;
  @Field(() => Boolean, { nullable: true, description: '`users.reconcile`: queue the commands that close the gap.' }) fix?: boolean | null;
}

@InputType({ description: 'The fields of a new device action.' })
export class CreateDeviceActionInput {
  @Bounded('keyword') @Field({ description: `The action: ${DEVICE_ACTION_TYPES.map((type) => `\`${type}\``).join(', ')}.` }) type!: string;
  @Field(() => DeviceActionOptionsInput, {
    nullable: true,
    description: 'The options of the action: a date range for a record count or backfill, `fix` for a users reconcile.',
  })
  options?: DeviceActionOptionsInput | null;
}

@ObjectType('DeviceActionConnection', {
  description:
    'A page of device actions: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class DeviceActionConnection extends Connection(DeviceActionType) {}
