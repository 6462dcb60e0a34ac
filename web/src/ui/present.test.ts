import { describe, expect, it } from 'vitest';
import { presentIn, searchWithPresent } from './present';

describe('presentation mode in the address', () => {
  it('?present=1 turns it on; anything else leaves it off', () => {
    expect(presentIn('?present=1')).toBe(true);
    expect(presentIn('?scenario=gfc1&present=true')).toBe(true);
    for (const s of ['', '?present=0', '?present=', '?presentation=1', '?scenario=present']) expect(presentIn(s), s).toBe(false);
  });

  it('switching it keeps the other parameters', () => {
    expect(searchWithPresent('?scenario=gfc1', true)).toBe('?scenario=gfc1&present=1');
    expect(searchWithPresent('?scenario=gfc1&present=1', false)).toBe('?scenario=gfc1');
    expect(searchWithPresent('?present=1', false)).toBe('');
    expect(presentIn(searchWithPresent('', true))).toBe(true);
  });
});
