import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A single sign-on that has left for the provider and not come back yet: kept under the SHA-256 of
 * the `state` it carries there and back and of the binding its browser holds in the sign-in cookie
 * (`signInKey`), with the PKCE verifier and nonce that only this service knows. Used once; any
 * process behind a load balancer can take the callback.
 */
@Entity({ tableName: 'console_sign_in' })
export class ConsoleSignIn {
  /** `signInKey(state, binding)`: hexadecimal SHA-256. */
  @PrimaryKey({ length: 64 })
  state!: string;

  @Property({ length: 128 })
  codeVerifier!: string;

  @Property({ length: 64 })
  nonce!: string;

  /** What the sign-in opens: `console` (a console session) or `me` (an employee's self-service session). */
  @Property({ length: 16, default: 'console' })
  purpose: string = 'console';

  @Property({ type: 'timestamptz' })
  createdAt!: Date;
}
