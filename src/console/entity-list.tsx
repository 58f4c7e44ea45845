// The console's one list: a company's records in a card (the company picker and any filters above
// them), a table whose columns are described as data (header, cell, the row's name, its label when
// a phone folds the row), the row's actions (edit, delete after a confirmation), and what to say
// when there is nothing. Pages pair it with an EntityForm (entity-form.tsx).
import type { ComponentChildren, JSX } from 'preact';
import { ConfirmButton, Empty, ErrorNote, Section } from './components';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ComponentChildren;
  /** The cell that names the row (a row header). */
  rowHeader?: boolean;
  /** Shown before the value when a phone folds the row (the header is then read by screen readers only). */
  label?: string;
}

export interface EntityListProps<Row> {
  title: string;
  /** The company picker and further filters, in one line above the list. */
  filters?: ComponentChildren;
  /** Null while the list is read. */
  rows: Row[] | null;
  columns: Array<Column<Row>>;
  empty: ComponentChildren;
  error?: string | null;
  /** The row's data attributes (`{ holiday: 7 }` is `data-holiday="7"`). */
  rowData?: (row: Row) => Record<string, string | number>;
  /** The row's buttons (absent: no actions column). */
  actions?: (row: Row) => ComponentChildren;
  /** The table's accessible name, when the card holds more than it. */
  tableLabel?: string;
  /** The card's actions beside its title. */
  headerActions?: ComponentChildren;
  /** Before the table (a note, a status), and after it. */
  before?: ComponentChildren;
  children?: ComponentChildren;
}

export function EntityList<Row>(props: EntityListProps<Row>): JSX.Element {
  return (
    <Section title={props.title} actions={props.headerActions}>
      {props.filters && (
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          {props.filters}
        </form>
      )}
      {props.before}
      <ErrorNote message={props.error} />
      {props.rows === null ? (
        <p class="muted" role="status">
          Loading…
        </p>
      ) : props.rows.length === 0 ? (
        <Empty>{props.empty}</Empty>
      ) : (
        <EntityTable {...props} rows={props.rows} />
      )}
      {props.children}
    </Section>
  );
}

/** The table alone (a list inside another card). */
export function EntityTable<Row>({
  rows,
  columns,
  rowData,
  actions,
  tableLabel,
}: Pick<EntityListProps<Row>, 'columns' | 'rowData' | 'actions' | 'tableLabel'> & { rows: Row[] }): JSX.Element {
  return (
    <table class="fold-on-phone" aria-label={tableLabel}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col">{c.header}</th>
          ))}
          {actions && (
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const data = Object.fromEntries(Object.entries(rowData?.(row) ?? {}).map(([k, v]) => [`data-${k}`, v]));
          return (
            <tr {...data}>
              {columns.map((c) => (c.rowHeader ? <th scope="row">{c.cell(row)}</th> : <td data-label={c.label}>{c.cell(row)}</td>))}
              {actions && <td class="actions">{actions(row)}</td>}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** A row's "Edit" (its accessible name says which record). */
export function EditButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <button type="button" class="secondary" onClick={onClick}>
      Edit<span class="sr-only"> {name}</span>
    </button>
  );
}

/** A row's "Delete", asking first ("Delete the <noun> <name>?"), `children` saying what follows. */
export function DeleteButton({
  noun,
  name,
  disabled,
  onConfirm,
  children,
}: {
  noun: string;
  name: string;
  disabled?: boolean;
  onConfirm: () => Promise<void>;
  children: ComponentChildren;
}) {
  return (
    <ConfirmButton label="Delete" labelDetail={name} title={`Delete the ${noun} ${name}?`} confirm={`Delete ${noun}`} disabled={disabled} onConfirm={onConfirm}>
      {children}
    </ConfirmButton>
  );
}
