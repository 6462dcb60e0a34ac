// The sweep view: runs the scenario's sweep block in the worker pool (lab/sweep.ts), with a
// progress bar and cancel; the table (one row per point: mean ± 95 % interval over seeds of each
// metric) and a plot per metric fill in as runs finish. A row opens its run in the charts. No
// simulation here: the session runs, sweepTable.ts tabulates, charts/sweepPlot.ts lays out.

import { useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { Scenario } from '../contract/scenario';
import { metricScale, metricTitle, SWEEP_PLOT, SWEEP_PLOT_PRESENT, SWEEP_TICK_PX, sweepPlot, valueText } from '../charts/sweepPlot';
import { NORMAL_LOOK, type ChartLook } from '../charts/look';
import { displayUnit, networkView } from '../charts/specs';
import type { Catalogue, Problem } from '../contract/engine';
import type { DisplayUnit } from '../contract/units';
import { algorithmSweepCommand, IDLE_SWEEP, withAlgorithmSweep, type SweepSession, type SweepState } from '../lab/sweep';
import { NOWHERE, type Place } from '../scenario/place';
import { pointTable, sweepCsv, tableMetrics, type PointRow } from '../lab/sweepTable';
import { isShown, sweepVaries, type KeptChoice, type KeptInfo, type KeptSweeps } from '../lab/sweepKeep';
import { unitOf } from '../lab/compare';
import { saveBlob } from './download';
import { OverrideNotes } from './OverrideNotes';
import { ProblemList } from './Notices';
import { sameRun } from '../scenario/topologyEdits';
import { ParameterSweepForm } from './ParameterSweepForm';
import { useRowBoundary } from './rowBoundary';
import { blockVaries, sweepFile } from '../lab/sweepBuilder';
import { LIBRARY } from '../scenario/library';

/** The scenario a sweep ran, from its text (none before a sweep, or if it does not parse). */
function parsedScenario(json: string): Scenario | null {
  if (!json) return null;
  try {
    const s = JSON.parse(json) as Scenario;
    return Array.isArray(s?.nodes) ? s : null;
  } catch {
    return null;
  }
}

const noSubscription = () => () => undefined;
const NO_CHOICE: KeptChoice = { place: '', kept: [] };
const noChoice = () => NO_CHOICE;

/** When a kept sweep ran, in the user's own way of writing dates. */
export function ranOn(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A table value: integers whole, others to six significant digits. */
export function formatStat(v: number): string {
  return Number.isInteger(v) ? String(v) : `${+v.toPrecision(6)}`;
}

export function SweepView({
  sweep,
  current,
  currentJson,
  origin,
  place = NOWHERE,
  blockProblems = [],
  catalogue,
  look = NORMAL_LOOK,
  onOpened,
  onKeep,
  kept,
}: {
  sweep: SweepSession;
  /** The sweeps kept in the browser for the open scenario: the others than the one shown are
   *  offered, to show again (a block's sweep, the form's, the algorithms' are kept apart). */
  kept?: KeptSweeps;
  /** The scenario open in the lab (a sweep runs the one with a `sweep` block). */
  current: Scenario | undefined;
  currentJson: string | undefined;
  origin: string;
  /** Where the open scenario is kept: the form's values are kept by it. */
  place?: Place;
  /** The open scenario's sweep block's problems, known since it loaded (the lab's `sweepProblems`). */
  blockProblems?: readonly Problem[];
  catalogue: Catalogue | null | undefined;
  /** The charts' look: presentation mode's draws the plots larger, in its text and lines. */
  look?: ChartLook;
  onOpened: () => void;
  /** Writes a sweep block made in the form into the open scenario. */
  onKeep?: (scenario: Scenario) => void;
}) {
  const session = useSyncExternalStore(sweep.subscribe, sweep.getState);
  const keptChoice = useSyncExternalStore(kept?.subscribe ?? noSubscription, kept?.getState ?? noChoice);
  /** What the form below is set to run (`draftVaries`), as it tells it. */
  const [formVaries, setFormVaries] = useState<string | null>(null);
  // The table's scroll box ends between two rows, as Compare's does.
  const tableBox = useRef<HTMLDivElement>(null);
  useRowBoundary(tableBox);
  // The last sweep was of another scenario: its results stay (a long sweep is work), said to be
  // its; a refusal of it says nothing about the one open now. Another is one that runs otherwise
  // (`sameRun`): one of another id, one of the sweep's runs opened (same id, `… · sweep run 3:
  // …`), an edit or a change made during a run (same id, maybe the same origin), a file opened
  // again changed. A node moved or the description edited leaves the results the open one's.
  const swept = useMemo(() => parsedScenario(session.sourceJson), [session.sourceJson]);
  const elsewhere =
    session.phase !== 'idle' && !!current && currentJson !== session.sourceJson && !(swept && sameRun(swept, current));
  const s = elsewhere && session.phase === 'refused' ? IDLE_SWEEP : session;
  const canStart = !!current?.sweep && !!currentJson && s.phase !== 'running' && s.phase !== 'planning';
  const rows = useMemo(() => (s.plan ? pointTable(s.plan, sweep.outcomes, s.firstSeed) : []), [s.plan, s.version, s.firstSeed, sweep]);
  const metrics = s.plan ? tableMetrics(s.plan) : [];
  // Rates in the unit the charts and Compare use (Gbps on Ethernet); the CSV keeps the engine's.
  const rate = useMemo(() => displayUnit('Mbps', networkView(parsedScenario(s.json))), [s.json]);
  const open = (row: PointRow) => {
    void sweep.openRun(row.runs[0]).then(onOpened);
  };
  const exportCsv = () => {
    if (s.plan) saveBlob(new Blob([sweepCsv(s.plan, sweep.outcomes, s.firstSeed)], { type: 'text/csv' }), `${s.scenarioId}-sweep.csv`);
  };
  const other = elsewhere && current?.sweep;
  // Without a sweep block: every algorithm of the network's kind on every switch.
  const algorithmSweep = !current?.sweep && current && catalogue ? withAlgorithmSweep(current, catalogue) : null;
  // The file the commands name: the library's only while the scenario runs as it does.
  // (Memoised: sweepFile compares the whole scenario with the library's, and the view renders at every run.)
  const file = useMemo(() => (current ? sweepFile(current, LIBRARY.entries.find((e) => e.id === current.id)?.scenario) : null), [current]);
  const busy = s.phase === 'running' || s.phase === 'planning';
  const ended = s.phase === 'done' || s.phase === 'cancelled' || s.phase === 'interrupted';
  // The sweep shown, made by the form or of the algorithms (or a block's the scenario no longer
  // runs), runs again as it was made — kept from before or not; the block's own button runs the
  // block as the scenario has it.
  const again = ended && !elsewhere && (s.madeBy !== 'block' || !canStart);
  /** The sweep shown, as the browser keeps it (undefined: not kept). */
  const shownKept = keptChoice.kept.find((k) => isShown(k, s));
  // A sweep read back cut short (its tab closed) finishes where it stopped, as a comparison
  // does: only its runs not finished run.
  const toFinish = elsewhere ? 0 : sweep.missingRuns().length;
  // One primary action on the tab, the one about what is shown first (QA: a form sweep read back
  // on a scenario with a block had *Run the sweep* and *Run it again* both primary, side by side;
  // a scenario without a block had *Sweep the switch algorithms* and the form's).
  // With none of those, the parameter form's own Sweep button is it (where the form shows).
  const formShown = !!(current && file && catalogue);
  const primary: 'finish' | 'rerun' | 'run' | 'form' | 'algorithms' =
    toFinish > 0 ? 'finish' : again ? 'rerun' : canStart ? 'run' : formShown ? 'form' : 'algorithms';
  const btn = (which: typeof primary) => (which === primary ? 'btn primary' : 'btn');
  // What the tab is set to run: the scenario's sweep block's, and the form's (a scenario with a
  // block has both). Kept from before, of neither: no kept sweep matched, the newest shows.
  const blockSet = current?.sweep ? blockVaries(current.sweep) : null;
  const shownVaries = useMemo(() => sweepVaries(s.json), [s.json]);
  const differs =
    s.restored && !!s.plan && !!current && !elsewhere && (blockSet !== null || formVaries !== null) && shownVaries !== blockSet && shownVaries !== formVaries;
  const forget = (k: KeptInfo) => (
    <>
      {' '}
      <button type="button" className="btn small" data-testid="sweep-forget" title="Delete these results from this browser's storage (they stay on this page until a reload)" onClick={() => void kept!.forget(k.key)}>
        Forget them
      </button>
    </>
  );
  // A sweep over algorithms is plotted with their names (ERICA+), as the rest of the lab shows them.
  // Presentation mode (QA: the plots kept 11 px ticks on the projector): larger plots, its text.
  const presenting = look.fontPx > NORMAL_LOOK.fontPx;
  const plotLook = presenting ? { size: SWEEP_PLOT_PRESENT, fontPx: look.fontPx } : { size: SWEEP_PLOT, fontPx: SWEEP_TICK_PX };
  const algorithmNames = useMemo(() => Object.fromEntries((catalogue?.algorithms ?? []).map((a) => [a.id, a.name])), [catalogue]);
  // The table writes them so too (the CSV keeps the ids).
  const paramTexts = useMemo(() => (s.plan?.params ?? []).map((p) => valueText(p.values, algorithmNames)), [s.plan, algorithmNames]);
  return (
    <section className="sweep" data-testid="sweep" data-phase={s.phase}>
      <header className="sweep-head">
        <h2>Sweep{s.scenarioId ? ` of ${s.origin || s.scenarioId}` : current?.sweep ? ` of ${current.id}` : ''}</h2>
        <Plan state={s} current={current} />
        <span className="sweep-actions">
          {toFinish > 0 && (
            <button data-testid="sweep-finish" className={btn('finish')} title="Run only the runs this sweep did not finish: those it finished stay" onClick={() => sweep.finish()}>
              Finish it ({toFinish} run{toFinish === 1 ? '' : 's'} left)
            </button>
          )}
          {canStart && (
            <button data-testid="sweep-run" className={btn('run')} onClick={() => void sweep.start(currentJson!, origin)}>
              {ended && !other && s.madeBy === 'block' ? 'Run it again' : 'Run the sweep'}
            </button>
          )}
          {again && (
            <button data-testid="sweep-rerun" className={btn('rerun')} title="Run the sweep shown again, as it was made: the same values and seeds" onClick={() => void sweep.again()}>
              Run it again
            </button>
          )}
          {algorithmSweep && !busy && (
            <button
              data-testid="sweep-algorithms"
              className={btn('algorithms')}
              title="Run this scenario once with each switch algorithm on every switch, at its default parameters (abrsim sweep --vary 'nodes.*.algorithm=…')"
              onClick={() =>
                void sweep.start(JSON.stringify(algorithmSweep), origin, currentJson, {
                  by: 'algorithms',
                  command: algorithmSweepCommand(algorithmSweep, file?.path ?? 'scenario.json'),
                })
              }
            >
              Sweep the switch algorithms
            </button>
          )}
          {(s.phase === 'running' || s.phase === 'planning') && (
            <button data-testid="sweep-cancel" className="btn" onClick={() => sweep.cancel()}>
              Cancel
            </button>
          )}
          {s.plan && s.finished > 0 && (
            <button data-testid="sweep-csv" className="btn" title="The runs as abrsim sweep --format csv prints them (its columns, one line per run)" onClick={exportCsv}>
              CSV
            </button>
          )}
        </span>
      </header>
      {s.restored && s.plan && !s.unkept && (
        <p className="sweep-note" data-testid="sweep-kept">
          Results of the sweep run on {ranOn(s.ranAtMs)}, kept in this browser from before.{shownKept && forget(shownKept)}
        </p>
      )}
      {differs && (
        <p className="sweep-note" data-testid="sweep-kept-differs">
          Kept from an earlier sweep of <Columns names={s.plan!.params.map((p) => p.column)} /> (
          {blockSet === null ? (
            <>
              the form now varies <Columns names={formVaries!.split(' × ')} />
            </>
          ) : (
            <>
              the scenario&apos;s sweep block varies <Columns names={blockSet.split(' × ')} />
              {formVaries !== null && formVaries !== blockSet && (
                <>
                  ; the form, <Columns names={formVaries.split(' × ')} />
                </>
              )}
            </>
          )}
          ).
        </p>
      )}
      {!s.restored && !busy && shownKept && !s.unkept && (
        <p className="sweep-note" data-testid="sweep-kept-now">
          These results are kept in this browser: a reload shows them again.{forget(shownKept)}
        </p>
      )}
      {!busy && keptChoice.kept.some((k) => !isShown(k, s)) && (
        <p className="sweep-note" data-testid="sweep-kept-others">
          Also kept for this scenario:{' '}
          {keptChoice.kept
            .filter((k) => !isShown(k, s))
            .map((k) => (
              <button
                key={k.key}
                type="button"
                className="btn small"
                data-testid="sweep-kept-choice"
                title={`Show the results of this sweep (${k.runs} run${k.runs === 1 ? '' : 's'}), kept in this browser`}
                onClick={() => void kept!.show(k.key)}
              >
                {k.columns.join(' × ') || 'sweep'} · {ranOn(k.ranAtMs)}
              </button>
            ))}
        </p>
      )}
      {s.unkept && (
        <p className="sweep-note" data-testid="sweep-unkept">
          {s.unkept}
        </p>
      )}
      {elsewhere && s.phase !== 'idle' && (
        <p className="sweep-note sweep-other" data-testid="sweep-other">
          These are the results of the last sweep, of <strong>{s.origin || s.scenarioId}</strong>; the scenario open now is{' '}
          <strong>{current!.id === s.scenarioId ? origin : current!.name || current!.id}</strong>
          {current!.id === s.scenarioId && origin === s.origin ? ', changed since' : ''}.
          {canStart || algorithmSweep ? ' Running a sweep of it replaces them.' : ''}
        </p>
      )}
      {!current?.sweep && s.phase === 'idle' && (
        <p className="sweep-note">
          This scenario has no sweep block: sweep its parameters below (a run per value, or per combination with{' '}
          <em>+ Another parameter</em>; fairness, convergence, largest queue, losses and utilisation side by side), or{' '}
          <em>Sweep the switch algorithms</em> to run it once with each algorithm on every switch.
        </p>
      )}
      {formShown && (
        <ParameterSweepForm
          primary={primary === 'form'}
          current={current}
          catalogue={catalogue}
          drafts={sweep.drafts}
          place={place}
          file={file}
          busy={busy}
          onStart={(json, command) => void sweep.start(json, origin, currentJson, { by: 'form', command })}
          onKeep={onKeep}
          onEdit={() => sweep.formChanged()}
          onVaries={setFormVaries}
        />
      )}
      {current?.sweep && blockProblems.length > 0 && (s.phase === 'idle' || elsewhere) && (
        <div className="sweep-refused" role="status" data-testid="sweep-block-problems">
          <p>
            This scenario&apos;s sweep block has {blockProblems.length === 1 ? 'a problem' : `${blockProblems.length} problems`}: the scenario runs, but
            its sweep is refused until {blockProblems.length === 1 ? 'it is' : 'they are'} mended.
          </p>
          <ProblemList problems={blockProblems} />
        </div>
      )}
      {s.plan && s.phase !== 'refused' && <Progress state={s} />}
      {s.plan && s.phase !== 'refused' && (
        <OverrideNotes notes={s.plan.notes} intro="What the sweep's values also changed:" testId="sweep-notes" />
      )}
      {s.phase === 'refused' && (
        <div className="sweep-refused" role="alert" data-testid="sweep-refused">
          <p>{s.message}</p>
          {s.problems && <ProblemList problems={s.problems} />}
        </div>
      )}
      {s.plan && s.phase !== 'refused' && (
        <>
          <div className="sweep-scroll" ref={tableBox} data-testid="sweep-table-box">
            <table className="summary-table sweep-table" data-testid="sweep-table">
              <thead>
                <tr>
                  {s.plan.params.map((p) => (
                    <th key={p.column}>{p.column}</th>
                  ))}
                  {metrics.map((m) => (
                    <th key={m} data-column={m} title={`${m}${s.plan!.seeds > 1 ? `: mean ± 95 % confidence interval over ${s.plan!.seeds} seeds` : ''} (the column of abrsim sweep and the CSV)`}>
                      {metricTitle(m, unitOf(s.json), rate)}
                    </th>
                  ))}
                  <th>runs</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr
                    key={r.point}
                    data-testid="sweep-row"
                    className={r.finished > 0 ? 'sweep-row done' : 'sweep-row'}
                    title="Open this run's charts (its first seed)"
                    onClick={() => open(r)}
                  >
                    {r.values.map((v, k) => (
                      <td key={k}>{paramTexts[k]?.(v) ?? String(v)}</td>
                    ))}
                    {r.stats.map((st) => (
                      <td key={st.metric} data-metric={st.metric} data-value={st.mean ?? ''}>
                        {st.mean === null ? '–' : formatStat(st.mean * metricScale(st.metric, rate))}
                        {st.ci !== null && <span className="sweep-ci"> ± {formatStat(st.ci * metricScale(st.metric, rate))}</span>}
                      </td>
                    ))}
                    <td className={r.errors.length ? 'sweep-error' : undefined}>
                      {r.errors.length ? r.errors.join('; ') : `${r.finished}/${r.runs.length}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {s.plan.params.length > 0 && s.plan.seeds > 1 && (
            <p className="sweep-note" data-testid="sweep-plot-note">
              Each point is the mean over its {s.plan.seeds} seeds; its bar, the 95 % confidence interval of that mean.
            </p>
          )}
          {s.plan.params.length > 0 && (
            <div className="sweep-plots">
              {metrics.map((m, i) => (
                <SweepPlot key={m} plot={sweepPlot(s.plan!, rows, i, { names: algorithmNames, scale: metricScale(m, rate), ...plotLook })} unit={unitOf(s.json)} rate={rate} look={look} />
              ))}
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** Parameters (columns or paths) as code, apart by ×. */
function Columns({ names }: { names: readonly string[] }) {
  return (
    <>
      {names.map((name, i) => (
        <span key={name}>
          {i > 0 && ' × '}
          <code>{name}</code>
        </span>
      ))}
    </>
  );
}

/** A parameter's values in the heading: all of a short list; of a long one the first three, the
 *  last two and the count (QA: 200 values made a wall of numbers above the form). */
export function valuesText(values: readonly unknown[]): string {
  if (values.length <= 12) return `{${values.join(', ')}}`;
  return `{${values.slice(0, 3).join(', ')}, …, ${values.slice(-2).join(', ')}} (${values.length} values)`;
}

function Plan({ state: s, current }: { state: SweepState; current: Scenario | undefined }) {
  if (s.plan) {
    const params = s.plan.params.map((p) => `${p.column} ∈ ${valuesText(p.values)}`).join(' × ');
    return (
      <span className="sweep-plan" data-testid="sweep-plan">
        {s.plan.runs} run{s.plan.runs === 1 ? '' : 's'}: {params}
        {s.plan.seeds > 1 ? `, ${s.plan.seeds} seeds each` : ''}
      </span>
    );
  }
  if (s.phase === 'planning') return <span className="sweep-plan">planning…</span>;
  if (current?.sweep) {
    const vary = current.sweep.vary.map((p) => `${p.name ?? p.paths[0] ?? '(no path)'} ∈ ${valuesText(p.values)}`).join(' × ');
    return <span className="sweep-plan">{vary}</span>;
  }
  return null;
}

function Progress({ state: s }: { state: SweepState }) {
  const runs = s.plan?.runs ?? 0;
  const said =
    s.phase === 'done'
      ? `${runs} runs in ${(s.elapsedMs / 1000).toFixed(1)} s on ${s.workers} worker${s.workers === 1 ? '' : 's'}`
      : s.phase === 'cancelled'
        ? `cancelled: ${s.finished} of ${runs} runs kept`
        : s.phase === 'interrupted'
          ? s.runningInOtherTab
            ? `still running in another tab: ${s.finished} of ${runs} runs kept so far`
            : `cut short when its page closed or reloaded: ${s.finished} of ${runs} runs kept`
        : `${s.finished} of ${runs} runs · ${s.workers} worker${s.workers === 1 ? '' : 's'}`;
  return (
    <div className="sweep-progress">
      <progress data-testid="sweep-progress" value={s.finished} max={runs || 1} />
      <span data-testid="sweep-status">
        {said}
        {s.failed > 0 ? ` · ${s.failed} failed` : ''}
      </span>
    </div>
  );
}

function SweepPlot({ plot: p, unit, rate, look }: { plot: ReturnType<typeof sweepPlot>; unit: 'cells' | 'frames'; rate: DisplayUnit; look: ChartLook }) {
  const title = metricTitle(p.metric, unit, rate);
  const { left, top, right, bottom } = p.plot;
  const presenting = look.fontPx > NORMAL_LOOK.fontPx;
  const font = presenting ? look.fontPx : SWEEP_TICK_PX;
  const ink = presenting ? look.axisInk : '#5b6675';
  const line = presenting ? look.lineWidth.solid : 2;
  const dot = presenting ? 2 : 1;
  return (
    <figure className="sweep-plot" style={{ width: p.width + 10 }} data-testid={`sweep-plot-${p.metric}`}>
      <figcaption title={p.metric}>{title}</figcaption>
      <svg width={p.width} height={p.height} role="img" aria-label={`${title} against ${p.xLabel}`}>
        {p.yTicks.map((t) => (
          <g key={t.label}>
            <line x1={left} x2={right} y1={t.y} y2={t.y} stroke={presenting ? look.gridInk : '#eceff3'} />
            <text x={left - 6} y={t.y} textAnchor="end" dominantBaseline="middle" fontSize={font} fill={ink}>
              {t.label}
            </text>
          </g>
        ))}
        {p.xTicks.map((t) => (
          <g key={t.value} data-value={t.value}>
            {t.label !== t.value && <title>{t.value}</title>}
            <line x1={t.x} x2={t.x} y1={bottom} y2={bottom + 4} stroke={presenting ? look.tickInk : '#9aa5b1'} />
            {p.xTicksSlanted ? (
              <text x={t.x} y={bottom + font + 1} textAnchor="end" fontSize={font} fill={ink} transform={`rotate(-30 ${t.x} ${bottom + font + 1})`}>
                {t.label}
              </text>
            ) : (
              <text x={t.x} y={bottom + font + 5} textAnchor="middle" fontSize={font} fill={ink}>
                {t.label}
              </text>
            )}
          </g>
        ))}
        <path d={`M${left} ${top}V${bottom}H${right}`} fill="none" stroke={presenting ? look.axisInk : '#9aa5b1'} />
        <text x={(left + right) / 2} y={p.height - 6} textAnchor="middle" fontSize={font} fill={ink}>
          {p.xLabel}
        </text>
        {p.lines.map((l) => (
          <g key={l.label} stroke={l.color} fill={l.color}>
            {l.joined && (
              <polyline
                points={l.points.map((q) => `${q.x},${q.y}`).join(' ')}
                fill="none"
                strokeWidth={line}
                strokeDasharray={l.sameAs === null ? undefined : `${4 * line} ${4 * line}`}
              />
            )}
            {l.points.map((q) => (
              <g key={q.point}>
                {q.lo !== null && q.hi !== null && <line x1={q.x} x2={q.x} y1={q.lo} y2={q.hi} strokeWidth={line * 0.75} />}
                <circle cx={q.x} cy={q.y} r={(l.joined ? 3 : 4) * dot} />
              </g>
            ))}
          </g>
        ))}
      </svg>
      {p.lines.length > 1 && (
        <ul className="legend">
          {p.lines.map((l) => (
            <li key={l.label}>
              <span className="legend-entry">
                <svg className="swatch" width="22" height="10" aria-hidden="true">
                  {l.joined && (
                    <line x1="1" x2="21" y1="5" y2="5" stroke={l.color} strokeWidth="2" strokeDasharray={l.sameAs === null ? undefined : '4 4'} />
                  )}
                  <circle cx="11" cy="5" r={l.joined ? 3 : 4} fill={l.color} />
                </svg>
                {l.label}
                {l.sameAs !== null && <span className="same-as"> (on the line of {l.sameAs})</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
