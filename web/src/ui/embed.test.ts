import { describe, expect, it } from 'vitest';
import { embedIn, embedSettings } from './embed';

describe('embed mode', () => {
  it('is asked for with ?embed=1 and leaves out the library, the editor and the other views', () => {
    expect(embedIn('?scenario=gfc1&embed=1')).toBe(true);
    expect(embedIn('?embed=0')).toBe(false);
    expect(embedIn('')).toBe(false);
    const s = embedSettings({ hide: ['speed'], lock: ['editor', 'params'], start: ['lesson'] });
    expect(s.hide).toEqual(['speed', 'library', 'editor', 'compare', 'sweep', 'eventlog']);
    expect(s.lock).toEqual(['params']);
    expect(s.start).toEqual(['lesson', 'panel-hidden']);
  });
});
