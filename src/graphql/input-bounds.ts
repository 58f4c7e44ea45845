import {
  defaultFieldResolver,
  getNullableType,
  isInputObjectType,
  isListType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLFieldResolver,
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { DomainError, type FieldProblem } from '../errors/domain-error';
import { codePoints } from '../services/common/validation';
import { boundOf, type Bound } from '../schema/bounds';

/** Checks one coerced value at `path`, adding what is wrong to `problems`. */
type Check = (value: unknown, path: string, problems: FieldProblem[]) => void;

/**
 * Enforces the `@constraint` bounds (src/schema/bounds.ts) of every argument and input field before
 * the resolver runs: an over-long string or an over-long list fails its field with
 * `validation_failed`, naming it in `details` (`search`, `name`, `punches.0.punchTime`), before any
 * query, audit row or computation. The resolvers of the fields that have bounded arguments are
 * wrapped once the schema is built (after the audit wrapper, so the check comes first); every
 * transport runs them: GraphQL over HTTP and WebSocket (subscriptions included) and the REST routes.
 */
export function enforceInputBounds(schema: GraphQLSchema): GraphQLSchema {
  const inputChecks = new Map<string, Check | null | undefined>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const check = argumentsCheck(field.args, inputChecks);
      if (!check) continue;
      const resolve = field.resolve ?? (defaultFieldResolver as GraphQLFieldResolver<unknown, unknown>);
      field.resolve = (root, args, context, info) => {
        check(args);
        return resolve(root, args, context, info);
      };
      const subscribe = field.subscribe;
      if (subscribe) {
        field.subscribe = (root, args, context, info) => {
          check(args);
          return subscribe(root, args, context, info);
        };
      }
    }
  }
  return schema;
}

/** A check of a field's arguments that throws the validation error, or null when none is bounded. */
function argumentsCheck(
  args: readonly GraphQLArgument[],
  inputChecks: Map<string, Check | null | undefined>,
): ((args: Record<string, unknown>) => void) | null {
  const checks: { name: string; prefix: string; check: Check }[] = [];
  for (const arg of args) {
    const check = valueCheck(arg.type, arg, inputChecks);
    // The one `input` argument of a mutation names its fields as the services do (`name`, not `input.name`).
    if (check) checks.push({ name: arg.name, prefix: arg.name === 'input' ? '' : arg.name, check });
  }
  if (checks.length === 0) return null;
  return (values) => {
    const problems: FieldProblem[] = [];
    for (const { name, prefix, check } of checks) {
      const value = values[name];
      if (value !== undefined && value !== null) check(value, prefix, problems);
    }
    if (problems.length > 0) throw DomainError.invalid(problems);
  };
}

/** The check of a value of `type` declared at `where` (its bound applies to strings and lists of strings). */
function valueCheck(type: GraphQLInputType, where: GraphQLArgument | GraphQLInputField, inputChecks: Map<string, Check | null | undefined>): Check | null {
  const nullable = getNullableType(type);
  const bound = boundOf(where);
  if (isListType(nullable)) {
    const item = valueCheck(nullable.ofType as GraphQLInputType, where, inputChecks);
    const maxItems = bound?.maxItems;
    if (!item && maxItems === undefined) return null;
    return (value, path, problems) => {
      if (!Array.isArray(value)) return;
      if (maxItems !== undefined && value.length > maxItems) {
        problems.push({ field: path, code: 'too_many_items', message: `${path} may hold at most ${maxItems} items.` });
        return;
      }
      if (item) value.forEach((entry, i) => entry !== null && entry !== undefined && item(entry, join(path, String(i)), problems));
    };
  }
  if (isScalarType(nullable)) return bound ? stringCheck(bound) : null;
  if (isInputObjectType(nullable)) return inputObjectCheck(nullable, inputChecks);
  return null;
}

function stringCheck(bound: Bound): Check {
  const max = bound.maxLength;
  return (value, path, problems) => {
    if (typeof value !== 'string' || value.length <= max) return;
    // A UTF-16 length over twice the limit is over it in code points too, without counting 800 KB.
    if (value.length > 2 * max || codePoints(value) > max) {
      problems.push({ field: path, code: 'too_long', message: `${path} must be at most ${max} characters long.` });
    }
  };
}

/** The check of an input object's bounded fields; memoised per type (a type may contain itself). */
function inputObjectCheck(type: GraphQLInputObjectType, inputChecks: Map<string, Check | null | undefined>): Check | null {
  if (inputChecks.has(type.name)) {
    const known = inputChecks.get(type.name);
    // undefined: still being built (the type contains itself), looked up when a value arrives.
    return known !== undefined ? known : (value, path, problems) => inputChecks.get(type.name)?.(value, path, problems);
  }
  inputChecks.set(type.name, undefined);
  const fields: { name: string; check: Check }[] = [];
  for (const field of Object.values(type.getFields())) {
    const check = valueCheck(field.type, field, inputChecks);
    if (check) fields.push({ name: field.name, check });
  }
  const check: Check | null =
    fields.length === 0
      ? null
      : (value, path, problems) => {
          if (value === null || typeof value !== 'object') return;
          const record = value as Record<string, unknown>;
          for (const field of fields) {
            const child = record[field.name];
            if (child !== undefined && child !== null) field.check(child, join(path, field.name), problems);
          }
        };
  inputChecks.set(type.name, check);
  return check;
}

const join = (path: string, name: string) => (path ? `${path}.${name}` : name);
