import { describe, expect, it } from 'vitest';
import { sizeRule } from '../scenario/params';
import { stepRule, untilRule } from './runFields';

describe('the toolbar fields', () => {
  // QA: Step read 5e-400 as 0 and said "above 0", where a parameter field says why.
  it('refuse a step too small to represent as the parameter fields do, not as the 0 it reads as', () => {
    expect(stepRule('5e-400', false)).toBe(sizeRule('Step', '5e-400'));
    expect(stepRule('5e-400', false)).toMatch(/^Step must be a representable number: 5e-400 is too small to represent \(below about 4\.9e-324\), and is not read as 0$/);
    expect(untilRule('5e-400', false, 0)).toBe(sizeRule('Run to', '5e-400'));
  });

  it('say what else a step or a time must be, and take what is right', () => {
    expect(stepRule('0', false)).toBe('A step is a number of milliseconds above 0');
    expect(stepRule('-1', false)).toBe('A step is a number of milliseconds above 0');
    expect(stepRule('', true)).toBe('A step must be a finite number of milliseconds');
    expect(stepRule('2.5', false)).toBeNull();
    expect(stepRule('5e-300', false)).toBeNull();
    expect(untilRule('30', false, 40)).toBe('Run to a time after now (t = 40.00 ms)');
    expect(untilRule('50', false, 40)).toBeNull();
  });
});
