/**
 * The `cairn` command line over the same services as the app. Exit 0 on success, 1 on a
 * typed error (its name and fields on stderr), 2 on bad usage.
 *
 * It starts at once: only the group the command line names is loaded (`command-groups.ts`);
 * `--version` and `--help` load none, and show the others as their one help line.
 */
import { escapeUnsafeText } from '../../shared/display-text';
import { Command, CommanderError } from 'commander';
import { appVersion } from '../services/app-version';
import { projectRoot } from '../project-root';
import { COMMAND_GROUPS, groupWord } from './command-groups';
import { EXIT_USAGE } from './output';
import { runtimeNotice, silenceSdkVersionNotice } from './runtime-notice';

// Before any S3 client is made (the S3 thread shares this environment).
silenceSdkVersionNotice();
const notice = runtimeNotice();
if (notice !== null) process.stderr.write(`${notice}\n`);

// A closed pipe (`cairn wal replay | head`) ends the command quietly, as Unix tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

async function main(args: readonly string[]): Promise<void> {
  const program = new Command('cairn')
    .description('Cairn: admin console and tools for an object-store write-ahead log')
    .version(appVersion(projectRoot()))
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  const running = groupWord(args.slice(2));
  for (const group of COMMAND_GROUPS) {
    if (group === running?.group) (await group.load(running.from))(program);
    else program.command(group.name).description(group.description);
  }
  await program.parseAsync(args);
}

main(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
    return;
  }
  process.stderr.write(
    `cairn: ${escapeUnsafeText(error instanceof Error ? error.message : String(error))}\n`,
  );
  process.exitCode = 1;
});
