/**
 * The `cairn` command's top-level groups, as data: each name, the line `cairn --help` shows
 * for it and how to load it. `main.ts` loads only the group the command line names, so
 * `--version`, `--help` and a local command never pay for the others' dependencies (the S3
 * lane, the web server, the namespace and tiering services). A group's own file sets its
 * description from here, so the help shown before and after loading is one text.
 */
import type { Command } from 'commander';

export interface CommandGroup {
  readonly name: string;
  readonly description: string;
  /**
   * The group's registration, imported on demand; `args` is the command line from the group's
   * word on, for a group that loads only the subcommand it runs (`wal`).
   */
  readonly load: (args: readonly string[]) => Promise<(program: Command) => void>;
}

export const COMMAND_GROUPS: readonly CommandGroup[] = [
  {
    name: 'serve',
    description:
      'Run the console in browser mode on 127.0.0.1 (prints the URL with its access token)',
    load: async () => (await import('./commands/serve')).registerServe,
  },
  {
    name: 'demo',
    description:
      'Write the demo data (WAL prefixes, a GreptimeDB prefix, namespaces, segments) into a store',
    load: async () => (await import('./commands/demo')).registerDemo,
  },
  {
    name: 'connections',
    description: 'Saved connection profiles (shared with the app)',
    load: async () => (await import('./commands/connections')).registerConnections,
  },
  {
    name: 'objects',
    description: 'Browse raw objects of a store',
    load: async () => (await import('./commands/objects')).registerObjects,
  },
  {
    name: 'segments',
    description: 'Tiered-storage segment metadata (KIP-405)',
    load: async () => (await import('./commands/segments')).registerSegments,
  },
  {
    name: 'ns',
    description: 'The namespace registry: records, placement, shard ownership',
    load: async () => (await import('./commands/namespaces')).registerNamespaces,
  },
  {
    name: 'wal',
    description:
      'The object-store WAL: prefixes, fleet health, inspect, verify, append, replay, obsolete, gc',
    load: async (args) => (await import('./commands/wal')).walRegistration(args),
  },
  {
    name: 'cache',
    description:
      'The local index of big prefixes (what recovery read of each object), shared with the app',
    load: async () => (await import('./commands/cache')).registerCache,
  },
];

/** The help line of group `name` (each group's file describes itself with it). */
export function groupDescription(name: string): string {
  const group = COMMAND_GROUPS.find((candidate) => candidate.name === name);
  if (group === undefined) throw new Error(`no command group named ${name}`);
  return group.description;
}

/**
 * The group the command line runs: its first word that is not an option (`cairn help wal`
 * names `wal`). `cairn --help`, `cairn --version` and an unknown word name none.
 */
export function groupNamed(args: readonly string[]): CommandGroup | null {
  return groupWord(args)?.group ?? null;
}

/** The group the command line runs and the command line from its word on. */
export function groupWord(
  args: readonly string[],
): { readonly group: CommandGroup; readonly from: readonly string[] } | null {
  const words = args.filter((arg) => !arg.startsWith('-'));
  const word = words[0] === 'help' ? words[1] : words[0];
  const group = COMMAND_GROUPS.find((candidate) => candidate.name === word);
  return group === undefined ? null : { group, from: args.slice(args.indexOf(group.name)) };
}
