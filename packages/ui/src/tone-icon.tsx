/** A status tone shared by Notice and Toast. */
export type StatusTone = 'info' | 'success' | 'warning' | 'error';

const paths: Record<StatusTone, string> = {
  info: 'M10 9v5M10 6.5v.01',
  success: 'm6.5 10.25 2.5 2.5 4.5-5',
  warning: 'M10 7v4M10 13.5v.01',
  error: 'm7.5 7.5 5 5m0-5-5 5',
};

/** A decorative 18px icon for a status tone (internal; the text always carries the meaning). */
export function ToneIcon({ tone }: { tone: StatusTone }) {
  return (
    <svg className="otto-tone-icon" viewBox="0 0 20 20" fill="none" aria-hidden="true">
      {tone === 'warning' ? (
        <path d="M8.7 3.3a1.5 1.5 0 0 1 2.6 0l6.4 11.2a1.5 1.5 0 0 1-1.3 2.25H3.6a1.5 1.5 0 0 1-1.3-2.25z" stroke="currentColor" strokeWidth="1.5" />
      ) : (
        <circle cx="10" cy="10" r="7.25" stroke="currentColor" strokeWidth="1.5" />
      )}
      <path d={paths[tone]} stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
