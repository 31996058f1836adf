/**
 * How every command speaks: human text by default, one JSON document with --json, NDJSON
 * for streams; typed errors as their name and fields on stderr with exit 1, never a stack.
 */
import { isCairnError } from '../engine/errors';
import { escapeUnsafeText } from '../../shared/display-text';

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;

/** JSON with bigint ids as decimal strings and bytes as base64, as the CLI prints them. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'bigint') return item.toString();
    if (item instanceof Uint8Array) return Buffer.from(item).toString('base64');
    return item;
  });
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

export function reportError(error: unknown): number {
  if (isCairnError(error)) {
    process.stderr.write(`${error.code}: ${escapeUnsafeText(error.message)}\n`);
    process.stderr.write(toJsonText({ error: error.code, ...error.details }) + '\n');
    return EXIT_ERROR;
  }
  process.stderr.write(
    `Error: ${escapeUnsafeText(error instanceof Error ? error.message : String(error))}\n`,
  );
  return EXIT_ERROR;
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
    process.stderr.write(`Damaged: ${part.what} at ${part.key}: ${part.reason}\n`);
  process.exitCode = EXIT_ERROR;
}
