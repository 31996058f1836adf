/**
 * A flag's old spelling, kept working for the scripts that use it and hidden from help:
 * `--dir` was a store for storage commands (now `--store`) and the data directory for
 * `serve` (now `--data-dir`). Giving both spellings with different values is bad usage.
 */
import { Option, type Command } from 'commander';
import { UsageError } from './usage-error';

/** Adds `--<old> <path>`, hidden from help, to `command`. */
export function withOldSpelling(command: Command, old: string): Command {
  return command.addOption(new Option(`--${old} <path>`).hideHelp());
}

/** The value under either spelling; `flag` and `oldFlag` name them in the refusal. */
export function eitherSpelling(
  value: string | undefined,
  oldValue: string | undefined,
  flag: string,
  oldFlag: string,
): string | undefined {
  if (value !== undefined && oldValue !== undefined && value !== oldValue)
    throw new UsageError(`${oldFlag} is the old spelling of ${flag}: give one of them`);
  return value ?? oldValue;
}
