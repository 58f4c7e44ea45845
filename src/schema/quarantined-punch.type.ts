import { ArgsType, Field, Int, registerEnumType } from 'type-graphql';
import { QuarantineReason } from '../entities/quarantined-punch.entity';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';

registerEnumType(QuarantineReason, {
  name: 'QuarantineReason',
  description: 'Why a terminal punch was quarantined instead of stored.',
  valuesConfig: {
    before_2000: { description: 'Dated before 2000-01-01 on the terminal.' },
    ahead_of_terminal_clock: { description: "More than a day ahead of the terminal's own clock (measured on its real-time records)." },
    ahead_of_server_time: { description: "More than a day ahead of the server's time (the terminal's clock was not known)." },
  },
});

@ObjectType('QuarantinedPunch', {
  description:
    'A terminal punch whose date cannot be true (before 2000, or more than a day ahead of the terminal clock): kept for inspection, never a punch, a timesheet day or an event. Re-sent records are kept once.',
})
export class QuarantinedPunchType {
  @Field(() => Int, { description: 'Id of the quarantined record.' }) id!: number;
  @Field(() => Int, { description: "The terminal's company." }) companyId!: number;
  @Field(() => Int, { nullable: true, description: 'The terminal; null once its device record is deleted.' }) deviceId?: number | null;
  @Field({ description: "The terminal's serial number." }) deviceSerial!: string;
  @Field({ description: 'The PIN the record names, as the terminal knows it.' }) pin!: string;
  @Field({ description: 'The raw time exactly as the terminal sent it (`YYYY-MM-DD HH:MM:SS`, its wall clock).' }) localTime!: string;
  @Field({ description: "The device's IANA zone when the record arrived." }) timeZone!: string;
  @Field({ description: '`localTime` read in `timeZone`.' }) punchTime!: Date;
  @Field(() => QuarantineReason, { description: 'Why it was quarantined.' }) reason!: QuarantineReason;
  @Field(() => Int, { nullable: true, description: "The terminal's clock minus the real time, in seconds, when the record arrived; null when unknown." })
  clockSkewSeconds?: number | null;
  @Field({ description: 'Raw attendance state value.' }) punchState!: string;
  @Field(() => String, { nullable: true, description: 'Verify-mode name, as for punches.' }) verifyType?: string | null;
  @Field(() => Int, { nullable: true, description: 'Raw verify-mode code.' }) verifyCode?: number | null;
  @Field(() => String, { nullable: true, description: 'Work code, when the terminal sent one.' }) workCode?: string | null;
  @Field(() => Int, { nullable: true, description: 'Access-control record index (rtlog); null for attendance uploads.' }) deviceRecordIndex?: number | null;
  @Field({ description: 'When the terminal first sent it.' }) receivedAt!: Date;
}

@ObjectType('QuarantinedPunchConnection', { description: 'A page of quarantined punches, newest first.' })
export class QuarantinedPunchConnection extends Connection(QuarantinedPunchType) {}

@ArgsType()
export class QuarantinedPunchesArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the records of this device.' }) deviceId?: number;
  @Field(() => Int, { nullable: true, description: 'Only the records of terminals of this company.' }) companyId?: number;
  @Field(() => QuarantineReason, { nullable: true, description: 'Only the records quarantined for this reason.' }) reason?: QuarantineReason;
}
