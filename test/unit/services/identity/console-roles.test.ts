import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../../src/config/config';
import { hasScope } from '../../../../src/context/request-context';
import { parseRoleMap, rolesFromClaim, scopesOfRoles } from '../../../../src/config/console-roles';

describe('console roles (single sign-on)', () => {
  it('parses value=role pairs (group ids, names with spaces, *) and names every bad entry', () => {
    const parsed = parseRoleMap(' Timegate Admins=admin, 3f2a9c1e-0000-4000-8000-000000000001=hr,*=viewer ');
    expect(parsed.problems).to.deep.equal([]);
    expect(parsed.mappings).to.deep.equal([
      { value: 'Timegate Admins', role: 'admin' },
      { value: '3f2a9c1e-0000-4000-8000-000000000001', role: 'hr' },
      { value: '*', role: 'viewer' },
    ]);
    expect(parseRoleMap('HR=boss,=admin,Security').problems).to.have.length(3);
  });

  it('gives every role whose value the claim holds (string or array, exact case), plus *; nothing for no match', () => {
    const { mappings } = parseRoleMap('Admins=admin,HR=hr,Security=security');
    expect(rolesFromClaim(['HR', 'Security', 'Sales'], mappings)).to.deep.equal(['hr', 'security']);
    expect(rolesFromClaim('Admins', mappings)).to.deep.equal(['admin']);
    expect(rolesFromClaim(['hr'], mappings)).to.deep.equal([]);
    expect(rolesFromClaim(undefined, mappings)).to.deep.equal([]);
    expect(rolesFromClaim([], parseRoleMap('*=viewer,HR=hr').mappings)).to.deep.equal(['viewer']);
  });

  it('maps roles to the API scopes: hr writes but cannot grant or open doors, security the reverse, viewer only reads', () => {
    const hr = scopesOfRoles(['hr']);
    expect([hasScope(hr, 'write'), hasScope(hr, 'doors:manage'), hasScope(hr, 'doors:unlock'), hasScope(hr, 'admin')]).to.deep.equal([
      true,
      false,
      false,
      false,
    ]);
    const security = scopesOfRoles(['security']);
    expect([hasScope(security, 'write'), hasScope(security, 'doors:manage'), hasScope(security, 'doors:unlock'), hasScope(security, 'read')]).to.deep.equal([
      false,
      true,
      true,
      true,
    ]);
    const viewer = scopesOfRoles(['viewer']);
    expect([hasScope(viewer, 'read'), hasScope(viewer, 'write')]).to.deep.equal([true, false]);
    expect(hasScope(hr, 'approve'), 'hr decides requests').to.equal(true);
    expect(scopesOfRoles(['hr', 'security'])).to.deep.equal(['write', 'approve', 'doors:manage', 'doors:unlock']);
  });

  it('configuration: the issuer must be https (http on loopback only), needs a client id, and the map must parse', () => {
    expect(() => loadConfig({ TIMEGATE_OIDC_ISSUER: 'http://idp.example.com', TIMEGATE_OIDC_CLIENT_ID: 'x' })).to.throw(ConfigError, /TIMEGATE_OIDC_ISSUER/);
    expect(() => loadConfig({ TIMEGATE_OIDC_ISSUER: 'https://idp.example.com' })).to.throw(ConfigError, /TIMEGATE_OIDC_CLIENT_ID/);
    expect(() => loadConfig({ TIMEGATE_OIDC_ROLE_MAP: 'HR=boss' })).to.throw(ConfigError, /TIMEGATE_OIDC_ROLE_MAP/);
    expect(() => loadConfig({ TIMEGATE_PUBLIC_URL: 'https://t.example.com/console' })).to.throw(ConfigError, /TIMEGATE_PUBLIC_URL/);
    const config = loadConfig({ TIMEGATE_OIDC_ISSUER: 'http://127.0.0.1:9000', TIMEGATE_OIDC_CLIENT_ID: 'x', TIMEGATE_PUBLIC_URL: 'https://t.example.com/' });
    expect(config.publicUrl).to.equal('https://t.example.com');
    expect(config.sessionMinutes).to.equal(480);
  });
});
