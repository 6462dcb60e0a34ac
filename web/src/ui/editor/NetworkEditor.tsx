// The network editor: the scenario's nodes on a canvas to drag, add from a palette, link,
// delete, and connect (source → destination on the shortest path), with undo and redo. Every
// edit goes to the engine as a new scenario: the run restarts at t = 0 (the editor says so).
// The document edits are the pure functions of topologyEdits.ts; this file is the view.

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Lab, LabState } from '../../lab/lab';
import type { NodeKind, Scenario } from '../../contract/scenario';
import {
  addConnection,
  addLink,
  addNode,
  deleteConnection,
  deleteLink,
  deleteNode,
  emptyNetwork,
  LINK_PRESETS,
  moveNode,
  setLink,
  shortestPath,
  type EditResult,
  type LinkLength,
} from '../../scenario/topologyEdits';
import type { ScenarioLink } from '../../contract/scenario';
import { ConnectionForm } from './ConnectionForm';
import { sourceParamsFor } from '../../scenario/connectionEdits';

type Tool = 'select' | 'link' | 'flow';
type Selection = { kind: 'node' | 'link' | 'connection'; id: string } | null;

const VIEW = { w: 900, h: 460, margin: 50 };
const KIND_LABEL: Record<NodeKind, string> = { source: 'Source', switch: 'Switch', destination: 'Destination' };

/** The origin of an edited scenario: "<where it came from> (edited)". */
export function editedOrigin(origin: string) {
  return origin.endsWith(' (edited)') ? origin : `${origin} (edited)`;
}

