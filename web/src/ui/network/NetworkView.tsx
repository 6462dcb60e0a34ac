// The Network view: the topology drawn large (React Flow) and animated from the run at the time
// the charts show (their marked time when paused, else the latest): links by utilisation, switch
// ports' queues against their buffers with the algorithm's marks, sources' ACRs, and — slow
// enough — the RM cells moving along the links; paused, click one for its fields and journey.

import '@xyflow/react/dist/style.css';
import { ReactFlow, useReactFlow, useStore, ViewportPortal, type FitViewOptions } from '@xyflow/react';
import { memo, useEffect, useMemo, useRef, useState, useSyncExternalStore, type CSSProperties, type ReactElement } from 'react';
import type { ChartGroup } from '../../charts/chartGroup';
import type { SampleStore } from '../../charts/sampleStore';
import type { Lab, LabState } from '../../lab/lab';
import { hopStepUs, linkHopsUs, loopLookbackUs, rmCellsMove, rmSpeedLimit, slowEnough, stepText, typicalHopUs } from '../../lab/networkClock';
import { cardRows, portViews, switchAlgorithmsText, type CardRow, type PortGroup } from '../../lab/networkPorts';
import { lastLoopText, type Phase } from '../../lab/rmCells';
import { cellPhases, markerLegend, movingText, rmWords, scenarioFeedback, type RateUnit, type RmWords } from '../../lab/rmLog';
import { displayUnit, networkView } from '../../charts/specs';
import { SPEEDS, speedLabel } from '../../scenario/speed';
import { countsText } from '../topologyDrawing';
import { useLabSelect } from '../useLab';
import { scrollIntoViewSoon } from '../scrollSoon';
import { useFullScreen } from '../useFullScreen';
import { useTeacher } from '../teacherContext';
import { isHidden, isLocked } from '../../lab/teacher';
import { END_RADIUS_PX, endLabels, endTextBoxes, infoSide, LABEL_GAP_PX, laneLayout, NAME_CLEARANCE_PX, PAGE_CARD, placeNodes, PRESENT_CARD, rowShape, switchCardGrowth, switchHalfSize, textGrowth, UNMEASURED_COLOUR, unmeasuredText, UTILISATION_RAMP, zoomStep, type GroupLabel } from './geometry';
import { SwitchExplain, type PortInspect } from '../SwitchExplain';
import { RmCellPanel } from './RmCellPanel';
import { NetworkPainter, RM_LABEL_PRESENT_PX, RM_LABEL_PX } from './painter';
import { EDGE_TYPES, NODE_TYPES, type EndNode, type LinkEdge, type SwitchNode } from './parts';

