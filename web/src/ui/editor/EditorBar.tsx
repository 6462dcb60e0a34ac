// The editor's buttons: add a node, pick a tool, delete, undo and redo, an empty canvas, zoom.

import { useState } from 'react';
import { KIND_LABEL, type Tool } from './canvas';
import type { NodeKind } from '../../contract/scenario';

const TOOLS = [
  ['select', 'Select / drag'],
  ['link', 'Link'],
  ['flow', 'Connection'],
] as const;

export interface EditorBarProps {
  tool: Tool;
  onTool(t: Tool): void;
  onAdd(kind: NodeKind): void;
  canDelete: boolean;
  onDelete(): void;
  canUndo: boolean;
  canRedo: boolean;
  onTravel(dir: 'undo' | 'redo'): void;
  onEmpty(network: 'atm' | 'ethernet'): void;
  /** Zoom by a factor about the view's centre (> 1: out). */
  onZoom(f: number): void;
  onFit: (() => void) | null;
}

export function EditorBar(p: EditorBarProps) {
  const [emptyMenu, setEmptyMenu] = useState(false);
  return (
    <div className="editor-bar">
      <div className="editor-group" role="group" aria-label="add">
        {(['source', 'switch', 'destination'] as const).map((k) => (
          <button key={k} className="btn" data-testid={`add-${k}`} onClick={() => p.onAdd(k)} title={`Add a ${k}`}>
            + {KIND_LABEL[k]}
          </button>
        ))}
      </div>
      <div className="editor-group" role="radiogroup" aria-label="tool">
        {TOOLS.map(([t, label]) => (
          <button
            key={t}
            role="radio"
            aria-checked={p.tool === t}
            className={`btn${p.tool === t ? ' active' : ''}`}
            data-testid={`tool-${t}`}
            onClick={() => p.onTool(t)}
          >
            {label}
          </button>
        ))}
      </div>
      <div className="editor-group">
        <button className="btn" data-testid="delete" disabled={!p.canDelete} onClick={p.onDelete} title="Delete the selection (Delete)">
          Delete
        </button>
        <button className="btn" data-testid="undo" disabled={!p.canUndo} onClick={() => p.onTravel('undo')} title="Undo (Ctrl+Z)">
          Undo
        </button>
        <button className="btn" data-testid="redo" disabled={!p.canRedo} onClick={() => p.onTravel('redo')} title="Redo (Ctrl+Shift+Z)">
          Redo
        </button>
        <button
          className={`btn ghost${emptyMenu ? ' active' : ''}`}
          data-testid="clear-network"
          aria-expanded={emptyMenu}
          onClick={() => setEmptyMenu(!emptyMenu)}
          title="Start a new scenario of yours from an empty canvas, ATM or Ethernet (the one open stays as it was; undo brings its network back)"
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
                p.onEmpty(net);
              }}
            >
              {net === 'atm' ? 'ATM (cells)' : 'Ethernet (frames)'}
            </button>
          ))}
      </div>
      <div className="editor-group" role="group" aria-label="zoom">
        <button className="btn" data-testid="zoom-in" onClick={() => p.onZoom(1 / 1.25)} title="Zoom in (wheel)">
          +
        </button>
        <button className="btn" data-testid="zoom-out" onClick={() => p.onZoom(1.25)} title="Zoom out (wheel)">
          −
        </button>
        <button className="btn" data-testid="zoom-fit" onClick={() => p.onFit?.()} disabled={p.onFit === null} title="Show the whole network">
          Fit
        </button>
      </div>
    </div>
  );
}
