import { ScimError } from '../../scim/errors';
import { isScimPrincipal, type RequestContext } from '../../context/request-context';

/** The workspace and company a SCIM token provisions. */
export interface ScimScope {
  workspaceId: number;
  companyId: number;
}

/** The caller's SCIM scope; any caller but a `scim` key is refused (403). */
export function scimScope(ctx: RequestContext): ScimScope {
  const principal = ctx.principal;
  if (!isScimPrincipal(principal)) throw new ScimError(403, null, 'Only an API key with the "scim" scope, bound to a company, may use /scim/v2.');
  return { workspaceId: principal.workspaceId, companyId: principal.companyId };
}
