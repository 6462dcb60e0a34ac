// Every keyboard shortcut of the lab, in one list: the help panel (`?`) shows it, and
// commandOf() says which of the page-wide ones a key press is. Space, undo and redo are handled
// in App.tsx, the editor's keys in editor/NetworkEditor.tsx; they are listed here so that the
// help is complete.

import { isOpen, type TeacherControl, type TeacherSettings } from '../lab/teacher';

export type Command = 'present' | 'panel' | 'help' | 'next-step' | 'previous-step';

export interface Shortcut {
  /** The keys, as the help shows them. */
  keys: string[];
  does: string;
  /** Where it applies, when not everywhere. */
  where?: string;
  /** The controls it works in: listed only while one of them is open (neither hidden nor
   *  locked by a teacher's link). */
  in?: readonly TeacherControl[];
}

/** Undo and redo act on network edits and live parameter changes. */
const EDITS: readonly TeacherControl[] = ['editor', 'params'];
const EDITOR: readonly TeacherControl[] = ['editor'];

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['Space'], does: 'Play / pause the run', where: 'unless a field, a node or link of the editor, or a button reached with the keyboard has the focus' },
  { keys: ['Ctrl+Z', '⌘Z'], does: 'Undo the last network edit or live parameter change', where: 'unless you are typing in a field; in a switch field, once Enter has applied the value', in: EDITS },
  { keys: ['Ctrl+Y', 'Ctrl+Shift+Z', '⌘⇧Z'], does: 'Redo', where: 'unless you are typing in a field; in a switch field, once Enter has applied the value', in: EDITS },
  { keys: ['P'], does: 'Presentation mode on / off (large text, thick lines, high contrast)' },
  { keys: ['\\'], does: 'Hide / show the side panel' },
  { keys: ['N'], does: 'Next step of the lesson’s walk-through (plays on to it if the run has not reached it)', where: 'a lesson with steps' },
  { keys: ['B'], does: 'Back to the step before', where: 'a lesson with steps' },
  { keys: ['?'], does: 'Show / hide this list of shortcuts' },
  { keys: ['Esc'], does: 'Close this list; leave a full-screen chart' },
  { keys: ['Tab', 'Shift+Tab'], does: 'Focus the next / previous node of the network (sources, switches, destinations), then its links', where: 'Edit network', in: EDITOR },
  { keys: ['Enter', 'Space'], does: 'Select the focused node or link (with Link or Connection: pick the node)', where: 'Edit network', in: EDITOR },
  { keys: ['←', '↑', '→', '↓'], does: 'Move the focused node (10 units a press; presses without a pause are one undo step)', where: 'Edit network', in: EDITOR },
  { keys: ['Shift+←', 'Shift+↑', 'Shift+→', 'Shift+↓'], does: 'Move the focused node in bigger steps (50 units)', where: 'Edit network', in: EDITOR },
  { keys: ['L'], does: 'Start a link at the focused node; Tab to the other end and press Enter', where: 'Edit network', in: EDITOR },
  { keys: ['C'], does: 'Start a connection at the focused source; Tab to its destination and press Enter', where: 'Edit network', in: EDITOR },
  { keys: ['Delete', 'Backspace'], does: 'Delete the focused node or link (else the selection)', where: 'Edit network', in: EDITOR },
  { keys: ['T'], does: 'Go from the focused node or link to the editor’s toolbar (+ Source, + Switch, …)', where: 'Edit network', in: EDITOR },
  { keys: ['Esc'], does: 'Cancel the tool in use (back to Select)', where: 'Edit network', in: EDITOR },
  { keys: ['Shift+drag'], does: 'Select the nodes in a box (then drag one, the arrow keys or Delete act on them all)', where: 'Edit network', in: EDITOR },
  { keys: ['Enter', 'Space'], does: 'Show the focused RM cell’s fields and journey; on a switch port, how it computes its feedback', where: 'Network view' },
  { keys: ['←', '→', '↑', '↓'], does: 'Go back or on by one step of the slider (the run pauses there; Play goes on from it)', where: 'Time slider' },
  { keys: ['PageUp', 'PageDown'], does: 'Go on or back by a tenth of the run', where: 'Time slider' },
  { keys: ['Home', 'End'], does: 'Go to the start or the end of the run', where: 'Time slider' },
  { keys: ['←', '→', 'Home', 'End'], does: 'Go to the tab before or after (round the row), the first or the last, and show it', where: 'a row of tabs (the views; Lesson, Result, Switches, VPs)' },
  { keys: ['Enter'], does: 'Apply the value typed', where: 'parameter and rate fields' },
  { keys: ['Esc'], does: 'Drop the value typed', where: 'switch parameter fields' },
  { keys: ['Tab', 'Shift+Tab'], does: 'Move between controls; Enter or Space presses the focused button' },
];

/**
 * The shortcuts that work with a teacher's settings: a link that hides or locks the editor
 * takes its keys out of the list (QA: the help listed them with no editor to use them in).
 */
export function shortcutsFor(settings: TeacherSettings): readonly Shortcut[] {
  return SHORTCUTS.filter((s) => !s.in || s.in.some((c) => isOpen(settings, c)));
}

/** Where typing goes to a field: page-wide letter keys are left to it. */
function typing(target: EventTarget | null): boolean {
  if (!target || typeof (target as HTMLElement).tagName !== 'string') return false;
  const el = target as HTMLElement;
  return el.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName);
}

/** The page-wide command of a key press (null: none, or the key belongs to a field). */
export function commandOf(ev: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'>): Command | null {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target)) return null;
  if (ev.key === 'p' || ev.key === 'P') return 'present';
  if (ev.key === '\\') return 'panel';
  if (ev.key === '?') return 'help';
  // The walk-through's Next and Back sit far down the page in Tab order (QA: 50 presses).
  if (ev.key === 'n' || ev.key === 'N') return 'next-step';
  if (ev.key === 'b' || ev.key === 'B') return 'previous-step';
  return null;
}
