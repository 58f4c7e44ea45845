import { Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { DEVICE_ACTION_TYPES } from '../services/fleet/device-action.service';
import { Connection } from './connection';
import { ActionStatusDetail, STATUS_DETAIL_DESCRIPTION } from './door-action.type';
import { Bounded } from './bounds';

@ObjectType('DeviceActionOptions', { description: 'The range of a record count or backfill (terminal-local dates, inclusive); fix for a reconcile.' })
export class DeviceActionOptionsType {
  @Field(() => String, { nullable: true }) startDate?: string | null;
  @Field(() => String, { nullable: true }) endDate?: string | null;
  @Field(() => Boolean, { nullable: true }) fix?: boolean | null;
}

@ObjectType('InfoField', { description: 'One value the terminal reported (its own key spelling).' })
export class InfoFieldType {
  @Field() key!: string;
  @Field() value!: string;
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
  @Field(() => Int) deviceId!: number;
  @Field({ description: DEVICE_ACTION_TYPES.join(', ') }) type!: string;
  @Field(() => DeviceActionOptionsType) options!: DeviceActionOptionsType;
  @Field({ description: '`queued`, `sent`, `succeeded`, `failed` or `expired`.' }) status!: string;
  @Field(() => ActionStatusDetail, { nullable: true, description: STATUS_DETAIL_DESCRIPTION }) statusDetail?: string | null;
  @Field(() => DeviceActionResultType, { nullable: true }) result?: DeviceActionResultType | null;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) completedAt?: Date | null;
  @Field() expiresAt!: Date;
}

@InputType()
export class DeviceActionOptionsInput {
  @Bounded('date') @Field(() => String, { nullable: true }) startDate?: string | null;
  @Bounded('date') @Field(() => String, { nullable: true }) endDate?: string | null;
  @Field(() => Boolean, { nullable: true, description: '`users.reconcile`: queue the commands that close the gap.' }) fix?: boolean | null;
}

@InputType()
export class CreateDeviceActionInput {
  @Bounded('keyword') @Field({ description: DEVICE_ACTION_TYPES.join(', ') }) type!: string;
  @Field(() => DeviceActionOptionsInput, { nullable: true }) options?: DeviceActionOptionsInput | null;
}

@ObjectType('DeviceActionConnection')
export class DeviceActionConnection extends Connection(DeviceActionType) {}
