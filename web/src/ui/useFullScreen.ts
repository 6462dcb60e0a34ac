// One element full screen: the browser's Fullscreen API where it is allowed, else the element
// maximised over the page (a fixed overlay; Esc leaves it either way).

import { useCallback, useEffect, useState, type RefObject } from 'react';

/** 'native': the Fullscreen API; 'overlay': maximised over the page; null: in its place. */
export type FullScreen = 'native' | 'overlay' | null;

export function useFullScreen(ref: RefObject<HTMLElement | null>) {
  const [full, setFull] = useState<FullScreen>(null);

  useEffect(() => {
    if (full === null) return;
    // The browser left full screen (Esc, F11, another element): so does the chart.
    const onChange = () => {
      if (full === 'native' && document.fullscreenElement !== ref.current) setFull(null);
    };
    // Esc leaves either way (browsers usually take it for full screen themselves first).
    const onKey = (ev: KeyboardEvent) => {
      if (ev.key !== 'Escape') return;
      if (full === 'native' && document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
      setFull(null);
    };
    document.addEventListener('fullscreenchange', onChange);
    window.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('fullscreenchange', onChange);
      window.removeEventListener('keydown', onKey);
    };
  }, [full, ref]);

  const toggle = useCallback(async () => {
    if (full !== null) {
      if (full === 'native' && document.fullscreenElement) await document.exitFullscreen().catch(() => undefined);
      setFull(null);
      return;
    }
    const el = ref.current;
    if (el && document.fullscreenEnabled && el.requestFullscreen) {
      try {
        await el.requestFullscreen();
        setFull('native');
        return;
      } catch {
        // Refused (an iframe without allowfullscreen, a browser policy): maximise instead.
      }
    }
    setFull('overlay');
  }, [full, ref]);

  return { full, toggle };
}

/** The height a chart gets full screen: the window's, less its header (CSS px). */
export function fullScreenHeight(headerPx: number, minPx: number): number {
  return Math.max(minPx, Math.floor(window.innerHeight - headerPx - 32));
}
