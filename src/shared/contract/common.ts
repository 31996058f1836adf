/** Schemas several procedures share, with the limits that keep junk out of the main process. */
import { z } from 'zod';

export const Empty = z.object({}).strict();
export const ConnectionId = z.string().min(1).max(64);
export const ObjectKey = z.string().min(1).max(1024);
export const ObjectPrefix = z.string().max(1024);
export const Token = z.string().max(4096);

/**
 * The phrase a user typed to confirm a destructive call (`confirmations.ts` says which calls
 * and what phrase); the main process refuses the call unless it matches.
 */
export const Confirmation = z.string().max(1024);
