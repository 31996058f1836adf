/**
 * The process log: structured lines (pino) on stderr, where `cairn serve`, the desktop app's
 * launcher and the CLI's operator read "see the main process log". Owns nothing else; level
 * from `CAIRN_LOG_LEVEL` (default `info`; `silent` turns it off).
 */
import pino from 'pino';

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

function levelOf(value: string | undefined): string {
  return value !== undefined && LEVELS.has(value) ? value : 'info';
}

export const processLog = pino(
  { name: 'cairn', level: levelOf(process.env.CAIRN_LOG_LEVEL) },
  pino.destination({ fd: 2, sync: true }),
);
