// The editor's canvas on React Flow: the scenario's nodes and links, focusable (Tab), dragged
// with the mouse or a finger, the view zoomed with the wheel or a pinch and panned by dragging
// the background, a minimap. Keys on a focused node or link go to the editor (onNodeKey,
// onLinkKey), before React Flow's own: what a key or a drag means for the document is the
// editor's (NetworkEditor). The geometry is in canvas.ts; the hidden centre handles are the
// Network view's (network/parts.tsx).

import '@xyflow/react/dist/style.css';
import {
  EdgeLabelRenderer,
  MiniMap,
  ReactFlow,
  type Edge,
  type EdgeProps,
  type Node,
  type NodeChange,
  type NodeProps,
  type ReactFlowInstance,
  type Viewport,
} from '@xyflow/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Scenario } from '../../contract/scenario';
import { CentreHandles } from '../network/parts';
import {
  KIND_LABEL,
  LINK_LABEL,
  labelScale,
  linkLabel,
  pickable,
  placeLinkLabels,
  positions,
  PRESENT_LABEL_MIN_PX,
  SWITCH_PX,
  tabOrder,
  type Drag,
  type PlacedLabel,
  type Point,
  type Selection,
  type Tool,
} from './canvas';

type EdNodeData = { id: string; kind: string; label: boolean; state: string; labelScale: number };
type EdLinkData = { a: Point; b: Point; label: PlacedLabel | null; title: string; state: string; labelScale: number };
type EdNode = Node<EdNodeData, 'ed'>;
type EdLink = Edge<EdLinkData, 'ed'>;

export interface EditorCanvasProps {
  draft: Scenario;
  tool: Tool;
  pick: string | null;
  selection: Selection;
  /** Nodes selected with a box (Shift+drag on the background). */
  group: ReadonlySet<string>;
  size: { r: number; nodeLabels: boolean; linkLabels: boolean };
  /** Links on the inspected connection's route, as "from>to" both ways. */
  onRoute: Set<string>;
  /** A node grabbed with the select tool (it becomes the selection). */
  onGrab(id: string): void;
  /** Nodes dropped somewhere else (one, or the box selection dragged together). */
  onMoved(to: Map<string, Point>): void;
  /** A box drawn (Shift+drag): the nodes wholly inside it. */
  onGroup(ids: string[]): void;
  onNodeClick(id: string): void;
  onLinkClick(id: string): void;
  /** A click on the empty canvas (not the end of a pan). */
  onBackgroundClick(): void;
  /** A key pressed on a focused node or link: true if the editor took it. */
  onNodeKey(id: string, ev: React.KeyboardEvent): boolean;
  onLinkKey(id: string, ev: React.KeyboardEvent): boolean;
  onInit(rf: ReactFlowInstance<EdNode, EdLink>): void;
  /** The user zoomed or panned (the view no longer fits the network). */
  onViewMoved(): void;
  /** Presenting: names and link labels read at PRESENT_LABEL_MIN_PX or more on screen, at any zoom. */
  present?: boolean;
}

/** What a screen reader says a focused node or link lets you do. */
const ARIA = {
  'node.a11yDescription.default':
    'Enter: select it (or pick it, with the Link or Connection tool). Arrow keys move it, Shift for bigger steps. L: link from here. C: connection from here (a source). Delete removes it.',
  'node.a11yDescription.keyboardDisabled':
    'Enter: select it (or pick it, with the Link or Connection tool). Arrow keys move it, Shift for bigger steps. L: link from here. C: connection from here (a source). Delete removes it.',
  'edge.a11yDescription.default': 'Enter: select the link to edit its capacity and length. Delete removes it.',
  'minimap.ariaLabel': 'Overview of the network',
};

