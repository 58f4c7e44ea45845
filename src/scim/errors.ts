// SCIM protocol errors (RFC 7644, section 3.12): an HTTP status, an optional `scimType` and a
// detail, sent as the `urn:ietf:params:scim:api:messages:2.0:Error` body.

export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** The `scimType` values of RFC 7644, table 9 (only with 400, and `uniqueness` with 409). */
export type ScimType =
  'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'invalidVers' | 'sensitive';

export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly scimType: ScimType | null,
    readonly detail: string,
  ) {
    super(detail);
  }

  static badRequest(scimType: ScimType, detail: string): ScimError {
    return new ScimError(400, scimType, detail);
  }

  /** The response body. */
  toBody(): { schemas: string[]; status: string; scimType?: ScimType; detail: string } {
    return { schemas: [ERROR_SCHEMA], status: String(this.status), ...(this.scimType ? { scimType: this.scimType } : {}), detail: this.detail };
  }
}
