/**
 * How a procedure of the API is declared: its input and output schemas and the access it
 * needs. One declaration types main, preload and renderer, and is the runtime check at the
 * main-process boundary.
 */
import type { z } from 'zod';

/**
 * - `read`: looks, never changes storage.
 * - `config`: changes the app's own settings (connections), never a store.
 * - `operate`: changes a store; refused unless the call's connection is in operator mode.
 */
export type Access = 'read' | 'config' | 'operate';

export interface Procedure<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly input: I;
  readonly output: O;
  readonly access: Access;
  readonly summary: string;
}

export function procedure<I extends z.ZodType, O extends z.ZodType>(
  access: Access,
  summary: string,
  input: I,
  output: O,
): Procedure<I, O> {
  return { input, output, access, summary };
}
