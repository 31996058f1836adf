/**
 * Focus in a table whose rows are recycled: a long PagedTable keys its rows by their place in
 * the window, so a scroll shows other items in the same elements. A focused control must not
 * change subject with them (Enter would act on another region): after each render, focus that
 * was in a row follows its item to the row that now shows it - the same control, by its order
 * among the row's focusable elements - and if the item left the window, focus goes to the
 * table's scroll box (still scrollable from the keyboard), never to another item's row. A
 * text selection in the rows is cleared when they show other items: a copy would take their
 * text, not what was selected.
 */
import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

const FOCUSABLE = 'button, input, select, textarea, a[href], [tabindex]';

/** Which item's row holds the focus, and which of its controls. */
interface Held {
  readonly key: string;
  readonly control: number;
}

/** The rows that show items (placeholders included), in order: not the spacers. */
function drawnRows(body: HTMLTableSectionElement): HTMLTableRowElement[] {
  return Array.from(body.rows).filter((row) => !row.classList.contains('paged-spacer'));
}

function heldAt(
  body: HTMLTableSectionElement,
  keys: readonly (string | null)[],
  target: EventTarget | null,
): Held | null {
  if (!(target instanceof Element)) return null;
  const row = target.closest('tr');
  if (row === null || !body.contains(row)) return null;
  const key = keys[drawnRows(body).indexOf(row)] ?? null;
  const control = Array.from(row.querySelectorAll(FOCUSABLE)).indexOf(target);
  return key === null || control < 0 ? null : { key, control };
}

/**
 * `keys`: the item each drawn row shows this render, in order (null: a placeholder). The
 * scroll box needs a tabIndex (-1) to take the focus.
 */
export function useRecycledFocus(
  body: RefObject<HTMLTableSectionElement | null>,
  scroller: RefObject<HTMLElement | null>,
  keys: readonly (string | null)[],
): void {
  const held = useRef<Held | null>(null);
  const drawn = useRef(keys);
  useEffect(() => {
    const section = body.current;
    if (section === null) return;
    const onFocusIn = (event: FocusEvent) => {
      held.current = heldAt(section, drawn.current, event.target);
    };
    // Focus that leaves the rows (elsewhere, or into a row's dialog) is theirs no more.
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget;
      if (!(next instanceof Node) || !section.contains(next)) held.current = null;
    };
    section.addEventListener('focusin', onFocusIn);
    section.addEventListener('focusout', onFocusOut);
    return () => {
      section.removeEventListener('focusin', onFocusIn);
      section.removeEventListener('focusout', onFocusOut);
    };
  }, [body]);
  useLayoutEffect(() => {
    drawn.current = keys;
    const hold = held.current;
    const section = body.current;
    if (hold === null || section === null) return;
    // Focus in a row, or dropped to the page because its row went (a placeholder took it).
    const active = document.activeElement;
    if (active !== document.body && !section.contains(active)) return;
    const at = keys.indexOf(hold.key);
    const target =
      at < 0 ? null : drawnRows(section)[at]?.querySelectorAll(FOCUSABLE)[hold.control];
    if (target === active) return;
    if (target instanceof HTMLElement) {
      target.focus({ preventScroll: true });
      return;
    }
    held.current = null;
    scroller.current?.focus({ preventScroll: true });
  });
}

function sameKeys(a: readonly (string | null)[], b: readonly (string | null)[]): boolean {
  return a.length === b.length && a.every((key, at) => key === b[at]);
}

/** Clears a text selection that takes in the rows once they show other items than before. */
export function useRecycledSelection(
  body: RefObject<HTMLTableSectionElement | null>,
  keys: readonly (string | null)[],
): void {
  const before = useRef(keys);
  useLayoutEffect(() => {
    const previous = before.current;
    before.current = keys;
    const section = body.current;
    const selection = document.getSelection();
    if (section === null || selection === null || selection.isCollapsed) return;
    if (!selection.containsNode(section, true) || sameKeys(previous, keys)) return;
    selection.removeAllRanges();
  });
}
