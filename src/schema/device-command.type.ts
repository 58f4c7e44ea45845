import { Field, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection } from './connection';

@ObjectType('DeviceCommand', {
  description:
    "A command queued for a terminal and how it ended. The command's text is not shown (it can carry names, templates, photos): only its verb and table.",
})
export class DeviceCommandType {
  @Field(() => Int, { description: "The device command's id, given by the service when it was created and never reused." }) id!: number;
  @Field({ description: 'The id the terminal echoes in its result.' }) commandId!: string;
  @Field({
    description:
      'What queued it: `user_sync`, `face_photo`, `access_schedule`, `door_unlock`, `device_action`, …; `record_batch`: a multi-record command carrying the rows of many people (each also listed as its own command, `batched`).',
  })
  kind!: string;
  @Field({ description: 'Verb and table, e.g. `DATA UPDATE USERINFO`, `CONTROL DEVICE 01010105`.' }) verb!: string;
  @Field({
    description:
      '`queued`, `sent`, `succeeded`, `failed` or `expired`; `batched`: a row carried by a `record_batch` command, concluded with it (queued alone if the terminal refuses that command).',
  })
  status!: string;
  @Field(() => Int, { nullable: true, description: "The terminal's return code." }) returnCode?: number | null;
  @Field(() => Int, { description: 'Deliveries so far.' }) attempts!: number;
  @Field(() => String, { nullable: true, description: 'What it is for (`device_user:12`, `door_action:…`).' }) reference?: string | null;
  @Field({ description: 'When the device command was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When the terminal fetched the command on its poll (an ISO 8601 date-time in UTC); null while queued.' })
  sentAt?: Date | null;
  @Field(() => Date, { nullable: true, description: "When the terminal reported the command's result (an ISO 8601 date-time in UTC); null until then." })
  completedAt?: Date | null;
  @Field(() => Date, {
    nullable: true,
    description: 'When the command expires unanswered (an ISO 8601 date-time in UTC); null when it waits for as long as it takes.',
  })
  expiresAt?: Date | null;
}

@ObjectType('DeviceCommandConnection', {
  description:
    'A page of device commands: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class DeviceCommandConnection extends Connection(DeviceCommandType) {}
