import { jobStatusLabels, type JobStatus } from '@otto/api-contract';
import { Badge, type BadgeTone } from '@otto/ui';

const tones: Record<JobStatus, BadgeTone> = {
  quote: 'neutral',
  scheduled: 'info',
  in_progress: 'warning',
  completed: 'success',
  invoiced: 'info',
  paid: 'success',
  cancelled: 'danger',
};

export function JobStatusBadge({ status }: { status: JobStatus }) {
  return <Badge tone={tones[status]}>{jobStatusLabels[status]}</Badge>;
}
