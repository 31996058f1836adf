/** `cairn wal …`: the object-store WAL from the command line. */
import type { Command } from 'commander';
import { groupDescription } from '../command-groups';
import { registerWalFleetCommand } from './wal-fleet';
import { registerWalGcCommand } from './wal-gc';
import { registerWalPreflightCommand } from './wal-preflight';
import { registerWalReadCommands } from './wal-read';
import { registerWalSearchCommand } from './wal-search';
import { registerWalWriteCommands } from './wal-write';

export function registerWal(program: Command): void {
  const wal = program.command('wal').description(groupDescription('wal'));
  registerWalReadCommands(wal);
  registerWalFleetCommand(wal);
  registerWalWriteCommands(wal);
  registerWalGcCommand(wal);
  registerWalPreflightCommand(wal);
  registerWalSearchCommand(wal);
}
