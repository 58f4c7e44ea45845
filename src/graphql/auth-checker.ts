import type { AuthChecker } from 'type-graphql';
import { DomainError } from '../errors/domain-error';
import { hasScope, type RequestContext, type Scope } from '../context/request-context';

/**
 * `@Authorized(...roles)`: the caller needs ANY of the roles. A role is a key scope, `operator` (the
 * master key) or `employee` (an employee acting for themself: the `me` fields, docs/self-service.md).
 * A valid key without the role is `forbidden` (403), never `unauthenticated`. An employee principal
 * holds no scope, so every field for keys refuses it; the services refuse it again (`workspaceOf`).
 */
export const authChecker: AuthChecker<RequestContext> = ({ context }, roles) => {
  const { principal } = context;
  const allowed = roles.some((role) =>
    role === 'operator'
      ? principal.kind === 'operator'
      : role === 'employee'
        ? principal.kind === 'employee'
        : principal.kind === 'workspace' && hasScope(principal.scopes, role as Scope),
  );
  if (!allowed) {
    if (principal.kind === 'employee')
      throw new DomainError('forbidden', 'An employee token or self-service session acts only as its employee, through /public/v2/me and GraphQL `me`.');
    const needs = roles
      .map((role) => (role === 'operator' ? 'the operator key' : role === 'employee' ? 'an employee token' : `the "${role}" scope`))
      .join(' or ');
    throw new DomainError('forbidden', `This operation needs ${needs}.`);
  }
  return true;
};
