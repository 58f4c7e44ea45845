import * as oidc from 'openid-client';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config/config';
import { rememberSignIn, signInWorkspace, takeSignIn, type SignedInPerson, type SignInPurpose } from './console-session.service';
import type { ProviderIdentity } from './employee-access.service';
import { rolesFromClaim, scopesOfRoles } from '../../config/console-roles';

/** Why a sign-in came back without a session; the console says it in words. */
export type SignInRefusal = 'expired' | 'failed' | 'no_role' | 'other_browser';

export class SignInRefused extends Error {
  constructor(
    readonly reason: SignInRefusal,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The console's single sign-on with OpenID Connect: authorisation code flow with PKCE (S256), a
 * `state` and a `nonce`, against the provider found by discovery at the issuer. The provider's
 * metadata is fetched once per process (again after a failure). The claims of the ID token and of
 * the userinfo answer are read together: Entra ID puts groups in the ID token, Okta and others
 * may answer them from userinfo only.
 */
export class OidcSignIn {
  private provider: Promise<oidc.Configuration> | null = null;

  constructor(private readonly config: Config) {}

  static configured(config: Config): boolean {
    return config.oidcIssuer !== null && config.oidcClientId !== null;
  }

  private discover(): Promise<oidc.Configuration> {
    const { oidcIssuer, oidcClientId, oidcClientSecret } = this.config;
    const issuer = new URL(oidcIssuer!);
    // http is accepted for a loopback issuer only (the configuration refuses it elsewhere).
    const insecure = issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined;
    const auth = oidcClientSecret === null ? oidc.None() : oidc.ClientSecretBasic(oidcClientSecret);
    this.provider ??= oidc.discovery(issuer, oidcClientId!, undefined, auth, insecure).catch((error: unknown) => {
      this.provider = null;
      throw error;
    });
    return this.provider;
  }

  /**
   * The provider's address to send the browser to; the sign-in's secrets stay in the database, kept
   * under its state and `binding` (the value of the browser's sign-in cookie).
   */
  async start(em: EntityManager, redirectUri: string, binding: string, now: Date, purpose: SignInPurpose = 'console'): Promise<URL> {
    const provider = await this.discover();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    await rememberSignIn(em, { state, binding, codeVerifier, nonce, purpose }, now);
    return oidc.buildAuthorizationUrl(provider, {
      redirect_uri: redirectUri,
      scope: this.config.oidcScopes,
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
  }

  /**
   * The provider's answer at the callback (`callbackUrl`, with its code and state): the code is
   * exchanged (with the PKCE verifier), the ID token checked (signature, issuer, audience, nonce),
   * and the person's roles read from the role claim. Refuses a person with no role, and a callback
   * whose browser does not hold the sign-in's binding (`binding`: its sign-in cookie, or null): the
   * state and nonce count only in the browser that started the sign-in.
   */
  async finish(
    em: EntityManager,
    callbackUrl: URL,
    binding: string | null,
    now: Date,
  ): Promise<SignedInPerson & { purpose: SignInPurpose; identity: ProviderIdentity }> {
    const state = callbackUrl.searchParams.get('state');
    if (binding === null) throw new SignInRefused('other_browser', 'The callback came without the sign-in cookie: the sign-in was started in another browser.');
    const signIn = state ? await takeSignIn(em, state, binding, now) : null;
    if (!signIn) throw new SignInRefused('expired', 'The sign-in is unknown, was used already, took too long or was started in another browser.');
    if (callbackUrl.searchParams.has('error')) {
      throw new SignInRefused(
        'failed',
        `The provider answered ${callbackUrl.searchParams.get('error')}: ${callbackUrl.searchParams.get('error_description') ?? ''}`,
      );
    }
    const provider = await this.discover();
    let claims: Record<string, unknown>;
    try {
      const tokens = await oidc.authorizationCodeGrant(provider, callbackUrl, {
        pkceCodeVerifier: signIn.codeVerifier,
        expectedState: state!,
        expectedNonce: signIn.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims()!;
      const userInfo = provider.serverMetadata().userinfo_endpoint ? await oidc.fetchUserInfo(provider, tokens.access_token, idClaims.sub) : {};
      claims = { ...userInfo, ...idClaims };
    } catch (error) {
      throw new SignInRefused('failed', `The provider's answer was refused: ${error instanceof Error ? error.message : String(error)}`);
    }
    const roles = rolesFromClaim(claims[this.config.oidcRoleClaim], this.config.oidcRoleMap);
    const subject = String(claims.sub);
    // An employee signing in to the self-service app needs no console role: who they are is matched
    // to an employee instead (docs/self-service.md).
    if (roles.length === 0 && signIn.purpose === 'console')
      throw new SignInRefused('no_role', `The person ${subject} has no console role (claim ${this.config.oidcRoleClaim}).`);
    const text = (value: unknown, max: number) => (typeof value === 'string' && value !== '' ? value.slice(0, max) : null);
    const strings = (...values: unknown[]) => values.filter((v): v is string => typeof v === 'string' && v !== '' && v.length <= 320);
    return {
      purpose: signIn.purpose,
      identity: { directoryIds: strings(claims.oid, claims.sub), names: strings(claims.email, claims.preferred_username, claims.upn) },
      workspaceId: await signInWorkspace(em, this.config.oidcWorkspaceId),
      subject: subject.slice(0, 255),
      email: text(claims.email, 320) ?? text(claims.preferred_username, 320),
      name: text(claims.name, 200),
      roles,
      scopes: scopesOfRoles(roles),
    };
  }
}
