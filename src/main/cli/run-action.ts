/**
 * Wraps a command's action: a typed error exits with its cause's code (`exit-codes.ts`: 1, 4
 * or 5) with its name and fields, as one JSON document too when `--json` was given; usage
 * errors exit 2.
 */
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
      process.exitCode = reportError(error, args.some(asksJson));
    }
  };
}

/** The action's options object (commander passes it among the arguments) asked for JSON. */
function asksJson(arg: unknown): boolean {
  return typeof arg === 'object' && arg !== null && (arg as { json?: unknown }).json === true;
}
