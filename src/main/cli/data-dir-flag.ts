/**
 * The app data directory, spelled `--data-dir PATH` by every command that takes it (saved
 * connections, `serve`, and the storage commands, whose default store is its embedded one):
 * default `CAIRN_DATA_DIR`, else the desktop app's, resolved when the command runs.
 */
import type { Command } from 'commander';
import { defaultDataDir } from '../services/app-paths';

export interface DataDirOptions {
  dataDir?: string;
}

export const DATA_DIR_HELP = "app data directory (default: CAIRN_DATA_DIR, else the desktop app's)";

export function withDataDirFlag(command: Command, help: string = DATA_DIR_HELP): Command {
  return command.option('--data-dir <path>', help);
}

export function dataDirOf(options: DataDirOptions): string {
  return options.dataDir ?? defaultDataDir();
}
