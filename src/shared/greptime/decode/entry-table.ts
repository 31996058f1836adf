/**
 * A decoded `WalEntry` as the tables the CLI prints and the console shows: per mutation its
 * op, start sequence, columns (name, the key its cells take in a row line, type names,
 * semantic type) and rows as JSON cell texts; bulk entries as their summaries. A column named
 * like a row line's fixed keys, or like an earlier column, takes `name#2`, `#3`...; values a
 * row has past its schema get columns `#N` (N their position), so none is dropped. Pure.
 */
import {
  ROW_FIXED_KEYS,
  type GtColumnView,
  type GtEntryTable,
  type GtMutationTable,
} from '../entry-table';
import { cellJson } from './cell-json';
import {
  COLUMN_DATA_TYPE_NAMES,
  OP_TYPE_NAMES,
  SEMANTIC_TYPE_NAMES,
  type GtColumnSchema,
  type GtMutation,
  type GtWalEntry,
} from './wal-entry';

export function nameOr(names: Readonly<Record<number, string>>, value: number): string | number {
  return names[value] ?? value;
}

/**
 * Keys unique within the row line: fixed keys first, then the columns in their order. Each name
 * remembers the next number to try, so many columns of one name take linear time.
 */
export function keyedColumns(columns: ReadonlyArray<Omit<GtColumnView, 'key'>>): GtColumnView[] {
  const taken = new Set<string>(ROW_FIXED_KEYS);
  const next = new Map<string, number>();
  return columns.map((column) => {
    const name = column.name;
    let key = name;
    let n = next.get(name) ?? 2;
    while (taken.has(key)) key = `${name}#${n++}`;
    next.set(name, n);
    taken.add(key);
    return { ...column, key };
  });
}

/** A schema's columns, and `#N` ones for values a row holds past it. */
export function columnViews(schema: readonly GtColumnSchema[], width: number): GtColumnView[] {
  const columns: Array<Omit<GtColumnView, 'key'>> = schema.map((column) => ({
    name: column.name,
    datatype: nameOr(COLUMN_DATA_TYPE_NAMES, column.datatype),
    semantic: nameOr(SEMANTIC_TYPE_NAMES, column.semanticType),
  }));
  for (let at = schema.length; at < width; at++)
    columns.push({ name: `#${at + 1}`, datatype: '?', semantic: '?' });
  return keyedColumns(columns);
}

function mutationTable(mutation: GtMutation): GtMutationTable {
  const schema = mutation.rows?.schema ?? [];
  const rows = mutation.rows?.rows ?? [];
  const width = rows.reduce((widest, row) => Math.max(widest, row.length), schema.length);
  const cells = rows.map((row) => {
    const texts = new Array<string>(width);
    for (let at = 0; at < width; at++) texts[at] = cellJson(row[at] ?? null, schema[at]);
    return texts;
  });
  return {
    op: nameOr(OP_TYPE_NAMES, mutation.opType),
    sequence: mutation.sequence,
    columns: columnViews(schema, width),
    rows: cells,
  };
}

/** The typed entry's tables; its bulk entries' rows are not decoded (the bytes are not kept). */
export function entryTable(entry: GtWalEntry): GtEntryTable {
  return {
    mutations: entry.mutations.map(mutationTable),
    bulk: entry.bulkEntries.map((bulk) => ({ ...bulk, decoded: null })),
  };
}
