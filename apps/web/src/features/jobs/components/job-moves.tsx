import { jobStatusLabels, jobTransitions, type Job, type JobStatus } from '@otto/api-contract';
import { Button, TextField, useToast } from '@otto/ui';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { ApiClientError } from '../../../lib/api-client';
import { fromDateTimeLocal, toDateTimeLocal } from '../../../lib/format';
import { Modal } from '../../../lib/modal';
import { placePopover } from '../../../lib/place-popover';
import { useMoveJob, useRevertJobMove } from '../api/move-job';

/** What the button for a move says, from where the job stands. */
export function moveLabel(from: JobStatus, to: JobStatus): string {
  const forward: Partial<Record<JobStatus, string>> = {
    scheduled: 'Schedule',
    in_progress: 'Start',
    completed: 'Complete',
    invoiced: 'Invoice',
    paid: 'Mark paid',
    cancelled: 'Cancel',
  };
  const order = ['quote', 'scheduled', 'in_progress', 'completed', 'invoiced', 'paid'];
  const backward = to !== 'cancelled' && from !== 'cancelled' && order.indexOf(to) < order.indexOf(from);
  if (from === 'cancelled' && to === 'quote') return 'Reopen as quote';
  if (backward) return `Back to ${jobStatusLabels[to].toLowerCase()}`;
  return forward[to] ?? jobStatusLabels[to];
}

/** How long the Undo of a move is offered. */
const undoMs = 8000;

/**
 * Runs one-click moves with their toast and Undo, and asks for a start time when scheduling.
 * Returns the moves on offer, a function to start one, and the scheduling dialog to render.
 */
function useJobMoves(job: Job, onMoved?: (job: Job) => void, onNotMoved?: () => void) {
  const move = useMoveJob();
  const revert = useRevertJobMove();
  const toast = useToast();
  const [asking, setAsking] = useState(false);

  async function run(status: JobStatus, scheduled_start_dt?: number) {
    try {
      const moved = await move.mutateAsync({ job, status, ...(scheduled_start_dt !== undefined ? { scheduled_start_dt } : {}) });
      onMoved?.(moved);
      toast.show(`“${moved.title}” is now ${jobStatusLabels[moved.status].toLowerCase()}.`, {
        tone: 'success',
        kind: 'job-move',
        durationMs: undoMs,
        action: {
          label: 'Undo',
          onAction: () => {
            revert
              .mutateAsync({ id: moved.id, version: moved.modified_dt })
              .then((back) => {
                onMoved?.(back);
                toast.show(`“${back.title}” is back to ${jobStatusLabels[back.status].toLowerCase()}.`, { tone: 'success', kind: 'job-move' });
              })
              .catch((error: unknown) =>
                toast.show(error instanceof ApiClientError ? error.message : 'The move could not be undone.', { tone: 'error', kind: 'job-move' }),
              );
          },
        },
      });
      return true;
    } catch (error) {
      toast.show(error instanceof ApiClientError ? error.message : 'The job could not be moved.', { tone: 'error', kind: 'job-move' });
      onNotMoved?.();
      return false;
    }
  }

  const start = (status: JobStatus) => (status === 'scheduled' ? setAsking(true) : void run(status));
  const dialog = asking ? (
    <ScheduleDialog
      job={job}
      saving={move.isPending}
      onCancel={() => {
        setAsking(false);
        onNotMoved?.();
      }}
      onSchedule={async (at) => {
        if (await run('scheduled', at)) setAsking(false);
      }}
    />
  ) : null;
  return { moves: jobTransitions[job.status], start, dialog, pending: move.isPending || revert.isPending };
}

function ScheduleDialog(props: { job: Job; saving: boolean; onCancel: () => void; onSchedule: (at: number) => Promise<void> }) {
  const [value, setValue] = useState(toDateTimeLocal(props.job.scheduled_start_dt));
  const [error, setError] = useState<string>();
  return (
    <Modal title={`Schedule “${props.job.title}”`} onClose={props.onCancel}>
      <form
        className="otto-stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const at = fromDateTimeLocal(value);
          if (at === null) return setError('Enter the date and time the work starts.');
          void props.onSchedule(at);
        }}
      >
        <TextField
          label="Starts"
          type="datetime-local"
          name="scheduled_start"
          required
          autoFocus
          value={value}
          error={error}
          onChange={(event) => {
            setValue(event.target.value);
            setError(undefined);
          }}
        />
        <div className="otto-dialog__actions">
          <Button type="button" onClick={props.onCancel}>
            Keep as is
          </Button>
          <Button type="submit" variant="primary" loading={props.saving}>
            Schedule
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * The job screen's row of buttons, one per allowed next status. After a move the button pressed is
 * gone, so focus goes to the next step (the first of the new buttons), or to the words that say a
 * paid job is final: a keyboard or screen reader user stays where they were working.
 */
