import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Scenario } from '../contract/scenario';
import { specOf } from '../scenario/params';
import { algorithmOf } from '../scenario/switchEdits';
import { RecordedChanges, SwitchInspector } from './SwitchInspector';
import { SwitchExplain, type PortInspect } from './SwitchExplain';
import { VirtualPathsPanel } from './VirtualPathsPanel';
import type { Lab, LabState } from '../lab/lab';
import { LESSON_PARTNERS } from '../lab/compare';
import { RunSummary } from './RunSummary';
import { ScenarioNotes } from './ScenarioNotes';
import type { EditTarget } from './editor/NetworkEditor';
import { networkView } from '../charts/specs';
import { Topology } from './Topology';
import { lessonText, stepTime, stepTitle, type Marks } from '../lab/lessonWalk';
import type { LessonWalkView } from './useLessonWalk';
import { useTeacher } from './teacherContext';
import { isHidden, isLocked, startTab } from '../lab/teacher';
import { tabList } from './tabs';
import type { SideTab } from '../scenario/share';

type Tab = SideTab;

/**
 * The side panel: the scenario's title and network, then its story (what to watch, where it
 * comes from), the run's result, the switch inspector or the virtual paths; above the tabs,
 * what to know before running it (the engine's notes). Clicking a switch
 * opens the inspector. When a run ends, the tab the reader is on stays (a teacher reading the
 * lesson keeps her place); the Result tab is one click away, and the lesson says so. A lesson
 * with steps is walked through here (`walk`), and a step the run pauses at brings the lesson up.
 */
