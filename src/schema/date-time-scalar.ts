import { GraphQLScalarType } from 'graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';

const standard = GraphQLDateTimeISO.toConfig();

/**
 * graphql-scalars' `DateTimeISO` (same name, description and parsing), with a fast path for what
 * the services return: a valid `Date` is written with `toISOString()` at once. The library's
 * serializer first re-validates every value, which a page of 100 employees (200 timestamps) paid
 * for on every read.
 */
export const DateTimeISO = new GraphQLScalarType({
  ...standard,
  serialize(value) {
    return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : standard.serialize(value);
  },
});
