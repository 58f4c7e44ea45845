import { Field, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection } from './connection';

@ObjectType('DeviceCommand', {
  description:
    "A command queued for a terminal and how it ended. The command's text is not shown (it can carry names, templates, photos): only its verb and table.",
})
export class DeviceCommandType {
  @Field(() => Int) id!: number;
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
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) sentAt?: Date | null;
  @Field(() => Date, { nullable: true }) completedAt?: Date | null;
  @Field(() => Date, { nullable: true }) expiresAt?: Date | null;
}

@ObjectType('DeviceCommandConnection')
export class DeviceCommandConnection extends Connection(DeviceCommandType) {}
