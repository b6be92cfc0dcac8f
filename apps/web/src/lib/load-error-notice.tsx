import { Button, Notice } from '@otto/ui';

/** What a list shows when it could not be loaded: the reason in words and a way to try again. */
export function LoadErrorNotice({ title, error, onRetry }: { title: string; error: Error; onRetry: () => void }) {
  return (
    <Notice
      tone="error"
      title={title}
      action={
        <Button size="sm" onClick={onRetry}>
          Try again
        </Button>
      }
    >
      {error.message}
    </Notice>
  );
}
