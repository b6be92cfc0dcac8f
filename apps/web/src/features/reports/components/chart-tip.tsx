import { useCallback, useState, type KeyboardEvent, type ReactNode } from 'react';

/**
 * Which mark of a chart shows its tooltip: the one under the pointer or with focus. Escape hides
 * it (WCAG 1.4.13); the tooltip sits inside the mark's slot, so moving onto it keeps it open.
 */
export function useChartTip() {
  const [active, setActive] = useState<string | null>(null);
  const slotProps = useCallback(
    (key: string) => ({
      onMouseEnter: () => setActive(key),
      onMouseLeave: () => setActive((current) => (current === key ? null : current)),
      onFocus: () => setActive(key),
      onBlur: () => setActive((current) => (current === key ? null : current)),
      onKeyDown: (event: KeyboardEvent) => {
        if (event.key === 'Escape') setActive(null);
      },
    }),
    [],
  );
  return { active, slotProps };
}

/**
 * The tooltip of one mark. It repeats what the mark's accessible name already says, so screen
 * readers skip it (the chart's table has every number too).
 */
export function ChartTip({ children, align = 'center' }: { children: ReactNode; align?: 'center' | 'start' | 'end' }) {
  return (
    <span className={`chart-tip chart-tip--${align}`} aria-hidden="true">
      {children}
    </span>
  );
}
