import { ObjectType as TypeGraphQLObjectType, type ObjectTypeOptions } from 'type-graphql';

/**
 * type-graphql's `@ObjectType` with `simpleResolvers` on. Without it every plain field gets a
 * wrapper resolver that runs the middleware stack (we have none: scopes are checked on queries and
 * mutations, never on object fields) and reads the property; with it a field is read directly, which
 * graphql-jit compiles to a property access. A list of 100 employees is ~1,100 such fields.
 * `@FieldResolver` methods are unaffected.
 */
export function ObjectType(nameOrOptions?: string | ObjectTypeOptions, maybeOptions?: ObjectTypeOptions): ClassDecorator {
  if (typeof nameOrOptions === 'string') return TypeGraphQLObjectType(nameOrOptions, { simpleResolvers: true, ...maybeOptions });
  return TypeGraphQLObjectType({ simpleResolvers: true, ...nameOrOptions });
}
