/**
 * An id as people read it (`65:1` for an entry, `1024:7` for a region) with its decimal u64
 * one hover (tooltip) or one click (a copy menu offering both forms) away. The menu is made
 * only when the id is first clicked: a table of 100,000 regions shows five ids a row, and a
 * menu mounted for each row scrolled into view cost frames.
 */
import { DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import { formatEntryId, formatRegionId } from '../../../shared/id-notation';
import { plainEntryId, plainRegionId } from './plain-id';
import { useToasts } from './Toasts';

function IdMenu({ shown, raw, what }: { shown: string; raw: string; what: string }) {
  const [armed, setArmed] = useState(false);
  const title = `${what} ${shown} = ${raw} (decimal u64); click to copy`;
  if (!armed)
    return (
      <button
        type="button"
        className="id-text mono"
        title={title}
        aria-haspopup="menu"
        onClick={() => setArmed(true)}
      >
        {shown}
      </button>
    );
  return <CopyMenu shown={shown} raw={raw} title={title} />;
}

/** The copy menu, open from its first render (the click that made it opens it). */
function CopyMenu({ shown, raw, title }: { shown: string; raw: string; title: string }) {
  const push = useToasts((state) => state.push);
  const copy = (text: string) =>
    navigator.clipboard.writeText(text).then(
      () => push({ title: `Copied ${text}`, tone: 'ok' }),
      () => push({ title: `Could not copy ${text}`, tone: 'error' }),
    );
  return (
    <DropdownMenu.Root modal={false} defaultOpen>
      <DropdownMenu.Trigger asChild>
        <button type="button" className="id-text mono" title={title}>
          {shown}
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" sideOffset={4} align="start">
          <DropdownMenu.Item className="menu-item" onSelect={() => void copy(shown)}>
            Copy {shown}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => void copy(raw)}>
            Copy {raw}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** An entry id as `seq:position`; 0, which no entry has, reads "none". */
export function EntryIdText({ id }: { id: bigint }) {
  if (id === 0n)
    return (
      <span className="mono muted" title="no entry (0)">
        none
      </span>
    );
  return <IdMenu shown={formatEntryId(id)} raw={String(id)} what="Entry id" />;
}

export function RegionIdText({ region }: { region: bigint }) {
  return <IdMenu shown={formatRegionId(region)} raw={String(region)} what="Region" />;
}

/**
 * An id as text only, its decimal u64 on hover: for the cells of a long virtualized table,
 * where a copy menu per cell cost scroll frames.
 */
export function EntryIdPlain({ id }: { id: bigint }) {
  return <span {...plainEntryId(id)} />;
}

export function RegionIdPlain({ region }: { region: bigint }) {
  return <span {...plainRegionId(region)} />;
}
