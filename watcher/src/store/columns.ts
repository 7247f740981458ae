/** A column list (`a, b, c`) with every name qualified by a table alias (`t.a, t.b, t.c`), for joins. */
export const qualified = (columns: string, alias: string): string => columns.replace(/(\w+)/g, `${alias}.$1`);
