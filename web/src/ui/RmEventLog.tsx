// The event log: the RM-cell events of the run (lab/rmLog.ts), filtered by connection, node and
// direction, newest first. Only the rows in view are rendered (tens of thousands stay fast).
// Clicking an event moves every chart's cursor to its time; when the cursor moves otherwise (a
// click on a chart, the time slider) the log scrolls to the event nearest to it. "Next RM event"
// steps the paused run to the next event the filters (connection, node, direction) let through.
// Where the list is scrolled is the component's own state (rows have a fixed height), so that
// following the cursor reads no layout: the rows for the new position render with the cursor's
// move, and the list's scrollTop is written once a frame, last (reading it, or writing it in
// React's commit, laid out the page again at every step of a slider's drag).

import { memo, useEffect, useMemo, useRef, useState, useSyncExternalStore, type UIEvent } from 'react';
import type { ChartGroup } from '../charts/chartGroup';
import type { RmRecord } from '../contract/engine';
import type { Lab, LabState } from '../lab/lab';
import { acrReason } from '../lab/rmCells';
import { displayUnit, networkView } from '../charts/specs';
import { acrText, erText, filterOptions, filterRm, filterWithin, flagsText, loopName, lowererName, nearestRow, NO_FILTER, nodeFilterOrder, RM_DIRECTIONS, rateText, rmLogColumns, rmNotFoundText, rmQueryText, rmWords, scenarioFeedback, throttledSubscribe, timeText, type RateUnit, type RmColumnId, type RmFilter } from '../lab/rmLog';

const ROW_PX = 24;
/** Presenting, the log is set in 18 px type (app.css), half again its everyday 12 px: its rows
 *  and columns grow with it (QA h53: the RM cells, the feedback loop itself, read at 12 px). */
const PRESENT_SCALE = 1.5;
const VIEW_ROWS = 10;
const OVERSCAN = 6;
/** How often the log re-reads the events while they stream in (ms). */
const REFRESH_MS = 200;

/** Each column's width in the log's grid (columns come and go with the network's kind). */
const WIDTH: Record<RmColumnId, string> = {
  time: '64px',
  loop: '44px',
  seq: '36px',
  node: '56px',
  direction: '84px',
  er: 'minmax(104px, 1fr)',
  ccr: '100px',
  flags: '48px',
  by: 'minmax(70px, 0.6fr)',
  acr: 'minmax(104px, 0.8fr)',
};

/** What a row shows in a column. */
function cellOf(id: RmColumnId, r: RmRecord, rate: RateUnit, algorithms: readonly { id: string; name: string }[], atm: boolean) {
  switch (id) {
    case 'time':
      return <span key={id}>{timeText(r.time_us)}</span>;
    case 'loop':
      return (
        <span key={id} title={r.vp ? `virtual path ${r.vp}, carried under connection ${r.connection}` : undefined}>
          {loopName(r)}
        </span>
      );
    case 'seq':
      return <span key={id}>{r.rm_seq}</span>;
    case 'node':
      return <span key={id}>{r.node}</span>;
    case 'direction':
      return <span key={id}>{r.direction}</span>;
    case 'er':
      return <span key={id}>{erText(r, rate)}</span>;
    case 'ccr':
      return <span key={id}>{rateText(r.ccr_mbps, rate)}</span>;
    case 'flags':
      return <span key={id}>{flagsText(r)}</span>;
    case 'by':
      return <span key={id}>{r.by && lowererName(r.by, algorithms)}</span>;
    case 'acr':
      // On ATM, why it moved (TM 4.0's rule on the cell's CI, NI and ER), as the cell's journey says.
      return (
        <span key={id} title={atm ? acrReason(r) || undefined : undefined}>
          {acrText(r, rate)}
        </span>
      );
  }
}

const keyOf = (r: RmRecord) => `${r.time_us}/${r.connection}/${r.vp}/${r.rm_seq}/${r.node}/${r.direction}`;

/** The log's version: re-read at most every REFRESH_MS while events stream in, and as it is
 *  whenever the panel renders anyway (the run coming to a stand after Run to, a step, a search). */
function useLogVersion(lab: Lab): number {
  const subscribe = useMemo(() => throttledSubscribe(lab.rmLog.subscribe, REFRESH_MS), [lab]);
  return useSyncExternalStore(subscribe, lab.rmLog.getVersion);
}

