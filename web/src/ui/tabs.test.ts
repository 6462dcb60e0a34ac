import { describe, expect, it } from 'vitest';
import { focusableTab, tabKeyTarget } from './tabs';

const row = [{ id: 'charts' }, { id: 'editor', disabled: true }, { id: 'sweep' }, { id: 'compare' }] as const;

describe('a row of tabs and its keys', () => {
  it('←/→ move to the open tab before or after, wrapping, and skip a disabled (locked) one', () => {
    expect(tabKeyTarget('ArrowRight', row, 'charts')).toBe('sweep');
    expect(tabKeyTarget('ArrowLeft', row, 'sweep')).toBe('charts');
    expect(tabKeyTarget('ArrowRight', row, 'compare')).toBe('charts');
    expect(tabKeyTarget('ArrowLeft', row, 'charts')).toBe('compare');
  });

  it('Home and End go to the first and last open tab; other keys are not the row’s', () => {
    const lastLocked = [{ id: 'a' }, { id: 'b' }, { id: 'c', disabled: true }];
    expect(tabKeyTarget('Home', row, 'compare')).toBe('charts');
    expect(tabKeyTarget('End', lastLocked, 'a')).toBe('b');
    expect(tabKeyTarget('ArrowDown', row, 'charts')).toBeNull();
    expect(tabKeyTarget('Enter', row, 'charts')).toBeNull();
  });

  it('a disabled tab selected (a view a teacher started and locked) still has neighbours, and the first open tab takes the Tab order', () => {
    expect(tabKeyTarget('ArrowRight', row, 'editor')).toBe('sweep');
    expect(tabKeyTarget('ArrowLeft', row, 'editor')).toBe('charts');
    expect(focusableTab(row, 'editor')).toBe('charts');
    expect(focusableTab(row, 'sweep')).toBe('sweep');
  });

  it('a row with one open tab stays on it; one with none goes nowhere', () => {
    const one = [{ id: 'a' }, { id: 'b', disabled: true }];
    expect(tabKeyTarget('ArrowRight', one, 'a')).toBe('a');
    expect(tabKeyTarget('ArrowRight', [{ id: 'a', disabled: true }], 'a')).toBeNull();
    expect(focusableTab([{ id: 'a', disabled: true }], 'a')).toBeNull();
  });
});
