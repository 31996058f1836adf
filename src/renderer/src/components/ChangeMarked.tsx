/** A cell whose value is marked (and says what it was) when a refresh finds it moved. */
import type { ReactNode } from 'react';
import { usePreviousValue } from './use-changes';

export function ChangeMarked<T>({
  as: Element,
  value,
  label,
  describe,
  className,
  title,
  subject,
  children,
}: {
  as: 'td' | 'dd' | 'span';
  /** Whose value it is (a recycled table row's item): a new subject is no change. */
  subject?: unknown;
  /** The element's own class, beside `changed`. */
  className?: string;
  title?: string;
  value: T | null | undefined;
  label: string;
  describe: (before: T) => string;
  children: ReactNode;
}) {
  const before = usePreviousValue(value, subject);
  return (
    <Element
      aria-label={label}
      title={title}
      className={before === null ? className : className ? `${className} changed` : 'changed'}
    >
      {children}
      {before !== null && <span className="change-note small"> {describe(before)}</span>}
    </Element>
  );
}