export const RmEventLog = memo(function RmEventLog({ lab, state, group, present = false }: { lab: Lab; state: LabState; group: ChartGroup; present?: boolean }) {
  const version = useLogVersion(lab);
  const scale = present ? PRESENT_SCALE : 1;
  const rowPx = ROW_PX * scale;
  const scenario = state.current?.scenario;
  // View state: the filter, the event picked, the scroll position.
  const [chosen, setFilter] = useState<RmFilter>(NO_FILTER);
  const [picked, setPicked] = useState<string | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const list = useRef<HTMLDivElement>(null);
  const connectionIds = useMemo(() => filterOptions(lab.rmLog.records(), 'connection', [...(scenario?.connections ?? []), ...(scenario?.virtual_paths ?? [])].map((c) => c.id)), [lab, version, scenario]);
  const nodeIds = useMemo(() => filterOptions(lab.rmLog.records(), 'node', nodeFilterOrder(scenario?.nodes ?? [])), [lab, version, scenario]);
  // The same object while the choice and the options hold: the rows (and the scroll that follows
  // them) change only when they do.
  const filter = useMemo(() => filterWithin(chosen, connectionIds, nodeIds), [chosen, connectionIds, nodeIds]);
  const rows = useMemo(() => filterRm(lab.rmLog.records(), filter), [lab, version, filter]);
  // Read with the rows (at the same version): going back in time shortens the log.
  const [total, dropped] = useMemo(() => [lab.rmLog.records().length, lab.rmLog.dropped()], [lab, version]);
  // The search is the filter's ('': any, as the log shows them all): it stops at an event the
  // log then shows.
  const query = { node: filter.node, direction: filter.direction || undefined, connection: filter.connection || undefined };
  const paths = useMemo(() => (scenario?.virtual_paths ?? []).map((v) => v.id), [scenario]);
  // ATM's RM cells, or Ethernet's tags and notifications.
  const words = rmWords(!!scenario?.ethernet);
  const where = `${filter.connection ? ` of ${filter.connection}` : ''}${filter.node ? ` at ${filter.node}` : ''}${filter.direction ? ` (${filter.direction})` : ''}`;
  // The columns and units of the network's kind, as its charts show it (Gbps on Ethernet).
  const catalogue = state.catalogue;
  const columns = useMemo(() => {
    const net = networkView(scenario, catalogue?.fields.ethernet);
    const rate = displayUnit('Mbps', net);
    const list = rmLogColumns(net.ethernet, scenarioFeedback(scenario, catalogue), rate);
    const grid = list.map((c) => WIDTH[c.id].replace(/(\d+)px/g, (_, px: string) => `${Math.round(Number(px) * scale)}px`)).join(' ');
    return { list, rate, atm: !net.ethernet, grid };
  }, [scenario, catalogue, scale]);
  const algorithms = catalogue?.algorithms ?? [];
  const mode = state.status?.mode;
  const busy = mode === 'playing' || mode === 'seeking';

  const pick = (r: RmRecord) => {
    setPicked(keyOf(r));
    group.cursorTo(r.time_us / 1000);
  };

  // A new run (a reset, another scenario): the event marked on the charts is gone.
  const run = state.status?.run;
  useEffect(() => {
    setPicked(null);
    group.cursorTo(null);
  }, [run, group]);

  // Where a "next RM event" search stopped: picked, in view, and the charts' cursor there.
  const found = state.rmFound;
  useEffect(() => {
    if (!found?.record) return;
    setPicked(keyOf(found.record));
    group.cursorTo(found.record.time_us / 1000);
  }, [found, group]);

  // The charts' cursor (a click on a chart, the time slider, an event picked here): the event
  // nearest to it is marked and kept in view, as the events come and go (going back in time
  // drops those after it).
  const mark = useSyncExternalStore(
    (l) => group.subscribe(l),
    () => group.cursorMark,
  );
  const atCursor = useMemo(() => (mark ? nearestRow(rows, mark.ms * 1000) : -1), [mark, rows]);

  // The list's height inside (px), as the browser laid it out: read when it resizes (after a
  // layout, so the read costs none).
  const [viewPx, setViewPx] = useState(rowPx * VIEW_ROWS);
  useEffect(() => {
    const el = list.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setViewPx(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  // The browser keeps a list cut short scrolled within it: so does what renders.
  const top = Math.min(scrollTop, Math.max(0, rows.length * rowPx - viewPx));
  const inView = (i: number, at: number) => i * rowPx >= at && (i + 1) * rowPx <= at + viewPx;
  // Scrolls to keep in view the event picked (clicked, or where a search stopped) when it or the
  // rows change, and the event at the cursor when it, the cursor or the events change: decided
  // while rendering (React renders again at once), from the state, so that the rows of the new
  // position are those this render commits.
  const [seen, setSeen] = useState<{ picked: string | null; rows: RmRecord[] | null; mark: typeof mark; atCursor: number; total: number }>({
    picked: null,
    rows: null, // (mounted: the cursor's event is brought into view)
    mark: null,
    atCursor: -1,
    total: -1,
  });
  // Where the list is to be scrolled to, once a frame (below).
  const [scrollTo, setScrollTo] = useState<{ top: number } | null>(null);
  if (seen.picked !== picked || seen.rows !== rows || seen.mark !== mark || seen.atCursor !== atCursor || seen.total !== total) {
    let want = top;
    if (picked && (seen.picked !== picked || seen.rows !== rows)) {
      const i = rows.findIndex((r) => keyOf(r) === picked);
      if (i >= 0 && !inView(i, want)) want = Math.max(0, i * rowPx - rowPx * 2);
    }
    if (atCursor >= 0 && (seen.mark !== mark || seen.atCursor !== atCursor || seen.total !== total) && !inView(atCursor, want)) {
      want = Math.max(0, atCursor * rowPx - Math.floor(viewPx / 2));
    }
    want = Math.min(want, Math.max(0, rows.length * rowPx - viewPx));
    setSeen({ picked, rows, mark, atCursor, total });
    if (want !== top) {
      setScrollTop(want);
      setScrollTo({ top: want });
    }
  }
  // The list follows once a frame, in its last animation-frame callback (after the charts' and
  // the Network view's): written then, the scroll position lays out nothing the frame would not.
  const writing = useRef<{ frame: number; top: number } | null>(null);
  /** Set when the list was scrolled here: its scroll event tells nothing new (and reading the
   *  position there would lay the page out), until the frame after. */
  const ours = useRef(false);
  useEffect(() => {
    if (!scrollTo) return;
    if (writing.current) {
      writing.current.top = scrollTo.top;
      return;
    }
    const job = { frame: 0, top: scrollTo.top };
    job.frame = requestAnimationFrame(() => {
      writing.current = null;
      const el = list.current;
      if (!el) return;
      ours.current = true;
      el.scrollTop = job.top;
      requestAnimationFrame(() => (ours.current = false));
    });
    writing.current = job;
  }, [scrollTo]);
  useEffect(
    () => () => {
      if (writing.current) cancelAnimationFrame(writing.current.frame);
    },
    [],
  );
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    if (!ours.current) setScrollTop(e.currentTarget.scrollTop);
  };

  const first = Math.max(0, Math.floor(top / rowPx) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil(top / rowPx) + VIEW_ROWS + OVERSCAN);
  const select = (field: keyof RmFilter, label: string, options: readonly string[]) => (
    <label className="rmlog-filter">
      <span>{label}</span>
      <select data-testid={`rmlog-${field}`} value={filter[field]} onChange={(e) => setFilter({ ...filter, [field]: e.target.value })}>
        <option value="">any</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <section className="rmlog" data-testid="rmlog" aria-label={`${words.event} log`}>
      <div className="rmlog-bar">
        <label className="rmlog-record" title={`Record every ${words.event} from now on (the newest 20,000 are kept)`}>
          <input type="checkbox" data-testid="rmlog-record" checked={state.rmTrace} onChange={(e) => lab.setRmTrace(e.target.checked)} />
          Record {words.event}s
        </label>
        {!state.rmTrace && state.rmTraceHeld && (
          <span className="rmlog-held" data-testid="rmlog-held">
            (recorded now for the Network view, which draws them moving)
          </span>
        )}
        {select('connection', scenario?.virtual_paths?.length ? 'connection / path' : words.connection, connectionIds)}
        {select('node', 'node', nodeIds)}
        {select('direction', 'direction', RM_DIRECTIONS)}
        <button
          className="btn"
          data-testid="rmlog-next"
          disabled={!scenario || busy || mode === 'done'}
          title={`Step the run to the next ${rmQueryText(query, paths, words)}, then pause`}
          onClick={() => lab.nextRmEvent(query.node, query.direction, query.connection)}
        >
          Next {words.short}
          {where}
        </button>
        <span className="rmlog-count" data-testid="rmlog-count">
          {rows.length === total ? `${total} events` : `${rows.length} of ${total} events`}, newest first
          {dropped > 0 ? `; ${dropped} older ones not kept` : ''}
        </span>
      </div>
      {found && !found.record && (
        <p className={found.problem ? 'field-error' : 'inspector-help'} role={found.problem ? 'alert' : undefined} data-testid="rmlog-not-found">
          {rmNotFoundText(found, paths, words)}
        </p>
      )}
      <div className="rmlog-head" data-testid="rmlog-head" style={{ gridTemplateColumns: columns.grid }}>
        {columns.list.map((c) => (
          <span key={c.id} data-column={c.id} title={c.title}>
            {c.label}
          </span>
        ))}
      </div>
      <div className="rmlog-list" ref={list} style={{ height: rowPx * VIEW_ROWS }} onScroll={onScroll} data-testid="rmlog-list">
        {total === 0 ? (
          <p className="rmlog-empty">{state.rmTrace || state.rmTraceHeld ? `No ${words.event} recorded yet: play or step the run.` : `Turn on “Record ${words.event}s”, then play or step the run.`}</p>
        ) : (
          <div style={{ height: rows.length * rowPx, position: 'relative' }}>
            {rows.slice(first, last).map((r, k) => {
              const key = keyOf(r);
              return (
                <button
                  key={key}
                  className={`rmlog-row rmlog-${r.direction}${key === picked ? ' picked' : ''}${first + k === atCursor ? ' at-cursor' : ''}`}
                  style={{ top: (first + k) * rowPx, height: rowPx, gridTemplateColumns: columns.grid }}
                  data-testid="rmlog-row"
                  data-time-us={r.time_us}
                  aria-pressed={key === picked}
                  aria-current={first + k === atCursor ? 'time' : undefined}
                  onClick={() => pick(r)}
                >
                  {columns.list.map((c) => cellOf(c.id, r, columns.rate, algorithms, columns.atm))}
                </button>
              );
            })}
          </div>
        )}
      </div>
    </section>
  );
});
