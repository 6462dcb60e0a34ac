// One streaming time chart: a canvas redrawn on requestAnimationFrame from the sample store
// (never from React state), with a hover cursor and a tooltip listing every series' value.

import { memo, useEffect, useRef, useState, type ReactNode } from 'react';
import { drawChart, MARGIN, niceDomain, plotWidth, scales, type ChartFrame, type ChartLine } from '../charts/drawChart';
import { ColumnDecimator, type SampleStore } from '../charts/sampleStore';
import { DASH } from '../charts/palette';

export interface TimeChartProps {
  store: SampleStore;
  title: string;
  lines: ChartLine[];
  endMs: number;
  yUnit: string;
  /** The y axis reaches at least this value. */
  yFloor: number;
  testId: string;
  /** Times (ms) to mark with a vertical line (parameter changes). */
  markers?: number[];
  /** Extra controls in the header (e.g. which quantity to show). */
  controls?: ReactNode;
  /** Shown over the plot when the chart has no series. */
  emptyText?: string;
  /** Shown value = stored value × yScale (a display unit conversion, e.g. Mbps to Gbps). */
  yScale?: number;
  /** Names of the line kinds in the legend's style key, where they differ from the defaults. */
  kindNames?: Record<string, string>;
}

const NO_MARKERS: number[] = [];

interface Hover {
  x: number;
  y: number;
  timeMs: number;
  rows: { label: string; color: string; value: number; unit: string; style: ChartLine['style'] }[];
}

const HEIGHT = 220;

