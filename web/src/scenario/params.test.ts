import { describe, expect, it } from 'vitest';
import type { ParamSpec } from '../contract/engine';
import type { Scenario } from '../contract/scenario';
import { checkParamValue, describeRange, paramAt, parseParamInput, readableNumber, specOf } from './params';
import { ENGINE_CATALOGUE } from '../test/engineCatalogue';
import { twoSources } from '../test/fakes';

// Entries as the engine's catalogue gives them (`abrsim algorithms`, ERICA).
const targetUtilization: ParamSpec = {
  name: 'target_utilization',
  unit: '',
  default: 0.9,
  min: 0.1,
  max: 1,
  integer: false,
  meaning: 'Fraction U of the link that ERICA allocates; the rest absorbs bursts',
};
const intervalCells: ParamSpec = {
  name: 'interval_cells',
  unit: 'cells',
  default: 100,
  min: 1,
  max: 1_000_000,
  integer: true,
  meaning: 'Averaging interval by count',
};

describe('parameter input against its catalogue entry', () => {
  it('accepts a value inside the range, and an empty field as "the default"', () => {
    expect(parseParamInput(targetUtilization, ' 0.6 ')).toEqual({ ok: true, value: 0.6 });
    expect(parseParamInput(targetUtilization, '1')).toEqual({ ok: true, value: 1 });
    expect(parseParamInput(targetUtilization, '0.1')).toEqual({ ok: true, value: 0.1 });
    expect(parseParamInput(targetUtilization, '')).toEqual({ ok: true, value: null });
    expect(parseParamInput(intervalCells, '250')).toEqual({ ok: true, value: 250 });
    expect(parseParamInput(targetUtilization, '9e-1')).toEqual({ ok: true, value: 0.9 });
    expect(parseParamInput(targetUtilization, '.5')).toEqual({ ok: true, value: 0.5 });
  });

  it('reads numbers as a scenario file writes them: no hexadecimal, binary or Infinity (QA: 0x1 was taken as 1)', () => {
    for (const text of ['0x1', '0b1', '0o1', 'Infinity', '1,5', '1e', '--1', '1 2']) {
      expect(parseParamInput(targetUtilization, text), text).toEqual({ ok: false, rule: 'target_utilization must be a number (0.1 – 1)' });
    }
  });

  it('refuses a decimal past the largest number as the engine does, not as text (QA: 1e400 read differently)', async () => {
    const { WASM_ENGINE } = await import('../test/wasmEngine');
    const { twoSources } = await import('../test/fakes');
    for (const text of ['1e400', '-1e400']) {
      const parsed = parseParamInput(targetUtilization, text);
      expect(parsed).toEqual({ ok: false, rule: `target_utilization must be a finite number: ${text} is beyond the largest number (about 1.8e308)` });
      // The engine's words for the same value given as an override (abrsim --set, Compare).
      let engine = '';
      try {
        WASM_ENGINE.applyVariant(twoSources(), JSON.stringify([`nodes.SW1.params.target_utilization=${text}`]));
      } catch (e) {
        engine = (e as Error).message;
      }
      expect(engine).toContain(`target_utilization ${(parsed as { rule: string }).rule.slice('target_utilization '.length)}`);
    }
  });

  // QA: 5e-400 read as 0 and was refused as "= 0 is out of range", a value never typed.
  it('refuses a number too small to represent as the engine does, not as the 0 it would read as', async () => {
    const { WASM_ENGINE } = await import('../test/wasmEngine');
    for (const text of ['5e-400', '-0.5e-330']) {
      const parsed = parseParamInput(targetUtilization, text);
      expect(parsed).toEqual({
        ok: false,
        rule: `target_utilization must be a representable number: ${text} is too small to represent (below about 4.9e-324), and is not read as 0`,
      });
      let engine = '';
      try {
        WASM_ENGINE.applyVariant(twoSources(), JSON.stringify([`nodes.SW1.params.target_utilization=${text}`]));
      } catch (e) {
        engine = (e as Error).message;
      }
      expect(engine).toContain(`target_utilization ${(parsed as { rule: string }).rule.slice('target_utilization '.length)}`);
    }
    // Zero written any way is zero (refused here by the range alone), and a tiny number is a number.
    expect(parseParamInput(targetUtilization, '0e-400')).toEqual({ ok: false, rule: 'target_utilization = 0 is out of range: must be between 0.1 and 1' });
    expect(parseParamInput({ ...targetUtilization, min: 0 }, '4.9e-324')).toEqual({ ok: true, value: 4.9e-324 });
  });

  it('refuses a value out of range with the rule the engine states', () => {
    expect(parseParamInput(targetUtilization, '1.5')).toEqual({
      ok: false,
      rule: 'target_utilization = 1.5 is out of range: must be between 0.1 and 1',
    });
    expect(parseParamInput(intervalCells, '0')).toEqual({
      ok: false,
      rule: 'interval_cells = 0 is out of range: must be between 1 and 1000000 cells',
    });
  });

  it('says an on/off parameter takes 0 or 1, as the engine does', () => {
    const erica = ENGINE_CATALOGUE.algorithms.find((a) => a.id === 'erica');
    const maxAlloc = specOf(erica?.params ?? [], 'max_alloc');
    expect(maxAlloc.unit).toBe('0/1');
    expect(checkParamValue(maxAlloc, 3)).toBe('max_alloc = 3 must be 0 (off) or 1 (on)');
    expect(checkParamValue(maxAlloc, 0.5)).toBe('max_alloc = 0.5 must be 0 (off) or 1 (on)');
    expect(checkParamValue(maxAlloc, 1)).toBeNull();
  });

  it('refuses a fraction where the catalogue asks for a whole number', () => {
    expect(parseParamInput(intervalCells, '12.5')).toEqual({ ok: false, rule: 'interval_cells = 12.5 must be a whole number' });
  });

  it('refuses text that is not a number, naming the range', () => {
    const r = parseParamInput(targetUtilization, '0,6');
    expect(r).toEqual({ ok: false, rule: 'target_utilization must be a number (0.1 – 1)' });
    expect(checkParamValue(targetUtilization, Infinity)).toBe('target_utilization must be a finite number');
  });

  it('describes a range with its unit, and says when it takes whole numbers', () => {
    expect(describeRange(targetUtilization)).toBe('0.1 – 1');
    expect(describeRange(intervalCells)).toBe('1 – 1,000,000 cells, whole numbers');
    // QA: a buffer's range read "1–10000000000 bytes"; a tiny fraction reads in exponent form.
    expect(readableNumber(10_000_000_000)).toBe('10,000,000,000');
    expect(readableNumber(9999)).toBe('9999');
    expect(readableNumber(2 ** -15)).toBe('3.052e-5');
    expect(readableNumber(0.123456789)).toBe('0.123457');
  });
});

describe('a switch parameter over the run', () => {
  it('is the scenario value until a recorded change, then the change (in time order)', () => {
    const s = JSON.parse(twoSources()) as Scenario;
    s.nodes[2].params = { target_utilization: 0.8 };
    s.changes = [
      { at_ms: 60, node: 'SW1', param: 'target_utilization', value: 0.5 },
      { at_ms: 40, node: 'SW1', param: 'target_utilization', value: 0.6 },
      { at_ms: 50, node: 'SW2', param: 'target_utilization', value: 0.7 },
    ];
    expect(paramAt(s, 'SW1', 'target_utilization', 0)).toBe(0.8);
    expect(paramAt(s, 'SW1', 'target_utilization', 40)).toBe(0.6);
    expect(paramAt(s, 'SW1', 'target_utilization', 59.5)).toBe(0.6);
    expect(paramAt(s, 'SW1', 'target_utilization', 100)).toBe(0.5);
    expect(paramAt(s, 'SW2', 'target_utilization', 10)).toBeUndefined();
    expect(paramAt(s, 'SW2', 'target_utilization', 50)).toBe(0.7);
  });
});
