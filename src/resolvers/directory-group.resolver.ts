import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as directoryGroups from '../services/provisioning/scim-groups.service';
import { DirectoryGroupMappingInput, DirectoryGroupType } from '../schema/directory-group.type';
import { Bounded } from '../schema/bounds';

@Resolver(() => DirectoryGroupType)
export class DirectoryGroupResolver {
  @Authorized('read')
  @Query(() => [DirectoryGroupType], { description: 'Directory groups provisioned over SCIM, with their mapping.' })
  directoryGroups(
    @Ctx() ctx: RequestContext,
    @Arg('companyId', () => Int, { nullable: true, description: "The company's id; one of another workspace, or none, answers `not_found`." })
    companyId?: number,
  ) {
    return directoryGroups.listDirectoryGroups(ctx, companyId ?? undefined);
  }

  @Authorized('read')
  @Query(() => DirectoryGroupType, { description: 'The directory group with this id; one of another workspace, or none, answers `not_found`.' })
  directoryGroup(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => ID, { description: "The directory group's id; an id that is not one of this workspace's answers `not_found`." })
    @Bounded('identifier')
    id: string,
  ) {
    return directoryGroups.getDirectoryGroup(ctx, id);
  }

  @Authorized('admin')
  @Mutation(() => DirectoryGroupType, {
    description: 'Maps a directory group to an area and access levels of its company: its members get them (and lose them on leaving the group).',
  })
  setDirectoryGroupMapping(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => ID, {
      description: "The directory group's id (the id the directory sent through SCIM); a group of another workspace, or none, answers `not_found`.",
    })
    @Bounded('identifier')
    id: string,
    @Arg('input', { description: "What the group's members get: an area and access levels of its company." }) input: DirectoryGroupMappingInput,
  ) {
    return directoryGroups.setDirectoryGroupMapping(ctx, id, { areaId: input.areaId ?? null, accessLevelIds: input.accessLevelIds });
  }
}
