import { describe, expect, it, vi } from 'vitest';
import { updateLab, type WorkerContainer, type WorkerRegistration } from './appUpdate';

/** A service worker container and its registration, whose update finds `found` (a newer build
 *  that takes the page `takesMs` later, or never: null) or fails. */
function fakeWorkers(opts: { controlled?: boolean; registered?: boolean; found?: boolean; takesMs?: number | null; fails?: boolean }) {
  const taken = new Set<() => void>();
  const founds = new Set<() => void>();
  const reg: WorkerRegistration & { installing: unknown } = {
    installing: null,
    waiting: null,
    async update() {
      if (opts.fails) throw new Error('offline');
      if (!opts.found) return;
      reg.installing = {};
      founds.forEach((f) => f());
      if (opts.takesMs !== null) setTimeout(() => taken.forEach((f) => f()), opts.takesMs ?? 0);
    },
    addEventListener: (_t, f) => founds.add(f),
    removeEventListener: (_t, f) => founds.delete(f),
  };
  const container: WorkerContainer = {
    controller: opts.controlled === false ? null : {},
    getRegistration: async () => (opts.registered === false ? undefined : reg),
    addEventListener: (_t, f) => taken.add(f),
    removeEventListener: (_t, f) => taken.delete(f),
  };
  return { container, listening: () => taken.size + founds.size };
}

// Issue: a copy of the lab kept by its service worker refused links of a newer version with no
// way forward; a lab now asks its worker for the newest build and reopens the link in it.
describe('updating the lab for a link of a newer version', () => {
  it('reloads once a newer lab has taken the page, and only then', async () => {
    const { container, listening } = fakeWorkers({ found: true, takesMs: 5 });
    const reload = vi.fn();
    expect(await updateLab(container, reload, 1000)).toBe('updating');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(listening()).toBe(0);
  });

  it('says the lab is the latest when the worker finds no newer build, or no worker served the page', async () => {
    const reload = vi.fn();
    expect(await updateLab(fakeWorkers({ found: false }).container, reload)).toBe('latest');
    // Served by no worker (a first visit, a browser without them), the page came from the server.
    expect(await updateLab(fakeWorkers({ controlled: false, found: true }).container, reload)).toBe('latest');
    expect(await updateLab(fakeWorkers({ registered: false }).container, reload)).toBe('latest');
    expect(await updateLab(undefined, reload)).toBe('latest');
    expect(reload).not.toHaveBeenCalled();
  });

  it('says it failed when the server cannot be reached or the newer lab never takes the page', async () => {
    const reload = vi.fn();
    expect(await updateLab(fakeWorkers({ found: true, fails: true }).container, reload)).toBe('failed');
    const stuck = fakeWorkers({ found: true, takesMs: null });
    expect(await updateLab(stuck.container, reload, 20)).toBe('failed');
    expect(stuck.listening()).toBe(0);
    expect(reload).not.toHaveBeenCalled();
  });
});
