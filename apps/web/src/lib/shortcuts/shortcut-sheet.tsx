import { Button } from '@otto/ui';
import { Fragment, useId } from 'react';
import { NativeDialog } from '../native-dialog';
import { keyLabel, shortcutGroups } from './shortcut-list';

export interface ShortcutSheetProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** `?`: every keyboard shortcut, in a modal dialog (focus kept inside and returned on close). */
export function ShortcutSheet({ open, onOpenChange }: ShortcutSheetProps) {
  const titleId = useId();
  return (
    <NativeDialog open={open} onClose={() => onOpenChange(false)} className="otto-dialog otto-shortcut-sheet" labelledBy={titleId}>
          <h2 id={titleId}>Keyboard shortcuts</h2>
          {shortcutGroups.map((group) => (
            <section key={group.title} className="otto-shortcut-sheet__group">
              <h3>{group.title}</h3>
              <dl>
                {group.shortcuts.map((s) => (
                  <div key={s.description}>
                    <dt>
                      {s.keys.map((k, i) => (
                        <Fragment key={k}>
                          {i > 0 && <span className="otto-muted">{s.sequence ? ' then ' : ' + '}</span>}
                          <kbd>{keyLabel(k)}</kbd>
                        </Fragment>
                      ))}
                    </dt>
                    <dd>{s.description}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
          <p className="otto-muted">Single keys do nothing while you type in a field; Ctrl/⌘ shortcuts and Esc always work.</p>
          <div className="otto-dialog__actions">
            <Button onClick={() => onOpenChange(false)}>Close</Button>
          </div>
    </NativeDialog>
  );
}
