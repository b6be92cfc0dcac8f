import type { ScheduleJob } from '@otto/api-contract';
import { Button, SelectField, TextField } from '@otto/ui';
import { useId, useState, type FormEvent } from 'react';
import { Modal } from '../../../lib/modal';
import { laneName } from '../schedule-words';
import { spanOf } from '../schedule-layout';
import { dayOf, instantAt, minuteOfDay } from '../schedule-time';

const lengths = [15, 30, 45, 60, 90, 120, 180, 240, 300, 360, 480, 600];

function lengthLabel(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h ? `${h} h` : '', m ? `${m} min` : ''].filter(Boolean).join(' ');
}

const pad = (n: number) => String(n).padStart(2, '0');

export interface PlaceJobDialogProps {
  job: ScheduleJob;
  /** The day the dialog suggests for a job not on the calendar yet (`YYYY-MM-DD`). */
  suggestedDay: string;
  lanes: readonly string[];
  timeZone: string;
  onPlace: (placement: { start: number; end: number; assignee: string }) => void;
  onClose: () => void;
}

/**
 * Puts a job on the calendar, or moves it, by typing: the day, the start time, how long, and who.
 * The keyboard's and the phone's way to do what dragging does.
 */
export function PlaceJobDialog({ job, suggestedDay, lanes, timeZone, onPlace, onClose }: PlaceJobDialogProps) {
  const placed = job.scheduled_start_dt !== null;
  const span = placed ? spanOf(job) : undefined;
  const startMinutes = span ? minuteOfDay(span.start, timeZone) : 9 * 60;
  const length = span ? Math.round((span.end - span.start) / 60_000) : 120;
  const [day, setDay] = useState(span ? dayOf(span.start, timeZone) : suggestedDay);
  const [start, setStart] = useState(`${pad(Math.floor(startMinutes / 60))}:${pad(startMinutes % 60)}`);
  const [minutes, setMinutes] = useState(String(length));
  const [assignee, setAssignee] = useState(job.assignee);
  const [error, setError] = useState<{ day?: string; start?: string }>({});
  const listId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const time = /^(\d{2}):(\d{2})$/.exec(start);
    const problems = {
      ...(/^\d{4}-\d{2}-\d{2}$/.test(day) ? {} : { day: 'Enter a day.' }),
      ...(time ? {} : { start: 'Enter a start time.' }),
    };
    setError(problems);
    if (!time || problems.day) return;
    const at = instantAt(day, Number(time[1]) * 60 + Number(time[2]), timeZone);
    onPlace({ start: at, end: at + Number(minutes) * 60_000, assignee: assignee.trim() });
  };

  const lengthOptions = [...new Set([...lengths, length])].sort((a, b) => a - b);
  return (
    <Modal title={placed ? `Move “${job.title}”` : `Schedule “${job.title}”`} onClose={onClose} className="sched-place">
      <p className="sched-place__who">{job.customer_name}</p>
      <form onSubmit={submit} noValidate>
        <TextField label="Day" type="date" required value={day} onChange={(e) => setDay(e.target.value)} error={error.day} autoFocus />
        <TextField label="Start" type="time" step={900} required value={start} onChange={(e) => setStart(e.target.value)} error={error.start} />
        <SelectField
          label="Length"
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
          options={lengthOptions.map((m) => ({ value: String(m), label: lengthLabel(m) }))}
        />
        <TextField label="Person" hint="Leave empty for unassigned." list={listId} value={assignee} onChange={(e) => setAssignee(e.target.value)} />
        <datalist id={listId}>
          {lanes.filter(Boolean).map((lane) => (
            <option key={lane} value={lane}>
              {laneName(lane)}
            </option>
          ))}
        </datalist>
        <div className="otto-form-actions">
          <Button type="submit" variant="primary">
            {placed ? 'Move' : 'Schedule'}
          </Button>
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </form>
    </Modal>
  );
}
