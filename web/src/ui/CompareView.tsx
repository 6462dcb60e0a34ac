// The compare view: the current scenario against up to four variants (an algorithm per switch,
// any `--set` path, a seed, or a library scenario of the same topology), run at once in the
// worker pool; the summaries side by side, cells that differ from the first run marked; a
// compare link that replays every variant. No simulation here: compare.ts plans and tabulates,
// compareSession.ts runs.

import { Fragment, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { Catalogue } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import { exportStem, imageCaption, runIdentity } from '../charts/caption';
import { ranOn } from './SweepView';
import { LAB_VERSION } from '../lab/version';
import {
  algorithmLists,
  everySwitchPick,
  switchCount,
  compareCsv,
  compareHash,
  compareTable,
  connectionGroups,
  unitOf,
  LESSON_PARTNERS,
  linkDrafts,
  MAX_COMPARE_RUNS,
  sameTopology,
  specOfDraft,
  withSetFor,
  variantStart,
  type CompareRow,
  type RunWindow,
  type VariantDraft,
} from '../lab/compare';
import { digestMatches, draftsKey, redrawOf, type CompareSession, type CompareState } from '../lab/compareSession';
import type { KeptComparisons } from '../lab/compareKeep';
import type { Place } from '../scenario/place';
import type { LibraryEntry } from '../scenario/library';
import { textLibrary } from '../scenario/share';
import { formatValue } from '../charts/readout';
import { TimeChart } from './TimeChart';
import type { ChartLook } from '../charts/look';
import { ChartGroup } from '../charts/chartGroup';
import { kindNamesOf } from '../charts/legend';
import { compareChartSvgs, mergeStores, overlayPanels, sidePanels, storeOf, variantNames, type CompareMode } from '../charts/compareCharts';
import { compareSvg } from '../charts/compareImage';
import { svgToPng } from '../charts/exportImage';
import { displayUnit, networkView } from '../charts/specs';
import { steadyFromMs } from '../charts/published';
import { leftBeforeSteady } from './RunSummary';
import { saveBlob } from './download';
import { OverrideNotes } from './OverrideNotes';
import { useRowBoundary } from './rowBoundary';
import { startingValue, sweepChoices } from '../lab/sweepBuilder';
import { ParamOptions } from './ParamOptions';

/** Width (px) of the compare image; the PNG is twice as wide. */
const COMPARE_IMAGE_WIDTH = 1200;
/** The narrowest a side-by-side chart gets: more variants than fit scroll the row sideways. */
const SIDE_MIN_WIDTH_PX = 240;

/** What a variant's overrides field takes (its placeholder; app.css sizes the field to it). */
const SETS_HINT = 'PATH=VALUE … e.g. nodes.SW1.params.target_utilization=0.8 run.seed=2';

/** A value of the table as the lab's readouts give it: a count whole, else 3 to 4 significant
 *  figures (charts/readout.ts: formatValue; QA: the table said 5.26968); a row's own `digits`
 *  where it has them. A row is of counts when every value in it is whole: one convergence time
 *  of 1 ms beside one of 0.5 reads 1.00 and 0.50, not 1 and 0.50. */
export function compareText(v: number, row: { values: readonly (number | null)[]; digits?: number }): string {
  if (row.digits !== undefined) return v.toFixed(row.digits);
  return row.values.every((x) => x === null || Number.isInteger(x)) ? String(v) : formatValue(v);
}

const emptyDraft = (): VariantDraft => ({ from: '', algorithms: {}, sets: '' });

/** A compared run's window (its scenario as it ran): null when it cannot be read. */
function runWindow(json: string): RunWindow | null {
  try {
    const sc = JSON.parse(json) as Scenario;
    const from = steadyFromMs(sc.run);
    const left = sc.connections.filter((c) => leftBeforeSteady(c.stop_ms ?? undefined, from) !== null).map((c) => c.id);
    const volume = sc.connections.filter((c) => c.volume_mb != null).map((c) => c.id);
    return { durationMs: sc.run.duration_ms, steadyFromMs: from, leftBefore: new Set(left), sendVolume: new Set(volume) };
  } catch {
    return null;
  }
}

export function CompareView({
  compare,
  kept,
  current,
  currentJson,
  place,
  catalogue,
  library,
  onOpen,
  look,
}: {
  /** Fonts, strokes and inks of the charts and their images (presentation mode's, or the everyday ones). */
  look?: ChartLook;
  compare: CompareSession;
  /** The comparisons the browser keeps (lab/compareKeep.ts): to forget the one shown. */
  kept?: KeptComparisons;
  current: Scenario | undefined;
  currentJson: string | undefined;
  /** Where the current scenario is kept: its variants are kept by it. */
  place: Place;
  catalogue: Catalogue | null;
  library: readonly LibraryEntry[];
  /** Opens a run's scenario in the lab's charts. */
  onOpen: (json: string, origin: string) => void;
}) {
  const s = useSyncExternalStore(compare.subscribe, compare.getState);
  // The variants being written, as the session keeps them per scenario place (they outlive a
  // switch of tab, a reload and the browser's restart); variants started elsewhere (a compare
  // link, a lesson's button) show as they ran.
  const id = current?.id ?? null;
  const key = draftsKey(place, id);
  const [shown, setShown] = useState(() => ({ key, drafts: compare.drafts.get(place, id) ?? [emptyDraft()] }));
  // Another scenario opened (or this one moved: the user's copy made at a first change): its own variants.
  const drafts = shown.key === key ? shown.drafts : (compare.drafts.get(place, id) ?? [emptyDraft()]);
  // A comparison started from elsewhere while this view shows (a lesson's button): its variants.
  useEffect(() => {
    const kept = compare.drafts.get(place, id);
    if (kept) setShown({ key, drafts: kept });
  }, [s.variants]);
  const setDrafts = (ds: VariantDraft[]) => {
    setShown({ key, drafts: ds });
    compare.drafts.set(place, id, ds);
  };
  const [link, setLink] = useState('');
  // The table's scroll box ends between rows (QA: core-edge's cut its last visible row in half).
  const tableBox = useRef<HTMLDivElement>(null);
  useRowBoundary(tableBox);
  const partners = useMemo(() => (currentJson ? sameTopology(currentJson, library) : []), [currentJson, library]);
  const lessonPartners = (current && LESSON_PARTNERS[current.id]) || [];
  // A variant's lists are those of the scenario it starts from: the library scenario it names,
  // else the current one (as the session reads a variant without a draft). One of another
  // topology (a kept draft's, a link's) gives none: its switches are not this comparison's.
  const startOf = (d: VariantDraft): Scenario | undefined =>
    !d.from ? current : partners.includes(d.from) ? library.find((e) => e.id === d.from)?.scenario : undefined;
  const windows = useMemo(() => s.scenarios.map(runWindow), [s.scenarios]);
  // Rates in the charts' unit (Gbps on Ethernet), so that the table and the charts agree; each
  // run's window, so that a flow gone before it shows no rate and unequal windows are said.
  const rows = useMemo(
    () =>
      compareTable(
        s.outcomes,
        connectionGroups(s.json),
        undefined,
        unitOf(s.json),
        s.json ? displayUnit('Mbps', networkView(JSON.parse(s.json) as Scenario)) : undefined,
        windows,
      ),
    [s.outcomes, s.json, windows],
  );
  // Some flow may be gone before a run's window (stopped, or sent its volume): its rate is "–".
  const left = windows.some((w) => (w?.leftBefore.size ?? 0) > 0 || (w?.sendVolume?.size ?? 0) > 0);
  const running = s.phase === 'running';

  const set = (i: number, d: Partial<VariantDraft>) => setDrafts(drafts.map((x, k) => (k === i ? { ...x, ...d } : x)));
  const run = (ds = drafts) => {
    if (!currentJson) return;
    setLink('');
    compare.start(currentJson, ds.map(specOfDraft), place, { drafts: ds });
  };
  const withLesson = () => {
    const ds = lessonPartners.map((id) => ({ ...emptyDraft(), from: id }));
    setDrafts(ds);
    run(ds);
  };
  const makeLink = () => {
    // The form's drafts too: the link reopens each variant as it was made (a typed
    // `nodes.SW1.algorithm=eprca` stays typed, a list's pick stays in its list).
    const hash = compareHash(JSON.parse(s.json), { variants: s.variants, digests: compare.digests(), drafts: linkDrafts(s.drafts) }, textLibrary(library));
    const url = `${location.origin}${location.pathname}${hash}`;
    setLink(url);
    void navigator.clipboard?.writeText(url).catch(() => undefined);
  };

  return (
    <section className="sweep compare" data-testid="compare" data-phase={s.phase}>
      <header className="sweep-head">
        <h2>Compare{current ? ` ${current.id} with up to ${MAX_COMPARE_RUNS - 1} variants` : ''}</h2>
        <span className="sweep-actions">
          {lessonPartners.length > 0 && (
            <button data-testid="compare-lesson" className="btn" disabled={running} onClick={withLesson}>
              Compare with {lessonPartners.join(', ')}
            </button>
          )}
          <button data-testid="compare-run" className="btn primary" disabled={!currentJson || running} onClick={() => run()}>
            Run the comparison
          </button>
          {running && (
            <button data-testid="compare-cancel" className="btn" onClick={() => compare.cancel()}>
              Cancel
            </button>
          )}
          {s.phase === 'done' && (
            <button data-testid="compare-link" className="btn" title="A #c= link that opens this comparison and runs every variant again" onClick={makeLink}>
              Compare link
            </button>
          )}
        </span>
      </header>
      {link && <input className="compare-linktext" data-testid="compare-linktext" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />}
      <ol className="compare-variants">
        {drafts.map((d, i) => (
          <li key={i} data-testid={`variant-${i + 1}`} className="compare-variant">
            <span className="compare-vname">Variant {i + 1}</span>
            <label>
              from{' '}
              <select data-testid={`variant-${i + 1}-from`} value={d.from} onChange={(e) => set(i, { from: e.target.value })}>
                <option value="">this scenario</option>
                {partners.map((id) => (
                  <option key={id} value={id}>
                    {id}
                  </option>
                ))}
                {/* A kept draft's or a link's scenario that is no longer offered: shown as it is
                    (the comparison says why it cannot run), never as "this scenario". */}
                {d.from && !partners.includes(d.from) && <option value={d.from}>{`${d.from} (${library.some((e) => e.id === d.from) ? 'another topology' : 'not in the library'})`}</option>}
              </select>
            </label>
            <AlgorithmPicks
              variant={i + 1}
              draft={d}
              start={startOf(d)}
              catalogue={catalogue}
              onPick={(picks) => set(i, { algorithms: { ...d.algorithms, ...picks } })}
            />
            <input
              data-testid={`variant-${i + 1}-sets`}
              className="compare-sets"
              aria-label={`variant ${i + 1} overrides`}
              placeholder={SETS_HINT}
              title={`Overrides for this variant: ${SETS_HINT}`}
              value={d.sets}
              onChange={(e) => set(i, { sets: e.target.value })}
            />
            <ParamPick
              variant={i + 1}
              start={(() => {
                const start = startOf(d);
                return start && variantStart(start, d);
              })()}
              catalogue={catalogue}
              onPick={(path, value) => {
                const next = withSetFor(d.sets, path, value);
                set(i, { sets: next.sets });
                // The value selected in the field: typing replaces it.
                requestAnimationFrame(() => {
                  const field = document.querySelector<HTMLInputElement>(`[data-testid="variant-${i + 1}-sets"]`);
                  field?.focus();
                  field?.setSelectionRange(...next.select);
                });
              }}
            />
            <button className="btn" aria-label={`Remove variant ${i + 1}`} title="Remove this variant" onClick={() => setDrafts(drafts.filter((_, k) => k !== i))}>
              ×
            </button>
          </li>
        ))}
      </ol>
      <button data-testid="compare-add" className="btn" disabled={drafts.length >= MAX_COMPARE_RUNS - 1} onClick={() => setDrafts([...drafts, emptyDraft()])}>
        Add a variant
      </button>
      {s.phase === 'refused' && (
        <div className="sweep-refused" role="alert" data-testid="compare-refused">
          <p>The comparison cannot run as written:</p>
          <ul>
            {s.problems.map((p, i) => (
              <li key={i}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      <OverrideNotes notes={s.notes} intro="What the variants' overrides also changed:" testId="compare-notes" />
      <KeptNote s={s} compare={compare} kept={kept} />
      {s.runs.length > 0 && (
        <div className="sweep-scroll" ref={tableBox} data-testid="compare-table-box">
          <table className="sweep-table compare-table" data-testid="compare-table">
            <thead>
              <tr>
                <th />
                {s.runs.map((r, i) => (
                  <th key={i} data-testid={`compare-head-${i}`}>
                    <Breakable text={r.label} />
                    <RunNote outcome={s.outcomes[i]} match={digestMatches(s, i)} from={s.expectedFrom} waiting={s.phase !== 'running'} />
                    {/* The scenario the variant ran, its changes made: its planned JSON is the
                        scenario it starts from, without them. */}
                    {i > 0 && s.scenarios[i] !== undefined && (
                      <button className="btn compare-open" data-testid={`compare-open-${i}`} title="Open this variant in the charts" onClick={() => onOpen(s.scenarios[i], `compare: ${r.label}`)}>
                        Open
                      </button>
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.label} data-testid="compare-row">
                  <th scope="row">{row.label}</th>
                  {row.values.map((v, i) => (
                    <td key={i} className={row.differs[i] ? 'differs' : undefined} data-differs={row.differs[i] || undefined}>
                      {v === null ? (s.outcomes[i] || !running ? '–' : '…') : compareText(v, row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {s.runs.length > 0 && (
        <p className="sweep-note">
          Marked: more than 5 % off the first run. Shares are the max-min targets the engine computes for each run.
          {left && ' – for a rate: the flow left before that run’s steady window, over which the means are taken.'} Below, each run’s rates and queues, overlaid or
          side by side on shared axes (one zoom for all); Open shows a variant’s other charts in the lab.
        </p>
      )}
      {s.phase === 'done' && <CompareCharts compare={compare} rows={rows} look={look} />}
    </section>
  );
}

/**
 * A list of the parameters a variant can set (those of the scenario it starts from, with the
 * algorithms the variant picks, as the Sweep tab's form lists them): a pick adds `path=value`
 * (the value it has now) to the variant's overrides, for the user to change. By keyboard the
 * arrows (and type-ahead) on the closed list only choose, Enter adds (QA: Chromium changes a
 * closed list's value at each arrow, so the first ArrowDown added the first parameter and took
 * the focus away); a pick from the open list, or with the mouse, adds at once.
 */
function ParamPick({
  variant,
  start,
  catalogue,
  onPick,
}: {
  variant: number;
  start: Scenario | undefined;
  catalogue: Catalogue | null | undefined;
  onPick: (path: string, value: string) => void;
}) {
  const choices = useMemo(() => (start && catalogue ? sweepChoices(start, catalogue) : []), [start, catalogue]);
  /** The entry the arrows are on, not yet added. */
  const [chosen, setChosen] = useState('');
  /** The last key was one that moves a closed list's choice (not one that opens it). */
  const browsing = useRef(false);
  if (choices.length === 0) return null;
  const add = (path: string) => {
    setChosen('');
    const c = choices.find((x) => x.path === path);
    if (c) onPick(c.path, startingValue(c));
  };
  return (
    <select
      className="compare-param"
      data-testid={`variant-${variant}-param`}
      aria-label={`Set a parameter in variant ${variant}`}
      title="Add a parameter to this variant's overrides, at the value it has now, to change (by keyboard: arrows to choose, Enter to add)"
      value={chosen}
      onMouseDown={() => (browsing.current = false)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && chosen) {
          e.preventDefault();
          add(chosen);
          return;
        }
        browsing.current = !e.altKey && (['ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown'].includes(e.key) || (e.key.length === 1 && e.key !== ' '));
      }}
      onBlur={() => setChosen('')}
      onChange={(e) => {
        if (browsing.current) setChosen(e.target.value);
        else add(e.target.value);
        browsing.current = false;
      }}
    >
      <option value="">+ a parameter…</option>
      <ParamOptions choices={choices} />
    </select>
  );
}

/**
 * A variant's algorithm lists (`algorithmLists`): whatever "from" names, so that no pick runs
 * unseen; a pick the list does not offer (another network's algorithm, an unknown one) is
 * shown as it is, not as "as it is".
 */
function AlgorithmPicks({
  variant,
  draft,
  start,
  catalogue,
  onPick,
}: {
  variant: number;
  draft: VariantDraft;
  /** The scenario the variant starts from. */
  start: Scenario | undefined;
  catalogue: Catalogue | null;
  /** Picks by switch id: one switch's, or every switch's from the "every switch" list. */
  onPick: (picks: Record<string, string>) => void;
}) {
  const network = start?.ethernet ? 'ethernet' : 'atm';
  const offered = (catalogue?.algorithms ?? []).filter((a) => a.network === 'both' || a.network === network);
  const notOffered = (id: string) => {
    if (!catalogue) return id;
    const known = catalogue.algorithms.find((a) => a.id === id);
    return known ? `${known.name} (not for ${network === 'ethernet' ? 'Ethernet' : 'ATM'})` : `${id} (no such algorithm)`;
  };
  const lists = algorithmLists(draft, start);
  const switches = switchCount(start);
  const every = everySwitchPick(lists, switches);
  const everyList = every !== undefined && (
    <label key="*" className="compare-every">
      every switch{' '}
      <select
        data-testid={`variant-${variant}-every-switch`}
        title="Sets the algorithm of every switch at once; each switch's list below still changes one"
        value={every ?? MIXED}
        onChange={(e) => onPick(Object.fromEntries(lists.slice(0, switches).map((l) => [l.id, e.target.value])))}
      >
        {every === null && (
          <option value={MIXED} disabled>
            each its own
          </option>
        )}
        <option value="">as it is</option>
        <AlgorithmOptions offered={offered} />
      </select>
    </label>
  );
  const one = lists.map((l) => (
    <label key={l.id}>
      {l.id}{' '}
      <select data-testid={`variant-${variant}-alg-${l.id}`} value={l.pick} onChange={(e) => onPick({ [l.id]: e.target.value })}>
        <option value="">as it is{l.asItIs ? ` (${l.asItIs})` : ''}</option>
        <AlgorithmOptions offered={offered} />
        {l.pick && !offered.some((a) => a.id === l.pick) && <option value={l.pick}>{notOffered(l.pick)}</option>}
      </select>
    </label>
  ));
  return (
    <>
      {everyList}
      {one}
    </>
  );
}

/** An algorithm list's choices: each algorithm offered, by its name. */
function AlgorithmOptions({ offered }: { offered: readonly { id: string; name: string }[] }) {
  return offered.map((a) => (
    <option key={a.id} value={a.id}>
      {a.name}
    </option>
  ));
}

/** The "every switch" list's value while its switches' picks differ (no algorithm's id). */
const MIXED = '*mixed';

/**
 * The rate and queue charts of every variant, overlaid (one chart per quantity, one colour per
 * variant, one dash per series) or side by side (one chart per variant, shared y axes); one zoom
 * and cursor for all. Downloads: the table as CSV, the whole view as one PNG.
 */
function CompareCharts({ compare, rows, look }: { compare: CompareSession; rows: CompareRow[]; look?: ChartLook }) {
  const s = compare.getState();
  // View state: how the charts are laid out.
  const [mode, setMode] = useState<CompareMode>('side');
  const group = useMemo(() => new ChartGroup(), []);
  const net = useMemo(() => networkView(JSON.parse(s.json) as Scenario), [s.json]);
  const names = useMemo(() => variantNames(s.runs.map((r) => r.label)), [s.runs]);
  const { side, overlay } = useMemo(() => {
    const stores = compare.series.map((x) => (x ? storeOf(x.meta, x.rows, x.perBucket) : null));
    const merged = mergeStores(stores, names);
    return { side: sidePanels(stores, net), overlay: { store: merged.store, panels: overlayPanels(stores, names, merged, net) } };
    // A new comparison is a new snapshot: the series arrive with the last outcome.
  }, [compare, s.outcomes, net, names]);
  const scenario = useMemo(() => (s.json ? (JSON.parse(s.json) as Scenario) : null), [s.json]);
  const base = scenario?.id ?? 'compare';
  // The images name the run (scenario, seed, the lab's version) and the variants, as their
  // files' names do the scenario and the seed (`two-sources-seed1-compare.png`).
  const identity = runIdentity(scenario, LAB_VERSION);
  const caption = imageCaption(identity, names);
  const saveCsv = () => saveBlob(new Blob([compareCsv(names, rows, s.outcomes)], { type: 'text/csv' }), `${exportStem(identity, 'compare')}.csv`);
  const savePng = async () => {
    const width = COMPARE_IMAGE_WIDTH;
    const endMs = side[0]?.endMs ?? 1;
    const window = (group.zoomWindow ? [...group.zoomWindow] : [0, endMs]) as [number, number];
    const { charts, columns } = compareChartSvgs(mode, side, overlay, names, window, width, look, kindNamesOf(net));
    const { svg, height } = compareSvg({
      title: `Compare: ${base}`,
      caption,
      runs: names.map((label, i) => ({ label, digest: (s.outcomes[i]?.ok && s.outcomes[i].digest) || '' })),
      notes: s.notes,
      charts,
      columns,
      table: rows.map((r) => ({ label: r.label, cells: r.values.map((v) => (v === null ? '–' : compareText(v, r))), differs: r.differs })),
      width,
    });
    saveBlob(await svgToPng(svg, width, height, 2), `${exportStem(identity, 'compare')}.png`);
  };
  return (
    <>
      <div className="compare-tools" role="group" aria-label="compare charts">
        <span className="compare-mode" role="radiogroup" aria-label="chart layout">
          {(
            [
              ['overlaid', 'Overlaid', 'One chart per quantity: a colour per variant, a dash per connection or port'],
              ['side', 'Side by side', 'One chart per variant, y axes shared'],
            ] as const
          ).map(([m, text, title]) => (
            <button key={m} role="radio" aria-checked={mode === m} className={mode === m ? 'btn on' : 'btn'} data-testid={`compare-mode-${m}`} title={title} onClick={() => setMode(m)}>
              {text}
            </button>
          ))}
        </span>
        <button className="btn" data-testid="compare-csv" title="The table: a column per run, a line per row, values unrounded" onClick={saveCsv}>
          Table CSV
        </button>
        <button className="btn" data-testid="compare-png" title="The whole comparison as one image (variants, charts, table), at twice the size" onClick={() => void savePng()}>
          Compare PNG
        </button>
      </div>
      {mode === 'overlaid' ? (
        <div className="compare-charts" data-testid="compare-charts" data-mode="overlaid">
          {overlay.panels.map((p) => (
            <TimeChart
              key={p.spec.id}
              testId={`compare-overlay-${p.spec.id}`}
              store={overlay.store}
              group={group}
              title={p.view.title}
              lines={p.lines}
              endMs={p.endMs}
              yUnit={p.view.unit}
              yScale={p.view.scale}
              yFloor={p.view.yFloor}
              exportName={exportStem(identity, `compare-${p.spec.id}`)}
              exportCaption={caption}
              kindNames={kindNamesOf(net)}
              look={look}
            />
          ))}
        </div>
      ) : (
        <div className="compare-charts" data-testid="compare-charts" data-mode="side" style={{ gridTemplateColumns: `repeat(${s.runs.length}, minmax(${SIDE_MIN_WIDTH_PX}px, 1fr))` }}>
          {side.map(({ spec, runs, yFloor, endMs }) =>
            runs.map((r, i) =>
              r ? (
                <TimeChart
                  key={`${spec.id}-${i}`}
                  testId={`compare-chart-${spec.id}-${i}`}
                  store={r.store}
                  group={group}
                  title={`${r.view.title} · ${names[i]}`}
                  lines={r.lines}
                  endMs={endMs}
                  yUnit={r.view.unit}
                  yScale={r.view.scale}
                  yFloor={yFloor}
                  exportName={exportStem(identity, `compare-${i + 1}-${spec.id}`)}
                  exportCaption={caption}
                  kindNames={kindNamesOf(net)}
                  look={look}
                />
              ) : (
                <p key={`${spec.id}-${i}`} className="sweep-note">
                  No run, no chart.
                </p>
              ),
            ),
          )}
        </div>
      )}
    </>
  );
}

function RunNote({
  outcome,
  match,
  from,
  waiting,
}: {
  outcome: CompareState['outcomes'][number];
  match: boolean | null;
  /** Whose digest it is checked against: a compare link's, or the one kept from before a reload. */
  from: CompareState['expectedFrom'];
  /** Nothing runs: a run without an outcome did not run (a comparison cut short, kept). */
  waiting: boolean;
}) {
  if (!outcome) return <span className="sweep-ci">{waiting ? ' not run' : ' running…'}</span>;
  if (!outcome.ok)
    return (
      <span className="sweep-error" data-testid="compare-error">
        {' '}
        failed: {outcome.error}
      </span>
    );
  return (
    <span className="sweep-ci" title={`digest ${outcome.digest}`}>
      {' '}
      {outcome.digest.slice(0, 8)}
      {match === true && (from === 'kept' ? ' ✓ as kept' : ' ✓ as linked')}
      {match === false && (from === 'kept' ? ' ≠ the kept digest' : ' ≠ the link’s digest')}
    </span>
  );
}

/** When a comparison ran (the date and time, as the Sweep tab says a kept sweep's). */
/**
 * What the browser keeps of the comparison shown, quietly: one kept from before a reload (its
 * table kept, its charts being drawn again, and whether the runs again gave the digests kept),
 * one kept now, or why it is not (a reload loses it); with *Forget it*.
 */
function KeptNote({ s, compare, kept }: { s: CompareState; compare: CompareSession; kept?: KeptComparisons }) {
  const redraw = redrawOf(s);
  const forget = kept && s.kept && s.phase !== 'running' && (
    <>
      {' '}
      <button type="button" className="btn small" data-testid="compare-forget" title="Delete this comparison from this browser's storage (it stays on this page until a reload)" onClick={() => void kept.forget()}>
        Forget it
      </button>
    </>
  );
  if (s.unkept)
    return (
      <p className="sweep-note" data-testid="compare-unkept">
        {s.unkept}
      </p>
    );
  if (redraw) {
    const before = `Kept from before the reload (run ${ranOn(s.ranAtMs)})`;
    const finished = s.outcomes.filter((o) => o !== undefined).length;
    const differing = s.runs.filter((_, i) => digestMatches(s, i) === false).map((r) => r.label);
    /** Runs checked against a digest kept (those that had finished before). */
    const checked = s.runs.filter((_, i) => digestMatches(s, i) !== null).length;
    const button = (text: string, title: string) => (
      <>
        {' '}
        <button type="button" className="btn small" data-testid="compare-redraw" title={title} onClick={() => compare.redraw()}>
          {text}
        </button>
      </>
    );
    return (
      <p className="sweep-note" data-testid="compare-kept" data-redraw={redraw}>
        {redraw === 'waiting' &&
          (finished < s.runs.length ? (
            <>
              {before}: {finished} of {s.runs.length} runs had finished.
              {button('Finish the comparison', 'Run the runs that had not finished, and those that had for their charts')}
            </>
          ) : (
            <>
              {before}. Its charts are drawn by running its {s.runs.length} runs again (about {Math.max(1, Math.round(s.elapsedMs / 1000))} s).
              {button('Draw the charts', 'Run every run of this comparison again, for its charts; each is checked against the digest kept')}
            </>
          ))}
        {redraw === 'running' && <>{before}; the charts are being redrawn by running the variants again…</>}
        {redraw === 'same' &&
          (checked === s.runs.length ? (
            <>{before}. ✓ The same runs: run again for the charts, each gave the digest kept.</>
          ) : (
            <>
              {before}, and finished now. ✓ The same runs: the {checked} that had finished before gave the digest{checked === 1 ? '' : 's'} kept.
            </>
          ))}
        {redraw === 'differs' && (
          <>
            {before}. ≠ Run again, {differing.join(', ')} gave another digest than the one kept (the lab has changed since?): the table shows the runs of now.
          </>
        )}
        {redraw === 'finished' && <>{before}, and finished now.</>}
        {redraw === 'stopped' && <>{before}; running it again was cancelled: the table shows what was kept.</>}
        {forget}
      </p>
    );
  }
  if (s.kept && (s.phase === 'done' || s.phase === 'cancelled'))
    return (
      <p className="sweep-note" data-testid="compare-kept-now">
        These results are kept in this browser: a reload shows them again.{forget}
      </p>
    );
  return null;
}

/** A label of override paths, which may break after each dot (`nodes.SW1.params.…`) before it
 *  breaks within a word. */
function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=\.)(?=[A-Za-z_])/);
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {p}
        </Fragment>
      ))}
    </>
  );
}
