import { Arg, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import * as apiKeys from '../services/identity/api-key.service';
import { scimSyncOf } from '../services/provisioning/scim-activity.service';
import type { RequestContext } from '../context/request-context';
import { ApiKeyType, CreateApiKeyInput, ScimSyncType } from '../schema/api-key.type';

@Resolver(() => ApiKeyType)
export class ApiKeyResolver {
  @Authorized('admin', 'operator')
  @Query(() => [ApiKeyType], { description: 'Keys of a workspace (secrets are never shown again).' })
  apiKeys(
    @Ctx() ctx: RequestContext,
    @Arg('workspaceId', () => Int, {
      nullable: true,
      description: "The workspace whose keys to list (an operator key only); the caller's own workspace when left out.",
    })
    workspaceId?: number,
  ) {
    return apiKeys.listApiKeys(ctx, workspaceId ?? undefined);
  }

  @Authorized('read', 'doors:unlock')
  @Query(() => ApiKeyType, { description: 'The key making this request: its name and scopes (what a client may offer its user).' })
  currentApiKey(@Ctx() ctx: RequestContext) {
    return apiKeys.currentApiKey(ctx);
  }

  @Authorized('admin', 'operator')
  @Mutation(() => ApiKeyType, { description: 'Creates a key; its `key` is in this response only.' })
  async createApiKey(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateApiKeyInput,
  ) {
    const issued = await apiKeys.createApiKey(ctx, { ...input, workspaceId: input.workspaceId ?? undefined });
    return { ...issued.apiKey, key: issued.key };
  }

  @Authorized('admin', 'operator')
  @Mutation(() => ApiKeyType, {
    description: 'Revokes a key at once: every later request with it is refused (`unauthenticated`). Returns the key with `revokedAt` set.',
  })
  revokeApiKey(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The API key's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return apiKeys.revokeApiKey(ctx, id);
  }

  @FieldResolver(() => ScimSyncType, {
    nullable: true,
    description:
      "A `scim` key's last sync (when the directory last called, its last change and error) and what its company's directory provisioned; null for other keys.",
  })
  scimSync(@Ctx() ctx: RequestContext, @Root() key: ApiKeyType) {
    return scimSyncOf(ctx, key);
  }
}
