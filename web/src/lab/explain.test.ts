import { afterEach, describe, expect, it } from 'vitest';
import type { Explain } from '../contract/engine';
import { InProcessWorker, repoFile, twoSources } from '../test/fakes';
import { readFileSync } from 'node:fs';
import { WASM_INTERACTIVE } from '../test/wasmEngine';
import { explainsNothing, portCarriesBackground, quantityText, switchPorts, vcTable, withoutAbsentVbr } from './explain';
import { Lab } from './lab';

describe('explain presentation', () => {
  // QA: ERICA said "Target rate U·C − VBR" in scenarios without any CBR/VBR background.
  it('leaves the VBR term out of the labels where no background crosses the port', () => {
    const e: Explain = {
      algorithm: 'erica',
      port: 'SW1->SW2',
      time_us: 0,
      rule: 'r',
      values: [
        { name: 'target_rate_mbps', label: 'Target rate U·C − VBR', unit: 'Mbps', value: 139.97 },
        { name: 'capacity_mbps', label: 'Capacity C − VBR', unit: 'Mbps', value: 155.52 },
        { name: 'target_capacity_mbps', label: 'Target C_t = ρ_T·(C − VBR)', unit: 'Mbps', value: 140 },
      ],
      vcs: [],
    };
    const plain = withoutAbsentVbr(e, false);
    expect(plain.values.map((q) => q.label)).toEqual(['Target rate U·C', 'Capacity C', 'Target C_t = ρ_T·C']);
    expect(plain.values.map((q) => q.value)).toEqual([139.97, 155.52, 140]);
    expect(withoutAbsentVbr(e, true)).toBe(e);

    const two = JSON.parse(twoSources());
    expect(portCarriesBackground(two, 'SW1->SW2')).toBe(false);
    const vbr = JSON.parse(readFileSync(repoFile('scenarios/vbr-background.json'), 'utf8'));
    expect(portCarriesBackground(vbr, 'SW1->SW2')).toBe(true);
    expect(portCarriesBackground(vbr, 'SW2->D3')).toBe(true);
    expect(portCarriesBackground(vbr, 'SW2->D1')).toBe(false);
  });

  it('lists a switch output ports, those carrying the most connections first, those toward sources last', () => {
    const s = JSON.parse(twoSources());
    expect(switchPorts(s, 'SW1')).toEqual(['SW1->SW2', 'SW1->S1', 'SW1->S2']);
    // SW2->SW1 carries no data (only backward RM cells): not the port to explain first.
    expect(switchPorts(s, 'SW2')).toEqual(['SW2->D1', 'SW2->D2', 'SW2->SW1']);
  });

  it('writes a quantity with its unit, a flag as yes/no, and an undefined one as a dash', () => {
    expect(quantityText({ name: 'fair_share_mbps', label: 'FairShare', unit: 'Mbps', value: 69.984 })).toBe('69.98 Mbps');
    expect(quantityText({ name: 'overload', label: 'z', unit: '', value: 1.0001 })).toBe('1.000');
    expect(quantityText({ name: 'active_vcs', label: 'N', unit: '', value: 2 })).toBe('2');
    expect(quantityText({ name: 'queue_cells', label: 'Q', unit: 'cells', value: 1 })).toBe('1 cell');
    expect(quantityText({ name: 'queue_cells', label: 'Q', unit: 'cells', value: 2 })).toBe('2 cells');
    expect(quantityText({ name: 'fairshare_first', label: 'B', unit: '0/1', value: 0 })).toBe('no');
    expect(quantityText({ name: 'overload', label: 'z', unit: '', value: null })).toBe('—');
  });

  it('makes one column per VC quantity, in first-seen order, and leaves a missing one empty', () => {
    const e: Explain = {
      algorithm: 'x',
      port: 'SW1->SW2',
      time_us: 0,
      rule: '',
      values: [],
      vcs: [
        { connection: 'C1', values: [{ name: 'ccr_mbps', label: 'CCR', unit: 'Mbps', value: 10 }] },
        { connection: 'C2', values: [{ name: 'er_mbps', label: 'ER', unit: 'Mbps', value: 5 }, { name: 'ccr_mbps', label: 'CCR', unit: 'Mbps', value: 20 }] },
      ],
    };
    const t = vcTable(e);
    expect(t.columns).toEqual([{ name: 'ccr_mbps', label: 'CCR (Mbps)' }, { name: 'er_mbps', label: 'ER (Mbps)' }]);
    expect(t.rows).toEqual([
      { connection: 'C1', cells: ['10', ''] },
      { connection: 'C2', cells: ['20', '5'] },
    ]);
  });
});