export function JobMoveButtons({
  job,
  disabled,
  onMoved,
  focusFirst = false,
}: {
  job: Job;
  disabled?: boolean;
  onMoved?: (job: Job) => void;
  /** Put focus on the next step when the buttons appear (a job just created). */
  focusFirst?: boolean;
}) {
  const [movedFrom, setMovedFrom] = useState<JobStatus>();
  // A move that failed or was cancelled leaves focus where it is (and a later change of status, a
  // save of the form or another tab's move, is not taken for it).
  const { moves, start, dialog, pending } = useJobMoves(job, onMoved, () => setMovedFrom(undefined));
  const group = useRef<HTMLDivElement & HTMLParagraphElement>(null);
  /** The next step (the first button), or the words that a paid job is final. */
  const focusNextStep = () => (group.current?.matches('p') ? group.current : group.current?.querySelector<HTMLElement>('button:not([disabled])'))?.focus();
  const focusOnMount = useRef(focusFirst);
  useEffect(() => {
    if (focusOnMount.current) focusNextStep();
  }, []);
  useEffect(() => {
    if (movedFrom === undefined || movedFrom === job.status || dialog || pending) return;
    setMovedFrom(undefined);
    focusNextStep();
  }, [movedFrom, job.status, dialog, pending]);
  const begin = (to: JobStatus) => {
    setMovedFrom(job.status);
    start(to);
  };
  if (moves.length === 0) {
    return (
      <p ref={group} tabIndex={-1} className="otto-muted">
        Paid jobs are final. A mis-click can be undone from its message for a few seconds.
      </p>
    );
  }
  return (
    <div ref={group} className="job-moves" role="group" aria-label="Move this job">
      {moves.map((to) => (
        <Button
          key={to}
          size="sm"
          variant={to === 'cancelled' || moveLabel(job.status, to).startsWith('Back') ? 'secondary' : 'primary'}
          disabled={disabled || pending}
          onClick={() => begin(to)}
        >
          {moveLabel(job.status, to)}
        </Button>
      ))}
      {dialog}
    </div>
  );
}

/** A row's "Move" menu in a job list. */
export function JobMoveMenu({ job }: { job: Job }) {
  const { moves, start, dialog, pending } = useJobMoves(job);
  const [open, setOpen] = useState(false);
  // Fixed to the viewport by the button (placePopover), so that the table's scroll box cannot clip
  // it and a phone's screen edge cannot cut it off; measured before it is painted.
  const [place, setPlace] = useState<{ top: number; left: number }>();
  const list = useRef<HTMLUListElement>(null);
  useLayoutEffect(() => {
    if (!open || !trigger.current || !list.current) return;
    setPlace(placePopover(trigger.current.getBoundingClientRect(), list.current.getBoundingClientRect()));
  }, [open]);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);

  // The first item takes focus once the menu is placed (a hidden menu cannot take it).
  const focusedOnce = useRef(false);
  useEffect(() => {
    if (!open) focusedOnce.current = false;
    else if (place && !focusedOnce.current) {
      focusedOnce.current = true;
      root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    }
  }, [open, place]);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    // A scroll of the page or the table moves the button: the menu follows it, and closes once the
    // button is out of sight. (A scroll that brought the button into view may be reported just
    // after the tap that opened the menu; closing on any scroll shut it at once.)
    const onScroll = (event: Event) => {
      if (root.current?.contains(event.target as Node) || !trigger.current || !list.current) return;
      const rect = trigger.current.getBoundingClientRect();
      if (rect.bottom < 0 || rect.top > window.innerHeight) setOpen(false);
      else setPlace(placePopover(rect, list.current.getBoundingClientRect()));
    };
    document.addEventListener('pointerdown', onDown);
    window.addEventListener('scroll', onScroll, true);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      window.removeEventListener('scroll', onScroll, true);
    };
  }, [open]);

  if (moves.length === 0) return <span className="otto-muted">Final</span>;
  return (
    <div
      ref={root}
      className="job-move-menu"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          setOpen(false);
          trigger.current?.focus();
        }
        if (open && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
          event.preventDefault();
          const items = [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
          const at = items.indexOf(document.activeElement as HTMLElement);
          items[(at + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
        }
      }}
    >
      <Button
        ref={trigger}
        size="sm"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Move “${job.title}”`}
        disabled={pending}
        onClick={() => {
          setPlace(undefined);
          setOpen((o) => !o);
        }}
      >
        Move ▾
      </Button>
      {open && (
        <ul
          id={menuId}
          role="menu"
          aria-label={`Move “${job.title}”`}
          ref={list}
          className="job-move-menu__list"
          style={place ? { top: place.top, left: place.left } : { visibility: 'hidden', top: 0, left: 0 }}
        >
          {moves.map((to) => (
            <li key={to} role="none">
              <button
                type="button"
                role="menuitem"
                className="job-move-menu__item"
                onClick={() => {
                  setOpen(false);
                  start(to);
                }}
              >
                {moveLabel(job.status, to)}
              </button>
            </li>
          ))}
        </ul>
      )}
      {dialog}
    </div>
  );
}
