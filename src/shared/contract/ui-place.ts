/**
 * The console's last place (view, connection, prefix and selection: its hash route), kept per
 * data directory so that a reload or a restart opens where the user left off. Kept in the main
 * process (DATA_DIR/ui-place.json) rather than the page's localStorage: browser mode's origin
 * changes with its port and two data directories served on one port would share it, and the
 * desktop app's storage is per install, not per data directory.
 */
import { z } from 'zod';
import { Empty } from './common';
import { procedure } from './procedure';

/** A hash route as the console writes it (`#/overview?...`); bounded, one line. */
export const UiPlaceHash = z
  .string()
  .max(4096)
  .regex(/^#\/[^\s]*$/, 'a hash route: #/view?parameters');

export const UiPlace = z.object({ hash: UiPlaceHash, savedAt: z.string() });
export type UiPlace = z.infer<typeof UiPlace>;

export const uiPlaceProcedures = {
  'ui.place.get': procedure(
    'read',
    'The place the console showed last on this data directory (its hash route), or null',
    Empty,
    UiPlace.nullable(),
  ),
  // 'read': it writes the console's own place in its data directory, never a store or a
  // setting; auditing it would fill the activity log with every click.
  'ui.place.save': procedure(
    'read',
    "Keep the console's current place (its hash route) for the next start on this data directory",
    z.object({ hash: UiPlaceHash }).strict(),
    z.object({ saved: z.boolean() }),
  ),
};
