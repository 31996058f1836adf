/**
 * One line of progress on stderr, only when it is a terminal: redrawn in place every
 * `EVERY_MS` from `line()`, erased when the command ends (so what follows stands alone). A
 * piped or redirected stderr gets nothing. The reading commands (`progress.ts`) and the
 * counting ones (`count-progress.ts`) both draw through it.
 */
const EVERY_MS = 250;

export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** Shows `line()` until the returned function is called (which erases it). */
export function showLine(line: () => string, stream: ProgressStream = process.stderr): () => void {
  if (stream.isTTY !== true) return () => undefined;
  let shown = 0;
  const draw = (): void => {
    const text = line();
    stream.write(`\r${text.padEnd(shown)}`);
    shown = text.length;
  };
  const timer = setInterval(draw, EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    if (shown > 0) stream.write(`\r${' '.repeat(shown)}\r`);
  };
}
