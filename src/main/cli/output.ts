/**
 * How every command speaks: human text by default, one JSON document with --json, NDJSON
 * for streams; typed errors as their name and fields on stderr (and, with --json, as one
 * document on stdout), never a stack, with the exit code of their cause (`exit-codes.ts`).
 */
import { isCairnError } from '../engine/errors';
import { escapeUnsafeText } from '../../shared/display-text';
import { idFieldsOf } from '../../shared/id-notation';
import { causeOfError, EXIT, exitFields } from './exit-codes';

export const EXIT_OK = EXIT.healthy;
export const EXIT_ERROR = EXIT.unhealthy;
export const EXIT_USAGE = EXIT.usage;

/**
 * JSON as the CLI prints it: an entry or region id as people type it with its decimal u64
 * beside it (`"id":"1500:17","idU64":"1572864017"`, `idFieldsOf`), any other bigint
 * (sequences, epochs) as a decimal string, bytes as base64.
 */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'bigint') return item.toString();
    if (item instanceof Uint8Array) return Buffer.from(item).toString('base64');
    if (isPlainObject(item)) return withIdNotation(item);
    return item;
  });
}

function isPlainObject(item: unknown): item is Record<string, unknown> {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return false;
  const prototype: unknown = Object.getPrototypeOf(item);
  return prototype === Object.prototype || prototype === null;
}

function withIdNotation(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(object).flatMap(([field, item]) => {
      const ids = typeof item === 'bigint' ? idFieldsOf(field, item) : null;
      return ids === null ? [[field, item]] : Object.entries(ids);
    }),
  );
}

export function printJson(value: unknown): void {
  process.stdout.write(toJsonText(value) + '\n');
}

/** Human output: any control or bidi character in it (a name, a key) is printed escaped. */
export function printLines(lines: readonly string[]): void {
  if (lines.length > 0) process.stdout.write(lines.map(escapeUnsafeText).join('\n') + '\n');
}

/** Fixed-width columns for human output. */
export function table(header: readonly string[], cells: readonly (readonly string[])[]): string[] {
  // Escaped before measuring, so the columns line up with what the terminal shows.
  const rows = cells.map((row) => row.map(escapeUnsafeText));
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/**
 * Names the error on stderr (its code, message and fields) and returns the exit code of its
 * cause; with `json`, the same as one document on stdout, which a script reads in place of
 * the answer.
 */
export function reportError(error: unknown, json = false): number {
  const cause = exitFields(causeOfError(error));
  const message = error instanceof Error ? error.message : String(error);
  const code = isCairnError(error) ? error.code : 'Error';
  const details = isCairnError(error) ? error.details : {};
  process.stderr.write(`${code}: ${escapeUnsafeText(message)}\n`);
  if (isCairnError(error))
    process.stderr.write(toJsonText({ error: error.code, ...error.details, ...cause }) + '\n');
  if (json) printJson({ error: { code, message, ...details }, ...cause });
  return cause.exitCode;
}

/** A part of a listing that could not be read: what it is, its key, and why. */
export interface DamagedPart {
  readonly what: string;
  readonly key: string;
  readonly reason: string;
}

/**
 * After printing what could be read, names every damaged part on stderr (one line each) and
 * makes the command exit 1, so a script sees the listing is partial.
 */
export function reportDamaged(parts: readonly DamagedPart[]): void {
  if (parts.length === 0) return;
  for (const part of parts)
    // The key and the reason come from the store (a record's text): escaped, as all output.
    process.stderr.write(
      escapeUnsafeText(`Damaged: ${part.what} at ${part.key}: ${part.reason}`) + '\n',
    );
  process.exitCode = EXIT_ERROR;
}

/** Where bytes printed go: a promise while the destination is full (its backpressure). */
export type OutputSink = (bytes: Uint8Array) => Promise<void> | undefined;

/**
 * Writes to stdout; while its buffer is full, a promise kept until it drains (or closes), so a
 * command printing millions of rows into a slow reader holds no more than a write's worth.
 */
export const writeStdout: OutputSink = (bytes) => {
  if (process.stdout.write(bytes)) return undefined;
  return new Promise((resolve) => {
    const done = (): void => {
      process.stdout.off('drain', done);
      process.stdout.off('close', done);
      process.stdout.off('error', done);
      resolve();
    };
    process.stdout.on('drain', done);
    process.stdout.on('close', done);
    process.stdout.on('error', done);
  });
};
