// Hand-written SVG charts beside the Markdown report: per size, each operation's whole path, its
// floor and MSW + array (log scale, medians); start-up of Otto and MSW side by side.
import type { BenchOp } from '../shared/ops';
import type { BenchResults } from './report';
import type { SizeResult } from './request-path';

export interface Chart {
  /** File name suffix, e.g. `path-100000`. */
  name: string;
  title: string;
  svg: string;
}

const colors = { otto: '#2563eb', floor: '#9ca3af', msw: '#f97316' } as const;
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (v: number) => (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0));

interface Series {
  label: string;
  color: string;
  values: (number | undefined)[];
}

/** Horizontal grouped bars, one group per row label; log scale when the values span a wide range. */
function barChart(title: string, rows: string[], series: Series[], log: boolean): string {
  const all = series.flatMap((s) => s.values).filter((v): v is number => v !== undefined && v > 0);
  const max = Math.max(...all, 1);
  const min = log ? Math.min(...all, max) : 0;
  const lo = log ? Math.floor(Math.log10(min)) : 0;
  const hi = log ? Math.ceil(Math.log10(max)) : max * 1.1;
  const left = 170;
  const width = 560;
  const bar = 9;
  const group = bar * series.length + 8;
  const top = 48;
  const height = top + rows.length * group + 36;
  const x = (v: number) => left + (log ? ((Math.log10(v) - lo) / (hi - lo || 1)) * width : (v / hi) * width);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${left + width + 70}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<text x="8" y="18" font-size="14" font-weight="bold">${escape(title)}</text>`,
  ];
  series.forEach((s, i) => {
    parts.push(`<rect x="${left + i * 130}" y="28" width="10" height="10" fill="${s.color}"/><text x="${left + i * 130 + 14}" y="37">${escape(s.label)}</text>`);
  });
  const ticks = log ? Array.from({ length: hi - lo + 1 }, (_, i) => 10 ** (lo + i)) : [0, hi / 4, hi / 2, (3 * hi) / 4, hi];
  for (const t of ticks) {
    const tx = log || t > 0 ? x(t || 1e-9) : left;
    parts.push(`<line x1="${tx}" y1="${top - 4}" x2="${tx}" y2="${height - 30}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${tx}" y="${height - 16}" text-anchor="middle" fill="#6b7280">${fmt(t)} ms</text>`);
  }
  rows.forEach((row, r) => {
    const y = top + r * group;
    parts.push(`<text x="${left - 6}" y="${y + (bar * series.length) / 2 + 4}" text-anchor="end">${escape(row)}</text>`);
    series.forEach((s, i) => {
      const v = s.values[r];
      if (v === undefined || !(v > 0)) return;
      const w = Math.max(1, x(v) - left);
      parts.push(`<rect x="${left}" y="${y + i * bar}" width="${w.toFixed(1)}" height="${bar - 1}" fill="${s.color}"><title>${escape(`${row}, ${s.label}: ${fmt(v)} ms`)}</title></rect>`);
      parts.push(`<text x="${left + w + 3}" y="${y + i * bar + bar - 1}" font-size="9" fill="#374151">${fmt(v)}</text>`);
    });
  });
  parts.push('</svg>');
  return parts.join('\n');
}

function pathChart(size: SizeResult): Chart {
  const ops = Object.keys(size.path) as BenchOp[];
  const median = (m: SizeResult['path']) => ops.map((op) => m[op]?.median);
  return {
    name: `path-${size.n}`,
    title: `Request path, ${size.n.toLocaleString('en')} customers (medians)`,
    svg: barChart(
      `Request path at ${size.n.toLocaleString('en')} customers: medians, log scale`,
      ops,
      [
        { label: 'Otto, whole path', color: colors.otto, values: median(size.path) },
        { label: 'floor', color: colors.floor, values: median(size.floor) },
        { label: 'MSW + array', color: colors.msw, values: median(size.peer) },
      ],
      true,
    ),
  };
}

/**
 * The charts of a run: one per database size, and start-up when both Otto and MSW were measured.
 * @example
 * for (const chart of toCharts(results)) writeFileSync(`${date}-${chart.name}.svg`, chart.svg);
 */
export function toCharts(results: BenchResults): Chart[] {
  const charts = (results.requestPath?.sizes ?? []).map(pathChart);
  const otto = results.startup;
  const msw = results.startupMsw;
  if (otto && msw) {
    const visits = ['first visit', 'repeat visit', 'after a restart'];
    charts.push({
      name: 'startup',
      title: 'Start-up to the first customer row (medians)',
      svg: barChart(
        'Start-up to the first customer row: medians',
        visits,
        [
          { label: 'Otto', color: colors.otto, values: [otto.firstVisit.median, otto.repeatVisit.median, otto.repeatAfterRestart.median] },
          { label: 'MSW + array', color: colors.msw, values: [msw.firstVisit.median, msw.repeatVisit.median, msw.repeatAfterRestart.median] },
        ],
        false,
      ),
    });
  }
  return charts;
}
