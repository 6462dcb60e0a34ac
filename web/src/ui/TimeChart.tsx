// One time chart: its header (title, controls, legend) and tooltip around a uPlot chart that
// charts/timeChart.ts draws from the sample store on requestAnimationFrame (the series never
// enter React state). The legend hides and shows lines (click) and highlights them (hover); the
// tooltip and the legend name lines that coincide at the cursor ("C1 = C2").

import 'uplot/dist/uPlot.min.css';
import { Fragment, memo, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { ChartGroup } from '../charts/chartGroup';
import { chartCsv, chartSvg, type ChartExport } from '../charts/export';
import { svgToPng } from '../charts/exportImage';
import { kindNameWith, legendModel, mainKindOf, markersShown, MARKER_LEGEND } from '../charts/legend';
import { DASH, LINE_WIDTH, MARKER_COLOUR, PINNED_ALPHA, PINNED_SWATCH, type LineStyle } from '../charts/palette';
import { coincidenceAtRow, coincidenceNotes, formatValue, placeTooltip, readoutAt, type ReadoutEntry } from '../charts/readout';
import { pinnedSeries, type PinnedRun } from '../charts/pinned';
import type { PublishedLine } from '../charts/published';
import type { SampleStore } from '../charts/sampleStore';
import { dashOf, type ChartLine } from '../charts/specs';
import { CHART_HEIGHT, TimeChartController, type ChartConfig, type CursorAt } from '../charts/timeChart';
import { NORMAL_LOOK, type ChartLook } from '../charts/look';
import { fullScreenHeight, useFullScreen } from './useFullScreen';
import { chartText } from '../charts/textAlternative';
import { saveBlob } from './download';

export interface TimeChartProps {
  store: SampleStore;
  /** The charts that share this one's cursor and zoom. */
  group: ChartGroup;
  title: string;
  lines: ChartLine[];
  endMs: number;
  yUnit: string;
  /** The y axis reaches at least this value. */
  yFloor: number;
  /** Where the y axis ends while there is nothing to draw yet (null: at the floor). */
  yReach?: number | null;
  testId: string;
  /** Times (ms) to mark with a vertical line (parameter changes). */
  markers?: number[];
  /** Extra controls in the header (e.g. which quantity to show). */
  controls?: ReactNode;
  /** Says that the chart draws a sample of its connections or ports (a huge network). */
  sampled?: string | null;
  /** Shown over the plot when the chart has no series. */
  emptyText?: string;
  /** Shown value = stored value × yScale (a display unit conversion, e.g. Mbps to Gbps). */
  yScale?: number;
  /** Names of the line kinds in the legend's style key, where they differ from the defaults. */
  kindNames?: Record<string, string>;
  /** Base name of the exported files (e.g. "two-sources-seed1-rate": `exportStem`). */
  exportName?: string;
  /** The line under an exported image naming its run (`imageCaption`; absent: none). */
  exportCaption?: string;
  /** A pinned run of this network, drawn faintly behind the live lines, and its settings in words. */
  pinned?: PinnedRun | null;
  pinnedLabel?: string;
  /** The study's published steady values, drawn as dashed horizontal lines. */
  published?: PublishedLine[];
  /** Fonts, strokes and inks (presentation mode's, or the everyday ones). */
  look?: ChartLook;
  /** A lesson step points at this chart: the chart is outlined and this label shown. */
  marked?: string | null;
  /** A lesson step points at this owner (connection, port…): its lines stand out. */
  emphasize?: string | null;
  /** Where the run stands still (its run and time as a key; null while it plays or replays):
   *  when it changes (a pause, a step, a scrub) the notes that follow the latest sample update
   *  at once, not at their next once-a-second turn (QA: "at 30.00 ms" for 0.6 s after a pause
   *  at 32.12 ms). */
  stillAt?: string | null;
}

const NO_MARKERS: number[] = [];
const NO_PUBLISHED: PublishedLine[] = [];

export const TimeChart = memo(function TimeChart({
  store,
  group,
  title,
  lines,
  endMs,
  yUnit,
  yFloor,
  yReach = null,
  testId,
  markers = NO_MARKERS,
  controls,
  sampled = null,
  emptyText,
  yScale = 1,
  kindNames,
  exportName = testId,
  exportCaption,
  pinned = null,
  pinnedLabel = '',
  published = NO_PUBLISHED,
  look = NORMAL_LOOK,
  marked = null,
  emphasize = null,
  stillAt = null,
}: TimeChartProps) {
  const plotRef = useRef<HTMLDivElement>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const headRef = useRef<HTMLElement>(null);
  // View state: this chart full screen (or maximised over the page), and its height there.
  const { full, toggle: toggleFull } = useFullScreen(sectionRef);
  const [fullHeight, setFullHeight] = useState<number | undefined>(undefined);
  useLayoutEffect(() => {
    if (full === null) return setFullHeight(undefined);
    const fit = () => setFullHeight(fullScreenHeight(headRef.current?.offsetHeight ?? 0, CHART_HEIGHT));
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [full]);
  const controller = useRef<TimeChartController | null>(null);
  // View state: whether this chart shows the pinned run's lines (its legend entry toggles them).
  const [pinnedHidden, setPinnedHidden] = useState(false);
  const drawnPinned = pinnedHidden ? null : pinned;
  const config = useMemo<ChartConfig>(
    () => ({ lines, endMs, yUnit, yFloor, yReach, yScale, markers, pinned: drawnPinned, published, look, height: fullHeight }),
    [lines, endMs, yUnit, yFloor, yReach, yScale, markers, drawnPinned, published, look, fullHeight],
  );
  const latest = useRef(config);
  latest.current = config;
  // View state: what the legend hid (by owner and by line style), what it highlights.
  const [hiddenOwners, setHiddenOwners] = useState<ReadonlySet<string>>(new Set());
  const [hiddenGroups, setHiddenGroups] = useState<ReadonlySet<string>>(new Set());
  const [hiddenStyles, setHiddenStyles] = useState<ReadonlySet<LineStyle>>(new Set());
  const [hiddenSeries, setHiddenSeries] = useState<ReadonlySet<string>>(new Set());
  const [cursor, setCursor] = useState<CursorAt | null>(null);
  const visible = useMemo(
    () =>
      lines.map(
        (l) =>
          !hiddenOwners.has(l.owner) &&
          !(l.group !== undefined && hiddenGroups.has(l.group)) &&
          !hiddenStyles.has(l.style) &&
          !(l.series !== undefined && hiddenSeries.has(l.series)),
      ),
    [lines, hiddenOwners, hiddenGroups, hiddenStyles, hiddenSeries],
  );

  useEffect(() => {
    const c = new TimeChartController(plotRef.current!, store, group, latest.current);
    c.onCursor = (at) =>
      setCursor((prev) => {
        if (at === null || prev === null) return at;
        const same = prev.row === at.row && prev.hovered === at.hovered && (!at.hovered || (prev.clientX === at.clientX && prev.clientY === at.clientY));
        return same ? prev : at;
      });
    controller.current = c;
    return () => {
      c.destroy();
      controller.current = null;
    };
  }, [store, group]);
  useEffect(() => controller.current?.configure(config), [config]);
  useEffect(() => controller.current?.setVisible(visible), [visible, config]);

  // The text alternative: each line's latest value and share, refreshed once a second (the
  // samples never enter React state; a screen reader reads it when the user gets there).
  const summary = useChartText(store, title, yUnit, yScale, lines, stillAt);

  // The legend's hover wins while it lasts; then a lesson step's emphasis (if any) comes back.
  const emphasis = emphasize === null || !lines.some((l) => l.owner === emphasize) ? null : (l: ChartLine) => l.owner === emphasize;
  const highlight = (match: ((l: ChartLine) => boolean) | null) => {
    const m = match ?? emphasis;
    controller.current?.highlight(m && lines.map(m));
  };
  useEffect(() => highlight(null), [emphasize, lines, config]);

  // The window the charts show (the group's zoom, or the whole run): the legend names the
  // change markers while it holds one, as an exported image does.
  const zoom = useSyncExternalStore(
    (l) => group.subscribe(l),
    () => group.zoomWindow,
  );
  const markerShown = (zoom ? markersShown(markers, Math.max(0, zoom[0]), Math.min(endMs, zoom[1])) : markersShown(markers, 0, endMs)).length > 0;

  const kindName = kindNameWith(kindNames);
  const shown = useMemo(() => lines.filter((_, i) => visible[i]), [lines, visible]);
  const row = cursor && cursor.row < store.length ? cursor.row : -1;
  const entries = row >= 0 ? readoutAt(store, row, shown, yScale) : [];
  const mainKind = mainKindOf(lines);
  const cursorNotes = coincidenceNotes(entries, mainKind, Infinity, controller.current?.valuePerPixel ?? 0);
  // Without a cursor (a class watching a projected run), lines that lie on each other at the
  // latest sample are named all the same: C1 under C2 is otherwise simply not there.
  const latestNote = useLatestCoincidence(store, shown, yScale, mainKind, row < 0, () => controller.current?.valuePerPixel ?? 0, stillAt);
  const note = row >= 0 ? (cursorNotes.length ? { at: 'at cursor', notes: cursorNotes } : null) : latestNote;

  // Exports: what is on screen (the lines shown, over the window shown, the pinned run if shown).
  const exported = (): ChartExport => {
    const [t0, t1] = controller.current?.window ?? [0, endMs];
    const pinnedExport = drawnPinned && { store: drawnPinned.store, series: pinnedSeries(shown, store, drawnPinned.store), label: pinnedLabel };
    return {
      title,
      lines: shown,
      t0,
      t1,
      yUnit,
      yScale,
      yFloor,
      yReach,
      markers,
      kindName,
      look,
      published,
      endMs,
      ...(pinnedExport ? { pinned: pinnedExport } : {}),
      ...(exportCaption ? { caption: exportCaption } : {}),
    };
  };
  const exportAs = async (kind: 'png' | 'svg' | 'csv') => {
    if (kind === 'csv') return saveBlob(new Blob([chartCsv(store, exported())], { type: 'text/csv' }), `${exportName}.csv`);
    const { svg, width, height } = chartSvg(store, exported(), Math.max(480, plotRef.current?.clientWidth ?? 800));
    if (kind === 'svg') return saveBlob(new Blob([svg], { type: 'image/svg+xml' }), `${exportName}.svg`);
    saveBlob(await svgToPng(svg, width, height, 2), `${exportName}.png`);
  };

  return (
    <section
      ref={sectionRef}
      className={`${full === 'overlay' ? 'chart chart-maximised' : full ? 'chart chart-fullscreen' : 'chart'}${marked ? ' chart-lesson-marked' : ''}`}
      data-marked={marked ? 'yes' : 'no'}
      data-testid={testId}
      data-full={full ?? 'no'}
      data-lines={lines.length}
      data-visible={shown.length}
      data-unit={yUnit}
      data-pinned={drawnPinned ? 'shown' : pinned ? 'hidden' : 'none'}
      data-published={published.length}
      aria-labelledby={`${testId}-title`}
      aria-describedby={`${testId}-summary`}
    >
      <p className="visually-hidden" id={`${testId}-summary`} data-testid="chart-summary">
        {summary}
      </p>
      <header className="chart-head" ref={headRef}>
        <div className="chart-title">
          <h2 id={`${testId}-title`}>{breakable(title)}</h2>
          {marked && (
            <span className="lesson-mark" data-testid="lesson-mark">
              {marked}
            </span>
          )}
          {controls}
          {sampled && (
            <span className="chart-sampled" data-testid="chart-sampled">
              {sampled}
            </span>
          )}
        </div>
        <span className="chart-export" role="group" aria-label="this chart">
          <button
            data-testid="full-screen"
            aria-pressed={full !== null}
            title={full ? 'Back to the page (Esc)' : 'Show this chart full screen (Esc to leave)'}
            onClick={() => void toggleFull()}
          >
            {full ? 'Exit full screen' : 'Full screen'}
          </button>
        {lines.length > 0 && (
          <>
            {(['png', 'svg', 'csv'] as const).map((k) => (
              <button
                key={k}
                data-testid={`export-${k}`}
                title={
                  k === 'png'
                    ? 'Image with title, legend and axes, at twice the size (for slides)'
                    : k === 'svg'
                      ? 'Vector image with title, legend and axes'
                      : 'The visible series over the visible time window, one column each (time_ms first)'
                }
                onClick={() => void exportAs(k)}
              >
                {k.toUpperCase()}
              </button>
            ))}
          </>
        )}
        </span>
        <Legend
          lines={lines}
          kindName={kindName}
          hiddenOwners={hiddenOwners}
          hiddenGroups={hiddenGroups}
          hiddenStyles={hiddenStyles}
          onToggleOwner={(o) => setHiddenOwners(toggled(hiddenOwners, o))}
          onToggleGroup={(g) => setHiddenGroups(toggled(hiddenGroups, g))}
          onToggleStyle={(s) => setHiddenStyles(toggled(hiddenStyles, s))}
          hiddenSeries={hiddenSeries}
          onToggleSeries={(s) => setHiddenSeries(toggled(hiddenSeries, s))}
          onHighlight={highlight}
          marker={markerShown && lines.length > 0}
          pinned={
            pinned &&
            lines.length > 0 && (
              <li className="legend-pinned">
                <button
                  className={pinnedHidden ? 'legend-entry off' : 'legend-entry'}
                  aria-pressed={!pinnedHidden}
                  data-testid="legend-pinned"
                  title={`The pinned run, faint behind this one: ${pinnedLabel} (click to ${pinnedHidden ? 'show' : 'hide'})`}
                  onClick={() => setPinnedHidden(!pinnedHidden)}
                >
                  <svg className="swatch" width="22" height="10" aria-hidden="true">
                    <line x1="1" x2="21" y1="5" y2="5" stroke={PINNED_SWATCH} strokeOpacity={PINNED_ALPHA + 0.15} strokeWidth={3} />
                  </svg>
                  pinned: {pinnedLabel}
                </button>
              </li>
            )
          }
        />
      </header>
      <div className="chart-plot" ref={plotRef}>
        {lines.length === 0 && emptyText && <div className="chart-empty" data-testid="chart-empty"><span>{emptyText}</span></div>}
        {note && (
          <div className="chart-note" data-testid="coincident" data-at={row >= 0 ? 'cursor' : 'latest'}>
            <span className="chart-note-at">{note.at}: </span>
            {note.notes.join(' · ')}
          </div>
        )}
      </div>
      {cursor?.hovered && row >= 0 && (
        <Tooltip at={cursor} timeMs={store.times()[row]} entries={entries} unit={yScale !== 1 ? yUnit : (shown[0]?.unit ?? yUnit)} perBucket={store.samplesPerBucket} />
      )}
    </section>
  );
});

/** How often the text alternative follows the run (ms). */
const TEXT_EVERY_MS = 1000;

/** How long the run stands still before the notes follow it (ms): a burst of steps (arrow
 *  keys on the Time slider, each a seek and a pause) updates them once, at its end. Once a
 *  step, four charts' updates a key made React take the burst for an endless loop of updates
 *  (error #185). */
const STILL_SETTLE_MS = 50;

/** Runs `update.current` once the run has stood still at `stillAt` (null: it moves) for
 *  STILL_SETTLE_MS. */
function useWhenStill(stillAt: string | null, update: { current: () => void }) {
  useEffect(() => {
    if (stillAt === null) return;
    const timer = setTimeout(() => update.current(), STILL_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [stillAt, update]);
}

function useChartText(store: SampleStore, title: string, unit: string, yScale: number, lines: ChartLine[], stillAt: string | null): string {
  const [text, setText] = useState('');
  const update = useRef(() => {});
  useEffect(() => {
    update.current = () => {
      const row = store.length - 1;
      const timeMs = row >= 0 ? store.times()[row] : null;
      const values = lines.map((l) => ({ label: l.label, kind: l.kind, value: row >= 0 ? store.series(l.index)[row] * yScale : NaN }));
      setText(chartText(title, unit, timeMs, values));
    };
    update.current();
    const timer = setInterval(() => update.current(), TEXT_EVERY_MS);
    return () => clearInterval(timer);
  }, [store, title, unit, yScale, lines]);
  useWhenStill(stillAt, update);
  return text;
}

/** The main lines that lie on each other at the latest sample ("C1 = C2"), followed once a
 *  second while `active` (no cursor), and at once where the run comes to stand (`stillAt`),
 *  with the sample's time; null when none do. */
function useLatestCoincidence(
  store: SampleStore,
  shown: ChartLine[],
  yScale: number,
  mainKind: string | undefined,
  active: boolean,
  valuePerPixel: () => number,
  stillAt: string | null,
): { at: string; notes: string[] } | null {
  const [note, setNote] = useState<{ at: string; notes: string[] } | null>(null);
  const update = useRef(() => {});
  useEffect(() => {
    update.current = () => {};
    if (!active) return;
    update.current = () => {
      // Shortened, on one line: it stays while a run plays, so it must not cover the plot (the
      // cursor's note, there only while asked for, gives every name). An image says the same.
      const next = coincidenceAtRow(store, store.length - 1, shown, yScale, mainKind, valuePerPixel());
      setNote((prev) => (prev?.at === next?.at && prev?.notes.join() === next?.notes.join() ? prev : next));
    };
    update.current();
    const timer = setInterval(() => update.current(), TEXT_EVERY_MS);
    return () => clearInterval(timer);
  }, [store, shown, yScale, mainKind, active]);
  useWhenStill(stillAt, update);
  return active ? note : null;
}

/** One swatch per line style of a merged entry (the first line's colour), not one per line. */
function firstOfEachStyle(lines: ChartLine[]): ChartLine[] {
  return lines.filter((l, i) => lines.findIndex((m) => m.style === l.style) === i);
}

function toggled<T>(set: ReadonlySet<T>, item: T): Set<T> {
  const next = new Set(set);
  if (!next.delete(item)) next.add(item);
  return next;
}

/** The values at the cursor, kept inside the window (it flips sides near an edge). */
function Tooltip({ at, timeMs, entries, unit, perBucket }: { at: CursorAt; timeMs: number; entries: ReadoutEntry[]; unit: string; perBucket: number }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current!;
    // On the page, the charts' column (not over the side panel); full screen, the whole screen.
    const full = el.closest('[data-full]')?.getAttribute('data-full');
    const column = full && full !== 'no' ? undefined : el.closest('.main-column')?.getBoundingClientRect();
    const { left, top } = placeTooltip(
      { x: at.clientX, y: at.clientY },
      { width: el.offsetWidth, height: el.offsetHeight },
      { width: document.documentElement.clientWidth, height: window.innerHeight },
      column,
    );
    el.style.left = `${left}px`;
    el.style.top = `${top}px`;
  });
  return (
    <div className={entries.length > 16 ? 'tooltip tooltip-wide' : 'tooltip'} ref={ref} role="tooltip">
      <div className="tooltip-time">t = {timeMs.toFixed(3)} ms</div>
      {perBucket > 1 && (
        <div className="tooltip-note" data-testid="tooltip-decimated">
          a long run: the lab keeps the min and max of every {perBucket} samples
        </div>
      )}
      <ul>
        {entries.map((e) => (
          <li key={e.label} className={e.lines.length > 1 ? 'tooltip-row coincident' : 'tooltip-row'}>
            <span className="tooltip-swatches">
              {firstOfEachStyle(e.lines).map((l) => (
                <Swatch key={l.index} color={l.color} style={l.style} dash={dashOf(l)} />
              ))}
            </span>
            <span className="tooltip-label">
              {e.parts.map((p, i) => (
                <span key={p}>{i > 0 ? `= ${p}` : p}</span>
              ))}
            </span>
            <span className="tooltip-value">{formatValue(e.value)}</span>
            <span className="tooltip-unit">{unit}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Swatch({ color, style, dash = DASH[style] }: { color: string; style: LineStyle; dash?: number[] }) {
  return (
    <svg className="swatch" width="22" height="10" aria-hidden="true">
      <line
        x1="1"
        x2="21"
        y1="5"
        y2="5"
        stroke={color}
        strokeWidth={LINE_WIDTH[style] + 0.4}
        strokeDasharray={dash.join(' ')}
        strokeLinecap={style === 'dotted' ? 'round' : 'butt'}
      />
    </svg>
  );
}

/** Legend: one entry per connection group and per owner outside any group (the first ten, with
 *  more on request), the group members on request, and the line-style key when styles mix. */
const LEGEND_OWNERS = 10;

interface LegendProps {
  lines: ChartLine[];
  kindName: (kind: string) => string;
  hiddenOwners: ReadonlySet<string>;
  hiddenGroups: ReadonlySet<string>;
  hiddenStyles: ReadonlySet<LineStyle>;
  onToggleOwner: (owner: string) => void;
  onToggleGroup: (group: string) => void;
  onToggleStyle: (style: LineStyle) => void;
  /** Overlaid compare charts: the series key (one dash per connection or port). */
  hiddenSeries: ReadonlySet<string>;
  onToggleSeries: (series: string) => void;
  onHighlight: (match: ((l: ChartLine) => boolean) | null) => void;
  /** The pinned run's entry, after the lines'. */
  pinned?: ReactNode;
  /** Whether the plot shows a parameter change's marker: its entry comes last. */
  marker?: boolean;
}

function Legend(props: LegendProps) {
  const { lines, kindName, hiddenOwners, hiddenGroups, hiddenStyles, hiddenSeries, onToggleOwner, onToggleGroup, onToggleStyle, onToggleSeries, onHighlight, pinned, marker } =
    props;
  const [expanded, setExpanded] = useState(false);
  const { owners, groups, styles, series } = legendModel(lines, kindName);
  // With groups, the groups stand for their members until the user asks for each member.
  const loose = owners.filter((o) => o.group === undefined);
  const listed = groups.length > 0 ? (expanded ? owners : loose) : owners.slice(0, expanded ? owners.length : LEGEND_OWNERS);
  const more = groups.length > 0 ? owners.length - loose.length : owners.length - LEGEND_OWNERS;
  const entry = (key: string, on: boolean, toggle: () => void, match: (l: ChartLine) => boolean, children: ReactNode, className = '') => (
    <li key={key} className={className}>
      <button
        className={on ? 'legend-entry' : 'legend-entry off'}
        aria-pressed={on}
        title={on ? 'Hide (click)' : 'Show (click)'}
        onClick={() => {
          toggle();
          // The entry stays under the mouse: highlight what is shown now (nothing, once hidden).
          onHighlight(on ? null : match);
        }}
        onMouseEnter={() => on && onHighlight(match)}
        onMouseLeave={() => onHighlight(null)}
        onFocus={() => on && onHighlight(match)}
        onBlur={() => onHighlight(null)}
      >
        {children}
      </button>
    </li>
  );
  return (
    <ul className="legend">
      {groups.map(({ group, color, owners: members }) =>
        entry(
          `group:${group}`,
          !hiddenGroups.has(group),
          () => onToggleGroup(group),
          (l) => l.group === group,
          <>
            <Swatch color={color} style="solid" />
            {group}
            <span className="legend-count">×{members.length}</span>
          </>,
          'legend-group',
        ),
      )}
      {listed.map(({ owner, color }) =>
        entry(
          owner,
          !hiddenOwners.has(owner),
          () => onToggleOwner(owner),
          (l) => l.owner === owner,
          <>
            <Swatch color={color} style="solid" />
            {owner}
          </>,
        ),
      )}
      {more > 0 && (
        <li>
          <button className="legend-more" onClick={() => setExpanded(!expanded)}>
            {expanded ? (groups.length > 0 ? 'groups only' : 'fewer') : groups.length > 0 ? `each of ${more}` : `+${more} more`}
          </button>
        </li>
      )}
      {styles.map(({ style, names }) =>
        entry(
          style,
          !hiddenStyles.has(style),
          () => onToggleStyle(style),
          (l) => l.style === style,
          <>
            <Swatch color="#6b7280" style={style} />
            {names.join(' / ')}
          </>,
          'legend-key',
        ),
      )}
      {series.map(({ series: name, dash }) =>
        entry(
          `series:${name}`,
          !hiddenSeries.has(name),
          () => onToggleSeries(name),
          (l) => l.series === name,
          <>
            <Swatch color={PINNED_SWATCH} style="solid" dash={dash} />
            {name}
          </>,
          'legend-key legend-series',
        ),
      )}
      {pinned}
      {marker && (
        <li className="legend-marker" data-testid="legend-marker" title="A dashed vertical line: a parameter changed during the run (a live change)">
          <svg className="swatch" width="22" height="12" aria-hidden="true">
            <line x1="11" x2="11" y1="0" y2="12" stroke={MARKER_COLOUR} strokeWidth={1.5} strokeDasharray="4 3" />
          </svg>
          {MARKER_LEGEND}
        </li>
      )}
    </ul>
  );
}

/**
 * A title with places to break after the dots and underscores of a path in it
 * (`SW1.params.target_utilization`), so that a narrow chart (four runs side by side) wraps it
 * there instead of mid-word; the text itself is unchanged.
 */
function breakable(title: string): ReactNode {
  const parts = title.split(/(?<=[._])(?=\S)/);
  return parts.length === 1
    ? title
    : parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ));
}
