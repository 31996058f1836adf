/**
 * The `cairn` command line over the same services as the app. Exit 0 on success, 1 on a
 * typed error (its name and fields on stderr), 2 on bad usage.
 */
import { escapeUnsafeText } from '../../shared/display-text';
import { Command, CommanderError } from 'commander';
import { registerConnections } from './commands/connections';
import { registerObjects } from './commands/objects';
import { registerServe, PROJECT_ROOT } from './commands/serve';
import { registerWal } from './commands/wal';
import { registerSegments } from './commands/segments';
import { registerNamespaces } from './commands/namespaces';
import { registerCache } from './commands/cache';
import { appVersion } from '../services/app-version';
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

const program = new Command('cairn')
  .description('Cairn: admin console and tools for an object-store write-ahead log')
  .version(appVersion(PROJECT_ROOT))
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride();

registerServe(program);
registerConnections(program);
registerObjects(program);
registerSegments(program);
registerNamespaces(program);
registerWal(program);
registerCache(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
    return;
  }
  process.stderr.write(
    `cairn: ${escapeUnsafeText(error instanceof Error ? error.message : String(error))}\n`,
  );
  process.exitCode = 1;
});
