import { ArgsType, Field, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('UnknownTerminal', { description: 'A terminal that contacts the service with a serial number no workspace has registered yet.' })
export class UnknownTerminalType {
  @Field() serialNumber!: string;
  @Field({ description: 'Address the terminal connects from, as the service sees it.' }) ip!: string;
  @Field(() => String, { nullable: true }) model?: string | null;
  @Field(() => String, { nullable: true }) firmware?: string | null;
  @Field(() => String, { nullable: true, description: '`att-push` or `acc-push`.' }) protocol?: string | null;
  @Field() firstSeenAt!: Date;
  @Field() lastSeenAt!: Date;
  @Field(() => Int, { description: 'Requests received from it so far.' }) requestCount!: number;
}

@ObjectType('UnknownTerminalConnection')
export class UnknownTerminalConnection extends Connection(UnknownTerminalType) {}

@ArgsType()
export class UnknownTerminalsArgs extends ConnectionArgs {
  @Bounded('serialNumber')
  @Field(() => String, { nullable: true, description: 'Exact serial number (any case): shows that terminal whatever address it connects from.' })
  serialNumber?: string;
}