export const TimeChart = memo(function TimeChart({
  store,
  title,
  lines,
  endMs,
  yUnit,
  yFloor,
  testId,
  markers = NO_MARKERS,
  controls,
  emptyText,
  yScale = 1,
  kindNames,
}: TimeChartProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const cursorRef = useRef<number | null>(null);
  const dirtyRef = useRef(true);
  const props = useRef({ lines, endMs, yUnit, yFloor, markers, yScale });
  props.current = { lines, endMs, yUnit, yFloor, markers, yScale };
  const [hover, setHover] = useState<Hover | null>(null);

  useEffect(() => {
    dirtyRef.current = true;
  }, [lines, endMs, yUnit, yFloor, markers, yScale]);

  useEffect(() => {
    const canvas = canvasRef.current!;
    const wrap = wrapRef.current!;
    const ctx = canvas.getContext('2d');
    const dec = new ColumnDecimator(store);
    let width = 0;
    let raf = 0;
    const resize = () => {
      const w = Math.floor(wrap.clientWidth);
      if (w === width) return;
      width = w;
      const dpr = window.devicePixelRatio || 1;
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(HEIGHT * dpr);
      canvas.style.width = `${w}px`;
      canvas.style.height = `${HEIGHT}px`;
      dirtyRef.current = true;
    };
    const ro = new ResizeObserver(resize);
    ro.observe(wrap);
    resize();
    const frame = () => {
      raf = requestAnimationFrame(frame);
      if (!ctx || width === 0) return;
      const p = props.current;
      const changed = dec.update(
        p.lines.map((l) => l.index),
        0,
        p.endMs,
        plotWidth(width),
      );
      if (!changed && !dirtyRef.current) return;
      dirtyRef.current = false;
      const [y0, y1] = niceDomain(dec.lo * p.yScale, dec.hi * p.yScale, p.yFloor);
      const f: ChartFrame = {
        width,
        height: HEIGHT,
        dpr: window.devicePixelRatio || 1,
        t0: 0,
        t1: p.endMs,
        y0,
        y1,
        yUnit: p.yUnit,
        cursorX: cursorRef.current,
        markers: p.markers,
        scale: p.yScale,
      };
      drawChart(ctx, f, dec, p.lines);
      frameRef.current = f;
    };
    raf = requestAnimationFrame(frame);
    return () => {
      cancelAnimationFrame(raf);
      ro.disconnect();
    };
  }, [store]);

  const frameRef = useRef<ChartFrame | null>(null);

  const onMove = (ev: React.MouseEvent) => {
    const f = frameRef.current;
    if (!f) return;
    const rect = canvasRef.current!.getBoundingClientRect();
    const px = ev.clientX - rect.left;
    const inside = px >= MARGIN.left && px <= MARGIN.left + plotWidth(f.width);
    if (!inside) return onLeave();
    const { x } = scales(f);
    const t = x.invert(px);
    const row = store.nearest(t);
    cursorRef.current = row >= 0 && store.times()[row] <= f.t1 ? x(store.times()[row]) : px;
    dirtyRef.current = true;
    if (row < 0) {
      setHover(null);
      return;
    }
    setHover({
      x: px,
      y: ev.clientY - rect.top,
      timeMs: store.times()[row],
      rows: props.current.lines.map((l) => ({
        label: l.label,
        color: l.color,
        value: store.series(l.index)[row] * props.current.yScale,
        unit: props.current.yScale !== 1 ? props.current.yUnit : l.unit,
        style: l.style,
      })),
    });
  };
  const onLeave = () => {
    cursorRef.current = null;
    dirtyRef.current = true;
    setHover(null);
  };

  const width = wrapRef.current?.clientWidth ?? 0;
  return (
    <section className="chart" data-testid={testId} data-lines={lines.length} data-unit={yUnit}>
      <header className="chart-head">
        <h2>{title}</h2>
        {controls}
        <Legend lines={lines} kindNames={kindNames} />
      </header>
      <div className="chart-canvas" ref={wrapRef} onMouseMove={onMove} onMouseLeave={onLeave}>
        <canvas ref={canvasRef} />
        {lines.length === 0 && emptyText && <div className="chart-empty">{emptyText}</div>}
        {hover && (
          <div
            className="tooltip"
            style={{
              top: Math.min(hover.y + 12, HEIGHT - 20),
              ...(hover.x > width - 240 ? { right: width - hover.x + 14 } : { left: hover.x + 14 }),
            }}
          >
            <div className="tooltip-time">t = {hover.timeMs.toFixed(3)} ms</div>
            <table>
              <tbody>
                {hover.rows.map((r) => (
                  <tr key={r.label}>
                    <td>
                      <Swatch color={r.color} style={r.style} />
                    </td>
                    <td className="tooltip-label">{r.label}</td>
                    <td className="tooltip-value">{formatValue(r.value)}</td>
                    <td className="tooltip-unit">{r.unit}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
});

const KIND_NAMES: Record<string, string> = {
  acr: 'ACR',
  vp_acr: 'virtual path ACR',
  vp_target: 'virtual path share',
  share: 'max-min share',
  target: 'share at target utilisation',
};

function formatValue(v: number) {
  if (!Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  return a >= 1000 ? v.toFixed(0) : a >= 100 ? v.toFixed(1) : v.toFixed(2);
}

export function Swatch({ color, style }: { color: string; style: ChartLine['style'] }) {
  return (
    <svg className="swatch" width="22" height="10" aria-hidden="true">
      <line
        x1="1"
        x2="21"
        y1="5"
        y2="5"
        stroke={color}
        strokeWidth={style === 'solid' ? 2.2 : 1.8}
        strokeDasharray={DASH[style].join(' ')}
        strokeLinecap={style === 'dotted' ? 'round' : 'butt'}
      />
    </svg>
  );
}

/** Legend: one entry per owner colour, plus the line-style key when the chart mixes styles. */
const LEGEND_OWNERS = 10;

function Legend({ lines, kindNames }: { lines: ChartLine[]; kindNames?: Record<string, string> }) {
  const [expanded, setExpanded] = useState(false);
  const owners = new Map<string, string>();
  for (const l of lines) if (!owners.has(l.owner)) owners.set(l.owner, l.color);
  // The line-style key: one entry per style, naming every kind drawn in it.
  const styles = new Map<ChartLine['style'], string[]>();
  for (const l of lines) {
    const name = kindNames?.[l.kind] ?? KIND_NAMES[l.kind] ?? l.kind;
    const names = styles.get(l.style) ?? [];
    if (!names.includes(name)) styles.set(l.style, [...names, name]);
  }
  return (
    <ul className="legend">
      {[...owners].slice(0, expanded ? owners.size : LEGEND_OWNERS).map(([owner, color]) => (
        <li key={owner}>
          <Swatch color={color} style="solid" />
          {owner}
        </li>
      ))}
      {owners.size > LEGEND_OWNERS && (
        <li>
          <button className="legend-more" onClick={() => setExpanded(!expanded)}>
            {expanded ? 'fewer' : `+${owners.size - LEGEND_OWNERS} more`}
          </button>
        </li>
      )}
      {styles.size > 1 &&
        [...styles].map(([style, names]) => (
          <li key={style} className="legend-key">
            <Swatch color="#6b7280" style={style} />
            {names.join(' / ')}
          </li>
        ))}
    </ul>
  );
}
