import { ArgsType, Field, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('UnknownTerminal', { description: 'A terminal that contacts the service with a serial number no workspace has registered yet.' })
export class UnknownTerminalType {
  @Field({ description: 'The serial number of the terminal, as it sends it in the PUSH protocol (`SN`).' }) serialNumber!: string;
  @Field({ description: 'Address the terminal connects from, as the service sees it.' }) ip!: string;
  @Field(() => String, { nullable: true, description: 'The model the terminal reported in its handshake; null when not reported.' }) model?: string | null;
  @Field(() => String, { nullable: true, description: 'The firmware version it reported in its handshake; null when not reported.' }) firmware?: string | null;
  @Field(() => String, { nullable: true, description: '`att-push` or `acc-push`.' }) protocol?: string | null;
  @Field({ description: 'When it first contacted the service (an ISO 8601 date-time in UTC).' }) firstSeenAt!: Date;
  @Field({ description: 'When it last contacted the service (an ISO 8601 date-time in UTC).' }) lastSeenAt!: Date;
  @Field(() => Int, { description: 'Requests received from it so far.' }) requestCount!: number;
}

@ObjectType('UnknownTerminalConnection', {
  description:
    'A page of unknown terminals: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class UnknownTerminalConnection extends Connection(UnknownTerminalType) {}

@ArgsType()
export class UnknownTerminalsArgs extends ConnectionArgs {
  @Bounded('serialNumber')
  @Field(() => String, { nullable: true, description: 'Exact serial number (any case): shows that terminal whatever address it connects from.' })
  serialNumber?: string;
}
