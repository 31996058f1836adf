/**
 * Every picture README.md and docs/ show is today's console: it exists, and docs/screenshots.json
 * (written by `npm run screenshots`) names it with the view it shows and its SHA-256. A picture
 * edited or added by hand, or one the script no longer makes, fails here.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..', '..');
const docs = join(root, 'docs');

interface Manifest {
  readonly madeBy: string;
  readonly shots: ReadonlyArray<{ file: string; view: string; sha256: string }>;
}

/** The local images a markdown file shows, as paths from the project root. */
function imagesOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^https?:/.test(target))
    .map((target) => resolve(dirname(file), target));
}

describe('the pictures of README.md and docs/', () => {
  const manifest = JSON.parse(readFileSync(join(docs, 'screenshots.json'), 'utf8')) as Manifest;
  const pages = [
    join(root, 'README.md'),
    ...readdirSync(docs)
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(docs, name)),
  ];

  it('were made by npm run screenshots, each as the manifest records it', () => {
    expect(manifest.madeBy).toMatch(/^npm run screenshots/);
    const shown = new Set(pages.flatMap(imagesOf));
    expect(shown.size).toBeGreaterThan(0);
    for (const image of shown) {
      expect(existsSync(image), image).toBe(true);
      const entry = manifest.shots.find((shot) => join(docs, shot.file) === image);
      expect(entry, `${image} is not in docs/screenshots.json`).toBeDefined();
      const sha256 = createHash('sha256').update(readFileSync(image)).digest('hex');
      expect(sha256, `${image} changed since npm run screenshots made it`).toBe(entry!.sha256);
    }
  });
});
