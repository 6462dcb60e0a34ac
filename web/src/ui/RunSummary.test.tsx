import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RunSummary as Summary } from '../contract/engine';
import { convergedText, hostQueueNote, leftBeforeSteady, RunSummary, sourceBacklogNote } from './RunSummary';
import { noteConnection, notePath, noteSentence, noteTarget, ScenarioNotes, ScenarioNotesAnnouncer } from './ScenarioNotes';

const conn = (id: string, mean: number | null) => ({
  id,
  kind: 'ethernet' as const,
  mean_rate_mbps: mean,
  fair_share_mbps: 0,
  target_share_mbps: 0,
  sent_cells: 1,
  delivered_cells: 1,
  lost_cells: 0,
  loss_ratio: 0,
  host_queue_max_cells: 0,
  host_queue_cells: 0,
});

const summary = {
  scenario: 'fecn-hotspot',
  seed: 1,
  sim_ms: 200,
  wall_ms: 0,
  events: 0,
  steady_from_ms: 150,
  unit: 'frame',
  connections: [conn('F1', 5000), conn('F3', 0)],
  ports: [],
  links: [],
  jain_index: 1,
  convergence_ms: 10,
  judged_rates: 2,
  digest: 'x',
} as unknown as Summary;

describe('RunSummary', () => {
  // Issue 14: flows that left before the steady window showed 0.00 / 0.00 / 0.00.
  it('issue 14: a flow that left before the steady window says when it left, not three zeros', () => {
    const html = renderToStaticMarkup(<RunSummary summary={summary} connections={[{ id: 'F1' }, { id: 'F3', stop_ms: 80 }]} />);
    expect(html).toContain('left at 80 ms');
    const f3 = html.slice(html.indexOf('<td>F3'));
    expect(f3.slice(0, f3.indexOf('</tr>'))).not.toContain('0.00');
    expect(html).toContain('5000.00'); // the flow that stayed keeps its numbers
  });

  it("shows the engine's notes first (why the means are missing)", () => {
    const note = 'no means: the steady-state window, from 66.667 ms (two thirds of the run) to the end at 100 ms, holds 1 sample';
    const html = renderToStaticMarkup(<RunSummary summary={{ ...summary, notes: [note] }} />);
    expect(html).toContain('data-testid="summary-note"');
    expect(html).toContain('No means: the steady-state window');
    expect(html.indexOf('No means')).toBeLessThan(html.indexOf('Jain&#x27;s index'));
    expect(renderToStaticMarkup(<RunSummary summary={summary} />)).not.toContain('data-testid="summary-note"');
  });

  // The paths were capitalised ("Connections[1] (F1).params…"): no longer the file's path.
  it("a note that opens with its field's path keeps the path as the engine writes it; others are sentences", () => {
    const dead = 'connections[1] (F1).params.tag_interval_us: changes nothing, as F1 sends no tags';
    expect(noteSentence(dead)).toBe(`${dead}.`);
    expect(notePath(dead)).toBe('connections[1] (F1).params.tag_interval_us');
    expect(notePath('no means: the steady-state window …')).toBeNull();
    expect(noteSentence('defaults.source.tag_interval_us: changes nothing')).toBe('defaults.source.tag_interval_us: changes nothing.');
    expect(noteSentence('binary feedback at SW1 with RIF = 1')).toBe('Binary feedback at SW1 with RIF = 1.');
    const shown = `<code>connections[1] (F1).params.tag_interval_us</code>: changes nothing, as F1 sends no tags.`;
    expect(renderToStaticMarkup(<RunSummary summary={{ ...summary, notes: [dead] }} />)).toContain(shown);
    // Before a run, the same words in the side panel's box; nothing when there is nothing to say.
    const box = renderToStaticMarkup(<ScenarioNotes notes={[dead]} />);
    expect(box).toContain('A note on this scenario');
    expect(box).toContain(shown);
    expect(renderToStaticMarkup(<ScenarioNotes notes={[]} />)).toBe('');
    // A note on a connection's field offers to open it in the editor, when the editor is there.
    expect(noteConnection(dead)).toBe('F1');
    expect(noteConnection('defaults.source.tag_interval_us: changes nothing')).toBeNull();
    expect(renderToStaticMarkup(<ScenarioNotes notes={[dead]} onEditField={() => {}} />)).toContain('Edit F1');
    expect(box).not.toContain('Edit F1');
    // One on a field every source takes opens those (defaults.source); one without a path, nothing.
    const everySource = 'defaults.source.tag_interval_us: changes nothing, as no flow sends tags';
    expect(noteTarget(dead)).toEqual({ connection: 'F1' });
    expect(noteTarget(everySource)).toEqual({ sourceDefaults: true });
    expect(noteTarget('binary feedback at SW1 with RIF = 1')).toBeNull();
    expect(noteTarget("binary feedback at SW1 with RIF = 1: … (defaults.source.rif = 0.0625 runs the scheme as TM 4.0 defines it)")).toEqual({
      sourceDefaults: true,
    });
    expect(renderToStaticMarkup(<ScenarioNotes notes={[everySource]} onEditField={() => {}} />)).toContain('Edit every source');
    // Said to a screen reader as they come, by a live region that stays on the page.
    const live = renderToStaticMarkup(<ScenarioNotesAnnouncer notes={[dead]} />);
    expect(live).toContain('aria-live="polite"');
    expect(live).toContain(`A note on this scenario: ${dead}.`);
    expect(renderToStaticMarkup(<ScenarioNotesAnnouncer notes={[]} />)).toContain('aria-live="polite"');
  });

  // QA: Series-D's staggered sources that send 2 Mb and leave showed 0.00 / 0.00 / 0.00.
  it('a source that sent its volume and left before the steady window says so; one still sending keeps its numbers', () => {
    const gone = { ...conn('F3', 0), mean_rate_mbps: 0, fair_share_mbps: 0, target_share_mbps: 0 };
    const html = renderToStaticMarkup(
      <RunSummary summary={{ ...summary, connections: [conn('F1', 5000), gone] }} connections={[{ id: 'F1', volume_mb: 2 }, { id: 'F3', volume_mb: 2 }]} />,
    );
    expect(html).toContain('left after sending 2 Mb');
    const f3 = html.slice(html.indexOf('<td>F3'));
    expect(f3.slice(0, f3.indexOf('</tr>'))).not.toContain('0.00');
    const f1 = html.slice(html.indexOf('<td>F1'));
    expect(f1.slice(0, f1.indexOf('</tr>'))).not.toContain('left');
  });

  it('a flow stopping inside the steady window keeps its numbers', () => {
    expect(leftBeforeSteady(80, 150)).toBe(80);
    expect(leftBeforeSteady(150, 150)).toBe(150);
    expect(leftBeforeSteady(180, 150)).toBeNull();
    expect(leftBeforeSteady(undefined, 150)).toBeNull();
  });
});

