/**
 * What a row's dialog acts on. In a long table rows are recycled (PagedTable): a scroll, or a
 * refresh that shifts the list, hands the row - and the dialog inside it - another item. The
 * dialog keeps the item it was opened on: its fresher values while the row still shows it,
 * the values as opened once the row shows another.
 */
import { useState } from 'react';

export function useHeldSubject<T>(
  shown: T,
  same: (a: T, b: T) => boolean,
): { readonly subject: T; readonly hold: (open: boolean) => void } {
  const [held, setHeld] = useState<T | null>(null);
  const subject = held === null || same(held, shown) ? shown : held;
  return { subject, hold: (open) => setHeld(open ? shown : null) };
}
