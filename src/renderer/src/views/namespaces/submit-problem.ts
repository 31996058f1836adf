/** Turning a refused form or a failed call into what the form dialog shows. */
import type { z } from 'zod';
import { ApiError } from '../../../../shared/api-error';
import type { SubmitProblem } from './FormDialog';

/** The first issue of a contract schema's check, naming the field, as the router would. */
export function schemaProblem(error: z.ZodError): SubmitProblem {
  const issue = error.issues[0];
  const field = issue?.path.filter((part) => part !== 'connectionId').join('.') || 'form';
  return { text: `${field}: ${issue?.message ?? 'invalid'}` };
}

/** Runs a call; a typed failure becomes the problem shown, anything else is rethrown. */
export async function problemOf(run: () => Promise<unknown>): Promise<SubmitProblem | null> {
  try {
    await run();
    return null;
  } catch (error) {
    if (error instanceof ApiError) return { error };
    throw error;
  }
}