export function LessonPanel({
  lab,
  state,
  onExportRun,
  onCompareWith,
  walk,
  inspect = null,
  onEditField,
  present = false,
  tab: chosenTab,
  onTab,
}: {
  lab: Lab;
  state: LabState;
  /** Presenting: the drawing in its larger frame. */
  present?: boolean;
  /** A switch port clicked in the Network view: the inspector opens on it. */
  inspect?: PortInspect | null;
  /** The lesson's walk-through (its steps, the one shown, Next/Back/Reveal). */
  walk: LessonWalkView;
  /** Saves the whole run (every series as CSV, the summary as JSON). */
  onExportRun?: (kind: 'series-csv' | 'summary-json') => void;
  /** Compares the open scenario with these library scenarios (the lesson's partners). */
  onCompareWith?: (ids: readonly string[]) => void;
  /** Opens a note's field in the network editor (none: the editor is not to be used here). */
  onEditField?: (target: EditTarget) => void;
  /** The tab chosen, kept by the app (a reload comes back to it); absent, the panel keeps it. */
  tab?: Tab;
  onTab?: (tab: Tab) => void;
}) {
  // View state only: which tab, which switch.
  const teacher = useTeacher();
  const [ownTab, setOwnTab] = useState<Tab>(() => startTab(teacher) ?? 'lesson');
  const tab = chosenTab ?? ownTab;
  const setTab = onTab ?? setOwnTab;
  const [picked, setPicked] = useState<string | null>(null);
  const summary = state.summary;
  // A step the run paused at brings the lesson up; played through, the tab being read stays
  // (QA: the Switches tab was left at every step).
  useEffect(() => {
    if (walk.reached > 0 && walk.pausedAtStep) setTab('lesson');
    // Only a step reached moves the tab, not a pause or a resume.
  }, [walk.reached]);
  useEffect(() => {
    if (!inspect) return;
    setPicked(inspect.switchId);
    setTab('switches');
  }, [inspect]);
  const s = state.current?.scenario;
  if (!s) return <aside className="lesson" />;
  const switches = s.nodes.filter((n) => n.kind === 'switch').map((n) => n.id);
  const selected = picked !== null && switches.includes(picked) ? picked : (switches[0] ?? null);
  const select = (id: string) => {
    setPicked(id);
    setTab('switches');
  };
  const changes = s.changes?.length ?? 0;
  const paths = s.virtual_paths?.length ?? 0;
  const tabs: { id: Tab; label: string; disabled?: boolean; title?: string }[] = [
    { id: 'lesson', label: 'Lesson' },
    { id: 'result', label: summary ? 'Result ●' : 'Result', disabled: !summary, title: summary ? 'The run has ended: its result' : 'The result comes when the run ends' },
    {
      id: 'switches',
      label: `Switches${changes > 0 ? ` · ${changes} change${changes === 1 ? '' : 's'}` : ''}`,
      disabled: switches.length === 0,
    },
    ...(s.ethernet ? [] : [{ id: 'paths' as const, label: `VPs${paths ? ` · ${paths}` : ''}`, title: 'Virtual paths' }]),
  ];
  // The tab shown: the one chosen while it can be (Result goes when a scrub back takes the
  // run's end away, and comes back with it), else the lesson (QA: a greyed Result stayed
  // selected over the lesson's text).
  const shown: Tab = tabs.some((t) => t.id === tab && !t.disabled) ? tab : 'lesson';
  const sideTabs = tabList('side', tabs, shown, setTab);
  return (
    <aside className="lesson" data-testid="lesson">
      <div className="lesson-group">{s.group}</div>
      <h1 className="lesson-title">{s.name || s.id}</h1>
      {s.description && <p className="lesson-description">{s.description}</p>}
      <Topology scenario={s} selected={shown === 'switches' ? selected : null} onSelect={select} marked={walk.marks.node} present={present} />
      {/* Above every tab but the Result, which says them with the figures of the run. */}
      {shown !== 'result' && <ScenarioNotes notes={state.scenarioNotes} onEditField={onEditField} />}
      <div className="tabs" role="tablist" aria-label="side panel">
        {tabs.map((t) => (
          <button key={t.id} {...sideTabs.tab(t.id)} data-testid={`tab-${t.id}`} onClick={() => setTab(t.id)} disabled={t.disabled} title={t.title}>
            {t.label}
          </button>
        ))}
      </div>
      <div className="side-tab-panel" {...sideTabs.panel}>
        {shown === 'paths' && !s.ethernet ? (
          <VirtualPathsPanel lab={lab} state={state} />
        ) : shown === 'switches' && selected !== null ? (
          <>
            <label className="inspector-row inspector-pick">
              <span className="inspector-label">switch</span>
              <select data-testid="switch-picker" value={selected} onChange={(e) => setPicked(e.target.value)}>
                {switches.map((id) => (
                  <option key={id} value={id}>
                    {id}
                  </option>
                ))}
              </select>
              <span className="inspector-hint">or click one in the drawing</span>
            </label>
            <SwitchExplain lab={lab} state={state} node={selected} inspect={inspect} />
            {/* A teacher's link may hide the switch settings, or lock them (shown, greyed out). */}
            {!isHidden(teacher, 'params') && (
              <fieldset className="teacher-fence" disabled={isLocked(teacher, 'params')} data-testid="switch-settings">
                <SwitchInspector lab={lab} state={state} node={selected} />
                <RecordedChanges lab={lab} state={state} node={selected} />
              </fieldset>
            )}
          </>
        ) : shown === 'result' && summary ? (
          <RunSummary summary={summary} net={networkView(s, state.catalogue?.fields.ethernet)} digest={state.digest} onExport={onExportRun} connections={s.connections} />
        ) : (
          <LessonText scenario={s} state={state} onCompareWith={onCompareWith} walk={walk} onResult={() => setTab('result')} onStops={(on) => lab.setLessonStops(on)} />
        )}
      </div>
    </aside>
  );
}

