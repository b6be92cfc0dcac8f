import { jobStatusLabels } from '@otto/api-contract';
import { EmptyState, Notice, PageHeader, buttonClassName, useToast } from '@otto/ui';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ArchivedNotice } from '../../../features/archive/archived-notice';
import { ArchiveButton } from '../../../features/archive/archive-button';
import { useJob } from '../../../features/jobs/api/get-job';
import { useUpdateJob } from '../../../features/jobs/api/save-job';
import { JobForm, jobFormValues } from '../../../features/jobs/components/job-form';
import { dayOf } from '../../../features/schedule/schedule-time';
import { browserTimeZone } from '../../../lib/browser-time-zone';
import { JobInvoiceLink } from '../../../features/invoices/components/job-invoice-link';
import { JobMoveButtons } from '../../../features/jobs/components/job-moves';
import { JobStatusBadge } from '../../../features/jobs/components/job-status-badge';
import { ApiClientError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { ChangedElsewhereNotice } from '../../../lib/live/changed-elsewhere-notice';
import { useEditConflict } from '../../../lib/live/use-edit-conflict';
import { listReturnHref } from '../../../lib/list-return';
import { paths } from '../../../lib/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useUnsavedChangesGuard } from '../../../lib/use-unsaved-changes-guard';

function Missing({ title, text }: { title: string; text: string }) {
  return (
    <EmptyState
      headingLevel={2}
      title={title}
      description={text}
      action={
        <Link className={buttonClassName()} to={listReturnHref('jobs')}>
          Back to jobs
        </Link>
      }
    />
  );
}

export default function EditJobScreen() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id') ?? '';
  const job = useJob(id);
  const update = useUpdateJob();
  const toast = useToast();
  const [dirty, setDirty] = useState(false);
  /** The version the user chose to keep editing over: fields they did not touch take its values. */
  const [kept, setKept] = useState<{ id: string; values: ReturnType<typeof jobFormValues> }>();
  const guard = useUnsavedChangesGuard(dirty);
  const navigate = useNavigate();
  /** Arrived from New job: the next step gets focus rather than the heading. */
  const justCreated = (useLocation().state as { created?: boolean } | null)?.created === true;
  // A one-click move (or its undo) is this tab's own change: the form starts over from it.
  const [moved, setMoved] = useState({ version: 0, count: 0 });
  useDocumentTitle(job.data?.title ?? 'Job');
  const conflict = useEditConflict({
    id,
    current: job.data?.modified_dt ?? 0,
    saved: Math.max(update.data?.id === id ? update.data.modified_dt : 0, moved.version) || undefined,
    saving: update.isPending,
    sameAsSaved:
      update.data?.id === id &&
      job.data !== undefined &&
      (['title', 'description', 'service_address', 'status', 'assignee', 'scheduled_start_dt', 'scheduled_end_dt', 'price_cents', 'customer_id'] as const).every(
        (field) => job.data[field] === update.data?.[field],
      ),
  });

  if (id === '') return <Missing title="No job chosen" text="Open a job from the job list to edit it." />;
  if (job.isPending) return <p role="status">Loading job…</p>;
  if (job.isError) {
    return job.error instanceof ApiClientError && job.error.status === 404 ? (
      <Missing title="Job not found" text={`There is no job with the id “${id}”.`} />
    ) : (
      <Notice tone="error" title="The job could not be loaded">
        {job.error.message}
      </Notice>
    );
  }

  const j = job.data;
  const reached = Object.entries(j.status_dates).filter((entry): entry is [keyof typeof jobStatusLabels, number] => entry[1] !== null);
  return (
    <>
      <PageHeader
        focusTitle
        title={j.title}
        description={
          <>
            <JobStatusBadge status={j.status} /> for <Link to={paths.customers.edit.href(j.customer_id)}>{j.customer_name}</Link> ·{' '}
            <Link to={listReturnHref('jobs')}>Back to jobs</Link>
            {j.scheduled_start_dt !== null && (
              <>
                {' '}
                · <Link to={paths.schedule.href({ view: 'day', date: dayOf(j.scheduled_start_dt, browserTimeZone()) })}>See its day on the schedule</Link>
              </>
            )}
          </>
        }
        actions={
          j.archived_dt == null ? (
            <ArchiveButton
              kind="job"
              id={j.id}
              name={`Job “${j.title}”`}
              onArchived={async () => {
                guard.allowNextNavigation();
                await navigate(listReturnHref('jobs'));
              }}
            />
          ) : undefined
        }
      />
      {j.archived_dt != null && <ArchivedNotice kind="job" id={j.id} name={`Job “${j.title}”`} archivedDt={j.archived_dt} modified={j.modified_dt} />}
      {j.archived_dt == null && (
        <section aria-labelledby="moves-title" className="otto-card">
          <h2 id="moves-title" className="otto-card__title">
            Status: {jobStatusLabels[j.status]}
          </h2>
          <JobMoveButtons
            job={j}
            focusFirst={justCreated}
            disabled={dirty}
            onMoved={(next) => setMoved((m) => ({ version: next.modified_dt, count: m.count + 1 }))}
          />
          {dirty && <p className="otto-muted">Save or undo your changes below to move the job in one click.</p>}
          <JobInvoiceLink job={j} />
        </section>
      )}
      {conflict.changed && (
        <ChangedElsewhereNotice
          what="job"
          onLoad={() => {
            conflict.loadNewVersion();
            setKept(undefined);
            setDirty(false);
          }}
          onKeepEditing={() => {
            conflict.keepEditing();
            setKept({ id: j.id, values: jobFormValues(j) });
          }}
        />
      )}
      <JobForm
        key={`${conflict.formKey}.${moved.count}`}
        initial={jobFormValues(j)}
        incoming={kept?.id === j.id ? kept.values : undefined}
        savedStatus={j.status}
        submitLabel="Save changes"
        saving={update.isPending}
        onDirtyChange={setDirty}
        onSubmit={async (fields) => {
          const saved = await update.mutateAsync({ id: j.id, fields, version: conflict.expected });
          toast.show(`Job “${saved.title}” was saved (${jobStatusLabels[saved.status]}).`, { tone: 'success' });
        }}
      />
      <section aria-labelledby="history-title" className="otto-card">
        <h2 id="history-title" className="otto-card__title">
          History
        </h2>
        <dl className="otto-details">
          <div>
            <dt>Created</dt>
            <dd>{formatDateTime(j.created_dt)}</dd>
          </div>
          {reached
            .sort((a, b) => a[1] - b[1])
            .map(([status, at]) => (
              <div key={status}>
                <dt>{jobStatusLabels[status]}</dt>
                <dd>{formatDateTime(at)}</dd>
              </div>
            ))}
        </dl>
      </section>
      {guard.dialog}
    </>
  );
}