export function NetworkView({
  lab,
  state,
  store,
  group,
  onInspect,
  present = false,
}: {
  lab: Lab;
  /** Presentation mode: larger names, so fewer fit. */
  present?: boolean;
  state: LabState;
  store: SampleStore;
  group: ChartGroup;
  /** A switch port clicked (not full screen): the side panel's inspector explains it. */
  onInspect?: (switchId: string, port: string) => void;
}) {
  const scenario = state.current!.scenario;
  const catalogue = state.catalogue;
  const ethernet = !!scenario.ethernet;
  // The network's words and units, as its charts and event log say them: ATM's RM cells, ER
  // and ACR in Mbps; Ethernet's tags or notifications (those its switches send) and rate limits
  // in Gbps.
  const speech = useMemo(() => {
    const feedback = scenarioFeedback(scenario, catalogue);
    const rate = displayUnit('Mbps', networkView(scenario, catalogue?.fields.ethernet));
    return { words: rmWords(ethernet), rate, phases: cellPhases(ethernet, feedback), moving: movingText(ethernet, feedback) };
  }, [scenario, catalogue, ethernet]);
  const painter = useMemo(() => new NetworkPainter(store, lab, group), [store, lab, group]);
  // The marks follow live parameter changes: recomputed when one more applies.
  // How many live changes apply by now (the engine's time, selected so that the view
  // re-renders when one more applies, not with every report of the time).
  const applied = useLabSelect(lab, (s) => {
    const nowMs = s.status?.nowMs ?? 0;
    return (scenario.changes ?? []).filter((c) => c.at_ms <= nowMs).length;
  });
  const nowMs = lab.getState().status?.nowMs ?? 0;
  const ports = useMemo(() => (catalogue ? portViews(scenario, catalogue, state.meta, nowMs) : []), [scenario, catalogue, state.meta, applied]);
  // Each switch card's rows: its ports toward many destinations as one, unless the reader
  // opened them (view state, per switch).
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  // Another scenario: its switches start folded (one of the same id included).
  useEffect(() => setExpanded(new Set()), [scenario.id]);
  const cards = useMemo(() => {
    const kinds = new Map(scenario.nodes.map((n) => [n.id, n.kind]));
    const isDestination = (id: string) => kinds.get(id) === 'destination';
    const out = new Map<string, { rows: CardRow[]; grouped?: PortGroup }>();
    for (const n of scenario.nodes) {
      if (n.kind !== 'switch') continue;
      const own = ports.filter((p) => p.switchId === n.id);
      const folded = cardRows(own, isDestination);
      const grouped = folded.find((r) => r.group)?.group;
      out.set(n.id, { rows: expanded.has(n.id) ? cardRows(own, isDestination, true) : folded, grouped });
    }
    return out;
  }, [scenario, ports, expanded]);
  const groups = useMemo(() => [...cards.values()].flatMap((c) => c.rows.flatMap((r) => (r.group ? [r.group] : []))), [cards]);
  const expand = useMemo(
    () => (switchId: string, open: boolean) =>
      setExpanded((was) => {
        const next = new Set(was);
        if (open) next.add(switchId);
        else next.delete(switchId);
        return next;
      }),
    [],
  );
  // Lanes end at the switch cards' edges, which grow with their rows (and the collapse button).
  const look = present ? PRESENT_CARD : PAGE_CARD;
  const cardHalf = useMemo(() => {
    return (n: { id: string; kind: string }) => {
      if (n.kind !== 'switch') return { w: END_RADIUS_PX, h: END_RADIUS_PX };
      const card = cards.get(n.id);
      return switchHalfSize((card?.rows ?? []).map(rowShape), !!card?.grouped && expanded.has(n.id), look);
    };
  }, [cards, expanded, look]);
  // The drawing's zoom (fitted to the canvas, or the reader's wheel): text keeps its size on
  // screen when it is zoomed out (a wide network fits at half size and less: QA read 6–8 px),
  // and the switch cards grow as far as their neighbours and the lanes between them let them (view state).
  const [zoom, setZoom] = useState(1);
  const grow = textGrowth(zoom);
  // Where the nodes go does not depend on the cards' size (geometry.test.ts measures it over the
  // library): placed once, then the cards grow between them and the lanes meet the grown cards.
  const placed = useMemo(() => placeNodes(scenario), [scenario]);
  const cardGrowth = useMemo(() => switchCardGrowth(placed.nodes, cardHalf, zoom, look), [zoom, placed, cardHalf, look]);
  const halfSize = useMemo(
    () => (n: { id: string; kind: string }) => {
      const h = cardHalf(n);
      return n.kind === 'switch' ? { w: h.w * cardGrowth, h: h.h * cardGrowth } : h;
    },
    [cardHalf, cardGrowth],
  );
  const layout = useMemo(() => laneLayout(scenario, placed, halfSize), [scenario, placed, halfSize]);
  const frameBytes = scenario.ethernet?.frame_bytes ?? catalogue?.fields.ethernet.find((f) => f.name === 'frame_bytes')?.default ?? 1500;
  const hopUs = useMemo(() => typicalHopUs(scenario, catalogue?.delay_us_per_km ?? 5, frameBytes), [scenario, catalogue, frameBytes]);
  const lookbackUs = useMemo(() => loopLookbackUs(scenario, catalogue?.delay_us_per_km ?? 5, frameBytes), [scenario, catalogue, frameBytes]);
  const linkHopUs = useMemo(() => linkHopsUs(scenario, catalogue?.delay_us_per_km ?? 5, frameBytes), [scenario, catalogue, frameBytes]);
  const rmLimit = rmSpeedLimit(hopUs);
  const teacher = useTeacher();
  const speedFixed = isHidden(teacher, 'speed') || isLocked(teacher, 'speed');
  const moving = rmCellsMove(state.speed, rmLimit);
  const slow = slowEnough(SPEEDS, rmLimit);

  // Record the RM-cell trace while cells are drawn moving; letting go leaves it on if the event
  // log's box asks for it. On a paused run the trace is filled in up to now (a replay), so that
  // the cells in flight show at once.
  useEffect(() => {
    if (!moving) return;
    lab.holdRmTrace('network-view', true, { backfillMs: lookbackUs / 1000 });
    return () => lab.holdRmTrace('network-view', false);
  }, [moving, lab, lookbackUs]);

  const picked = useSyncExternalStore(
    (l) => painter.onPick(l),
    () => painter.pickedCell,
  );
  // Paused with nothing under way (on a LAN a loop lasts a few µs, a millisecond apart): the
  // latest cell, which the reader can bring back to see the loop.
  const last = useSyncExternalStore(
    (l) => painter.onLastLoop(l),
    () => painter.lastLoop,
  );
  // Show it goes as the cell is drawn: the keyboard's focus then goes to the cell's panel.
  const [shownByButton, setShownByButton] = useState(0);
  // A new run: the cell picked is gone.
  const run = state.status?.run;
  useEffect(() => painter.pick(null), [run, painter]);

  const labelled = layout.endGapPx >= LABEL_GAP_PX;
  // End systems' names clear of each other (a crowd named once) and of the sources' ACR lines,
  // which hang on the side of the circle their link does not leave by.
  const info = useMemo(
    () => new Map(labelled ? scenario.connections.map((c) => [c.from, infoSide(layout, c.from)] as const) : []),
    [layout, labelled, scenario],
  );
  const names = useMemo(() => endLabels(layout, halfSize, (present ? PRESENT_NAME_PX : NAME_PX) * grow, info), [layout, halfSize, present, info, grow]);
  // What the RM cells' labels keep clear of: the names, the ACR lines (at their longest) and
  // the cards (QA: on long-rtt a label lay over "S1" and "C1 ACR …").
  const reserved = useMemo(() => {
    const lines = new Map(
      [...info].map(([id, side]) => [id, { side, lines: scenario.connections.filter((c) => c.from === id).map((c) => `${c.id} ${speech.words.sourceRate} 000.00 ${speech.rate.unit}`) }] as const),
    );
    return endTextBoxes(layout, halfSize, names, (present ? PRESENT_NAME_PX : NAME_PX) * grow, lines, (present ? PRESENT_INFO_PX : INFO_PX) * grow);
  }, [layout, halfSize, names, info, scenario, speech, present, grow]);
  useEffect(() => {
    const labelPx = (present ? RM_LABEL_PRESENT_PX : RM_LABEL_PX) * grow;
    painter.setModel({ scenario, layout, ports, groups, labelPx, reserved, rmLimit, lookbackUs, linkHopUs, rate: speech.rate, words: speech.words, bareQueues: look.compact });
  }, [painter, scenario, layout, ports, groups, present, rmLimit, hopUs, lookbackUs, linkHopUs, grow, speech, reserved, look]);
  useEffect(() => {
    group.add(painter);
    return () => group.remove(painter);
  }, [group, painter]);
  const section = useRef<HTMLElement>(null);
  const { full, toggle } = useFullScreen(section);
  // Presenting, the view comes whole into view as it opens (or as presenting starts): its head
  // and drawing fit the screen under the toolbar (app.css: the canvas's height, the view's
  // scroll-margin), but at 1280 × 720 only once scrolled to (QA h65: opened, the drawing ran
  // below the fold).
  useEffect(() => (present ? scrollIntoViewSoon(() => section.current) : undefined), [present]);
  // A port clicked: on the page the side panel's inspector explains it; full screen, an
  // inspector over the drawing does (the class keeps the whole screen). View state only.
  const [explained, setExplained] = useState<PortInspect | null>(null);
  // Leaving full screen with a port explained beside the drawing hands that port to the side
  // panel's inspector: the reader goes on with what they were reading.
  const shownBeside = useRef<PortInspect | null>(null);
  shownBeside.current = explained;
  useEffect(() => {
    if (full) return;
    const was = shownBeside.current;
    setExplained(null);
    if (was) onInspect?.(was.switchId, was.port);
  }, [full]);
  const inspect = useMemo(
    () =>
      onInspect &&
      ((switchId: string, port: string) => {
        if (full) setExplained((was) => ({ switchId, port, n: (was?.n ?? 0) + 1 }));
        else onInspect(switchId, port);
      }),
    [onInspect, full],
  );
  const nodes = useMemo(() => {
    const kinds = new Map(scenario.nodes.map((n) => [n.id, n.kind]));
    return layout.nodes.map((n): SwitchNode | EndNode =>
      kinds.get(n.id) === 'switch'
        ? {
            id: n.id,
            type: 'switch',
            position: { x: n.x, y: n.y },
            data: {
              id: n.id,
              ports: ports.filter((p) => p.switchId === n.id),
              rows: cards.get(n.id)?.rows ?? [],
              grouped: expanded.has(n.id) ? cards.get(n.id)?.grouped : undefined,
              heightPx: 2 * cardHalf(n).h,
              markPx: look.fontPx * look.markEm,
              look,
              painter,
              inspect,
              expand,
            },
          }
        : {
            id: n.id,
            type: 'end',
            position: { x: n.x, y: n.y },
            data: {
              id: n.id,
              kind: n.kind,
              connections: n.kind === 'source' && labelled ? scenario.connections.filter((c) => c.from === n.id).map((c) => c.id) : [],
              info: info.get(n.id) ?? 'below',
              rateWord: speech.words.sourceRate,
              painter,
              label: names.spots.get(n.id) ?? null,
            },
          },
    );
  }, [layout, ports, cards, expanded, expand, painter, scenario, speech, labelled, inspect, names, info, cardHalf, look]);
  const edges = useMemo(
    () => layout.links.map((l): LinkEdge => ({ id: l.id, type: 'link', source: l.from, target: l.to, data: { link: l, painter } })),
    [layout, painter],
  );

  const fit = useMemo(() => fitFor(present && labelled, speech.words.sourceRate), [present, labelled, speech]);
  const algorithms = useMemo(() => switchAlgorithmsText(ports), [ports]);
  const [legend, setLegend] = useState(true);
  const mode = state.status?.mode;
  const paused = mode !== 'playing' && mode !== 'seeking';

  return (
    <section
      ref={section}
      className={`network-view${full === 'overlay' ? ' nv-maximised' : full ? ' nv-fullscreen' : ''}`}
      data-testid="network-view"
      data-full={full ?? 'no'}
      // The names' clearance from their circles, for `.nv-label-*` (geometry.ts sets it once);
      // the factor on the drawing's type and on its switch cards (textGrowth, switchCardGrowth).
      style={{ '--nv-name-clearance': `${NAME_CLEARANCE_PX}px`, '--nv-text': grow, '--nv-card': cardGrowth } as CSSProperties}
      data-text-growth={grow.toFixed(2)}
      data-card-growth={cardGrowth.toFixed(2)}
      aria-label="network view"
    >
      <div className="nv-head">
        <h2>Network</h2>
        <span className="nv-clock" ref={painter.clockText} data-testid="nv-clock" />
        <span className="nv-approx" ref={painter.approxText} data-testid="nv-approx" hidden />
        <span className="visually-hidden" role="status" aria-live="polite" ref={painter.announcerText} data-testid="nv-announcer" />
        <span className="nv-rm-note" data-testid="nv-rm-note">
          {moving
            ? `${speech.moving} move along the links${paused ? ': click one for its journey' : ' (pause to click one)'}`
            : `${speech.moving} are drawn moving at ${slow !== null ? `${speedLabel(slow)} or slower` : 'slower speeds than offered'}`}
          {/* A teacher's link that locks or hides the speed keeps it: no way round it here. */}
          {!moving && slow !== null && speedFixed && <span data-testid="nv-speed-fixed"> (the speed is set by the teacher)</span>}
          {/* A step that moves the cells a little (the toolbar's 1 ms goes past a LAN's loop). */}
          {moving && paused && mode !== 'done' && (
            <button
              className="btn"
              data-testid="nv-step"
              title={`Step the paused run by ${stepText(hopStepUs(hopUs))}, about half a hop, so that the ${speech.moving} move a little each step`}
              onClick={() => {
                group.cursorTo(null);
                lab.step(hopStepUs(hopUs) / 1000);
              }}
            >
              Step {stepText(hopStepUs(hopUs))}
            </button>
          )}
          {!moving && slow !== null && !speedFixed && (
            <button className="btn" data-testid="nv-slow" onClick={() => lab.setSpeed(slow)}>
              Slow down to {speedLabel(slow)}
            </button>
          )}
        </span>
        <button className="btn" aria-pressed={legend} onClick={() => setLegend(!legend)} data-testid="nv-legend-toggle">
          Legend
        </button>
        <button className="btn" data-testid="nv-full-screen" aria-pressed={full !== null} onClick={() => void toggle()} title={full ? 'Back to the page (Esc)' : 'Show the network full screen (Esc to leave)'}>
          {full ? 'Exit full screen' : 'Full screen'}
        </button>
      </div>
      {legend && (
        <Legend
          ethernet={ethernet}
          words={speech.words}
          phases={speech.phases}
          rate={speech.rate}
          bareQueues={look.compact ? (ports[0]?.unit ?? 'cells') : null}
          ubr={scenario.connections.some((c) => c.tcp?.service === 'ubr')}
        />
      )}
      {/* What the drawing leaves out, on one row presenting (its lines wrap there). */}
      <div className="nv-summaries">
        {/* Presenting, a card's head names its switch alone (its algorithm does not fit in 18 px type). */}
        {look.compact && algorithms && (
          <p className="nv-summary" data-testid="nv-algorithms">
            {algorithms}
          </p>
        )}
        {!labelled && (
          <p className="nv-summary" data-testid="nv-unlabelled">
            The sources sit too close together for their {ethernet ? 'rate limits' : 'ACRs'}: {full ? 'leave full screen for the rate chart' : 'see the rate chart below'}.
          </p>
        )}
        {layout.summary && (
          <p className="nv-summary" data-testid="nv-summary">
            {countsText(layout.summary)}: {layout.nodes.length} drawn
          </p>
        )}
      </div>
      <div className="nv-stage">
        <NetworkCanvas
          key={full ?? 'page'}
          nodes={nodes}
          edges={edges}
          groups={names.groups}
          painter={painter}
          fitAgain={full && explained ? 'beside' : 'alone'}
          fit={fit}
          onZoom={setZoom}
        />
        {full && explained && (
          <section className="nv-explain" data-testid="nv-explain" aria-label={`how ${explained.switchId} computes its feedback`}>
            <button className="btn nv-explain-close" data-testid="nv-explain-close" onClick={() => setExplained(null)} title="Close the explanation">
              Close
            </button>
            <SwitchExplain key={explained.switchId} lab={lab} state={state} node={explained.switchId} inspect={explained} holder="network-view" />
          </section>
        )}
      </div>
      {moving && paused && last && (
        <p className="nv-last" data-testid="nv-last" role="status">
          {lastLoopText(last, speech.words)}{' '}
          <button
            className="btn"
            data-testid="nv-last-show"
            title="Show it on its way (the charts' cursor goes to that time) and open its journey"
            onClick={() => {
              group.cursorTo(last.showUs / 1000);
              painter.pick(last.cell.id);
              setShownByButton((n) => n + 1);
            }}
          >
            Show it
          </button>
        </p>
      )}
      {picked && <RmCellPanel painter={painter} id={picked} state={state} onClose={() => painter.pick(null)} words={speech.words} rate={speech.rate} focusKey={shownByButton} />}
    </section>
  );
}