export function EditorCanvas(p: EditorCanvasProps) {
  const { draft, tool, pick, selection, size, onRoute } = p;
  const [drag, setDrag] = useState<Drag>(NO_DRAG);
  // The nodes inside the box while it is drawn (null: no box).
  const [boxing, setBoxing] = useState<Set<string> | null>(null);
  const box = useRef<HTMLDivElement>(null);
  // The view's zoom once it rests (a fit, a wheel, the + and − buttons): presenting, the labels'
  // type grows as it falls (labelScale), so that a big network fitted still reads.
  const [zoom, setZoom] = useState(1);
  const nodeScale = p.present ? labelScale(NODE_LABEL_PX, zoom, PRESENT_LABEL_MIN_PX) : 1;
  const linkScale = p.present ? labelScale(LINK_LABEL.fontPx, zoom, PRESENT_LABEL_MIN_PX) : 1;

  const pos = useMemo(() => positions(draft, drag), [draft, drag]);
  const selected = (kind: NonNullable<Selection>['kind'], id: string) => selection?.kind === kind && selection.id === id;
  const kindOf = new Map(draft.nodes.map((n) => [n.id, n.kind]));

  const nodes: EdNode[] = draft.nodes.map((n) => ({
    id: n.id,
    type: 'ed',
    position: pos.get(n.id)!,
    // Sizes known in advance. `measured` too: without it React Flow forgets each render what it
    // measured, and a box selection would take every node.
    ...sized(n.kind === 'switch' ? SWITCH_PX : { width: 2 * size.r, height: 2 * size.r }),
    selected: selected('node', n.id) || p.group.has(n.id) || !!boxing?.has(n.id),
    ariaLabel: `${KIND_LABEL[n.kind]} ${n.id}`,
    draggable: tool === 'select',
    data: {
      id: n.id,
      kind: n.kind,
      label: n.kind === 'switch' || size.nodeLabels,
      labelScale: nodeScale,
      state: `${selected('node', n.id) || p.group.has(n.id) || boxing?.has(n.id) ? ' selected' : ''}${pick === n.id ? ' picked' : ''}${pickable(tool, pick, kindOf.get(n.id), n.id) ? '' : ' unpickable'}`,
    },
  }));
  // Labels where they cover no node and no other label (the full one, else the link's name,
  // else none): every link's when there are few, the selected link's always.
  const labels = useMemo(() => {
    const wanted = draft.links.filter((l) => size.linkLabels || selected('link', l.id));
    return placeLinkLabels(draft, pos, size.r, new Map(wanted.map((l) => [l.id, [linkLabel(l), l.id]])), linkScale);
  }, [draft, pos, size, selection, linkScale]);
  const edges: EdLink[] = draft.links.flatMap((l) => {
    const a = pos.get(l.from);
    const b = pos.get(l.to);
    if (!a || !b) return [];
    const on = selected('link', l.id);
    return [
      {
        id: l.id,
        type: 'ed',
        source: l.from,
        target: l.to,
        selected: on,
        ariaLabel: `Link ${linkLabel(l)}, ${l.from} to ${l.to}`,
        data: {
          a,
          b,
          label: labels.get(l.id) ?? null,
          title: linkLabel(l),
          labelScale: linkScale,
          state: `${on ? ' selected' : ''}${onRoute.has(`${l.from}>${l.to}`) ? ' on-path' : ''}`,
        },
      },
    ];
  });

  // Only drags move nodes here (the document moves them once dropped), and a box being drawn
  // selects; any other selection is the editor's, deletion too.
  const onNodesChange = (changes: NodeChange<EdNode>[]) => {
    const moved = changes.flatMap((c) => (c.type === 'position' && c.dragging && c.position ? [[c.id, c.position] as const] : []));
    if (moved.length) setDrag((d) => new Map([...d, ...moved]));
    if (boxing) {
      const next = new Set(boxing);
      for (const c of changes) if (c.type === 'select') void (c.selected ? next.add(c.id) : next.delete(c.id));
      setBoxing(next);
    }
  };
  const dropped = (ns: EdNode[]) => {
    setDrag(NO_DRAG);
    p.onMoved(new Map(ns.map((n) => [n.id, { x: Math.round(n.position.x), y: Math.round(n.position.y) }])));
  };

  // Keys on a focused node or link, before React Flow's handlers (which would select or move
  // the node behind the editor's back) and the page's (Space plays).
  const onKeyDownCapture = (ev: React.KeyboardEvent) => {
    const el = ev.target as HTMLElement;
    const node = el.closest?.('.react-flow__node') as HTMLElement | null;
    const edge = el.closest?.('.react-flow__edge') as HTMLElement | null;
    if (ev.key === 'Tab' && (node || edge) && !ev.ctrlKey && !ev.altKey && !ev.metaKey) return tab(itemKey(node ?? edge!), ev);
    const took = node?.dataset.id ? p.onNodeKey(node.dataset.id, ev) : edge?.dataset.id ? p.onLinkKey(edge.dataset.id, ev) : false;
    if (took) {
      ev.preventDefault();
      ev.stopPropagation();
    }
  };

  // Tab order: React Flow puts the links before the nodes in the page (they are drawn
  // under them), so Tab would reach every link first. Within the canvas Tab follows
  // tabOrder (nodes as the network reads, then links); from its last element (first, with
  // Shift) the focus moves onto the canvas element last (first) in the page and the browser's
  // own Tab carries on from there, out of the canvas. Tabbing in lands on the first element
  // (the last, with Shift) of that order, not on whichever the page has first.
  const order = useMemo(() => tabOrder(draft), [draft]);
  const tab = (at: string, ev: React.KeyboardEvent) => {
    const i = order.indexOf(at);
    const to = order[ev.shiftKey ? i - 1 : i + 1];
    if (i >= 0 && to !== undefined) {
      ev.preventDefault();
      ev.stopPropagation();
      return void elementOf(box.current, to)?.focus();
    }
    const all = items(box.current);
    (ev.shiftKey ? all[0] : all[all.length - 1])?.focus(); // the browser goes on from here
  };
  const tabbing = useRef<'forward' | 'back' | null>(null);
  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      if (ev.key !== 'Tab') return;
      tabbing.current = ev.shiftKey ? 'back' : 'forward';
      setTimeout(() => (tabbing.current = null)); // the focus it moves comes within this task
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
  const onFocusCapture = (ev: React.FocusEvent) => {
    const el = (ev.target as HTMLElement).closest?.('.react-flow__node, .react-flow__edge') as HTMLElement | null;
    const from = (ev.relatedTarget as HTMLElement | null)?.closest?.('.react-flow__node, .react-flow__edge');
    if (!el || !tabbing.current || (from && box.current?.contains(from))) return;
    const entry = tabbing.current === 'forward' ? order[0] : order[order.length - 1];
    if (entry !== undefined && itemKey(el) !== entry) elementOf(box.current, entry)?.focus();
  };

  return (
    <div
      ref={box}
      className={`editor-canvas tool-${tool}`}
      data-testid="editor-canvas"
      tabIndex={-1}
      onKeyDownCapture={onKeyDownCapture}
      onFocusCapture={onFocusCapture}
    >
      <ReactFlow<EdNode, EdLink>
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        edgeTypes={EDGE_TYPES}
        nodeOrigin={NODE_ORIGIN}
        onNodesChange={onNodesChange}
        onNodeDragStart={(_, n) => p.onGrab(n.id)}
        onNodeDragStop={(_, n, ns) => dropped(ns.length ? ns : [n])}
        onSelectionDragStop={(_, ns) => dropped(ns)}
        onSelectionStart={() => setBoxing(new Set())}
        onSelectionEnd={() => {
          if (boxing) p.onGroup([...boxing]);
          setBoxing(null);
        }}
        onNodeClick={(_, n) => p.onNodeClick(n.id)}
        onEdgeClick={(_, e) => p.onLinkClick(e.id)}
        onPaneClick={() => p.onBackgroundClick()}
        onInit={(rf) => {
          p.onInit(rf);
          showView(box.current, rf.getViewport());
          setZoom(rf.getViewport().zoom);
        }}
        onMove={(_, vp) => showView(box.current, vp)}
        onMoveEnd={(ev, vp) => {
          setZoom(vp.zoom);
          if (ev) p.onViewMoved();
        }}
        nodesConnectable={false}
        deleteKeyCode={null}
        panActivationKeyCode={null}
        zoomOnDoubleClick={false}
        ariaLabelConfig={ARIA}
        fitView
        fitViewOptions={FIT_VIEW}
        minZoom={0.05}
        maxZoom={4}
      >
        <MiniMap pannable zoomable className="ed-minimap" style={MINIMAP_PX} nodeClassName={(n) => `ed-mini-${(n.data as EdNodeData).kind}`} />
      </ReactFlow>
    </div>
  );
}

