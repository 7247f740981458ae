/**
 * A row as the record the store hands out: each snake_case column as its camelCase field, and a NULL
 * column left out, so that the record's optional field is absent (never null). The row's interface is
 * the one declaration; the record's fields follow from it, checked where the record type is named.
 */

/** `last_refresh_at` → `lastRefreshAt`. */
type CamelCase<Name extends string> = Name extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : Name;

type NullableColumn<Row> = { [Column in keyof Row]: null extends Row[Column] ? Column : never }[keyof Row];

export type RecordOfRow<Row> = {
  readonly [Column in Exclude<keyof Row, NullableColumn<Row>> & string as CamelCase<Column>]: Row[Column];
} & {
  readonly [Column in NullableColumn<Row> & string as CamelCase<Column>]?: Exclude<Row[Column], null>;
};

const camelCase = (column: string): string => column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** Every column of the row (a row read with extra columns carries them too: split those off first). */
export function recordOfRow<Row extends object>(row: Row): RecordOfRow<Row> {
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null).map(([column, value]) => [camelCase(column), value])) as RecordOfRow<Row>;
}
