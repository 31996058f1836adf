/** The current time, re-read every `everyMs` so relative times ("4 s ago") stay true. */
import { useEffect, useState } from 'react';

export function useNow(everyMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}