/** "node:<id>" or "link:<id>" of a React Flow node or edge element (see tabOrder). */
const itemKey = (el: HTMLElement) => `${el.classList.contains('react-flow__node') ? 'node' : 'link'}:${el.dataset.id}`;
/** The canvas's node and link elements, in page order. */
const items = (canvas: HTMLElement | null) => [...(canvas?.querySelectorAll<HTMLElement>('.react-flow__node, .react-flow__edge') ?? [])];
/** The element of a "node:<id>" or "link:<id>". */
function elementOf(canvas: HTMLElement | null, key: string): HTMLElement | undefined {
  const [kind, ...rest] = key.split(':');
  const id = rest.join(':');
  return items(canvas).find((el) => el.dataset.id === id && el.classList.contains(kind === 'node' ? 'react-flow__node' : 'react-flow__edge'));
}

/** The view as `x y zoom` on the canvas (read by the e2e tests), written without a render. */
function showView(el: HTMLElement | null, vp: Viewport) {
  if (el) el.dataset.viewport = `${vp.x.toFixed(1)} ${vp.y.toFixed(1)} ${vp.zoom.toFixed(4)}`;
}

function EditorNode({ data }: NodeProps<EdNode>) {
  return (
    <div className={`ed-node ed-${data.kind}${data.state}`} data-testid={`ed-node-${data.id}`} title={data.id}>
      <CentreHandles />
      {data.label && (
        <span className={`ed-node-id${data.labelScale > 1 ? ' ed-grown' : ''}`} style={data.labelScale > 1 ? { fontSize: NODE_LABEL_PX * data.labelScale } : undefined}>
          {data.id}
        </span>
      )}
    </div>
  );
}