export function NetworkEditor({ lab, state }: { lab: Lab; state: LabState }) {
  const current = state.current;
  const [draft, setDraft] = useState<Scenario | null>(current?.scenario ?? null);
  const [tool, setTool] = useState<Tool>('select');
  const [emptyMenu, setEmptyMenu] = useState(false);
  const [pick, setPick] = useState<string | null>(null); // first end of a link or connection
  const [selection, setSelection] = useState<Selection>(null);
  const [message, setMessage] = useState<{ kind: 'info' | 'error'; text: string } | null>(null);
  const [drag, setDrag] = useState<{ id: string; x: number; y: number; moved: boolean } | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);

  // The canvas follows the loaded network. A scenario from elsewhere (library, file, link, a
  // live change) also clears the selection; the loads of edits and undos keep it.
  useEffect(() => {
    if (!current) return;
    setDraft(current.scenario);
    if (lab.edits.sent !== null && current.json === lab.edits.sent) return; // an edit or an undo came back loaded
    setSelection(null);
    setPick(null);
  }, [current]);

  // An edit the engine refused: the loaded network comes back on the canvas (the problems are
  // listed in the notices) and nothing was recorded for undo.
  useEffect(() => {
    if (state.problems && current) setDraft(current.scenario);
  }, [state.problems]);

  const commit = useCallback(
    (next: Scenario, note = 'Network changed: the run restarted at t = 0.', redrawnNote = note) => {
      if (!current || !draft) return;
      if (JSON.stringify(next) === JSON.stringify(draft)) return; // nothing changed: no reload
      // Shown at once; recorded for undo once the engine accepts it (a refusal puts the
      // loaded network back on the canvas, see the effect above).
      setDraft(next);
      const applied = lab.commitEdit(draft, next, editedOrigin(current.origin));
      setMessage({ kind: 'info', text: applied === 'redrawn' ? redrawnNote : note });
    },
    [lab, current, draft],
  );

  const apply = (r: EditResult, note?: string) => {
    if (!r.ok) return setMessage({ kind: 'error', text: r.rule });
    commit(r.scenario, note);
    return r.id;
  };

  const travel = useCallback(
    (dir: 'undo' | 'redo') => {
      if (!current) return;
      const done = lab.travel(dir, editedOrigin(current.origin));
      if (!done) return;
      setDraft(done.doc);
      setSelection(null);
      const what = dir === 'undo' ? 'Undone' : 'Redone';
      const effect = done.applied === 'redrawn' ? 'only the drawing changed, the run goes on' : 'the run restarted at t = 0';
      setMessage({ kind: 'info', text: `${what}: ${effect}.` });
    },
    [lab, current],
  );

  const remove = useCallback(() => {
    if (!draft || !selection) return;
    const next =
      selection.kind === 'node'
        ? deleteNode(draft, selection.id)
        : selection.kind === 'link'
          ? deleteLink(draft, selection.id)
          : deleteConnection(draft, selection.id);
    setSelection(null);
    const lost = draft.connections.length - next.connections.length - (selection.kind === 'connection' ? 1 : 0);
    commit(next, `${selection.id} deleted${lost > 0 ? ` with ${lost} connection${lost === 1 ? '' : 's'} it carried` : ''}: the run restarted at t = 0.`);
  }, [draft, selection, commit]);

  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      const t = ev.target as HTMLElement;
      if (['INPUT', 'SELECT', 'TEXTAREA'].includes(t.tagName)) return;
      const mod = ev.ctrlKey || ev.metaKey;
      if (mod && ev.key.toLowerCase() === 'z') {
        ev.preventDefault();
        travel(ev.shiftKey ? 'redo' : 'undo');
      } else if (mod && ev.key.toLowerCase() === 'y') {
        ev.preventDefault();
        travel('redo');
      } else if (ev.key === 'Delete' || ev.key === 'Backspace') {
        if (selection) {
          ev.preventDefault();
          remove();
        }
      } else if (ev.key === 'Escape') {
        setPick(null);
        setTool('select');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [travel, remove, selection]);

  const box = useMemo(() => viewBox(draft), [draft]);
  const size = useMemo(() => nodeSize(draft), [draft]);
  // View state: the part of the canvas shown (null: fit the network). Wheel zooms about the
  // pointer; dragging the background pans.
  const [cam, setCam] = useState<Box | null>(null);
  const view = cam ?? box;
  const hasCanvas = draft !== null && current !== null; // the svg is mounted
  const viewRef = useRef(view);
  viewRef.current = view;
  const [pan, setPan] = useState<{ sx: number; sy: number; from: Box; moved: boolean } | null>(null);
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const onWheel = (ev: WheelEvent) => {
      ev.preventDefault();
      const ctm = svg.getScreenCTM();
      if (!ctm) return;
      const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(ctm.inverse());
      setCam(zoomAbout(viewRef.current, p.x, p.y, ev.deltaY > 0 ? 1.15 : 1 / 1.15));
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => svg.removeEventListener('wheel', onWheel);
  }, [hasCanvas]);
  if (!draft || !current) return null;

  const toSvg = (ev: React.PointerEvent | React.MouseEvent) => {
    const svg = svgRef.current!;
    const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(svg.getScreenCTM()!.inverse());
    return { x: pt.x, y: pt.y };
  };

  const add = (kind: NodeKind) => {
    const count = draft.nodes.filter((n) => n.kind === kind).length;
    const x = kind === 'source' ? 80 : kind === 'switch' ? 260 + 180 * (count % 3) : 800;
    const y = 60 + ((count * 70) % 380);
    const { scenario, id } = addNode(draft, kind, x, y);
    commit(scenario, `${id} added: drag it into place, then link it. The run restarted at t = 0.`);
    setSelection({ kind: 'node', id });
  };

  const clickNode = (id: string) => {
    if (tool === 'select') return setSelection({ kind: 'node', id });
    if (pick === null) {
      setPick(id);
      setMessage({ kind: 'info', text: tool === 'link' ? `Link from ${id}: click the other end.` : `Connection from ${id}: click its destination.` });
      return;
    }
    const r = tool === 'link' ? addLink(draft, pick, id) : addConnection(draft, pick, id);
    setPick(null);
    const made = apply(r, r.ok ? `${r.id} added (${pick} – ${id}): the run restarted at t = 0.` : undefined);
    if (made) setSelection({ kind: tool === 'link' ? 'link' : 'connection', id: made });
  };

  const onPointerDown = (ev: React.PointerEvent, id: string) => {
    ev.stopPropagation();
    if (tool !== 'select') return;
    (ev.target as Element).setPointerCapture?.(ev.pointerId);
    const p = toSvg(ev);
    setDrag({ id, x: p.x, y: p.y, moved: false });
    setSelection({ kind: 'node', id });
  };
  const onBackgroundDown = (ev: React.PointerEvent) => {
    if (ev.target !== svgRef.current) return;
    (ev.target as Element).setPointerCapture?.(ev.pointerId);
    setPan({ sx: ev.clientX, sy: ev.clientY, from: view, moved: false });
  };
  const onPointerMove = (ev: React.PointerEvent) => {
    if (pan) {
      const k = 1 / (svgRef.current!.getScreenCTM()?.a ?? 1); // canvas units per screen pixel
      const dx = (ev.clientX - pan.sx) * k;
      const dy = (ev.clientY - pan.sy) * k;
      if (Math.abs(dx) + Math.abs(dy) > 0) {
        setCam({ ...pan.from, x: pan.from.x - dx, y: pan.from.y - dy });
        if (!pan.moved) setPan({ ...pan, moved: true });
      }
      return;
    }
    if (!drag) return;
    const p = toSvg(ev);
    setDrag({ ...drag, x: p.x, y: p.y, moved: true });
  };
  const onPointerUp = () => {
    if (pan) {
      // A pan is not a click on the background: keep the selection.
      if (pan.moved) setTimeout(() => setPan(null), 0);
      else setPan(null);
      return;
    }
    if (!drag) return;
    const d = drag;
    setDrag(null);
    if (d.moved) {
      const restarted = `${d.id} moved: the run restarted at t = 0.`;
      commit(moveNode(draft, d.id, d.x, d.y), restarted, `${d.id} moved: only the drawing changed, the run goes on.`);
    }
  };

  const pos = new Map(
    draft.nodes.map((n, i) => [n.id, drag?.id === n.id && drag.moved ? { x: drag.x, y: drag.y } : { x: n.x ?? 80 + i * 90, y: n.y ?? 200 }]),
  );
  const kindOf = new Map(draft.nodes.map((n) => [n.id, n.kind]));
  const selected = (kind: NonNullable<Selection>['kind'], id: string) => selection?.kind === kind && selection.id === id;
  const pickable = (id: string) =>
    tool === 'select' ||
    (tool === 'link' && (pick === null || pick !== id)) ||
    (tool === 'flow' && (pick === null ? kindOf.get(id) === 'source' : kindOf.get(id) === 'destination'));
  // The undo history lives in the Lab, shared with the side panel's edits (switch settings,
  // virtual paths) and kept across tab changes.
  const h = lab.edits.history;
  // The connection in the inspector: the selected one, or the first one a selected source sends.
  const inspected =
    selection?.kind === 'connection'
      ? draft.connections.find((c) => c.id === selection.id)
      : selection?.kind === 'node' && kindOf.get(selection.id) === 'source'
        ? draft.connections.find((c) => c.from === selection.id)
        : undefined;
  // The links the inspected connection takes, highlighted on the canvas.
  const route = inspected ? (inspected.path ?? shortestPath(draft, inspected.from, inspected.to) ?? []) : [];
  const onPath = new Set(route.slice(1).map((n, i) => `${route[i]}>${n}`));

  return (
    <section className="editor" data-testid="network-editor">
      <div className="editor-bar">
        <div className="editor-group" role="group" aria-label="add">
          {(['source', 'switch', 'destination'] as const).map((k) => (
            <button key={k} className="btn" data-testid={`add-${k}`} onClick={() => add(k)} title={`Add a ${k}`}>
              + {KIND_LABEL[k]}
            </button>
          ))}
        </div>
        <div className="editor-group" role="radiogroup" aria-label="tool">
          {(
            [
              ['select', 'Select / drag'],
              ['link', 'Link'],
              ['flow', 'Connection'],
            ] as const
          ).map(([t, label]) => (
            <button
              key={t}
              role="radio"
              aria-checked={tool === t}
              className={`btn${tool === t ? ' active' : ''}`}
              data-testid={`tool-${t}`}
              onClick={() => {
                setTool(t);
                setPick(null);
                setMessage(
                  t === 'link'
                    ? { kind: 'info', text: 'Click two nodes to link them.' }
                    : t === 'flow'
                      ? { kind: 'info', text: 'Click a source, then a destination: the connection takes the shortest path (pick another under the canvas).' }
                      : null,
                );
              }}
            >
              {label}
            </button>
          ))}
        </div>
        <div className="editor-group">
          <button className="btn" data-testid="delete" disabled={!selection} onClick={remove} title="Delete the selection (Delete)">
            Delete
          </button>
          <button className="btn" data-testid="undo" disabled={!h?.canUndo} onClick={() => travel('undo')} title="Undo (Ctrl+Z)">
            Undo
          </button>
          <button className="btn" data-testid="redo" disabled={!h?.canRedo} onClick={() => travel('redo')} title="Redo (Ctrl+Shift+Z)">
            Redo
          </button>
          <button
            className={`btn ghost${emptyMenu ? ' active' : ''}`}
            data-testid="clear-network"
            aria-expanded={emptyMenu}
            onClick={() => setEmptyMenu(!emptyMenu)}
            title="Start from an empty canvas, ATM or Ethernet (undo brings the network back)"
          >
            Empty canvas…
          </button>
          {emptyMenu &&
            (['atm', 'ethernet'] as const).map((net) => (
              <button
                key={net}
                className="btn"
                data-testid={`empty-${net}`}
                onClick={() => {
                  setEmptyMenu(false);
                  setSelection(null);
                  commit(
                    emptyNetwork(draft, net),
                    net === 'atm'
                      ? 'An empty ATM network (cells, ABR): add switches, end systems, links and connections.'
                      : 'An empty Ethernet network (1500-byte frames, FECN or QCN switches, links in Gbps): add switches, end systems, links and connections.',
                  );
                }}
              >
                {net === 'atm' ? 'ATM (cells)' : 'Ethernet (frames)'}
              </button>
            ))}
        </div>
        <div className="editor-group" role="group" aria-label="zoom">
          <button className="btn" data-testid="zoom-in" onClick={() => setCam(zoomAbout(view, view.x + view.w / 2, view.y + view.h / 2, 1 / 1.25))} title="Zoom in (wheel)">
            +
          </button>
          <button className="btn" data-testid="zoom-out" onClick={() => setCam(zoomAbout(view, view.x + view.w / 2, view.y + view.h / 2, 1.25))} title="Zoom out (wheel)">
            −
          </button>
          <button className="btn" data-testid="zoom-fit" onClick={() => setCam(null)} disabled={cam === null} title="Show the whole network">
            Fit
          </button>
        </div>
      </div>
      <p className={`editor-message editor-${message?.kind ?? 'info'}`} data-testid="editor-message" role="status">
        {message?.text ?? 'Drag nodes to move them; every change restarts the run at t = 0.'}
      </p>
      <svg
        ref={svgRef}
        className={`editor-canvas tool-${tool}`}
        viewBox={`${view.x} ${view.y} ${view.w} ${view.h}`}
        data-testid="editor-canvas"
        onPointerDown={onBackgroundDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onClick={() => {
          if (pan?.moved) return;
          setSelection(null);
          setPick(null);
        }}
      >
        {draft.links.map((l) => {
          const a = pos.get(l.from);
          const b = pos.get(l.to);
          if (!a || !b) return null;
          return (
            <g
              key={l.id}
              className={`ed-link${selected('link', l.id) ? ' selected' : ''}${onPath.has(`${l.from}>${l.to}`) || onPath.has(`${l.to}>${l.from}`) ? ' on-path' : ''}`}
              data-testid={`ed-link-${l.id}`}
              onClick={(ev) => {
                ev.stopPropagation();
                setSelection({ kind: 'link', id: l.id });
              }}
            >
              <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} className="ed-link-hit" />
              <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} className="ed-link-line" />
                {(size.linkLabels || selected('link', l.id)) && (
                <text x={(a.x + b.x) / 2} y={(a.y + b.y) / 2 - 6} className="ed-link-label">
                  {linkLabel(l)}
                </text>
              )}
              <title>{linkLabel(l)}</title>
            </g>
          );
        })}
        {draft.nodes.map((n) => {
          const p = pos.get(n.id)!;
          return (
            <g
              key={n.id}
              transform={`translate(${p.x},${p.y})`}
              className={`ed-node ed-${n.kind}${selected('node', n.id) ? ' selected' : ''}${pick === n.id ? ' picked' : ''}${pickable(n.id) ? '' : ' unpickable'}`}
              data-testid={`ed-node-${n.id}`}
              onPointerDown={(ev) => onPointerDown(ev, n.id)}
              onClick={(ev) => {
                ev.stopPropagation();
                if (drag?.moved) return;
                clickNode(n.id);
              }}
            >
              {n.kind === 'switch' ? <rect x={-24} y={-15} width={48} height={30} rx={6} /> : <circle r={size.r} />}
              {(n.kind === 'switch' || size.nodeLabels) && <text dy="0.35em">{n.id}</text>}
              <title>{n.id}</title>
            </g>
          );
        })}
      </svg>
      {selection?.kind === 'link' && draft.links.some((l) => l.id === selection.id) && (
        <LinkForm
          key={`${selection.id}:${JSON.stringify(draft.links.find((l) => l.id === selection.id))}`}
          link={draft.links.find((l) => l.id === selection.id)!}
          ethernet={!!draft.ethernet}
          onChange={(patch) => apply(setLink(draft, selection.id, patch), `${selection.id} changed: the run restarted at t = 0.`)}
        />
      )}
      {inspected && (
        <ConnectionForm
          key={inspected.id}
          scenario={draft}
          conn={inspected}
          params={sourceParamsFor(draft, state.catalogue)}
          onEdit={(r, note) => apply(r, note)}
        />
      )}
      <ul className="editor-connections" data-testid="editor-connections">
        {draft.connections.length === 0 && <li className="muted">No connections yet: pick “Connection”, then a source and a destination.</li>}
        {draft.connections.map((c) => (
          <li key={c.id} className={selected('connection', c.id) ? 'selected' : ''}>
            <button className="chip" data-testid={`ed-conn-${c.id}`} onClick={() => setSelection({ kind: 'connection', id: c.id })}>
              {c.id}: {c.from} → {c.to}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The selected link's capacity (preset or free entry, Mbps) and its length (distance or delay). */
function LinkForm({
  link,
  ethernet,
  onChange,
}: {
  link: ScenarioLink;
  ethernet: boolean;
  onChange: (patch: { rate_mbps?: number; length?: LinkLength }) => void;
}) {
  const presets = ethernet ? LINK_PRESETS.ethernet : LINK_PRESETS.atm;
  const preset = presets.find((p) => p.rate_mbps === link.rate_mbps);
  // Ethernet links are entered in Gbps, ATM links in Mbps; the scenario stores rate_mbps.
  const perUnit = ethernet ? 1000 : 1;
  const [rate, setRate] = useState(String(link.rate_mbps / perUnit));
  const byDelay = link.delay_us !== undefined;
  const [length, setLength] = useState(String(byDelay ? link.delay_us : (link.distance_km ?? 0)));
  const [lengthKind, setLengthKind] = useState<'distance_km' | 'delay_us'>(byDelay ? 'delay_us' : 'distance_km');
  const sendRate = () =>
    Number(rate) * perUnit !== link.rate_mbps && onChange({ rate_mbps: rate.trim() === '' ? NaN : Number(rate) * perUnit });
  const sendLength = (kind = lengthKind) => {
    const v = length.trim() === '' ? NaN : Number(length);
    onChange({ length: kind === 'distance_km' ? { distance_km: v } : { delay_us: v } });
  };
  return (
    <div className="editor-form" data-testid="link-form">
      <strong>
        {link.id}: {link.from} – {link.to}
      </strong>
      <label>
        capacity
        <select
          data-testid="link-preset"
          value={preset ? String(preset.rate_mbps) : ''}
          onChange={(e) => e.target.value && onChange({ rate_mbps: Number(e.target.value) })}
        >
          {!preset && <option value="">custom</option>}
          {presets.map((p) => (
            <option key={p.rate_mbps} value={p.rate_mbps}>
              {p.label}
            </option>
          ))}
        </select>
        <input
          data-testid="link-rate"
          type="number"
          min="0"
          step="any"
          value={rate}
          onChange={(e) => setRate(e.target.value)}
          onBlur={sendRate}
          onKeyDown={(e) => e.key === 'Enter' && sendRate()}
        />
        {ethernet ? 'Gbps' : 'Mbps'}
      </label>
      <label>
        <select
          data-testid="link-length-kind"
          value={lengthKind}
          onChange={(e) => {
            const k = e.target.value as 'distance_km' | 'delay_us';
            setLengthKind(k);
            sendLength(k);
          }}
        >
          <option value="distance_km">distance</option>
          <option value="delay_us">delay</option>
        </select>
        <input
          data-testid="link-length"
          type="number"
          min="0"
          step="any"
          value={length}
          onChange={(e) => setLength(e.target.value)}
          onBlur={() => sendLength()}
          onKeyDown={(e) => e.key === 'Enter' && sendLength()}
        />
        {lengthKind === 'distance_km' ? 'km (5 µs per km)' : 'µs'}
      </label>
    </div>
  );
}

/**
 * End systems shrink when they crowd (the 30-source networks) so that each stays grabbable;
 * their names and the link labels show only where they fit (else in the tooltip).
 */
export function nodeSize(s: Scenario | null) {
  const pts = (s?.nodes ?? []).filter((n) => n.kind !== 'switch').map((n) => [n.x ?? 0, n.y ?? 0]);
  let gap = Infinity;
  for (let i = 0; i < pts.length; i++)
    for (let j = i + 1; j < pts.length; j++) gap = Math.min(gap, Math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]));
  const r = Math.max(4, Math.min(17, gap / 2.2));
  return { r, nodeLabels: r >= 12, linkLabels: (s?.links.length ?? 0) <= 12 };
}

/** "L4 · 155.52 Mbps · 100 km" (Gbps from 1000 Mbps up). */
export function linkLabel(l: ScenarioLink) {
  const rate = l.rate_mbps >= 1000 ? `${+(l.rate_mbps / 1000).toFixed(3)} Gbps` : `${l.rate_mbps} Mbps`;
  const length = l.delay_us !== undefined ? ` · ${l.delay_us} µs` : l.distance_km !== undefined ? ` · ${l.distance_km} km` : '';
  return `${l.id} · ${rate}${length}`;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The view scaled by `f` (> 1: zoom out) about the canvas point (px, py), which stays put. */
export function zoomAbout(b: Box, px: number, py: number, f: number): Box {
  const w = Math.min(20_000, Math.max(60, b.w * f));
  const k = w / b.w;
  return { x: px - (px - b.x) * k, y: py - (py - b.y) * k, w, h: b.h * k };
}

/** The canvas shows at least the default area, and grows to hold every node. */
function viewBox(s: Scenario | null): Box {
  const xs = (s?.nodes ?? []).map((n) => n.x ?? 0);
  const ys = (s?.nodes ?? []).map((n) => n.y ?? 0);
  const m = VIEW.margin;
  const x0 = Math.min(0, ...xs.map((x) => x - m));
  const y0 = Math.min(0, ...ys.map((y) => y - m));
  const x1 = Math.max(VIEW.w, ...xs.map((x) => x + m));
  const y1 = Math.max(VIEW.h, ...ys.map((y) => y + m));
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}
