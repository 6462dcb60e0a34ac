// The toolbar's view controls for a class (presentation mode, the side panel, the shortcuts
// help) and the help itself: every keyboard shortcut the page offers, from shortcuts.ts.

import { useEffect, useRef, useState } from 'react';
import type { LabState } from '../lab/lab';
import type { Mode } from '../engine/protocol';
import { playAnnouncement } from './announce';
import { shortcutsFor } from './shortcuts';
import { useTeacher } from './teacherContext';
import { ModalDialog } from './ModalDialog';
import type { useClassroom } from './useClassroom';

type Classroom = ReturnType<typeof useClassroom>;

export function ClassroomButtons({ classroom }: { classroom: Classroom }) {
  const buttons = [
    {
      id: 'present',
      pressed: classroom.present,
      onClick: classroom.togglePresent,
      title: 'Presentation mode: large axis text and legends, thick lines, high contrast (P)',
      text: classroom.present ? 'Presenting' : 'Present',
    },
    {
      id: 'toggle-panel',
      pressed: !classroom.panelOpen,
      onClick: classroom.togglePanel,
      title: 'Hide or show the side panel (\\)',
      text: classroom.panelOpen ? 'Hide panel' : 'Show panel',
    },
    {
      id: 'shortcuts',
      pressed: classroom.helpOpen,
      onClick: () => classroom.setHelpOpen(!classroom.helpOpen),
      title: 'Keyboard shortcuts (?)',
      text: '⌨ Keys',
      // The presenter's, folded behind More while presenting (Toolbar.tsx).
      className: 'presenter-chrome',
    },
  ];
  return (
    <div className="tool-group classroom" role="group" aria-label="view">
      {buttons.map((b) => (
        <button key={b.id} className={b.className ? `btn ghost ${b.className}` : 'btn ghost'} data-testid={b.id} aria-pressed={b.pressed} onClick={b.onClick} title={b.title}>
          {b.text}
        </button>
      ))}
    </div>
  );
}

export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  // Only the keys of what the class can use: a teacher's link may hide or lock the editor.
  const shortcuts = shortcutsFor(useTeacher());
  return (
    <ModalDialog className="shortcuts-help" testId="shortcuts-help" closeTestId="shortcuts-close" title="Keyboard shortcuts" onClose={onClose} closeOnBackdrop>
      <table>
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">What they do</th>
            <th scope="col">Where</th>
          </tr>
        </thead>
        <tbody>
          {shortcuts.map((s) => (
            <tr key={`${s.keys.join()}:${s.does}`}>
              <td>
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && ' or '}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </td>
              <td>{s.does}</td>
              <td>{s.where ?? 'anywhere'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ModalDialog>
  );
}

/** A polite live region that tells screen readers when the run plays, pauses or ends. */
export function PlayAnnouncer({ state }: { state: LabState }) {
  const mode = state.status?.mode ?? null;
  const run = state.status?.run ?? null;
  const last = useRef<{ mode: Mode | null; run: number | null }>({ mode: null, run: null });
  const [text, setText] = useState('');
  useEffect(() => {
    if (mode === null) return;
    const before = last.current.run === run ? last.current.mode : null;
    last.current = { mode, run };
    const said = playAnnouncement(before, mode, state.status?.nowMs ?? 0, state.status?.endMs ?? 0, state.speed);
    if (said) setText(said);
    // Only a change of mode (or of run) speaks: the clock and the speed are read when it does.
  }, [mode, run]);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" data-testid="play-announcer">
      {text}
    </div>
  );
}