describe('sourceBacklogNote', () => {
  it('names the Ethernet flows whose offered frames waited at the host, and none other', () => {
    const eth = (id: string, backlog: number | undefined) => ({ ...conn(id, 5000), kind: 'ethernet' as const, max_source_queue_cells: backlog });
    const lines = sourceBacklogNote([eth('F2', 46056), eth('F3', 1), eth('F4', undefined), { ...conn('C1', 10), kind: 'abr' as const, max_source_queue_cells: 900 }], 'frames');
    expect(lines).toEqual([
      'Offered more than its rate limit let through, frames waited at the host (at most): F2 46,056. A flow sends its backlog as the limit allows, so its mean rate may exceed what it offers.',
    ]);
    expect(sourceBacklogNote([eth('F0', 5256), eth('F2', 46056)], 'frames')[0]).toContain('their rate limits let through, frames waited at the hosts (at most): F0 5,256, F2 46,056.');
    expect(sourceBacklogNote([eth('F3', 1)], 'frames')).toEqual([]);
  });
});

describe('hostQueueNote', () => {
  it('names only the sources that waited for their own link, with what waited', () => {
    const held = { ...conn('C1', 150), host_queue_max_cells: 1000, host_queue_cells: 998 };
    const lines = hostQueueNote([held, { ...conn('C2', 10), host_queue_max_cells: 1 }], 'cells');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('C1');
    expect(lines[0]).toContain('up to 1000 cells');
    expect(lines[0]).toContain('998 still at the end');
  });
});

describe('convergedText', () => {
  it('gives the convergence time when the rates settled for good', () => {
    expect(convergedText({ convergence_ms: 1234.5, judged_rates: 2, on_target_fraction: 1 })).toEqual({ label: 'Converged at', text: '1,234.5 ms' });
  });

  // QA: vbr-background said "not within 10 %" while its rates tracked the moving target.
  it('says how much of the steady window the rates were on target when they never settled for good', () => {
    const c = convergedText({ convergence_ms: null, judged_rates: 2, on_target_fraction: 0.905 });
    // QA: "Converged at: not for good: within 10 % in 0 % of the steady window" read badly.
    expect(`${c.label}: ${c.text}`).toBe('Did not converge: within 10 % for 90 % of the steady window');
    expect(c.title).toContain('round trip late');
    expect(convergedText({ convergence_ms: null, judged_rates: 2, on_target_fraction: 0 }).text).toContain('for 0 %');
    // Rounded down, but not a percent short where 100 × the fraction lands a hair below it.
    expect(convergedText({ convergence_ms: null, judged_rates: 2, on_target_fraction: 0.29 }).text).toContain('for 29 %');
  });

  it('falls back to the plain rule without the fraction, and says when nothing is judged', () => {
    expect(convergedText({ convergence_ms: null, judged_rates: 2, on_target_fraction: null })).toMatchObject({ label: 'Did not converge', text: 'not within 10 % to the end of the run' });
    expect(convergedText({ convergence_ms: null, judged_rates: 0 }).text).toBe('– (no rate-controlled source)');
  });
});
