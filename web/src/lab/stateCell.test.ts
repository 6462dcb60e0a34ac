import { afterEach, expect, it, vi } from 'vitest';
import { StateCell } from './state';

afterEach(() => vi.unstubAllGlobals());

it('a listener that throws does not keep the change from the others, and its error is reported after', () => {
  const reported: (() => void)[] = [];
  vi.stubGlobal('queueMicrotask', (task: () => void) => reported.push(task));
  const cell = new StateCell({ n: 0 });
  const heard: string[] = [];
  cell.subscribe(() => heard.push(`a${cell.get().n}`));
  cell.subscribe(() => {
    throw new Error('refused');
  });
  cell.subscribe(() => heard.push(`c${cell.get().n}`));
  expect(() => cell.set({ n: 1 })).not.toThrow();
  expect(heard).toEqual(['a1', 'c1']);
  expect(reported).toHaveLength(1);
  expect(reported[0]).toThrow('refused');
});
