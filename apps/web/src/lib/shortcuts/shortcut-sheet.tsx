import { Button } from '@otto/ui';
import * as Dialog from '@radix-ui/react-dialog';
import { Fragment } from 'react';
import { keyLabel, shortcutGroups } from './shortcut-list';

export interface ShortcutSheetProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** `?`: every keyboard shortcut, in a dialog (Radix: focus kept inside and returned on close). */
export function ShortcutSheet({ open, onOpenChange }: ShortcutSheetProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="otto-dialog-backdrop" />
        <Dialog.Content className="otto-dialog otto-shortcut-sheet" aria-describedby={undefined}>
          <Dialog.Title asChild>
            <h2>Keyboard shortcuts</h2>
          </Dialog.Title>
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
            <Dialog.Close asChild>
              <Button>Close</Button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