/** `bareQueues`: the cards write the queue's number alone (presenting), in this unit; null: with it.
 *  Presenting, the legend is compact (a line or two of short items, each one's whole sentence in
 *  its title), so that it and the drawing fit a 1280 × 720 screen under the toolbar (QA: at 18 px
 *  its six lines pushed the drawing below the fold); the queue's unit stays in the line. */
function Legend({
  ethernet,
  words,
  phases,
  rate,
  bareQueues,
  ubr,
}: {
  ethernet: boolean;
  words: RmWords;
  phases: readonly Phase[];
  rate: RateUnit;
  bareQueues: string | null;
  ubr: boolean;
}) {
  const ramp = `linear-gradient(to right, ${UTILISATION_RAMP.join(', ')})`;
  const compact = bareQueues !== null;
  const data = `data ${ethernet ? 'frames' : 'cells'}: shown as the links' utilisation`;
  const utilisation = 'link utilisation 0 → 100 % (colour and width; one lane per direction, traffic on the right)';
  const unmeasured = unmeasuredText(
    ethernet,
    phases.filter((p) => p !== 'forward').map((p) => words.phase[p]),
    ubr,
  );
  const queue =
    bareQueues === null ? "queue against the buffer, with the algorithm's marks" : `queue (${bareQueues}; several destinations: the largest) against the buffer, with the algorithm's marks`;
  return (
    <div className={compact ? 'nv-legend nv-legend-compact' : 'nv-legend'} data-testid="nv-legend">
      <span className="nv-legend-item" title={compact ? `${utilisation}; ${data}` : undefined}>
        <span className="nv-ramp" style={{ background: ramp }} /> {compact ? 'utilisation 0 → 100 %' : utilisation}
      </span>
      <span className="nv-legend-item" title={compact ? unmeasured : undefined}>
        <span className="nv-ramp" style={{ background: UNMEASURED_COLOUR, height: 3 }} /> {compact ? 'not measured' : unmeasured}
      </span>
      {phases.map((phase) => (
        <span className="nv-legend-item" key={phase} data-phase={phase} title={compact ? markerLegend(phase, words, rate) : undefined}>
          <svg width="18" height="16" viewBox="-9 -8 18 16" className={`nv-rm nv-rm-${phase}`}>
            {PHASE_SHAPES[phase]}
          </svg>
          {compact ? compactMarkerLegend(phase, words, rate) : markerLegend(phase, words, rate)}
        </span>
      ))}
      <span className="nv-legend-item" title={compact ? queue : undefined}>
        <span className="nv-bar nv-bar-sample">
          <span className="nv-fill" style={{ transform: 'scaleX(0.4)' }} />
          <span className="nv-mark" style={{ left: '60%' }} />
        </span>
        {compact ? `queue (${bareQueues}; several destinations: the largest)` : queue}
      </span>
      {!compact && <span className="nv-legend-item">{data}</span>}
    </div>
  );
}

