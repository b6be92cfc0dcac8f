import { jobStatusLabels, type ReportSummary } from '@otto/api-contract';
import { Badge } from '@otto/ui';
import { Link } from 'react-router';
import { formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';

const dayName = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** This week: scheduled and in-progress jobs on the day they start, each a link to the job. */
export function WeekPanel({ week, now }: { week: ReportSummary['week']; now: number }) {
  const total = week.days.reduce((n, d) => n + d.total, 0);
  return (
    <section className="overview-panel overview-week" aria-labelledby="overview-week-title">
      <h2 id="overview-week-title" className="chart__title">
        This week
      </h2>
      <p className="chart__summary">
        {total === 0 ? 'Nothing is scheduled or in progress this week.' : `${formatCount(total, 'job')} scheduled or in progress.`}
        {week.before > 0 && (
          <>
            {' '}
            <Link to={paths.jobs.list.href({ open: week.start })}>{formatCount(week.before, 'job')} from before this week</Link>{' '}
            {week.before === 1 ? 'is' : 'are'} still open.
          </>
        )}
      </p>
      <ol className="overview-week__days">
        {week.days.map((day) => {
          const today = day.start_dt <= now && now < day.end_dt;
          return (
            <li key={day.date} className={`overview-week__day${today ? ' overview-week__day--today' : ''}`} aria-current={today ? 'date' : undefined}>
              <h3 className="overview-week__date">
                {dayName.format(day.start_dt)}
                {today && <span className="overview-week__today"> · Today</span>}
              </h3>
              {day.jobs.length === 0 ? (
                <p className="overview-week__none">Nothing scheduled</p>
              ) : (
                <ul className="overview-week__jobs">
                  {day.jobs.map((job) => (
                    <li key={job.id}>
                      <Link to={paths.jobs.edit.href(job.id)} className="overview-week__job">
                        <span className="overview-week__time">{time.format(job.scheduled_start_dt)}</span>
                        <span className="overview-week__title">{job.title}</span>
                        <span className="overview-week__customer">{job.customer_name}</span>
                      </Link>
                      {job.status === 'in_progress' && <Badge tone="warning">{jobStatusLabels.in_progress}</Badge>}
                    </li>
                  ))}
                  {day.total > day.jobs.length && (
                    <li className="overview-week__more">and {formatCount(day.total - day.jobs.length, 'more job')}</li>
                  )}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
