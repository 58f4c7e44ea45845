import { Args, Authorized, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as unknownTerminals from '../services/terminals/unknown-terminal.service';
import { pageRequest, toConnection } from '../schema/connection';
import { UnknownTerminalConnection, UnknownTerminalsArgs, UnknownTerminalType } from '../schema/unknown-terminal.type';

@Resolver(() => UnknownTerminalType)
export class UnknownTerminalResolver {
  @FieldResolver(() => ID, { description: 'The serial number (upper case): one entry per terminal.' })
  id(@Root() terminal: { serialNumber: string }): string {
    return terminal.serialNumber.toUpperCase();
  }

  /** Admin only: it reveals terminals and addresses at the workspace's sites. */
  @Authorized('admin')
  @Query(() => UnknownTerminalConnection, {
    description:
      'Unclaimed terminals connecting from an address one of your terminals uses, or the one with the exact serialNumber given. Create a device with that serial to claim it.',
  })
  async unknownTerminals(@Ctx() ctx: RequestContext, @Args() { serialNumber, ...page }: UnknownTerminalsArgs) {
    return toConnection(await unknownTerminals.listUnknownTerminals(ctx, { serialNumber: serialNumber ?? undefined }, pageRequest(page)));
  }
}
