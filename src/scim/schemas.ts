// The SCIM schemas this service provider serves (RFC 7643, sections 4 and 8.7.1), as data: the
// `/Schemas` endpoint returns them, and filters, PATCH and type coercion read them (case-exactness,
// booleans, multi-valued attributes, read-only attributes).

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SERVICE_PROVIDER_CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
export const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
export const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

export type AttributeType = 'string' | 'boolean' | 'decimal' | 'integer' | 'dateTime' | 'reference' | 'complex';
export type Mutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';

export interface AttributeDefinition {
  name: string;
  type: AttributeType;
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: Mutability;
  returned: 'always' | 'never' | 'default' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  subAttributes?: AttributeDefinition[];
  referenceTypes?: string[];
  canonicalValues?: string[];
}

export interface SchemaDefinition {
  id: string;
  name: string;
  description: string;
  attributes: AttributeDefinition[];
}

type Options = Partial<Omit<AttributeDefinition, 'name' | 'type'>>;

function attribute(name: string, type: AttributeType, options: Options = {}): AttributeDefinition {
  return {
    name,
    type,
    multiValued: false,
    description: '',
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...options,
  };
}

/** The sub-attributes of an e-mail, phone, address... entry (RFC 7643, section 2.4). */
function multiValuedEntry(name: string, description: string, types: string[], valueType: AttributeType = 'string'): AttributeDefinition {
  return attribute(name, 'complex', {
    multiValued: true,
    description,
    subAttributes: [
      attribute('value', valueType),
      attribute('display', 'string'),
      attribute('type', 'string', { canonicalValues: types }),
      attribute('primary', 'boolean'),
    ],
  });
}

const memberReference = (name: string, mutability: Mutability, description: string) =>
  attribute(name, 'complex', {
    multiValued: true,
    mutability,
    description,
    subAttributes: [
      attribute('value', 'string', { mutability: mutability === 'readOnly' ? 'readOnly' : 'immutable', caseExact: true }),
      attribute('$ref', 'reference', { mutability: mutability === 'readOnly' ? 'readOnly' : 'immutable', referenceTypes: ['User', 'Group'] }),
      attribute('display', 'string', { mutability: 'readOnly' }),
      attribute('type', 'string', { mutability: 'immutable', canonicalValues: ['User', 'Group'] }),
    ],
  });

/** Attributes every resource has (RFC 7643, section 3.1). */
const COMMON: AttributeDefinition[] = [
  attribute('id', 'string', { caseExact: true, mutability: 'readOnly', returned: 'always', uniqueness: 'server' }),
  attribute('externalId', 'string', { caseExact: true, description: "The directory's own identifier of the resource." }),
  attribute('meta', 'complex', {
    mutability: 'readOnly',
    subAttributes: [
      attribute('resourceType', 'string', { mutability: 'readOnly', caseExact: true }),
      attribute('created', 'dateTime', { mutability: 'readOnly' }),
      attribute('lastModified', 'dateTime', { mutability: 'readOnly' }),
      attribute('location', 'reference', { mutability: 'readOnly', caseExact: true }),
      attribute('version', 'string', { mutability: 'readOnly', caseExact: true }),
    ],
  }),
];

export const USER: SchemaDefinition = {
  id: USER_SCHEMA,
  name: 'User',
  description: 'A person of the company: an employee in Timegate.',
  attributes: [
    attribute('userName', 'string', { required: true, uniqueness: 'server', description: 'Unique in the company (case-insensitive).' }),
    attribute('name', 'complex', {
      subAttributes: ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'].map((n) => attribute(n, 'string')),
    }),
    ...['displayName', 'nickName', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone'].map((n) => attribute(n, 'string')),
    attribute('profileUrl', 'reference', { referenceTypes: ['external'] }),
    attribute('active', 'boolean', { description: 'false removes the person from every terminal; true restores them.' }),
    attribute('password', 'string', { mutability: 'writeOnly', returned: 'never', caseExact: true }),
    multiValuedEntry('emails', 'E-mail addresses; the primary one (or the first) is the employee e-mail.', ['work', 'home', 'other']),
    multiValuedEntry('phoneNumbers', 'Phone numbers.', ['work', 'home', 'mobile', 'fax', 'pager', 'other']),
    multiValuedEntry('ims', 'Instant messaging addresses.', ['aim', 'gtalk', 'icq', 'xmpp', 'msn', 'skype', 'qq', 'yahoo']),
    multiValuedEntry('photos', 'Photo URLs.', ['photo', 'thumbnail'], 'reference'),
    attribute('addresses', 'complex', {
      multiValued: true,
      subAttributes: [
        ...['formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country', 'type'].map((n) => attribute(n, 'string')),
        attribute('primary', 'boolean'),
      ],
    }),
    memberReference('groups', 'readOnly', 'Groups the user belongs to (changed through the groups).'),
    multiValuedEntry('entitlements', 'Entitlements.', []),
    multiValuedEntry('roles', 'Roles.', []),
    multiValuedEntry('x509Certificates', 'Certificates.', [], 'string'),
  ],
};

export const ENTERPRISE_USER: SchemaDefinition = {
  id: ENTERPRISE_USER_SCHEMA,
  name: 'EnterpriseUser',
  description: 'Enterprise User',
  attributes: [
    attribute('employeeNumber', 'string', { description: 'The employee code; also the terminal PIN when it is a valid, free PIN.' }),
    ...['costCenter', 'organization', 'division', 'department'].map((n) => attribute(n, 'string')),
    attribute('manager', 'complex', {
      subAttributes: [
        attribute('value', 'string', { caseExact: true }),
        attribute('$ref', 'reference', { referenceTypes: ['User'] }),
        attribute('displayName', 'string', { mutability: 'readOnly' }),
      ],
    }),
  ],
};

export const GROUP: SchemaDefinition = {
  id: GROUP_SCHEMA,
  name: 'Group',
  description: 'A directory group; mapped to an area and access levels it decides terminals and doors.',
  attributes: [
    attribute('displayName', 'string', { required: true, uniqueness: 'server' }),
    memberReference('members', 'readWrite', 'The users of the group.'),
  ],
};

/** Every schema with its common attributes, by lower-cased URN. */
const BY_URN = new Map<string, SchemaDefinition>([USER, ENTERPRISE_USER, GROUP].map((s) => [s.id.toLowerCase(), s]));

export function schemaByUrn(urn: string): SchemaDefinition | undefined {
  return BY_URN.get(urn.toLowerCase());
}

/** The definition of `attr` (and `sub`) in a resource of `core` schema (or its `extension`), or undefined. */
export function findAttribute(core: SchemaDefinition, schemaUrn: string | null, attr: string, sub?: string | null): AttributeDefinition | undefined {
  const schema = schemaUrn === null ? core : schemaByUrn(schemaUrn);
  if (!schema) return undefined;
  const all = schema === core ? [...COMMON, ...schema.attributes] : schema.attributes;
  const top = all.find((a) => a.name.toLowerCase() === attr.toLowerCase());
  if (!top || !sub) return top;
  return top.subAttributes?.find((a) => a.name.toLowerCase() === sub.toLowerCase());
}

/** The schema as `/Schemas` returns it (with its meta). */
export function schemaResource(schema: SchemaDefinition, baseUrl: string) {
  return {
    schemas: [SCHEMA_SCHEMA],
    id: schema.id,
    name: schema.name,
    description: schema.description,
    attributes: schema.attributes,
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${schema.id}` },
  };
}
