import type { AuthChecker } from 'type-graphql';
import { DomainError } from '../errors/domain-error';
import { hasScope, type RequestContext, type Scope } from '../context/request-context';

/**
 * `@Authorized(...roles)`: the caller needs ANY of the roles. A role is a key scope or `operator`
 * (the master key). A valid key without the role is `forbidden` (403), never `unauthenticated`.
 */
export const authChecker: AuthChecker<RequestContext> = ({ context }, roles) => {
  const { principal } = context;
  const allowed = roles.some((role) =>
    role === 'operator' ? principal.kind === 'operator' : principal.kind === 'workspace' && hasScope(principal.scopes, role as Scope),
  );
  if (!allowed) {
    const needs = roles.map((role) => (role === 'operator' ? 'the operator key' : `the "${role}" scope`)).join(' or ');
    throw new DomainError('forbidden', `This operation needs ${needs}.`);
  }
  return true;
};