/** A link as a straight line between node centres, with a wider invisible line to click. Its
 *  label goes to React Flow's label layer, above every link (a later link's line would cross
 *  it otherwise) and under the nodes (placeLinkLabels keeps it off them). */
function EditorLink({ id, data }: EdgeProps<EdLink>) {
  const { a, b, label, title, state } = data!;
  return (
    <g className={`ed-link${state}`} data-testid={`ed-link-${id}`}>
      <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} className="ed-link-hit" />
      <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} className="ed-link-line" />
      {label && (
        <EdgeLabelRenderer>
          <div
            className={`ed-link-label${state}`}
            data-testid={`ed-link-label-${id}`}
            aria-hidden="true"
            style={{
              transform: `translate(-50%, -50%) translate(${label.x}px, ${label.y}px)`,
              ...(data!.labelScale > 1 && { fontSize: LINK_LABEL.fontPx * data!.labelScale, lineHeight: `${(LINK_LABEL.fontPx + 2) * data!.labelScale}px` }),
            }}
          >
            {label.text}
          </div>
        </EdgeLabelRenderer>
      )}
      <title>{title}</title>
    </g>
  );
}

const NO_DRAG: Drag = new Map();
/** A node's name's type in canvas units (app.css: `.editor-canvas .ed-node`). */
const NODE_LABEL_PX = 12;
const sized = (px: { width: number; height: number }) => ({ ...px, measured: px });
const MINIMAP_PX = { width: 150, height: 90 };
const NODE_TYPES = { ed: EditorNode };
const EDGE_TYPES = { ed: EditorLink };
const NODE_ORIGIN: [number, number] = [0.5, 0.5];
/** Fitted, a small network is drawn at its own scale (at most 1 px per canvas unit), and
 *  nothing under the minimap (its width and margins kept free on the right). */
export const FIT_VIEW = { padding: { top: 0.1, bottom: 0.1, left: 0.1, right: `${MINIMAP_PX.width + 30}px` as const }, maxZoom: 1 };
