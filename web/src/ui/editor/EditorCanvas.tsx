// The editor's canvas: links and nodes drawn from the scenario, nodes dragged, the view zoomed
// with the wheel about the pointer and panned by dragging the background. The geometry is in
// canvas.ts; what a click or a drag means for the document is the editor's (NetworkEditor).

import { useEffect, useRef, useState } from 'react';
import type { Scenario } from '../../contract/scenario';
import { linkLabel, panned, pickable, positions, zoomAbout, type Box, type Drag, type Selection, type Tool } from './canvas';

export interface EditorCanvasProps {
  draft: Scenario;
  view: Box;
  setCam: (b: Box) => void;
  tool: Tool;
  pick: string | null;
  selection: Selection;
  size: { r: number; nodeLabels: boolean; linkLabels: boolean };
  /** Links on the inspected connection's route, as "from>to" both ways. */
  onRoute: Set<string>;
  /** A node grabbed with the select tool (it becomes the selection). */
  onGrab(id: string): void;
  /** A node dropped somewhere else. */
  onMoved(id: string, x: number, y: number): void;
  onNodeClick(id: string): void;
  onLinkClick(id: string): void;
  /** A click on the empty canvas (not the end of a pan). */
  onBackgroundClick(): void;
}

export function EditorCanvas(p: EditorCanvasProps) {
  const { draft, view, setCam, tool, pick, selection, size, onRoute } = p;
  const svgRef = useRef<SVGSVGElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [pan, setPan] = useState<{ sx: number; sy: number; from: Box; moved: boolean } | null>(null);
  const viewRef = useRef(view);
  viewRef.current = view;

  // Wheel zooms about the pointer (a native listener: React's wheel handler cannot prevent
  // the page from scrolling).
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const onWheel = (ev: WheelEvent) => {
      ev.preventDefault();
      const ctm = svg.getScreenCTM();
      if (!ctm) return;
      const q = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(ctm.inverse());
      setCam(zoomAbout(viewRef.current, q.x, q.y, ev.deltaY > 0 ? 1.15 : 1 / 1.15));
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => svg.removeEventListener('wheel', onWheel);
  }, [setCam]);

  const toSvg = (ev: React.PointerEvent | React.MouseEvent) => {
    const svg = svgRef.current!;
    const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(svg.getScreenCTM()!.inverse());
    return { x: pt.x, y: pt.y };
  };

  const onNodeDown = (ev: React.PointerEvent, id: string) => {
    ev.stopPropagation();
    if (tool !== 'select') return;
    (ev.target as Element).setPointerCapture?.(ev.pointerId);
    const q = toSvg(ev);
    setDrag({ id, x: q.x, y: q.y, moved: false });
    p.onGrab(id);
  };
  const onBackgroundDown = (ev: React.PointerEvent) => {
    if (ev.target !== svgRef.current) return;
    (ev.target as Element).setPointerCapture?.(ev.pointerId);
    setPan({ sx: ev.clientX, sy: ev.clientY, from: view, moved: false });
  };
  const onPointerMove = (ev: React.PointerEvent) => {
    if (pan) {
      const k = 1 / (svgRef.current!.getScreenCTM()?.a ?? 1); // canvas units per screen pixel
      const dx = ev.clientX - pan.sx;
      const dy = ev.clientY - pan.sy;
      if (Math.abs(dx) + Math.abs(dy) > 0) {
        setCam(panned(pan.from, dx, dy, k));
        if (!pan.moved) setPan({ ...pan, moved: true });
      }
      return;
    }
    if (!drag) return;
    const q = toSvg(ev);
    setDrag({ ...drag, x: q.x, y: q.y, moved: true });
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
    if (d.moved) p.onMoved(d.id, d.x, d.y);
  };

  const pos = positions(draft, drag);
  const kindOf = new Map(draft.nodes.map((n) => [n.id, n.kind]));
  const selected = (kind: NonNullable<Selection>['kind'], id: string) => selection?.kind === kind && selection.id === id;

  return (
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
        p.onBackgroundClick();
      }}
    >
      {draft.links.map((l) => {
        const a = pos.get(l.from);
        const b = pos.get(l.to);
        if (!a || !b) return null;
        return (
          <g
            key={l.id}
            className={`ed-link${selected('link', l.id) ? ' selected' : ''}${onRoute.has(`${l.from}>${l.to}`) ? ' on-path' : ''}`}
            data-testid={`ed-link-${l.id}`}
            onClick={(ev) => {
              ev.stopPropagation();
              p.onLinkClick(l.id);
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
        const q = pos.get(n.id)!;
        return (
          <g
            key={n.id}
            transform={`translate(${q.x},${q.y})`}
            className={`ed-node ed-${n.kind}${selected('node', n.id) ? ' selected' : ''}${pick === n.id ? ' picked' : ''}${pickable(tool, pick, kindOf.get(n.id), n.id) ? '' : ' unpickable'}`}
            data-testid={`ed-node-${n.id}`}
            onPointerDown={(ev) => onNodeDown(ev, n.id)}
            onClick={(ev) => {
              ev.stopPropagation();
              if (drag?.moved) return;
              p.onNodeClick(n.id);
            }}
          >
            {n.kind === 'switch' ? <rect x={-24} y={-15} width={48} height={30} rx={6} /> : <circle r={size.r} />}
            {(n.kind === 'switch' || size.nodeLabels) && <text dy="0.35em">{n.id}</text>}
            <title>{n.id}</title>
          </g>
        );
      })}
    </svg>
  );
}
