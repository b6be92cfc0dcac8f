import type { ReactNode } from 'react';
import { cx } from './cx';
import { ToneIcon } from './tone-icon';
import type { StatusTone } from './tone-icon';

/** Props of {@link Notice}. */
export interface NoticeProps {
  /** @default 'info' */
  tone?: StatusTone;
  /** Bold first line. */
  title?: ReactNode;
  /** The message. */
  children?: ReactNode;
  /** A button or link placed at the end, e.g. "Retry". */
  action?: ReactNode;
  className?: string;
}

/**
 * An inline status message. Errors use role="alert", every other tone role="status".
 *
 * @example
 * <Notice tone="warning" title="Changes will not be kept">
 *   This browser cannot store data, so everything resets when you close the tab.
 * </Notice>
 */
export function Notice({ tone = 'info', title, children, action, className }: NoticeProps) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={cx('otto-notice', `otto-notice--${tone}`, className)}>
      <ToneIcon tone={tone} />
      <div className="otto-notice__body">
        {title != null && <p className="otto-notice__title">{title}</p>}
        {children != null && <div className="otto-notice__message">{children}</div>}
      </div>
      {action != null && <div className="otto-notice__action">{action}</div>}
    </div>
  );
}
