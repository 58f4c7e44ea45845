import { GraphQLSafeInt } from 'graphql-scalars';
import { ArgsType, Field, Int, registerEnumType } from 'type-graphql';
import { ObjectType } from './object-type';
import { DoorEventClass } from '../entities/door-event.entity';
import { Connection, ConnectionArgs } from './connection';
import { DENIAL_REASONS, LOCKDOWN_REFUSAL_CODES, rtlogCodesOfReason, type DenialReason } from '../protocol';
import { Bounded } from './bounds';

/** Refusal reasons as a GraphQL enum (values = the API spelling). */
export const DoorDenialReason = Object.fromEntries(DENIAL_REASONS.map((r) => [r, r])) as Record<string, string>;

/** What each refusal reason means at the door; the rtlog codes are added from the protocol's table. */
const DENIAL_MEANINGS: Record<DenialReason, string> = {
  interval_too_short: 'The same person verified again sooner than the door allows',
  outside_schedule: "Outside the time zone (access schedule) of the person's access levels at this door",
  anti_passback: 'Anti-passback: the person has not left through an exit door since entering',
  interlock: 'Interlock: another door of the group is open',
  multi_person_wait: 'Multi-person opening: waiting for the next person of the combination',
  not_registered: 'The person, card or fingerprint is not registered on the controller, or has no access level for this door',
  expired: "The person's validity period on the controller has ended",
  wrong_password: 'The password entered is wrong',
  card_lost: 'The card is reported lost',
  blacklisted: 'The person or card is on the blocklist',
  wrong_verify_mode: "The verification does not match the door's verify mode (e.g. card and fingerprint were required)",
  background_verification_failed: 'The server-side (background) verification refused the person',
  background_verification_timeout: 'The server-side (background) verification did not answer in time',
  lockdown: `The door was locked down at that moment (generic refusal, rtlog event ${LOCKDOWN_REFUSAL_CODES.join(', ')})`,
  other: 'A refusal code outside the vendor table',
};

function denialDescription(reason: DenialReason): string {
  const codes = reason === 'lockdown' ? [] : rtlogCodesOfReason(reason);
  return codes.length ? `${DENIAL_MEANINGS[reason]} (rtlog event ${codes.join(', ')}).` : `${DENIAL_MEANINGS[reason]}.`;
}
registerEnumType(DoorDenialReason, {
  name: 'DoorDenialReason',
  description:
    'Why a controller refused someone, from its rtlog code (docs/access-control-operations.md has the table); `other` for a code outside the vendor table.',
  valuesConfig: Object.fromEntries(DENIAL_REASONS.map((reason) => [reason, { description: denialDescription(reason) }])),
});

registerEnumType(DoorEventClass, {
  name: 'DoorEventClass',
  description:
    '`granted`: a person was let in; `denied`: refused (not registered, expired, wrong time zone...); `door`: door/exit button/remote events; `alarm`: door alarms; `device`: events of the terminal itself; `unknown`: codes Timegate does not know yet (see `eventCode`).',
  valuesConfig: {
    granted: { description: 'A person was let in.' },
    denied: { description: 'A person was refused (see `reason`).' },
    door: { description: 'A door event without a person: opened, closed, exit button, remote open.' },
    alarm: { description: 'A door alarm: forced open, held open, tamper, duress.' },
    device: { description: 'An event of the terminal itself (start-up, power, cabinet).' },
    unknown: { description: 'A code Timegate does not know yet; `eventCode` has it.' },
  },
});

@ObjectType('DoorEvent', {
  description: 'An access-control event of a terminal (rtlog): door events, and every other event code it reports (none is dropped). Read-only.',
})
export class DoorEventType {
  @Field(() => GraphQLSafeInt, { description: 'A 64-bit id (see the `SafeInt` scalar).' }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this door event.' }) companyId!: number;
  @Field(() => Int, { nullable: true, description: 'Null after the device record was deleted; `deviceSerial` remains.' }) deviceId?: number | null;
  @Field({ description: 'The serial number of the terminal, as it sends it in the PUSH protocol (`SN`).' }) deviceSerial!: string;
  @Field(() => Int, { nullable: true, description: 'Door / reader address (`eventaddr`).' }) door?: number | null;
  @Field(() => Int, { description: 'Raw terminal event code (0 verified open, 8 remote open, 27 not registered, 200 door opened...).' }) eventCode!: number;
  @Field(() => DoorEventClass, { description: '`granted`, `denied`, `door`, `alarm`, `device` or `unknown`: what kind of event the rtlog code is.' })
  eventClass!: DoorEventClass;
  @Field(() => DoorDenialReason, { nullable: true, description: 'Why the person was refused; null unless `eventClass` is `denied`.' }) reason?: string | null;
  @Field({ description: 'Whether the event opened the door.' }) opened!: boolean;
  @Field(() => String, { nullable: true, description: 'Null for events without a person.' }) pin?: string | null;
  @Field(() => Int, { nullable: true, description: 'Null without a person, while the pin is unknown in the company, or after the employee was deleted.' })
  employeeId?: number | null;
  @Field({ description: 'When it happened on the terminal (an ISO 8601 date-time in UTC, from its local time and time zone).' }) time!: Date;
  @Field({ description: 'Wall-clock time on the terminal, `YYYY-MM-DD HH:MM:SS`.' }) localTime!: string;
  @Field({ description: "The IANA time zone of the terminal's clock when the event was stored, in which its local time is read." }) timeZone!: string;
  @Field(() => Int, { nullable: true, description: '0 in, 1 out, 2 none.' }) inOutStatus?: number | null;
  @Field(() => String, { nullable: true, description: 'Verify mode name, as for punches.' }) verifyType?: string | null;
  @Field(() => String, { nullable: true, description: 'Raw `verifytype` as sent.' }) verifyCode?: string | null;
  @Field(() => String, { nullable: true, description: 'The card number read, when a card was used; null otherwise.' }) cardNo?: string | null;
  @Field(() => Int, { description: 'The terminal record index (with the serial, the event identity).' }) deviceRecordIndex!: number;
  @Field({
    description: 'When the service received the event from the terminal (an ISO 8601 date-time in UTC); later than `time` when it was buffered offline.',
  })
  receivedAt!: Date;
}

@ObjectType('DoorEventConnection', {
  description:
    'A page of door events: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class DoorEventConnection extends Connection(DoorEventType) {}

@ArgsType()
export class DoorEventsArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the door events of this company (its id).' }) companyId?: number;
  @Field(() => Int, { nullable: true, description: 'Only the door events of this terminal (its id).' }) deviceId?: number;
  @Field(() => Int, { nullable: true, description: 'A door (its device and number).' }) doorId?: number;
  @Field(() => DoorEventClass, { nullable: true, description: 'Only events of this class.' }) eventClass?: DoorEventClass;
  @Field(() => Int, { nullable: true, description: 'A raw rtlog event code.' }) eventCode?: number;
  @Field(() => DoorDenialReason, { nullable: true, description: 'Refusals with this reason.' }) reason?: string;
  @Field(() => Int, { nullable: true, description: 'Only the door events of this employee (its id).' }) employeeId?: number;
  @Bounded('dateTime')
  @Field(() => String, { nullable: true, description: 'ISO 8601 date or date-time; without offset it is read in the workspace zone. Inclusive.' })
  startDate?: string;
  @Bounded('dateTime')
  @Field(() => String, { nullable: true, description: 'ISO 8601 date (that whole day) or date-time (inclusive); without offset read in the workspace zone.' })
  endDate?: string;
}
