/**
 * The last line of defence of a process that hosts the engine (Electron's main process,
 * `cairn serve`): an unexpected error is reported on stderr and the process keeps serving.
 * Every request path already turns its failures into typed replies; this only catches what
 * escaped them, so one hostile input can never end the process for every other client.
 */

/** Writes one line about an error that escaped a handler; never throws. */
export function reportUnexpected(where: string, error: unknown): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  try {
    process.stderr.write(`cairn: unexpected error in ${where}: ${text}\n`);
  } catch {
    // stderr itself failing leaves nothing else to tell.
  }
}

let installed = false;

/** Keeps the process alive through unhandled rejections and uncaught exceptions (once per process). */
export function installProcessGuard(): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => reportUnexpected('a promise', reason));
  process.on('uncaughtException', (error) => reportUnexpected('a callback', error));
}
