/**
 * The bulk entry decoder of the main process (replay's rows in the CLI, search everywhere), with
 * the Arrow library loaded when a bulk entry first needs its rows: most prefixes hold none, and
 * loading it would cost each of their replays and searches a noticeable part of a second.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { bulkRowsDecoder, type ArrowLibrary } from '../../../shared/greptime/bulk/decode-bulk';
import type { BulkRowsDecoder } from '../../../shared/greptime/decode/decode-table';

let decoder: BulkRowsDecoder | undefined;

/** The decoder once loaded; undefined before a bulk entry needed it. */
export function loadedBulkDecoder(): BulkRowsDecoder | undefined {
  return decoder;
}

/** The decoder, loading the Arrow library the first time. */
export function bulkDecoder(): BulkRowsDecoder {
  decoder ??= bulkRowsDecoder(
    createRequire(join(__dirname, 'index.js'))('apache-arrow') as ArrowLibrary,
  );
  return decoder;
}
