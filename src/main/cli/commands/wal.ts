/**
 * `cairn wal …`: the object-store WAL from the command line. Its subcommands live in eight files
 * with dependencies of their own (replay's decoders, gc's collector, search's matcher); only
 * the file of the subcommand the command line names is loaded, so `cairn wal ls` never pays
 * for `wal search`. `cairn wal`, `cairn wal --help` and a word that names no subcommand load
 * them all (the help lists every one; commander suggests the nearest name).
 */
import type { Command } from 'commander';
import { groupDescription } from '../command-groups';

type RegisterWalCommands = (wal: Command) => void;

interface WalCommandFile {
  /** The subcommands the file registers. */
  readonly commands: readonly string[];
  readonly load: () => Promise<RegisterWalCommands>;
}

export const WAL_COMMAND_FILES: readonly WalCommandFile[] = [
  { commands: ['ls'], load: async () => (await import('./wal-ls')).registerWalLsCommand },
  {
    commands: ['inspect', 'verify'],
    load: async () => (await import('./wal-read')).registerWalReadCommands,
  },
  { commands: ['fleet'], load: async () => (await import('./wal-fleet')).registerWalFleetCommand },
  {
    commands: ['append', 'obsolete'],
    load: async () => (await import('./wal-write')).registerWalWriteCommands,
  },
  {
    commands: ['replay'],
    load: async () => (await import('./wal-replay')).registerWalReplayCommand,
  },
  { commands: ['gc'], load: async () => (await import('./wal-gc')).registerWalGcCommand },
  {
    commands: ['preflight'],
    load: async () => (await import('./wal-preflight')).registerWalPreflightCommand,
  },
  {
    commands: ['search'],
    load: async () => (await import('./wal-search')).registerWalSearchCommand,
  },
];

/**
 * The files to load for a command line (`args` from the group's word on: `wal ls --json`): the
 * one registering the subcommand named, else all of them.
 */
export function walFilesFor(args: readonly string[]): readonly WalCommandFile[] {
  const word = args.slice(1).find((arg) => !arg.startsWith('-'));
  const named = WAL_COMMAND_FILES.find(
    (file) => word !== undefined && file.commands.includes(word),
  );
  return named === undefined ? WAL_COMMAND_FILES : [named];
}

/** The `wal` group's registration for `args`, with the files it needs loaded. */
export async function walRegistration(
  args: readonly string[],
): Promise<(program: Command) => void> {
  const registers = await Promise.all(walFilesFor(args).map((file) => file.load()));
  return (program) => {
    const wal = program.command('wal').description(groupDescription('wal'));
    for (const register of registers) register(wal);
  };
}
