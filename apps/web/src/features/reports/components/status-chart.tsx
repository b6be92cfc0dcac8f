import { jobStatusLabels, jobStatuses, type JobCounts } from '@otto/api-contract';
import { Link } from 'react-router';
import { formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { ChartTip, useChartTip } from './chart-tip';

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });

/**
 * Jobs by status as horizontal bars, each a link to the job list on that status, with a tooltip
 * on hover and focus and a table of the numbers for screen readers.
 */
export function StatusChart({ counts }: { counts: JobCounts }) {
  const { active, slotProps } = useChartTip();
  const top = Math.max(1, ...jobStatuses.map((s) => counts[s]));
  const describe = (status: (typeof jobStatuses)[number]) =>
    `${jobStatusLabels[status]}: ${formatCount(counts[status], 'job')}, ${percent.format(counts.all ? counts[status] / counts.all : 0)} of all.`;
  return (
    <figure className="chart">
      <figcaption className="chart__caption">
        <h2 className="chart__title">Jobs by status</h2>
        <p className="chart__summary">{formatCount(counts.all, 'job')} in all. Choose a status to see its jobs.</p>
      </figcaption>
      <ul className="hbars">
        {jobStatuses.map((status) => (
          <li key={status} className="hbars__row chart__slot" {...slotProps(status)}>
            {/* The name starts with the visible words (label, count), as speech input expects. */}
            <Link to={paths.jobs.list.href({ status })} className="hbars__link">
              <span className="hbars__label">{jobStatusLabels[status]}</span>{' '}
              <span className="hbars__track">
                <span className={`hbars__fill${counts[status] ? '' : ' hbars__fill--zero'}`} style={{ width: `${(counts[status] / top) * 100}%` }} />
              </span>
              <span className="hbars__count">{counts[status].toLocaleString()}</span>
              <span className="otto-visually-hidden">
                {' '}
                {counts[status] === 1 ? 'job' : 'jobs'}, {percent.format(counts.all ? counts[status] / counts.all : 0)} of all. Open these jobs.
              </span>
            </Link>
            {active === status && <ChartTip>{describe(status)}</ChartTip>}
          </li>
        ))}
      </ul>
      {/* In a clipping box: a table ignores a width too small for its content. */}
      <div className="otto-visually-hidden">
      <table>
        <caption>Jobs by status</caption>
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Jobs</th>
          </tr>
        </thead>
        <tbody>
          {jobStatuses.map((status) => (
            <tr key={status}>
              <th scope="row">{jobStatusLabels[status]}</th>
              <td>{counts[status]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </figure>
  );
}
