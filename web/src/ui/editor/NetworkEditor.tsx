// The network editor: the scenario's nodes on a canvas to drag, add from a palette, link,
// delete, and connect (source → destination on the shortest path), with undo and redo (the
// keys work anywhere in the lab: App.tsx). Everything works from the keyboard too: Tab to a
// node or link, arrows move it, L / C start a link / connection from it, Enter picks or
// selects, Delete removes (the keys are listed in shortcuts.ts). Every edit goes to the engine as a new scenario: the
// run restarts at t = 0 once the engine accepts it (the editor says so then, or says why not).
// The document edits are the pure functions of topologyEdits.ts; this file is the view.

import type { ReactFlowInstance } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Lab, LabState } from '../../lab/lab';
import { problemLine } from '../../contract/problem';
import type { NodeKind, Scenario } from '../../contract/scenario';
import {
  addConnection,
  addLink,
  addNode,
  deleteConnection,
  deleteLink,
  deleteNode,
  deleteNodes,
  emptyNetwork,
  moveNode,
  moveNodes,
  setLink,
  MAX_NAME_CHARS,
  type EditResult,
} from '../../scenario/topologyEdits';
import {
  editedOrigin,
  inspectedConnection,
  linksOnRoute,
  nodeSize,
  nudged,
  placeForNew,
  selectionIn,
  type Selection,
  type Tool,
} from './canvas';
import { algorithmOf } from '../../scenario/switchEdits';
import { ConnectionForm, SourceDefaultsForm } from './ConnectionForm';
import { EditorBar } from './EditorBar';
import { EditorCanvas, FIT_VIEW } from './EditorCanvas';
import { LinkForm } from './LinkForm';

/** What a scenario note asks the editor to open: a connection (selected, its source parameters
 *  unfolded) or the parameters every source takes (`defaults.source`, unfolded). */
export type EditTarget = { connection: string } | { sourceDefaults: true };

/** An EditTarget asked for from elsewhere; `n` tells two asks apart. */
export type EditorFocus = EditTarget & { n: number };

