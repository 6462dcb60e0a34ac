// The explanation in a DOM (jsdom): a value the engine notes (ERICA's MaxAllocPrevious above
// the target rate, which its definition allows) carries the note under it; other values none.

import { expect, it } from 'vitest';
// First: the page the view needs as it loads.
import { render } from '../test/reactPage';
import type { Explain } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import type { Lab, LabState } from '../lab/lab';
import { INITIAL_STATE } from '../lab/state';
import { twoSources } from '../test/fakes';
import { SwitchExplain } from './SwitchExplain';

const NOTE = 'Above the target rate, as ERICA defines it: every ER written is capped at the target rate.';

function shown(explain: Explain) {
  const scenario = JSON.parse(twoSources()) as Scenario;
  const state = {
    ...INITIAL_STATE,
    current: { scenario },
    status: { run: 1, mode: 'paused', nowMs: 20, endMs: 300, done: false, events: 0, speed: 1, achievedSpeed: null, eventsPerSec: null, engineMs: 0 },
    explanation: { switchId: 'SW1', port: explain.port, explain, problem: null },
  } as unknown as LabState;
  const lab = { explainPort: () => {} } as unknown as Lab;
  return render(<SwitchExplain lab={lab} state={state} node="SW1" />);
}

it('shows the note the engine attaches to a value, under that value, and no other', () => {
  const host = shown({
    algorithm: 'erica',
    port: 'SW1->SW2',
    time_us: 20000,
    rule: 'ER = …',
    values: [
      { name: 'fair_share_mbps', label: 'FairShare = target / N', unit: 'Mbps', value: 69.98 },
      { name: 'max_alloc_previous_mbps', label: 'MaxAllocPrevious', unit: 'Mbps', value: 412.5, note: NOTE },
    ],
    vcs: [],
  });
  const notes = [...host.querySelectorAll('[data-testid="explain-note"]')];
  expect(notes.map((n) => n.textContent)).toEqual([NOTE]);
  const row = notes[0].parentElement!;
  expect(row.getAttribute('data-name')).toBe('max_alloc_previous_mbps');
  expect(row.querySelector('dd')!.textContent).toBe('412.50 Mbps');
});
