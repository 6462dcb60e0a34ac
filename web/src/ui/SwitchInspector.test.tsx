// The switch panel in a DOM (jsdom) over a lab on the fake engine: the notes of steps the user
// may want back at once come with Undo and Redo buttons that step the lab's one history, and
// Ctrl+Z in a parameter field whose value Enter applied undoes it there.

import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
// First: the page the view needs as it loads.
import { render, unmount } from '../test/reactPage';
import type { Scenario } from '../contract/scenario';
import type { Lab } from '../lab/lab';
import { labOnFakeEngine } from '../test/fakeLab';
import { twoSources } from '../test/fakes';
import { RecordedChanges, SwitchInspector } from './SwitchInspector';
import { useLabState } from './useLab';

function Panel({ lab }: { lab: Lab }) {
  const state = useLabState(lab);
  return (
    <>
      <SwitchInspector lab={lab} state={state} node="SW1" />
      <RecordedChanges lab={lab} state={state} node="SW1" />
    </>
  );
}

let lab: Lab | null = null;
// The panel goes before its lab (reactPage empties the page after).
afterEach(() => {
  unmount();
  lab?.dispose();
  lab = null;
});

const RECORDED = { at_ms: 50, node: 'SW1', param: 'target_utilization', value: 0.95 };

/** The panel of SW1, with a recorded change at 50 ms and the run paused at 20 ms. */
function panel() {
  const t = labOnFakeEngine();
  lab = t.lab;
  t.lab.load(JSON.stringify({ ...(JSON.parse(twoSources()) as Scenario), changes: [RECORDED] }), 'two-sources');
  t.pump();
  t.lab.runUntil(20);
  t.pump();
  const host = render(<Panel lab={t.lab} />);
  const pump = () => act(() => t.pump());
  const $ = (testId: string) => host.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  const field = () => $('param-target_utilization')!.querySelector('input')!;
  const changes = () => t.lab.getState().current!.scenario.changes;
  /** Types a value in the field and presses Enter (the field keeps the focus). */
  const enter = (value: string) => {
    const input = field();
    act(() => input.focus());
    const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    act(() => {
      set.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    act(() => void input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true })));
    pump();
  };
  const press = (el: HTMLElement, init: KeyboardEventInit) => {
    let ev!: KeyboardEvent;
    act(() => void el.dispatchEvent((ev = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }))));
    pump();
    return ev;
  };
  const click = (el: HTMLElement) => {
    act(() => el.click());
    pump();
  };
  return { t, $, field, changes, enter, press, click };
}

describe('SwitchInspector: undo where the note says it', () => {
  it('the note of a live change that replaced a recorded one has an Undo button; after it, Redo', () => {
    const p = panel();
    p.enter('0.6');
    const live = { at_ms: 20, node: 'SW1', param: 'target_utilization', value: 0.6 };
    expect(p.changes()).toEqual([live]);
    expect(p.$('switch-note')!.textContent).toMatch(/recorded for later \(at 50\.00 ms → 0\.95\)\. Undo \(Ctrl\+Z\) brings it back\.$/);
    const undo = p.$('switch-note-undo')!;
    expect(undo.tagName).toBe('BUTTON');
    expect(undo.textContent).toBe('Undo');
    expect((undo as HTMLButtonElement).disabled).toBe(false);
    expect(p.$('switch-note-redo')).toBeNull(); // nothing to redo yet

    p.click(undo);
    expect(p.changes()).toEqual([RECORDED]);
    expect(p.$('switch-note')!.textContent).toMatch(/^Undone: SW1's target_utilization = 0\.6 from 20\.00 ms on\. .* to t = 20\.00 ms\.$/);
    expect(p.t.lab.getState().status).toMatchObject({ mode: 'paused', nowMs: 20 });
    p.click(p.$('switch-note-redo')!);
    expect(p.changes()).toEqual([live]);
    expect(p.$('switch-note')!.textContent).toMatch(/^Redone: /);
    expect(p.$('switch-note-undo')).not.toBeNull();
  });

  it('Ctrl+Z in the field once Enter applied its value undoes the change, Ctrl+Shift+Z redoes it; while typing it is the field’s', () => {
    const p = panel();
    p.enter('0.6');
    const input = p.field();
    expect(document.activeElement).toBe(input);
    let ev = p.press(input, { key: 'z', ctrlKey: true });
    expect(ev.defaultPrevented).toBe(true);
    expect(p.changes()).toEqual([RECORDED]);
    expect(p.$('switch-note')!.textContent).toMatch(/^Undone: /);
    p.press(input, { key: 'Z', ctrlKey: true, shiftKey: true });
    expect(p.changes()).toHaveLength(1);
    expect(p.changes()![0]).toMatchObject({ value: 0.6 });

    // Typing: the browser's undo of the text, the lab untouched.
    act(() => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, '0.7');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    ev = p.press(input, { key: 'z', ctrlKey: true });
    expect(ev.defaultPrevented).toBe(false);
    expect(p.changes()![0]).toMatchObject({ value: 0.6 });
  });

  it('forgetting the recorded changes says so under them, with an Undo button that brings them back', () => {
    const p = panel();
    p.click(p.$('clear-changes')!);
    expect(p.changes()).toBeUndefined();
    expect(p.$('changes-note')!.textContent).toBe('Forgot the recorded change; the run restarted at t = 0. Undo (Ctrl+Z) brings it back.');
    expect(p.$('switch-note')).toBeNull(); // under the changes only
    p.t.lab.runUntil(30);
    act(() => p.t.pump());
    p.click(p.$('changes-note-undo')!);
    expect(p.changes()).toEqual([RECORDED]);
    expect(p.$('changes-note')!.textContent).toBe(
      'Undone: forgetting the recorded changes. The recorded change is back (at 50.00 ms: SW1 target_utilization → 0.95). ' +
        'The run was replayed with it to t = 30.00 ms.',
    );
    expect(p.$('changes')!.textContent).toContain('at 50.00 ms: SW1 target_utilization → 0.95');
    p.click(p.$('changes-note-redo')!);
    expect(p.changes()).toBeUndefined();
  });
});
