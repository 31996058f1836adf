/**
 * The commands README.md and docs/*.md show, read from the markdown itself so that any later
 * edit of a page is what its test runs: every ```sh / ```bash / ```shell block, one command a
 * line (a trailing `\` joins lines), its expectation from its trailing comment - `(exit N)`
 * (default 0) and a typed error's name after `refused:` - and whether it may be left unrun:
 * only with `<!-- docs-test: skip (the reason) -->` just above the block, the reason said.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface DocCommand {
  /** `docs/cli.md:67`. */
  readonly where: string;
  /** The command as a shell runs it, its comment removed, `npx cairn`/`./cairn` as `cairn`. */
  readonly command: string;
  readonly exitCode: number;
  /** The typed error a refused command names first on stderr. */
  readonly errorName: string | null;
}

export interface DocBlock {
  readonly where: string;
  readonly commands: readonly DocCommand[];
  /** Why the block is not run; null when it is. '' for a skip marker that gives no reason. */
  readonly skip: string | null;
}

const FENCE = /^```(sh|bash|shell)\s*$/;
const SKIP = /^<!--\s*docs-test:\s*skip\s*(?:\((.*)\))?\s*-->$/;
const CAIRN = /^(?:npx\s+|\.\/)?cairn\b/;

/** The pages whose blocks are run: README.md and every docs/*.md. */
export function docPages(root: string): string[] {
  const docs = join(root, 'docs');
  return [
    join(root, 'README.md'),
    ...readdirSync(docs)
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => join(docs, name)),
  ];
}

/** A shell comment: ` # ` outside quotes (enough for the docs' one-line commands). */
function splitComment(line: string): { code: string; comment: string } {
  let quote: string | null = null;
  for (let at = 0; at < line.length; at++) {
    const char = line[at]!;
    if (quote !== null) {
      if (char === quote) quote = null;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '#' && (at === 0 || /\s/.test(line[at - 1]!)))
      return { code: line.slice(0, at).trimEnd(), comment: line.slice(at + 1).trim() };
  }
  return { code: line.trimEnd(), comment: '' };
}

function commandOf(where: string, line: string): DocCommand {
  const { code, comment } = splitComment(line);
  const exit = /\(exit (\d+)\)/.exec(comment);
  const refused = /refused: ([A-Z][A-Za-z]+)/.exec(comment);
  return {
    where,
    command: code.replace(/(^|[\s;&|(])(?:npx\s+|\.\/)cairn\b/g, '$1cairn'),
    exitCode: exit ? Number(exit[1]) : 0,
    errorName: refused ? refused[1]! : null,
  };
}

/** The page's blocks, in order. */
export function blocksOf(page: string, root: string): DocBlock[] {
  const lines = readFileSync(page, 'utf8').split('\n');
  const name = relative(root, page);
  const blocks: DocBlock[] = [];
  for (let at = 0; at < lines.length; at++) {
    if (!FENCE.test(lines[at]!)) continue;
    let before = at - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const marker = before >= 0 ? SKIP.exec(lines[before]!.trim()) : null;
    const commands: DocCommand[] = [];
    let pending = '';
    let startLine = 0;
    for (at++; at < lines.length && !lines[at]!.startsWith('```'); at++) {
      const text = lines[at]!;
      if (pending === '') startLine = at + 1;
      if (text.trimEnd().endsWith('\\')) {
        pending += text.trimEnd().slice(0, -1) + ' ';
        continue;
      }
      const whole = (pending + text).trim();
      pending = '';
      if (whole === '' || whole.startsWith('#')) continue;
      commands.push(commandOf(`${name}:${startLine}`, whole));
    }
    blocks.push({
      where: `${name}:${commands[0]?.where.split(':')[1] ?? at}`,
      commands,
      skip: marker ? (marker[1]?.trim() ?? '') : null,
    });
  }
  return blocks;
}

/** Whether a command is the `cairn` command (anything else in a run block is refused). */
export function isCairn(command: DocCommand): boolean {
  return CAIRN.test(command.command);
}