function LessonText({
  scenario: s,
  state,
  onCompareWith,
  walk,
  onResult,
  onStops,
}: {
  scenario: Scenario;
  state: LabState;
  onCompareWith?: (ids: readonly string[]) => void;
  walk: LessonWalkView;
  onResult: () => void;
  onStops: (on: boolean) => void;
}) {
  const partners = LESSON_PARTNERS[s.id];
  return (
    <>
      {state.summary && (
        <p className="lesson-result-note" data-testid="lesson-result-note">
          The run has ended.{' '}
          <button className="btn" data-testid="lesson-to-result" onClick={onResult}>
            See its result
          </button>
        </p>
      )}
      <RunFacts scenario={s} state={state} />
      {walk.steps.length > 0 && <LessonSteps walk={walk} stops={state.lessonStops} onStops={onStops} />}
      {partners && onCompareWith && (
        <button className="btn" data-testid="lesson-compare" title="Run this lesson's scenarios side by side in the Compare view" onClick={() => onCompareWith(partners)}>
          Compare with {partners.join(', ')}
        </button>
      )}
      {lessonText(s.lesson) && (
        <section>
          <h2>What to watch</h2>
          {lessonText(s.lesson).split(/\n\s*\n/).map((para, i) => (
            <p key={i}>{unbrokenPorts(para)}</p>
          ))}
        </section>
      )}
      {s.source && (
        <section>
          <h2>Source</h2>
          <p className="lesson-source">{s.source}</p>
        </section>
      )}
    </>
  );
}

/** The walk-through: the step shown, its answer on request, Back and Next. */
function LessonSteps({ walk, stops, onStops }: { walk: LessonWalkView; stops: boolean; onStops: (on: boolean) => void }) {
  const { steps, shown, step, due } = walk;
  const ahead = shown + 1 < steps.length && shown + 1 > due;
  // A step shown (or its answer) is brought into the panel's view: on a projector's short
  // screen the walk-through sits below the network and the facts.
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!step) return;
    // Once the next frame is laid out: reading the boxes then costs no layout of its own (read
    // at once, after React's changes, it did: ~10 ms at each step while a run played).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => showWithin(box.current, '.lesson'))));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [step, shown, walk.revealed]);
  return (
    <section className="lesson-steps" data-testid="lesson-steps" aria-labelledby="lesson-steps-title" ref={box}>
      <h2 id="lesson-steps-title">Walk-through · {steps.length} step{steps.length === 1 ? '' : 's'}</h2>
      {step ? (
        <div className="lesson-step" data-testid="lesson-step" data-step={shown}>
          <h3 data-testid="lesson-step-title">{stepTitle(shown, steps.length, step)}</h3>
          <p className="lesson-prompt" data-testid="lesson-prompt">
            {unbrokenPorts(step.prompt)}
          </p>
          {step.reveal &&
            (walk.revealed ? (
              <p className="lesson-answer" data-testid="lesson-answer">
                {unbrokenPorts(step.reveal)}
              </p>
            ) : (
              <button className="btn" data-testid="lesson-reveal" onClick={walk.reveal}>
                Reveal
              </button>
            ))}
          {marksText(walk.marks) && (
            <p className="lesson-look" data-testid="lesson-look">
              {marksText(walk.marks)}
              {/* What it marks may be out of view (in one column the page came down to this
                  prompt, below every chart: QA, embedded at 900 × 700; presenting at 1280 × 720
                  the panel scrolled down to the step, past the drawing its node is marked in:
                  QA h53, vsvd-1's third step): a click brings it up. */}
              {' '}
              <button className="btn small" data-testid="lesson-show-marked" onClick={() => showMarked(walk.marks)}>
                Show {walk.marks.series ? 'them' : 'it'}
              </button>
            </p>
          )}
        </div>
      ) : (
        <p className="lesson-step-before" data-testid="lesson-step-before">
          Press Play (or Next): the run pauses at {stepTime(steps[0].at_ms)} for the first step.
        </p>
      )}
      <div className="lesson-step-nav" role="group" aria-label="steps">
        <button className="btn" data-testid="lesson-back" disabled={shown <= 0} onClick={walk.back} aria-keyshortcuts="B" title="The step before (B)">
          ← Back
        </button>
        <button
          className="btn"
          data-testid="lesson-next"
          disabled={shown + 1 >= steps.length}
          aria-keyshortcuts="N"
          title={ahead ? `Plays on to ${stepTime(steps[shown + 1].at_ms)}, where the run pauses (N)` : 'The next step (N)'}
          onClick={walk.next}
        >
          {ahead ? `Play to step ${shown + 2} →` : 'Next →'}
        </button>
        <label className="lesson-stops">
          <input type="checkbox" data-testid="lesson-stops" checked={stops} onChange={(e) => onStops(e.target.checked)} /> Pause at each step
        </label>
      </div>
      <div className="visually-hidden" role="status" aria-live="polite" data-testid="lesson-announcer">
        {walk.said}
      </div>
    </section>
  );
}