export function NetworkEditor({
  lab,
  state,
  focus = null,
  onFocused,
  onSwitchSettings,
  present = false,
}: {
  lab: Lab;
  state: LabState;
  /** Presentation mode: the canvas's labels keep a readable size on screen at any zoom. */
  present?: boolean;
  focus?: EditorFocus | null;
  /** Told once the editor has taken `focus` (it asks nothing more when it opens again). */
  onFocused?: () => void;
  /** Opens a switch's algorithm and parameters (the side panel's Switches tab); none: a
   *  teacher's link keeps them from the class. */
  onSwitchSettings?: (switchId: string) => void;
}) {
  const current = state.current;
  const [draft, setDraft] = useState<Scenario | null>(current?.scenario ?? null);
  const [tool, setTool] = useState<Tool>('select');
  const [pick, setPick] = useState<string | null>(null); // first end of a link or connection
  const [selection, setSelection] = useState<Selection>(null);
  // Nodes selected together with a box (Shift+drag): moved, dragged and deleted as one edit.
  const [group, setGroup] = useState<string[]>([]);
  useEffect(() => {
    if (selection) setGroup([]);
  }, [selection]);
  const [message, setMessage] = useState<{ kind: 'info' | 'error'; text: string } | null>(null);
  // What to say of an edit sent to the engine, once it is accepted (a refusal says why instead).
  const awaited = useRef<string | null>(null);

  // The canvas follows the loaded network. A scenario from elsewhere (library, file, link)
  // also clears the selection; edits, live changes and undos keep it. Not while another load is
  // on its way: the canvas is ahead of what came (an edit made while the one before it loaded;
  // CI, under load: three adds, the first one's answer between the second and the third, put the
  // canvas back to the first, and the third was made on it, without the second's switch). The
  // last load's answer brings the canvas along, or its refusal puts the loaded network back.
  useEffect(() => {
    if (!current || lab.loadAwaited) return;
    setDraft(current.scenario);
    if (lab.edits.sent !== null && current.json === lab.edits.sent) {
      // An edit or an undo came back loaded.
      if (awaited.current !== null) setMessage({ kind: 'info', text: awaited.current });
      awaited.current = null;
      return;
    }
    setSelection(null);
    setGroup([]);
    setPick(null);
  }, [current]);

  // Asked to open a connection (after the effect above, which clears the selection when the
  // editor opens): selected, its source parameters unfolded while it stays selected.
  const [paramsOpenFor, setParamsOpenFor] = useState<string | null>(null);
  // Asked to open the parameters every source takes: the ask's number (remounts them unfolded).
  const [defaultsAsked, setDefaultsAsked] = useState(0);
  useEffect(() => {
    if (!focus) return;
    if ('sourceDefaults' in focus) {
      setDefaultsAsked(focus.n);
    } else if (current?.scenario.connections.some((c) => c.id === focus.connection)) {
      setTool('select');
      setPick(null);
      setSelection({ kind: 'connection', id: focus.connection });
      setParamsOpenFor(focus.connection);
    }
    onFocused?.();
  }, [focus]);

  // An edit the engine refused: the loaded network comes back on the canvas, nothing was
  // recorded for undo, and the message says only why (the run did not restart).
  useEffect(() => {
    if (!state.problems || !current) return;
    setDraft(current.scenario);
    if (awaited.current === null) return;
    awaited.current = null;
    const rules = state.problems.problems.map(problemLine).join('; ');
    setMessage({ kind: 'error', text: `Not applied, the engine refused it: ${rules}` });
  }, [state.problems]);

  // Undo and redo (from the buttons or the keys, anywhere in the lab) say what they did.
  useEffect(() => {
    if (state.travelled) setMessage({ kind: 'info', text: state.travelled.text });
  }, [state.travelled]);

  // `run`: the run of arrow-key moves this edit continues (one undo step with them, as a drag is).
  const commit = useCallback(
    (next: Scenario, note = 'Network changed: the run restarted at t = 0.', redrawnNote = note, run?: string, fresh = false) => {
      if (!current || !draft) return;
      if (JSON.stringify(next) === JSON.stringify(draft)) return; // nothing changed: no reload
      // Shown at once; recorded for undo once the engine accepts it (a refusal puts the
      // loaded network back on the canvas, see the effect above).
      setDraft(next);
      const applied = lab.commitEdit(draft, next, editedOrigin(current.origin), run, fresh);
      if (applied === 'redrawn') {
        awaited.current = null;
        setMessage({ kind: 'info', text: redrawnNote });
      } else {
        awaited.current = note;
        setMessage({ kind: 'info', text: 'Applying the change…' });
      }
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
      // What is selected stays so while it exists: an undone parameter edit leaves its form
      // open, showing the value brought back.
      setSelection((sel) => selectionIn(done.doc, sel));
      setGroup([]);
    },
    [lab, current],
  );

  /** Deletes the selection (or the box selection), or the element given (a focused node or link). */
  const remove = useCallback(
    (what: Selection = selection) => {
      if (!draft) return;
      if (!what && group.length > 0) {
        const next = deleteNodes(draft, group);
        const lost = draft.connections.length - next.connections.length;
        setGroup([]);
        commit(next, `${group.join(', ')} deleted${lost > 0 ? ` with ${lost} connection${lost === 1 ? '' : 's'} they carried` : ''}: the run restarted at t = 0.`);
        return;
      }
      if (!what) return;
      const next =
        what.kind === 'node' ? deleteNode(draft, what.id) : what.kind === 'link' ? deleteLink(draft, what.id) : deleteConnection(draft, what.id);
      setSelection(null);
      const lost = draft.connections.length - next.connections.length - (what.kind === 'connection' ? 1 : 0);
      commit(next, `${what.id} deleted${lost > 0 ? ` with ${lost} connection${lost === 1 ? '' : 's'} it carried` : ''}: the run restarted at t = 0.`);
    },
    [draft, selection, group, commit],
  );

  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      const t = ev.target as HTMLElement;
      if (['INPUT', 'SELECT', 'TEXTAREA'].includes(t.tagName)) return;
      if (ev.key === 'Delete' || ev.key === 'Backspace') {
        if (selection || group.length > 0) {
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
  }, [remove, selection, group]);

  const size = useMemo(() => nodeSize(draft), [draft]);
  // View state: React Flow's view, and whether the user moved it off the fitted one.
  const flow = useRef<ReactFlowInstance | null>(null);
  const [fitted, setFitted] = useState(true);
  // Every new element and every field takes its defaults and ranges from the engine's catalogue.
  const catalogue = state.catalogue;
  if (!draft || !current || !catalogue) return null;
  const algorithmNameOf = (id: string) => catalogue.algorithms.find((a) => a.id === id)?.name ?? id;

  const add = (kind: NodeKind) => {
    const at = placeForNew(draft, kind);
    const { scenario, id } = addNode(draft, kind, at.x, at.y, catalogue.default_algorithm);
    commit(scenario, `${id} added: drag it into place, then link it. The run restarted at t = 0.`);
    setSelection({ kind: 'node', id });
  };

  const clickNode = (id: string) => {
    if (tool === 'select') {
      setSelection({ kind: 'node', id });
      // Said in the status line too, for a selection made from the keyboard (Enter on a node).
      const node = draft.nodes.find((n) => n.id === id);
      if (node?.kind === 'switch') {
        const runs = algorithmNameOf(algorithmOf(draft, node, catalogue.default_algorithm));
        const way = onSwitchSettings ? '; its algorithm and parameters are a button below the drawing' : '';
        setMessage({ kind: 'info', text: `${id} selected: it runs ${runs}${way}.` });
      } else if (node) setMessage({ kind: 'info', text: `${id} selected: the arrow keys move it, Delete removes it.` });
      return;
    }
    if (pick === null) {
      setPick(id);
      setMessage({ kind: 'info', text: tool === 'link' ? `Link from ${id}: click the other end.` : `Connection from ${id}: click its destination.` });
      return;
    }
    const r = tool === 'link' ? addLink(draft, pick, id, catalogue.fields.link) : addConnection(draft, pick, id);
    setPick(null);
    const made = apply(r, r.ok ? `${r.id} added (${pick} – ${id}): the run restarted at t = 0.` : undefined);
    if (made) setSelection({ kind: tool === 'link' ? 'link' : 'connection', id: made });
  };

  const chooseTool = (t: Tool) => {
    setTool(t);
    setPick(null);
    setMessage(
      t === 'link'
        ? { kind: 'info', text: 'Click two nodes to link them.' }
        : t === 'flow'
          ? { kind: 'info', text: 'Click a source, then a destination: the connection takes the shortest path (pick another under the canvas).' }
          : null,
    );
  };

  const empty = (net: 'atm' | 'ethernet') => {
    setSelection(null);
    const next = emptyNetwork(draft, catalogue.fields, net);
    const frames = next.ethernet?.frame_bytes;
    // A new scenario of the user's own: the one open stays kept as it was (in Mine).
    const kept = current?.place.kind === 'mine' ? ` “${current.scenario.name || current.scenario.id}” stays in Mine as it was.` : '';
    const note =
      net === 'atm'
        ? `An empty ATM network (cells, ABR), a new scenario of yours: add switches, end systems, links and connections.${kept}`
        : `An empty Ethernet network (${frames === undefined ? '' : `${frames}-byte frames, `}FECN or QCN switches, links in Gbps), a new scenario of yours: add switches, end systems, links and connections.${kept}`;
    commit(next, note, note, undefined, true);
  };

  // The undo history lives in the Lab, shared with the side panel's edits (switch settings,
  // virtual paths) and kept across tab changes.
  const h = lab.edits.history;
  const inspected = inspectedConnection(draft, selection);
  // The engine's problems with the last edit made here that it refused (shown at the fields).
  const editRefused = state.problems?.origin === editedOrigin(current.origin) ? state.problems.problems : undefined;
  const selectedLink = selection?.kind === 'link' ? draft.links.find((l) => l.id === selection.id) : undefined;
  const selectedSwitch = selection?.kind === 'node' ? draft.nodes.find((n) => n.id === selection.id && n.kind === 'switch') : undefined;
  const selected = (kind: NonNullable<Selection>['kind'], id: string) => selection?.kind === kind && selection.id === id;

  const groupSet = new Set(group.filter((id) => draft.nodes.some((n) => n.id === id)));
  /** Nodes moved (dropped, or nudged with the arrow keys: `run` makes a run of nudges of the
   *  same nodes one undo step). */
  const moved = (to: Map<string, { x: number; y: number }>, run?: string) => {
    const ids = [...to.keys()];
    const what = ids.length === 1 ? ids[0] : ids.join(', ');
    commit(moveNodes(draft, to), `${what} moved: the run restarted at t = 0.`, `${what} moved: only the drawing changed, the run goes on.`, run);
  };
  const nudgeRun = (ids: string[]) => `move:${[...ids].sort().join(',')}`;

  // Keys on a focused node: the same picks as a click, moves, the start of a link or a
  // connection, deletion. After a deletion the focus stays in the canvas (Tab goes on from there).
  const nodeKey = (id: string, ev: React.KeyboardEvent): boolean => {
    const node = draft.nodes.find((n) => n.id === id);
    if (!node || ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    const to = nudged({ x: node.x ?? 0, y: node.y ?? 0 }, ev.key, ev.shiftKey);
    if (to && groupSet.has(id) && groupSet.size > 1) {
      // The box selection moves together.
      const d = { x: to.x - (node.x ?? 0), y: to.y - (node.y ?? 0) };
      moved(new Map(draft.nodes.filter((n) => groupSet.has(n.id)).map((n) => [n.id, { x: (n.x ?? 0) + d.x, y: (n.y ?? 0) + d.y }])), nudgeRun([...groupSet]));
      return true;
    }
    if (to) {
      setSelection({ kind: 'node', id });
      commit(
        moveNode(draft, id, to.x, to.y),
        `${id} moved: the run restarted at t = 0.`,
        `${id} moved to (${to.x}, ${to.y}): only the drawing changed, the run goes on.`,
        nudgeRun([id]),
      );
      return true;
    }
    const key = ev.key.toLowerCase();
    if (key === 't') return toolbarFocus();
    if (ev.key === 'Enter' || ev.key === ' ') {
      clickNode(id);
      return true;
    }
    if (ev.key === 'Delete' || ev.key === 'Backspace') {
      remove(groupSet.has(id) && groupSet.size > 1 ? null : { kind: 'node', id });
      canvasFocus();
      return true;
    }
    if (key === 'l' || key === 'c') {
      const flowFrom = key === 'c';
      if (flowFrom && node.kind !== 'source') {
        setMessage({ kind: 'error', text: `A connection starts at a source; ${id} is a ${node.kind}.` });
        return true;
      }
      setTool(flowFrom ? 'flow' : 'link');
      setPick(id);
      setMessage({
        kind: 'info',
        text: flowFrom ? `Connection from ${id}: Tab to its destination and press Enter (Esc cancels).` : `Link from ${id}: Tab to the other end and press Enter (Esc cancels).`,
      });
      return true;
    }
    return false;
  };
  const linkKey = (id: string, ev: React.KeyboardEvent): boolean => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    if (ev.key.toLowerCase() === 't') return toolbarFocus();
    if (ev.key === 'Enter' || ev.key === ' ') {
      setSelection({ kind: 'link', id });
      return true;
    }
    if (ev.key === 'Delete' || ev.key === 'Backspace') {
      remove({ kind: 'link', id });
      canvasFocus();
      return true;
    }
    return false;
  };
  const canvasFocus = () => document.querySelector<HTMLElement>('[data-testid="editor-canvas"]')?.focus();
  // T: from a node or a link to the toolbar's first button (QA: + Switch was about ten Tabs
  // away, past the other nodes, the links and React Flow's credit link).
  const toolbarFocus = () => {
    document.querySelector<HTMLElement>('[data-testid="network-editor"] .editor-bar button')?.focus();
    return true;
  };

  // Typing: kept as it goes (one undo step), a refusal waits for the field to be left.
  const rename = (name: string, typing = false) => {
    const r = lab.rename(name, typing ? 'rename' : undefined);
    if (!r.ok) {
      if (!typing) setMessage({ kind: 'error', text: r.rule });
    } else if (r.scenario !== current.scenario) setMessage({ kind: 'info', text: `Named “${r.scenario.name}”: the picker and the panel say so; the run goes on.` });
  };

  return (
    <section className="editor" data-testid="network-editor">
      <label className="editor-name">
        <span>Name</span>
        <NameField name={draft.name ?? draft.id} onRename={rename} hold={(give) => lab.holdTyping(give)} />
        <span className="muted">
          {current.place.kind === 'mine' ? 'Yours: every change is kept in this browser (My scenarios).' : 'Your first change keeps it as yours, under My scenarios.'}
        </span>
      </label>
      <EditorBar
        tool={tool}
        onTool={chooseTool}
        onAdd={add}
        canDelete={!!selection || group.length > 0}
        onDelete={() => remove()}
        canUndo={!!h?.canUndo}
        canRedo={!!h?.canRedo}
        onTravel={travel}
        onEmpty={empty}
        onZoom={(f) => {
          void (f < 1 ? flow.current?.zoomIn() : flow.current?.zoomOut());
          setFitted(false);
        }}
        onFit={
          fitted
            ? null
            : () => {
                void flow.current?.fitView(FIT_VIEW);
                setFitted(true);
              }
        }
      />
      <p className={`editor-message editor-${message?.kind ?? 'info'}`} data-testid="editor-message" role="status">
        {message?.text ?? 'Drag nodes to move them (or Tab to one and use the arrow keys; T comes back to these buttons); every change restarts the run at t = 0.'}
      </p>
      <EditorCanvas
        draft={draft}
        tool={tool}
        pick={pick}
        selection={selection}
        group={groupSet}
        size={size}
        onRoute={linksOnRoute(draft, inspected)}
        onGrab={(id) => {
          if (!groupSet.has(id)) setSelection({ kind: 'node', id });
        }}
        onMoved={moved}
        onGroup={(ids) => {
          setSelection(null);
          setGroup(ids);
          if (ids.length > 0)
            setMessage({ kind: 'info', text: `${ids.join(', ')} selected: drag one or use the arrow keys to move them together, Delete removes them.` });
        }}
        onNodeClick={clickNode}
        onLinkClick={(id) => setSelection({ kind: 'link', id })}
        onBackgroundClick={() => {
          setSelection(null);
          setGroup([]);
          setPick(null);
        }}
        onNodeKey={nodeKey}
        onLinkKey={linkKey}
        onInit={(rf) => (flow.current = rf as unknown as ReactFlowInstance)}
        onViewMoved={() => setFitted(false)}
        present={present}
      />
      {selectedLink && (
        <LinkForm
          key={`${selectedLink.id}:${JSON.stringify(selectedLink)}`}
          link={selectedLink}
          ethernet={!!draft.ethernet}
          fields={catalogue.fields.link}
          delayUsPerKm={catalogue.delay_us_per_km}
          hold={(give) => lab.holdTyping(give)}
          onChange={(patch) => {
            const r = setLink(draft, selectedLink.id, patch, catalogue.fields.link);
            if (!r.ok) return r.rule; // shown at the field
            apply(r, `${selectedLink.id} changed: the run restarted at t = 0.`);
            return null;
          }}
        />
      )}
      {/* A switch selected: what it runs, and the way to its algorithm and parameters, which
          live in the side panel (QA: a student who drew a switch found no way to choose its
          algorithm from the editor). */}
      {selectedSwitch && (
        <p className="editor-switch" data-testid="editor-switch">
          <span>
            {selectedSwitch.id} runs {algorithmNameOf(algorithmOf(draft, selectedSwitch, catalogue.default_algorithm))}.
          </span>
          {onSwitchSettings && (
            <button className="btn" data-testid="editor-switch-settings" onClick={() => onSwitchSettings(selectedSwitch.id)}>
              Choose its algorithm and parameters →
            </button>
          )}
        </p>
      )}
      {inspected && (
        <ConnectionForm
          key={inspected.id}
          scenario={draft}
          conn={inspected}
          paramsOpen={paramsOpenFor === inspected.id}
          catalogue={catalogue}
          problems={editRefused}
          onEdit={(r, note) => apply(r, note)}
          hold={(give) => lab.holdTyping(give)}
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
      <SourceDefaultsForm
        key={`defaults:${defaultsAsked}`}
        scenario={draft}
        catalogue={catalogue}
        problems={editRefused}
        open={defaultsAsked > 0}
        onEdit={(r, note) => apply(r, note)}
        hold={(give) => lab.holdTyping(give)}
      />
    </section>
  );
}

/** How long typing in the name field may pause before what is typed is kept (ms). */
const NAME_KEPT_AFTER_MS = 400;

/**
 * The scenario's name: kept while it is typed (after a pause, and when the page goes away), not
 * only when the field is left — a reload right after typing kept nothing. Shows the scenario's
 * name whenever the field is not being typed in.
 */
function NameField({ name, onRename, hold }: { name: string; onRename: (name: string, typing?: boolean) => void; hold: (give: () => void) => () => void }) {
  const [text, setText] = useState(name);
  const editing = useRef(false);
  const pending = useRef<{ value: string; timer: number } | null>(null);
  const renameRef = useRef(onRename);
  renameRef.current = onRename;
  // The name this field last kept, while it is typed in.
  const kept = useRef<string | null>(null);
  // A name that is neither what is typed nor what this field kept came from elsewhere (another
  // scenario opened, an undo): the field shows it, and what was being typed is dropped rather
  // than given to that scenario.
  const textRef = useRef(text);
  textRef.current = text;
  useEffect(() => {
    if (editing.current && (name === textRef.current || name === kept.current)) return;
    if (pending.current) clearTimeout(pending.current.timer);
    pending.current = null;
    editing.current = false;
    kept.current = null;
    setText(name);
  }, [name]);
  const flush = useCallback(() => {
    const p = pending.current;
    if (!p) return;
    clearTimeout(p.timer);
    pending.current = null;
    kept.current = p.value;
    renameRef.current(p.value, true);
  }, []);
  const holdRef = useRef(hold);
  holdRef.current = hold;
  useEffect(() => {
    // Another scenario opening (Back included) or the page going away: the lab asks for the
    // name typed first, so it goes to the scenario it was typed for.
    const release = holdRef.current(flush);
    return () => {
      release();
      flush();
    };
  }, [flush]);
  const done = (value: string) => {
    if (pending.current) clearTimeout(pending.current.timer);
    pending.current = null;
    editing.current = false;
    kept.current = null;
    onRename(value);
  };
  return (
    <input
      data-testid="scenario-name"
      value={text}
      maxLength={MAX_NAME_CHARS}
      onChange={(e) => {
        const value = e.target.value;
        editing.current = true;
        setText(value);
        if (pending.current) clearTimeout(pending.current.timer);
        // An empty field is a name being retyped: nothing to keep yet.
        pending.current = value.trim() ? { value, timer: window.setTimeout(flush, NAME_KEPT_AFTER_MS) } : null;
      }}
      onBlur={(e) => done(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') done(e.currentTarget.value);
      }}
    />
  );
}
