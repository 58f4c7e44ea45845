import { DirectiveLocation, getDirectiveValues, GraphQLDirective, GraphQLInt, GraphQLNonNull, type GraphQLArgument, type GraphQLInputField } from 'graphql';
import { Directive } from 'type-graphql';
import { listLimits, textLimits, type ListLimit, type TextLimit } from '../services/common/input-limits';

/**
 * How a GraphQL argument or input field declares its bound: the `@constraint` directive, applied
 * with the `@Bounded(...)` decorator beside `@Field`/`@Arg`, and naming a limit of the one table
 * (src/services/common/input-limits.ts) that the REST JSON Schemas and the services read too.
 *
 * A directive, rather than a scalar of its own per bound, keeps every argument's type `String` (a
 * client's `$search: String` variable stays valid), and is part of the schema itself: the bound is
 * in the field's definition (`astNode`), where the enforcement (src/graphql/input-bounds.ts) and the
 * test that every string has one (test/unit/graphql-bounds.test.ts) read it, and in schema.graphql.
 * The name and arguments follow the `@constraint` directive that GraphQL validation libraries use.
 */
export const constraintDirective = new GraphQLDirective({
  name: 'constraint',
  description:
    'The bound of a string argument or input field, enforced before the operation runs: at most `maxLength` characters (Unicode code points), and for a list at most `maxItems` items. Beyond it the operation fails with `validation_failed`, the field named in `details` (`too_long`, `too_many_items`).',
  locations: [DirectiveLocation.ARGUMENT_DEFINITION, DirectiveLocation.INPUT_FIELD_DEFINITION],
  args: {
    maxLength: { type: new GraphQLNonNull(GraphQLInt), description: 'Most characters of the value (of each item of a list).' },
    maxItems: { type: GraphQLInt, description: 'Most items of a list.' },
  },
});

export interface Bound {
  maxLength: number;
  maxItems?: number;
}

/**
 * Declares the bound of a string argument or input field (`@Bounded('search')`), or of a list of
 * strings and each of its items (`@Bounded('cidr', { items: 'cidrs' })`).
 */
export function Bounded(text: TextLimit, options: { items?: ListLimit } = {}) {
  const items = options.items ? `, maxItems: ${listLimits[options.items]}` : '';
  return Directive(`@constraint(maxLength: ${textLimits[text]}${items})`);
}

/** The bound declared on an argument or input field, or null when it has none. */
export function boundOf(value: GraphQLArgument | GraphQLInputField): Bound | null {
  if (!value.astNode) return null;
  const found = getDirectiveValues(constraintDirective, value.astNode) as { maxLength: number; maxItems?: number | null } | undefined;
  if (!found) return null;
  return found.maxItems == null ? { maxLength: found.maxLength } : { maxLength: found.maxLength, maxItems: found.maxItems };
}

/**
 * The words of a string's bound for a description (`at most 100 characters`), from the same table
 * as the `@constraint` directive, so that a description never states another limit than the one
 * enforced.
 */
export function maxChars(text: TextLimit): string {
  return `at most ${textLimits[text]} characters`;
}
