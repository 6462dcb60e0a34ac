// The network editor in a DOM (jsdom) over a lab on the fake engine: edits made faster than the
// engine loads them all reach the network.

import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
// First: the page the view needs as it loads.
import { render, unmount } from '../../test/reactPage';
import type { Scenario } from '../../contract/scenario';
import type { Lab } from '../../lab/lab';
import { labOnFakeEngine } from '../../test/fakeLab';
import { useLabState } from '../useLab';
import { NetworkEditor } from './NetworkEditor';

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as never;

function Editor({ lab }: { lab: Lab }) {
  const state = useLabState(lab);
  return <NetworkEditor lab={lab} state={state} />;
}

let lab: Lab | null = null;
afterEach(() => {
  unmount();
  lab?.dispose();
  lab = null;
});

describe('NetworkEditor', () => {
  // CI: "build a network from the keyboard alone" once found S1 and D1 but no SW1. The engine's
  // answer to the first add came between the second and the third: the canvas went back to the
  // network loaded (S1 alone), and the third add was made on it.
  it('an edit the engine has not loaded yet stays on the canvas when an earlier one comes back', () => {
    const t = labOnFakeEngine();
    lab = t.lab;
    const host = render(<Editor lab={t.lab} />);
    const press = (testId: string) => act(() => host.querySelector<HTMLElement>(`[data-testid="${testId}"]`)!.click());
    const ids = () => (t.lab.getState().current!.scenario as Scenario).nodes.map((n) => n.id);
    press('clear-network');
    press('empty-atm');
    act(() => t.pump());
    expect(ids()).toEqual([]);
    press('add-source');
    press('add-switch');
    // The answer to the first add only: the second is sent and on its way.
    act(() => t.pumpOnce());
    expect(ids()).toEqual(['S1']);
    press('add-destination');
    act(() => t.pump());
    expect(ids()).toEqual(['S1', 'SW1', 'D1']);
  });
});
