import { useEffect, useState } from 'react';

/** The time, read again every `periodMs`, so "2 min ago" ages while the page stays open with no new data. */
export function useNow(periodMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), periodMs);
    return () => window.clearInterval(timer);
  }, [periodMs]);
  return now;
}
