/**
 * What the CLI's in-process tests share: a scratch folder removed after the file's tests, with
 * a fresh path in it for each store or data directory, and reports compared without their
 * timing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { AnyInspectReport } from '../../../src/main/engine/wal-read/read-side';

/** A scratch folder for the calling test file; each call of the answer is a new path in it. */
export function scratchPaths(name: string): (what: string) => string {
  const dir = mkdtempSync(join(tmpdir(), `cairn-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let made = 0;
  return (what) => join(dir, `${what}-${(made += 1)}`);
}

/** An inspection report less its duration: what two inspections of one prefix must share. */
export function withoutDuration(report: AnyInspectReport): Record<string, unknown> {
  const { durationMs: _took, ...rest } = report;
  return rest;
}
