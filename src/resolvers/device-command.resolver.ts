import { Arg, Args, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import { listDeviceCommands } from '../services/terminals/device-command-list.service';
import { ConnectionArgs, pageRequest, toConnection } from '../schema/connection';
import { DeviceCommandConnection, DeviceCommandType } from '../schema/device-command.type';
import { Bounded, maxChars } from '../schema/bounds';

@Resolver(() => DeviceCommandType)
export class DeviceCommandResolver {
  @Authorized('read')
  @Query(() => DeviceCommandConnection, {
    description: 'A device\'s commands, newest first; `status` keeps only those (e.g. ["queued", "sent"] for pending, ["failed"]).',
  })
  async deviceCommands(
    @Ctx() ctx: RequestContext,
    @Arg('deviceId', () => Int, { description: "The terminal (device)'s id; one of another workspace, or none, answers `not_found`." }) deviceId: number,
    @Args() args: ConnectionArgs,
    @Arg('status', () => [String], {
      nullable: true,
      description: `Only commands of these statuses (\`queued\`, \`sent\`, \`succeeded\`, \`failed\`, \`expired\`): ${maxChars('keyword')} each.`,
    })
    @Bounded('keyword', { items: 'keywords' })
    status?: string[] | null,
  ) {
    return toConnection(await listDeviceCommands(ctx, deviceId, status ?? null, pageRequest(args)));
  }
}
