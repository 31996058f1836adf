/** Wraps a command's action: typed errors exit 1 with name and fields, usage errors exit 2. */
import { EXIT_USAGE, reportError } from './output';
import { UsageError } from './usage-error';
import { escapeUnsafeText } from '../../shared/display-text';

export function runAction<A extends unknown[]>(
  action: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await action(...args);
    } catch (error) {
      if (error instanceof UsageError) {
        process.stderr.write(`cairn: ${escapeUnsafeText(error.message)}\n`);
        process.exitCode = EXIT_USAGE;
        return;
      }
      process.exitCode = reportError(error);
    }
  };
}
