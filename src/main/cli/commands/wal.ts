/** `cairn wal …`: the object-store WAL from the command line. */
import type { Command } from 'commander';
import { groupDescription } from '../command-groups';
import { registerWalFleetCommand } from './wal-fleet';
import { registerWalGcCommand } from './wal-gc';
import { registerWalReadCommands } from './wal-read';
import { registerWalWriteCommands } from './wal-write';

export function registerWal(program: Command): void {
  const wal = program.command('wal').description(groupDescription('wal'));
  registerWalReadCommands(wal);
  registerWalFleetCommand(wal);
  registerWalWriteCommands(wal);
  registerWalGcCommand(wal);
}
