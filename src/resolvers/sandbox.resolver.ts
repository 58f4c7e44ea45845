import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as sandboxes from '../services/sandbox/sandbox.service';
import * as virtualTerminals from '../services/sandbox/virtual-terminal.service';
import { SandboxSeedType, VirtualTerminalInput, VirtualTerminalTriggerInput, VirtualTerminalTriggerType, VirtualTerminalType } from '../schema/sandbox.type';

// Sandbox workspaces (docs/sandbox.md): their virtual terminals and their reset. Every operation
// answers 403 `sandbox_only` with a live workspace's key.
@Resolver(() => VirtualTerminalType)
export class SandboxResolver {
  @Authorized('read')
  @Query(() => [VirtualTerminalType], { description: "The sandbox's virtual terminals (every device of a sandbox is one), by device id." })
  virtualTerminals(@Ctx() ctx: RequestContext) {
    return virtualTerminals.listVirtualTerminals(ctx);
  }

  @Authorized('read')
  @Query(() => VirtualTerminalType, { description: "One virtual terminal of the sandbox, by its device's id." })
  virtualTerminal(@Ctx() ctx: RequestContext, @Arg('deviceId', () => Int, { description: 'The device id.' }) deviceId: number) {
    return virtualTerminals.getVirtualTerminal(ctx, deviceId);
  }

  @Authorized('write')
  @Mutation(() => VirtualTerminalType, {
    description: "Changes a virtual terminal's punch schedule (rate or daily pattern, speed, on/off); the simulated clock starts again now.",
  })
  updateVirtualTerminal(
    @Ctx() ctx: RequestContext,
    @Arg('deviceId', () => Int, { description: 'The device id.' }) deviceId: number,
    @Arg('input', { description: 'The schedule to change: a field left out keeps its value; a bad value is `validation_failed` and changes nothing.' })
    input: VirtualTerminalInput,
  ) {
    return virtualTerminals.updateVirtualTerminal(ctx, deviceId, input);
  }

  @Authorized('write')
  @Mutation(() => VirtualTerminalTriggerType, {
    description: "Makes something happen at a virtual terminal now: a punch, a stranger's badge, a door alarm (carried out within TIMEGATE_SANDBOX_POLL_MS).",
  })
  triggerVirtualTerminal(
    @Ctx() ctx: RequestContext,
    @Arg('deviceId', () => Int, { description: 'The device id.' }) deviceId: number,
    @Arg('input', { description: 'What to make happen and with whom; a bad value is `validation_failed` and queues nothing.' })
    input: VirtualTerminalTriggerInput,
  ) {
    return virtualTerminals.triggerVirtualTerminal(ctx, deviceId, input);
  }

  @Authorized('admin')
  @Mutation(() => SandboxSeedType, {
    description:
      "Deletes every row of the sandbox but its keys, webhook endpoints and audit log, and seeds it anew (new virtual terminals); returns the new seed's ids.",
  })
  resetSandbox(@Ctx() ctx: RequestContext) {
    return sandboxes.resetSandbox(ctx);
  }
}
