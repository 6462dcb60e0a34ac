import { describe, expect, it } from 'vitest';
import { playAnnouncement } from './announce';

describe('play state announcements', () => {
  it('says each change of mode once, with the time and the speed', () => {
    expect(playAnnouncement('paused', 'playing', 0, 100, 0.005)).toBe('Playing at 0.005×, from 0 ms of 100 ms.');
    expect(playAnnouncement('playing', 'paused', 42.25, 100, 0.005)).toBe('Paused at 42.3 ms of 100 ms.');
    expect(playAnnouncement('playing', 'done', 100, 100, 'max')).toMatch(/^The run has ended, at 100 ms/);
    expect(playAnnouncement('paused', 'playing', 0, 15000, 'max')).toBe('Playing at full speed, from 0 ms of 15,000 ms.');
    expect(playAnnouncement(null, 'paused', 0, 100, 1)).toBe('Ready: 100 ms to run, paused at 0 ms.');
  });

  it('says nothing while the mode stays (the clock ticking is not news)', () => {
    expect(playAnnouncement('playing', 'playing', 50, 100, 1)).toBeNull();
    expect(playAnnouncement('paused', 'idle', 0, 100, 1)).toBeNull();
  });
});
