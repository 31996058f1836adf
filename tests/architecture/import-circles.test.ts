/**
 * No import circle in the engine: every module of src/main/engine, its relative imports
 * (type-only ones too: a circle of types still ties two files into one concern) resolved to
 * files, and a depth-first walk that names the first circle it meets. Uses TypeScript's own
 * pre-processor to find the imports, so comments and strings never count.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ENGINE = resolve(__dirname, '..', '..', 'src', 'main', 'engine');

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The file a relative specifier names (`./x` is `x.ts` or `x/index.ts`), or null. */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base])
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  return null;
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => resolveImport(file, imported.fileName))
      .filter((target): target is string => target !== null && target.startsWith(ENGINE));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every circle found by a depth-first walk, each as the files around it. */
function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    if (done.has(file)) return;
    if (onPath.has(file)) {
      circles.push([...path.slice(path.indexOf(file)), file]);
      return;
    }
    onPath.add(file);
    path.push(file);
    for (const target of graph.get(file) ?? []) visit(target);
    path.pop();
    onPath.delete(file);
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) visit(file);
  return circles;
}

describe('engine imports', () => {
  it('form no circle', () => {
    const circles = circlesOf(importGraph(sourcesUnder(ENGINE))).map((circle) =>
      circle.map((file) => relative(ENGINE, file)).join(' -> '),
    );
    expect(circles).toEqual([]);
  });

  it('the walk finds a circle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(circlesOf(graph)).toEqual([['a', 'b', 'c', 'a']]);
  });
});
