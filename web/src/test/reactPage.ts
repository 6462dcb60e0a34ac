// A view's React tree in jsdom, for its tests: import this before the view (uPlot, loaded with
// a view's charts, asks for the pixel ratio as it loads). Each test's tree is unmounted and the
// page emptied after it.

import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
globalThis.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as never;

let root: Root | null = null;

/** Unmounts the tree rendered last (a test that renders a second one first). */
export function unmount() {
  act(() => root?.unmount());
  root = null;
}

afterEach(() => {
  unmount();
  document.body.innerHTML = '';
});

/** Renders `node` in a new host element of the page; returns the host. */
export function render(node: ReactNode): HTMLElement {
  const host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() => root!.render(node));
  return host;
}
