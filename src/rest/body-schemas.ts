import { limits } from '../services/validation';

/**
 * JSON Schemas of the REST request bodies (after the optional `{"<resource>": {...}}` wrapper is
 * removed). They check shape and types and refuse unknown fields; format rules that GraphQL
 * clients must meet too (pin characters, e-mail, uniqueness) are the services' job.
 */
export type JsonSchema = Record<string, unknown>;

const text = (maxLength: number) => ({ type: 'string', maxLength });
const nullableText = (maxLength: number) => ({ type: ['string', 'null'], maxLength });
const id = { type: 'integer', minimum: 1 };

function object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

const companyFields = { name: text(limits.companyName), code: text(limits.companyCode) };
export const createCompanyBody = object(companyFields, ['name', 'code']);
export const updateCompanyBody = object(companyFields);

const employeeFields = {
  company_id: id,
  name: text(limits.personName),
  lastname: text(limits.personName),
  code: text(limits.employeeCode),
  pin: nullableText(limits.pin),
  email: nullableText(limits.email),
  is_active: { type: 'boolean' },
};
export const createEmployeeBody = object(employeeFields, ['name', 'lastname', 'code', 'company_id']);
export const updateEmployeeBody = object(employeeFields);