/** A marker's words in the compact legend: "forward RM cell: ER, Mbps" (its label's meaning and unit). */
function compactMarkerLegend(phase: Phase, words: RmWords, rate: RateUnit): string {
  if (phase === 'notification') return `${words.phase.notification} (CN)`;
  return `${words.phase[phase]}: ${words.er}, ${rate.unit}`;
}

/** The legend's marker of each phase, as the painter draws it (painter.ts: `marker`). */
const PHASE_SHAPES: Record<Phase, ReactElement> = {
  forward: <path className="nv-shape-forward" d="M8,0 L-6,-6 L-6,6 Z" />,
  backward: <path className="nv-shape-backward" d="M0,-7 L7,0 L0,7 L-7,0 Z" />,
  notification: <rect className="nv-shape-notification" x="-6" y="-6" width="12" height="12" />,
};

/**
 * The React Flow canvas, rendered again only when the network's drawing changes (not with every
 * status of the run: the painter draws the run). A new `key` (full screen) fits it anew; so
 * does a new `fitAgain` (an explanation opened beside it, or closed, resizes it).
 */
const NetworkCanvas = memo(function NetworkCanvas({
  nodes,
  edges,
  groups,
  painter,
  fitAgain,
  fit,
  onZoom,
}: {
  nodes: (SwitchNode | EndNode)[];
  edges: LinkEdge[];
  /** Names of crowds of end systems (`SD1–SD6`), drawn where endLabels put them. */
  groups: GroupLabel[];
  painter: NetworkPainter;
  fitAgain: string;
  fit: FitViewOptions;
  onZoom: (zoom: number) => void;
}) {
  return (
    <div className="nv-canvas" data-testid="nv-canvas">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        edgeTypes={EDGE_TYPES}
        nodeOrigin={NODE_ORIGIN}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        fitView
        fitViewOptions={fit}
        minZoom={0.05}
        maxZoom={4}
      >
        <FitWhen changed={fitAgain} fit={fit} />
        <ZoomReport onZoom={onZoom} />
        <ViewportPortal>
          {groups.map((g) => (
            <div key={g.text} className="nv-group-name" style={{ left: g.at.x, top: g.at.y }} data-testid="nv-group-name" data-spot={g.spot} title={g.members.join(', ')} aria-hidden="true">
              {g.text}
            </div>
          ))}
          <svg className="nv-overlay" width="1" height="1">
            <g
              ref={painter.markerLayer}
              data-testid="nv-markers"
              onPointerDown={painter.pressed}
              onPointerUp={painter.released}
              onPointerCancel={painter.pressCancelled}
              onClick={painter.clicked}
              onKeyDown={painter.keyed}
            />
            {/* The markers' ER labels, over every marker (a label may lie over markers it does
                not name on a dense lane), hidden from a screen reader: the markers' names say
                them. The queues' "+N" badges, named (moreName), are not. */}
            <g ref={painter.labelLayer} className="nv-rm-labels" data-testid="nv-rm-labels" />
          </svg>
        </ViewportPortal>
      </ReactFlow>
    </div>
  );
});