let lab: Lab | null = null;
afterEach(() => lab?.dispose());

/** A Lab on the real engine, two-sources loaded. */
function realLab() {
  let worker!: InProcessWorker;
  lab = new Lab(() => (worker = new InProcessWorker(() => WASM_INTERACTIVE)));
  const pump = () => {
    for (let i = 0; i < 20; i++) worker.pump();
  };
  lab.load(twoSources(), 'two-sources');
  pump();
  return { lab, pump };
}

describe('Lab: a switch explains itself, the event log', () => {
  it('explains the picked port when stopped, and again after every step', () => {
    const { lab, pump } = realLab();
    lab.step(10);
    pump();
    lab.explainPort({ switchId: 'SW1', port: 'SW1->SW2' });
    pump();
    const first = lab.getState().explanation!;
    expect(first.problem).toBeNull();
    expect(first.explain!.time_us).toBeCloseTo(10_000, 6);
    lab.step(5);
    pump();
    expect(lab.getState().explanation!.explain!.time_us).toBeCloseTo(15_000, 6);
    lab.explainPort(null);
    expect(lab.getState().explanation).toBeNull();
  });

  it("two inspectors at once: the full-screen view's port is explained over the side panel's, which is asked again when the view lets go", () => {
    const { lab, pump } = realLab();
    lab.step(10);
    pump();
    const shown = () => {
      const e = lab.getState().explanation;
      return e && `${e.port} @ ${e.explain!.time_us / 1000}`;
    };
    lab.explainPort({ switchId: 'SW1', port: 'SW1->SW2' }); // the side panel
    pump();
    expect(shown()).toBe('SW1->SW2 @ 10');
    lab.explainPort({ switchId: 'SW2', port: 'SW2->D1' }, 'network-view');
    pump();
    expect(shown()).toBe('SW2->D1 @ 10');
    lab.step(5);
    pump();
    expect(shown()).toBe('SW2->D1 @ 15');
    lab.explainPort(null, 'network-view');
    pump();
    expect(shown()).toBe('SW1->SW2 @ 15');
    lab.explainPort(null);
    expect(lab.getState().explanation).toBeNull();
  });

  it('fills the event log while on, empties it on reset, and steps to the next event at a node', () => {
    const { lab, pump } = realLab();
    lab.setRmTrace(true);
    lab.step(5);
    pump();
    const n = lab.rmLog.records().length;
    expect(n).toBeGreaterThan(0);
    lab.nextRmEvent('SW1', 'backward');
    pump();
    const found = lab.getState().rmFound!;
    expect(found.record).toMatchObject({ node: 'SW1', direction: 'backward' });
    expect(lab.getState().status!.nowMs * 1000).toBeCloseTo(found.record!.time_us, 6);
    expect(lab.rmLog.records()).toContainEqual(found.record);
    lab.reset();
    pump();
    expect(lab.rmLog.records()).toHaveLength(0);
  });
});

describe('Lab: the RM-cell trace is on while anyone asks for it', () => {
  it("a holder letting go (the Network view closing) leaves on what the event log's box asked for", () => {
    const { lab, pump } = realLab();
    expect(lab.getState().rmTraceHeld).toBe(false);
    lab.holdRmTrace('network-view', true);
    // The log says it records for the view though its box is clear.
    expect(lab.getState()).toMatchObject({ rmTrace: false, rmTraceHeld: true });
    lab.setRmTrace(true); // the box ticked while the view draws cells
    lab.holdRmTrace('network-view', false); // the view closes
    expect(lab.getState().rmTraceHeld).toBe(false);
    expect(lab.rmTraceRecording).toBe(true);
    lab.step(5);
    pump();
    expect(lab.rmLog.records().length).toBeGreaterThan(0);
    lab.setRmTrace(false);
    expect(lab.rmTraceRecording).toBe(false);
    lab.holdRmTrace('network-view', true); // the view alone records too
    expect(lab.rmTraceRecording).toBe(true);
    const before = lab.rmLog.records().length;
    lab.step(5);
    pump();
    expect(lab.rmLog.records().length).toBeGreaterThan(before);
  });

  it('a holder that backfills, on a paused run, gets the cells sent before it asked, and the run stays where it stood', () => {
    const { lab, pump } = realLab();
    lab.step(5);
    pump();
    expect(lab.getState().status).toMatchObject({ mode: 'paused', nowMs: 5 });
    lab.holdRmTrace('plain', true); // from now on only: nothing yet
    pump();
    expect(lab.rmLog.records()).toHaveLength(0);
    lab.holdRmTrace('plain', false);
    lab.holdRmTrace('network-view', true, { backfillMs: 10 });
    pump();
    const times = lab.rmLog.records().map((r) => r.time_us);
    expect(times.length).toBeGreaterThan(0);
    expect(Math.max(...times)).toBeLessThanOrEqual(5_000);
    expect(Math.min(...times)).toBeLessThan(1_000); // replayed from 10 ms back at least: the start
    expect(lab.getState().status).toMatchObject({ mode: 'paused', nowMs: 5 });
    // Playing on is the very run: its digest is that of a run never replayed.
    lab.setSpeed('max');
    lab.play();
    for (let i = 0; i < 200 && lab.getState().status?.mode !== 'done'; i++) pump();
    const replayed = lab.getState().digest;
    lab.dispose();
    const other = realLab();
    other.lab.setSpeed('max');
    other.lab.play();
    for (let i = 0; i < 200 && other.lab.getState().status?.mode !== 'done'; i++) other.pump();
    expect(replayed).toBeTruthy();
    expect(replayed).toBe(other.lab.getState().digest);
  });
});

