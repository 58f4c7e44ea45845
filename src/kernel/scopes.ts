// What an API key or a console role may do. Here rather than with the request context so that the
// configuration (console roles map to scopes) can name scopes without importing a service.

export const SCOPES = ['read', 'write', 'admin', 'doors:unlock', 'doors:manage', 'approve', 'scim'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * `admin` grants everything in its workspace; `write`, `doors:manage` and `approve` include `read`.
 * `doors:manage` (who may pass which door when: access levels, schedules, members) is apart from
 * `write` because a grant is permanent door access, and apart from `doors:unlock` (opening a door
 * now) so that a key can open doors without being able to change people or grants, and the reverse.
 * Beyond the operation, a request needs the scope of its effect on doors (`requireScopeFor`,
 * `insufficient_scope`): people on access controllers need `doors:manage`, rules that open, hold
 * open, evacuate or lock down unattended need `doors:unlock` as well.
 * `approve` (deciding absence requests, punch corrections and overtime approvals) is apart from
 * `write` so that the HR portal that files requests for employees cannot also grant them.
 * `scim` is apart from all: a directory's token reaches `/scim/v2` of one company and nothing else,
 * and no other key (admin included) reaches `/scim/v2` (isScimPrincipal).
 * docs/security.md has the scope table.
 */
export function hasScope(granted: readonly Scope[], needed: Scope): boolean {
  if (needed === 'scim') return granted.includes('scim');
  if (granted.includes('scim')) return false;
  if (granted.includes('admin') || granted.includes(needed)) return true;
  return needed === 'read' && (granted.includes('write') || granted.includes('doors:manage') || granted.includes('approve'));
}
