/**
 * The V8 flags every launcher gives the engine's host (scripts/engine-host-flags.mjs): node
 * accepts them, they reach V8 (its young generation grows past the default's 32 MB under a
 * load whose objects survive), and Electron gets them in the one form its main process reads.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module shared with scripts/start.mjs and scripts/bench.mjs
import * as hostFlags from '../../scripts/engine-host-flags.mjs';

const { ENGINE_HOST_V8_FLAGS, electronJsFlags } = hostFlags as {
  ENGINE_HOST_V8_FLAGS: readonly string[];
  electronJsFlags: () => string;
};

/** Grows a set of live objects and reports the largest new space V8 gave it, in MB. */
const YOUNG_GENERATION_PROBE = `
const v8 = require('node:v8');
let largest = 0;
const live = [];
for (let round = 0; round < 200; round++) {
  for (let i = 0; i < 20000; i++) live.push({ round, i, text: 'x' + i });
  if (live.length > 400000) live.splice(0, 200000);
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  largest = Math.max(largest, space.space_size);
}
process.stdout.write(String(largest / 2 ** 20));
`;

/** The new space V8 gives a process before it has allocated anything, in MB. */
const STARTING_SIZE_PROBE = `
const space = require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
process.stdout.write(String(space.space_size / 2 ** 20));
`;

function newSpaceMb(flags: readonly string[], probe: string): number {
  const run = spawnSync(process.execPath, [...flags, '-e', probe], { encoding: 'utf8' });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  return Number(run.stdout);
}

const largestNewSpaceMb = (flags: readonly string[]): number =>
  newSpaceMb(flags, YOUNG_GENERATION_PROBE);

describe('the engine host V8 flags', () => {
  it('reach V8: the young generation grows past what it may without them', () => {
    expect(largestNewSpaceMb([])).toBeLessThanOrEqual(32);
    expect(largestNewSpaceMb(ENGINE_HOST_V8_FLAGS)).toBeGreaterThan(32);
  });

  it('start the young generation at its full size, so a burst after a quiet spell meets no growth', () => {
    expect(newSpaceMb([], STARTING_SIZE_PROBE)).toBeLessThan(16);
    expect(newSpaceMb(ENGINE_HOST_V8_FLAGS, STARTING_SIZE_PROBE)).toBeGreaterThanOrEqual(64);
  });

  it('are handed to Electron as one --js-flags switch, which its main process reads at start', () => {
    expect(electronJsFlags()).toBe(`--js-flags=${ENGINE_HOST_V8_FLAGS.join(' ')}`);
    expect(ENGINE_HOST_V8_FLAGS.every((flag) => flag.startsWith('--') && !flag.includes(' '))).toBe(
      true,
    );
  });
});
