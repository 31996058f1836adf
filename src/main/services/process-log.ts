/**
 * The process log: structured lines (pino) on stderr, where `cairn serve`, the desktop app's
 * launcher and the CLI's operator read "see the main process log". Owns nothing else; level
 * from `CAIRN_LOG_LEVEL` (default `info`; `silent` turns it off). The logger is made on its
 * first line: a command that logs nothing never loads pino (a tenth of a CLI command's start).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { LogFn, Logger } from 'pino';

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

function levelOf(value: string | undefined): string {
  return value !== undefined && LEVELS.has(value) ? value : 'info';
}

let made: Logger | undefined;

function logger(): Logger {
  if (made === undefined) {
    // Resolved from the bundle's folder, as checksum.ts does: `import.meta` is not there under
    // CommonJS (the app's main bundle, Playwright's loader).
    const pino = createRequire(join(__dirname, 'index.js'))('pino') as typeof import('pino');
    made = pino(
      { name: 'cairn', level: levelOf(process.env.CAIRN_LOG_LEVEL) },
      pino.destination({ fd: 2, sync: true }),
    );
  }
  return made;
}

/** A level's function: makes the logger on the first line written at any level. */
function level(name: 'error' | 'warn' | 'info'): LogFn {
  return (...args: unknown[]) => {
    const log = logger();
    Reflect.apply(log[name], log, args);
  };
}

export const processLog = { error: level('error'), warn: level('warn'), info: level('info') };
