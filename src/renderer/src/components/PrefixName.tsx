/**
 * How a panel, a dialog or a log line names the one WAL prefix it acts on or shows: "Garbage
 * collection of wal/nodes/0/generations/0". One component, so every place says it the same way
 * and a panel far down a page (or a dialog over it) never leaves the prefix to be guessed.
 */
import type { ReactNode } from 'react';
import './prefix-name.css';

/** The prefix itself, as the console writes a key. */
export function PrefixName({ prefix }: { prefix: string }) {
  return <span className="mono prefix-name">{prefix}</span>;
}

/** "`what` of `prefix`": a title's words, for a heading, a dialog title or a table cell. */
export function OfPrefix({ what, prefix }: { what: ReactNode; prefix: string }) {
  return (
    <>
      {what} of <PrefixName prefix={prefix} />
    </>
  );
}

/** A panel's heading: what it is and the prefix it acts on, then anything said after. */
export function PanelHeading({
  what,
  prefix,
  children,
  level = 2,
}: {
  what: ReactNode;
  prefix: string;
  children?: ReactNode;
  /** 3 for a panel within a panel. */
  level?: 2 | 3;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <Heading className="panel-heading">
      <OfPrefix what={what} prefix={prefix} />
      {children}
    </Heading>
  );
}
