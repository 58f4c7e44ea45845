import { ArgsType, Field, Int, type ClassType } from 'type-graphql';
import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { ObjectType } from './object-type';
import { DomainError } from '../errors/domain-error';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page, type PageRequest } from '../services/common/pagination';
import { Bounded } from './bounds';

/**
 * Relay connections. Cursors are opaque to clients; inside they carry the offset of the item, so
 * that the REST surface's `page`/`per_page` and GraphQL's `first`/`after` read the same windows.
 */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw DomainError.field('after', 'invalid_cursor', 'after must be a cursor returned by this API.');
  return Number(match[1]);
}

@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, { nullable: true, description: `How many items to return (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE}).` })
  first?: number;

  @Bounded('cursor')
  @Field(() => String, { nullable: true, description: 'Return the items after this cursor.' })
  after?: string;
}

export function pageRequest(args: ConnectionArgs): PageRequest {
  const limit = args.first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 0 || limit > MAX_PAGE_SIZE) {
    throw DomainError.field('first', 'out_of_range', `first must be from 0 to ${MAX_PAGE_SIZE}.`);
  }
  return { offset: args.after ? decodeCursor(args.after) + 1 : 0, limit };
}

@ObjectType({ description: 'Where a page lies in the whole list: whether there are more items, and the cursors to ask for them.' })
export class PageInfo {
  @Field({ description: 'Whether items follow this page: ask for them with `after: endCursor`.' }) hasNextPage!: boolean;
  @Field({ description: 'Whether items precede this page (`after` was given and was not before the first item).' }) hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true, description: 'The cursor of the first item of the page; null for an empty page.' }) startCursor!: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'The cursor of the last item of the page, to pass as `after` for the next page; null for an empty page.',
  })
  endCursor!: string | null;
}

export interface ConnectionShape<T> {
  edges: { cursor: string; node: T }[];
  nodes: T[];
  pageInfo: PageInfo;
  totalCount: number;
}

/** Base class of a `<Name>Connection` object type with edges, nodes, pageInfo and totalCount. */
export function Connection<T extends object>(nodeType: ClassType<T>) {
  @ObjectType(`${nodeType.name}Edge`, { description: 'One item of a page with its cursor.' })
  class Edge {
    @Field({ description: 'An opaque cursor for this item: pass it as `after` to get the items that follow it.' }) cursor!: string;
    @Field(() => nodeType, { description: 'The item: one node of the page, as in `nodes`.' }) node!: T;
  }

  @ObjectType()
  abstract class ConnectionBase {
    @Field(() => [Edge], { description: 'The items of the page, each with its cursor.' }) edges!: Edge[];
    @Field(() => [nodeType], { description: 'The nodes of `edges`, for clients that need no cursors.' }) nodes!: T[];
    @Field(() => PageInfo, { description: 'Whether more items follow, and the cursors to fetch them.' }) pageInfo!: PageInfo;
    @Field(() => Int, { description: 'How many items match, over all pages.' }) totalCount!: number;
  }
  return ConnectionBase;
}

/**
 * A page as a connection. The edges (a cursor per item) are built only when the operation selects
 * them: most clients read `nodes`, and a cursor per item of a 100-item page was measurable garbage.
 */
class PageConnection<T> implements ConnectionShape<T> {
  readonly nodes: T[];
  readonly totalCount: number;
  readonly pageInfo: PageInfo;
  private builtEdges: { cursor: string; node: T }[] | undefined = undefined;

  constructor(private readonly page: Page<T>) {
    const last = page.offset + page.items.length - 1;
    this.nodes = page.items;
    this.totalCount = page.totalCount;
    this.pageInfo = {
      hasNextPage: page.offset + page.items.length < page.totalCount,
      hasPreviousPage: page.offset > 0,
      startCursor: page.items.length > 0 ? encodeCursor(page.offset) : null,
      endCursor: page.items.length > 0 ? encodeCursor(last) : null,
    };
  }

  get edges(): { cursor: string; node: T }[] {
    return (this.builtEdges ??= this.page.items.map((node, index) => ({ cursor: encodeCursor(this.page.offset + index), node })));
  }
}

export function toConnection<T>(page: Page<T>): ConnectionShape<T> {
  return new PageConnection(page);
}

/**
 * Whether the operation selects `field` (e.g. `totalCount`) directly on the value this resolver
 * returns, through fragments and inline fragments too: a list resolver skips a count nobody reads.
 * (`@include`/`@skip` are not evaluated: a field under one counts as selected, which only costs the count.)
 */
export function selectsField(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, field: string): boolean {
  const seen = new Set<string>();
  const within = (selectionSet: SelectionSetNode | undefined): boolean =>
    (selectionSet?.selections ?? []).some((selection) => {
      if (selection.kind === Kind.FIELD) return selection.name.value === field;
      if (selection.kind === Kind.INLINE_FRAGMENT) return within(selection.selectionSet);
      const name = selection.name.value;
      if (seen.has(name)) return false;
      seen.add(name);
      return within(info.fragments[name]?.selectionSet);
    });
  return info.fieldNodes.some((node) => within(node.selectionSet));
}