describe('every ATM algorithm explains itself through the one generic record', () => {
  const catalogue = JSON.parse(WASM_INTERACTIVE.catalogue()) as { algorithms: { id: string; network: string }[] };
  const atm = catalogue.algorithms.filter((a) => a.network !== 'ethernet').map((a) => a.id);

  it.each(atm)('%s at SW1->SW2 of two-sources', (id) => {
    const s = JSON.parse(twoSources());
    for (const n of s.nodes) if (n.kind === 'switch') n.algorithm = id;
    const sim = WASM_INTERACTIVE.createSimulation(JSON.stringify(s));
    sim.advance(20, 1e9);
    const answer = JSON.parse(sim.explain('SW1', 'SW1->SW2')) as { explain?: Explain };
    sim.free();
    const e = answer.explain!;
    expect(e.algorithm).toBe(id);
    expect(e.port).toBe('SW1->SW2');
    // Only an algorithm that computes no feedback has nothing to say (the panel says so).
    expect(explainsNothing(e)).toBe(id === 'none');
    if (id !== 'none') expect(e.rule.length).toBeGreaterThan(0);
    // Every quantity has a label and reads as a value (with its unit when it has one).
    for (const q of [...e.values, ...e.vcs.flatMap((v) => v.values)]) {
      expect(q.label.length).toBeGreaterThan(0);
      const text = quantityText(q);
      // Its unit, in the singular for one cell or frame.
      const unit = q.value === 1 && (q.unit === 'cells' || q.unit === 'frames') ? q.unit.slice(0, -1) : q.unit;
      if (q.value !== null && q.unit && q.unit !== '0/1') expect(text.endsWith(` ${unit}`)).toBe(true);
    }
    // The per-VC table has a row per VC with a cell under every column.
    const t = vcTable(e);
    expect(t.rows.map((r) => r.connection)).toEqual(e.vcs.map((v) => v.connection));
    for (const r of t.rows) expect(r.cells).toHaveLength(t.columns.length);
  });
});

describe('every Ethernet algorithm explains itself through the one generic record', () => {
  const catalogue = JSON.parse(WASM_INTERACTIVE.catalogue()) as { algorithms: { id: string; network: string }[] };
  const ethernet = catalogue.algorithms.filter((a) => a.network !== 'atm' && a.id !== 'none').map((a) => a.id);

  it.each(ethernet)('%s at the first port of fecn-hotspot SW1', (id) => {
    const s = JSON.parse(readFileSync(repoFile('scenarios/fecn-hotspot.json'), 'utf8'));
    // At the algorithm's defaults (the scenario's parameters are FECN's).
    for (const n of s.nodes) if (n.kind === 'switch' && n.algorithm !== id) Object.assign(n, { algorithm: id, params: {} });
    const port = switchPorts(s, 'SW1')[0];
    const sim = WASM_INTERACTIVE.createSimulation(JSON.stringify(s));
    sim.advance(s.run.duration_ms / 4, 1e9);
    const answer = JSON.parse(sim.explain('SW1', port)) as { explain?: Explain };
    sim.free();
    const e = answer.explain!;
    expect(e.algorithm).toBe(id);
    expect(explainsNothing(e)).toBe(false);
    for (const q of e.values) expect(quantityText(q)).not.toBe('');
    const t = vcTable(e);
    for (const r of t.rows) expect(r.cells).toHaveLength(t.columns.length);
  });
});
