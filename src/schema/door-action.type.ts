import { Field, InputType, Int, registerEnumType } from 'type-graphql';
import { ObjectType } from './object-type';
import { DeviceCommandStatus } from '../entities/device-command.entity';
import { DeviceStatus } from '../entities/device.entity';
import { STATUS_DETAILS, type StatusDetail } from '../services/commands/action-status-detail';
import { Bounded, maxChars } from './bounds';

/** The `statusDetail` codes of door and device actions (docs/device-operations.md, "Status details"). */
export const ActionStatusDetail = Object.fromEntries(STATUS_DETAILS.map((code) => [code, code])) as { [K in StatusDetail]: K };
registerEnumType(ActionStatusDetail, {
  name: 'ActionStatusDetail',
  description: 'Why a door or device action is where it is (see statusDetail).',
  valuesConfig: {
    device_pending: { description: 'Waiting for a terminal that never connected.' },
    device_offline: { description: 'Waiting for a terminal that is offline.' },
    no_answer: { description: 'The terminal fetched the command and did not answer: it may have run it.' },
    device_refused: { description: 'The terminal refused it; see the return code.' },
    deadline_passed: { description: 'Not delivered before its deadline.' },
    awaiting_clock_reading: { description: 'clock.sync: the time was set; waiting for the terminal to report its clock.' },
    clock_skew_after_sync: { description: 'clock.sync: the clock the terminal reported after the sync is still off.' },
    clock_not_read: { description: 'clock.sync: the time was set but the terminal did not report its clock.' },
  },
});

export const STATUS_DETAIL_DESCRIPTION =
  'Why the action is where it is: `device_pending` (waiting for a terminal that never connected), `device_offline` (waiting for an offline terminal), `no_answer` (the terminal fetched it and did not answer), `device_refused` (the terminal refused it: see the return code), `deadline_passed` (not delivered before its deadline), for clock.sync `awaiting_clock_reading`, `clock_skew_after_sync` or `clock_not_read`; null when nothing needs saying.';

registerEnumType(DeviceCommandStatus, {
  name: 'DoorActionStatus',
  description:
    '`queued` (waiting for the terminal to poll), `sent` (the terminal took it; with statusDetail `no_answer` it never answered, and the door may have opened), then `succeeded` or `failed` (terminal return code), or `expired` (not delivered in time: never sent).',
  valuesConfig: {
    queued: { description: 'Waiting for the terminal to poll for it.' },
    sent: { description: 'The terminal took it and has not answered yet.' },
    succeeded: { description: 'The terminal reported success (return code 0).' },
    failed: { description: 'The terminal refused it (a negative return code).' },
    expired: { description: 'Not delivered before its deadline: never sent, so the door did not move.' },
  },
});

@ObjectType('DoorAction', { description: 'A remote door opening; its status follows the terminal.' })
export class DoorActionType {
  @Field({ description: 'Public id (`da_...`).' }) actionId!: string;
  @Field({ description: '`unlock`, `hold_open` (normally open until closed), `close` or `cancel_alarm`.' }) action!: string;
  @Field(() => DeviceCommandStatus, { description: '`queued`, `sent`, `succeeded`, `failed` or `expired`; `statusDetail` says why.' })
  status!: DeviceCommandStatus;
  @Field(() => ActionStatusDetail, { nullable: true, description: STATUS_DETAIL_DESCRIPTION }) statusDetail?: string | null;
  @Field({ description: 'When the action was requested.' }) createdAt!: Date;
  @Field({ description: 'Same as createdAt: the field name of the REST unlock reply.' }) timestamp!: Date;
  @Field(() => Int, { description: 'The id of the terminal (device) of this door action.' }) deviceId!: number;
  @Field({ description: 'The serial number of the terminal, as it sends it in the PUSH protocol (`SN`).' }) deviceSerial!: string;
  @Field(() => DeviceStatus, { description: "The terminal's status now: an `offline` terminal receives the command only if it polls before expiresAt." })
  deviceStatus!: DeviceStatus;
  @Field(() => Int, { description: "The door's number on its terminal (1 …)." }) door!: number;
  @Field(() => Int, {
    description: 'Seconds the lock stays released for an `unlock` (attendance terminals apply their own lock time); 0 for the other actions.',
  })
  duration!: number;
  @Field(() => Int, { nullable: true, description: "The terminal's Return code (negative = failure)." }) returnCode?: number | null;
  @Field(() => Date, { nullable: true, description: 'When the terminal first took the command; null while it was never delivered.' }) sentAt?: Date | null;
  @Field(() => Date, { nullable: true, description: "When the terminal's answer settled the action (an ISO 8601 date-time in UTC); null until then." })
  completedAt?: Date | null;
  @Field({ description: 'The deadline (an ISO 8601 date-time in UTC): an action not answered by then ends `expired`.' }) expiresAt!: Date;
}

@InputType({ description: 'A door to release, by terminal serial number and door number.' })
export class UnlockDoorInput {
  @Bounded('serialNumber')
  @Field({ description: `The serial number of the terminal the door is on (\`SN\`), ${maxChars('serialNumber')}; one not of this workspace is \`not_found\`.` })
  deviceSerial!: string;
  @Field(() => Int, { description: 'Seconds, 1–254.' }) duration!: number;
  @Field(() => Int, { nullable: true, description: 'Door number, default 1.' }) door?: number;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Open the door even though it is locked down (an `admin` key only); otherwise a locked-down door answers `lockdown_active`.',
  })
  override?: boolean;
}
