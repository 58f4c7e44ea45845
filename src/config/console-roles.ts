import type { Scope } from '../kernel/scopes';

/**
 * The console's roles and the API scopes each one gets: a person signed in with single sign-on acts
 * with exactly these scopes, so a role can do nothing in the console that the same scopes could not
 * do with an API key. `hr` is `write` (people, shifts, shift assignments, timesheets, manual punches,
 * pay periods) plus `approve` (HR decides leave, corrections and overtime; an HR portal's key files
 * requests with `write` alone), `security` is `doors:manage` plus `doors:unlock` (doors, access levels and schedules,
 * door actions and events); both read everything, as every scope above `read` does.
 */
export const ROLE_SCOPES = {
  admin: ['admin'],
  hr: ['write', 'approve'],
  security: ['doors:manage', 'doors:unlock'],
  viewer: ['read'],
} as const satisfies Record<string, readonly Scope[]>;

export type Role = keyof typeof ROLE_SCOPES;
export const ROLES = Object.keys(ROLE_SCOPES) as Role[];

/** One line of `TIMEGATE_OIDC_ROLE_MAP`: a claim value (or `*`, anyone who signs in) and its role. */
export interface RoleMapping {
  value: string;
  role: Role;
}

/**
 * Parses `value=role,value=role`: the value is a group's name or object id, or an app role, as the
 * provider puts it in the claim; `*` matches every person. Returns the mappings and the problems.
 */
export function parseRoleMap(text: string): { mappings: RoleMapping[]; problems: string[] } {
  const mappings: RoleMapping[] = [];
  const problems: string[] = [];
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const at = entry.lastIndexOf('=');
    const value = at > 0 ? entry.slice(0, at).trim() : '';
    const role = at > 0 ? entry.slice(at + 1).trim() : '';
    if (!value || !(ROLES as string[]).includes(role)) problems.push(`"${entry}" is not value=role with a role of ${ROLES.join(', ')}`);
    else mappings.push({ value, role: role as Role });
  }
  return { mappings, problems };
}

/**
 * The roles a person gets from the claim's values (a string, or an array of strings as group
 * claims are): every mapping whose value the claim holds, compared exactly (group ids and names
 * are case-sensitive at the providers), plus the `*` mappings.
 */
export function rolesFromClaim(claim: unknown, mappings: readonly RoleMapping[]): Role[] {
  const values = new Set((Array.isArray(claim) ? claim : [claim]).filter((v): v is string => typeof v === 'string'));
  const roles = mappings.filter((m) => m.value === '*' || values.has(m.value)).map((m) => m.role);
  return ROLES.filter((role) => roles.includes(role));
}

/** The scopes of a set of roles: the union of each role's scopes. */
export function scopesOfRoles(roles: readonly Role[]): Scope[] {
  return [...new Set(roles.flatMap((role) => ROLE_SCOPES[role]))];
}