/** Brings what a step marks into view: its node in the drawing (`topo-marked`, scrolling the
 *  panel), else the first chart it marks (TimeChart's `chart-lesson-marked`). */
function showMarked(marks: Marks) {
  const el = document.querySelector(marks.node ? '.topo-marked' : '.chart-lesson-marked');
  el?.scrollIntoView({ block: marks.node ? 'nearest' : 'center', behavior: 'smooth' });
}

/** "Look at the rate chart" / "Look at SW1 in the drawing" / "Look at SW1->SW2 on the charts". */
function marksText(m: Marks): string {
  if (m.chart) return `Look at the ${m.chart === 'algorithm' ? 'algorithm state' : m.chart} chart (marked).`;
  if (m.node) return `Look at ${m.node} in the drawing (marked).`;
  if (m.series) return `Look at ${m.series}'s lines on the charts (marked).`;
  return '';
}

function RunFacts({ scenario, state }: { scenario: Scenario; state: LabState }) {
  // Which switch runs what (known once the engine's catalogue, with its defaults, is in).
  const catalogue = state.catalogue;
  const algos = new Map<string, string[]>();
  for (const n of catalogue ? scenario.nodes : []) {
    if (n.kind !== 'switch') continue;
    const id = algorithmOf(scenario, n, catalogue!.default_algorithm);
    algos.set(id, [...(algos.get(id) ?? []), n.id]);
  }
  const nameOf = (id: string) => catalogue?.algorithms.find((a) => a.id === id)?.name ?? id;
  // The scenario's sampling interval, else the engine's default (the catalogue's `fields.run`).
  const sampling = scenario.run.sample_interval_us ?? (catalogue ? specOf(catalogue.fields.run, 'sample_interval_us').default : null);
  return (
    <dl className="facts">
      <dt>Duration</dt>
      <dd>{scenario.run.duration_ms >= 10_000 ? `${scenario.run.duration_ms / 1000} s` : `${scenario.run.duration_ms} ms`}</dd>
      {sampling !== null && <FactPair term="Sampling" value={`every ${interval(sampling)}`} />}
      <dt>Connections</dt>
      <dd>{scenario.connections.length}</dd>
      {[...algos].map(([id, nodes]) => (
        <FactPair key={id} term={nameOf(id)} value={nodes.join(', ')} />
      ))}
    </dl>
  );
}

function FactPair({ term, value }: { term: string; value: string }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </>
  );
}

/** A sampling interval: in µs below a millisecond, else in ms. */
function interval(us: number) {
  return us >= 1000 ? `${us / 1000} ms` : `${us} µs`;
}

/** Scrolls the nearest `container` holding `el` (not the page) so that as much of `el` as fits
 *  is in view, its top first. */
function showWithin(el: HTMLElement | null, container: string) {
  const box = el?.closest<HTMLElement>(container);
  if (!el || !box) return;
  const e = el.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  if (e.bottom > b.bottom) box.scrollTop += Math.min(e.bottom - b.bottom, e.top - b.top);
  else if (e.top < b.top) box.scrollTop -= b.top - e.top;
}

/** Prose with its port names (`SW1->SW2`) kept on one line: a line broke after the hyphen
 *  ("SW1-" / ">SW2"), which reads as two names. The text is unchanged. */
export function unbrokenPorts(text: string): ReactNode[] {
  return text.split(/(\S+->\S+)/).map((part, i) =>
    i % 2 === 1 ? (
      <span key={i} className="nowrap">
        {part}
      </span>
    ) : (
      part
    ),
  );
}
