import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChartTip, useChartTip } from './chart-tip';

/** One bar: its value, the words for it, and where clicking it leads (if anywhere). */
export interface BarValue {
  value: number;
  /** The value as people read it ("1,250.00", "12"). */
  text: string;
  /** Everything the bar says, in one sentence: its accessible name and its tooltip. */
  describe: string;
  href?: string;
}

/** A group of bars side by side: one month, with this year's and last year's bar. */
export interface BarGroup {
  key: string;
  /** Under the bars ("Mar"); a phone shows the last few months, so there is room for it. */
  label: string;
  /** In the table ("March 2026"). */
  title: string;
  values: BarValue[];
}

export interface BarChartProps {
  title: string;
  /** A sentence under the title: what the chart says at a glance. */
  summary?: ReactNode;
  /** One per value of a group, in order; the legend and the table's columns. */
  series: readonly { name: string }[];
  /** The table's first column header ("Month"). */
  groupName: string;
  groups: readonly BarGroup[];
  /** Labels of the value axis ("1.2K"). */
  formatTick: (value: number) => string;
}

/** A rounded-up top for the value axis: 1, 2, 2.5 or 5 times a power of ten. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 2.5, 5, 10].find((f) => max <= f * power) ?? 10;
  return step * power;
}

/**
 * A vertical bar chart written by hand (no library): bars are links or focusable marks with a
 * tooltip on hover and focus, and a table of the same numbers for screen readers.
 * @example
 * <BarChart title="New customers" series={[{ name: 'New customers' }]} groupName="Month" groups={groups} formatTick={String} />
 */
export function BarChart({ title, summary, series, groupName, groups, formatTick }: BarChartProps) {
  // Where the chart is narrow (a phone) it shows the last few months, so that every mark stays at
  // least 24 px wide (WCAG 2.5.8); the table below, for screen readers, keeps them all.
  const narrowMonths = series.length > 1 ? 5 : 6;
  const { active, slotProps } = useChartTip();
  const top = niceMax(Math.max(0, ...groups.flatMap((g) => g.values.map((v) => v.value))));
  return (
    <figure className={`chart chart--${series.length > 1 ? 'pairs' : 'single'}`}>
      <figcaption className="chart__caption">
        <h2 className="chart__title">{title}</h2>
        {summary != null && <p className="chart__summary">{summary}</p>}
        {series.length > 1 && (
          <ul className="chart__legend" aria-hidden="true">
            {series.map((s, i) => (
              <li key={s.name}>
                <span className={`chart__swatch chart__swatch--${i}`} />
                {s.name}
              </li>
            ))}
          </ul>
        )}
      </figcaption>
      <div className="chart__plot">
        <div className="chart__axis" aria-hidden="true">
          <span>{formatTick(top)}</span>
          <span>{formatTick(top / 2)}</span>
          <span>{formatTick(0)}</span>
        </div>
        <ol className="chart__groups">
          {groups.map((group, index) => (
            <li key={group.key} className={`chart__group${index < groups.length - narrowMonths ? ' chart__group--older' : ''}`}>
              <div className="chart__bars">
                {group.values.map((value, i) => {
                  const key = `${group.key}.${i}`;
                  // The mark is the whole column above the bar, not the bar alone: a month with
                  // little in it is as easy to point at, tap or hover as any other (WCAG 2.5.8).
                  const fill = (
                    <span
                      className={`chart__bar chart__bar--${i}${value.value > 0 ? '' : ' chart__bar--zero'}`}
                      style={{ height: `${(value.value / top) * 100}%` }}
                    />
                  );
                  // Tooltips near an edge open away from it (the first months a narrow chart shows, too).
                  const nearStart = index < 2 || [0, 1].includes(index - (groups.length - narrowMonths));
                  const align = nearStart ? 'start' : index >= groups.length - 2 ? 'end' : 'center';
                  return (
                    <div key={key} className="chart__slot" {...slotProps(key)}>
                      {value.href ? (
                        <Link to={value.href} className="chart__mark" aria-label={`${value.describe} Open these jobs.`}>
                          {fill}
                        </Link>
                      ) : (
                        <span role="img" tabIndex={0} className="chart__mark" aria-label={value.describe}>
                          {fill}
                        </span>
                      )}
                      {active === key && <ChartTip align={align}>{value.describe}</ChartTip>}
                    </div>
                  );
                })}
              </div>
              <span className="chart__label" aria-hidden="true">
                {group.label}
              </span>
            </li>
          ))}
        </ol>
      </div>
      {groups.length > narrowMonths && (
        <p className="chart__narrow-note" aria-hidden="true">
          The last {narrowMonths} months; a wider window shows all {groups.length}.
        </p>
      )}
      {/* The numbers for screen readers (and anyone reading the page without its styles). */}
      <div className="otto-visually-hidden">
      <table>
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{groupName}</th>
            {series.map((s) => (
              <th key={s.name} scope="col">
                {s.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {groups.map((group) => (
            <tr key={group.key}>
              <th scope="row">{group.title}</th>
              {group.values.map((v, i) => (
                <td key={i}>{v.text}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </figure>
  );
}