/** Fits the drawing to the canvas again when `changed` or the fit's room changes (not at
 *  first: `fitView` does). QA: presentation mode turned on with the view open kept the page's
 *  room at the sides, and the sources' rate lines, in larger type, ran off the drawing. */
function FitWhen({ changed, fit }: { changed: string; fit: FitViewOptions }) {
  const { fitView } = useReactFlow();
  const first = useRef({ changed, fit });
  useEffect(() => {
    if (changed === first.current.changed && fit === first.current.fit) return;
    first.current = { changed, fit };
    // Two frames: the canvas has its new size, and React Flow has measured it (ResizeObserver).
    let frame = requestAnimationFrame(() => (frame = requestAnimationFrame(() => void fitView(fit))));
    return () => cancelAnimationFrame(frame);
  }, [changed, fitView, fit]);
  return null;
}

/** Tells the view the drawing's zoom, in steps (zoomStep), as it changes. */
function ZoomReport({ onZoom }: { onZoom: (zoom: number) => void }) {
  const zoom = useStore((s) => zoomStep(s.transform[2]));
  useEffect(() => onZoom(zoom), [zoom, onZoom]);
  return null;
}

const NODE_ORIGIN: [number, number] = [0.5, 0.5];
/** End systems' names' type (px, app.css: .nv-end-id), on the page and presenting. */
const NAME_PX = 12;
const PRESENT_NAME_PX = 18;
/** The sources' ACR lines' type (app.css: `.nv-end-info`), page and presenting. */
const INFO_PX = 11;
const PRESENT_INFO_PX = 18;
/** Room at the sides for a source's ACR line (none drawn: the page's room), which hangs wider than the source it is under:
 *  half its width, some 50 px on the page and 90 in presentation type (screen px; each the
 *  least that keeps it in view: more room is a smaller drawing) for ATM's "C1 ACR 139.97 Mbps";
 *  a longer word for the rate (an Ethernet host's "rate limit") asks for as much more. */
function fitFor(present: boolean, sourceRate: string): FitViewOptions {
  const longer = Math.max(1, `C1 ${sourceRate} 139.97 Mbps`.length / 'C1 ACR 139.97 Mbps'.length);
  const side = `${Math.round((present ? 124 : 60) * longer)}px` as const;
  return { padding: { top: 0.12, bottom: 0.12, left: side, right: side } };
}
