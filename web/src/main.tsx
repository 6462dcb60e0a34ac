import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SampleStore } from './charts/sampleStore';
import { makeEngineWorker } from './engine/client';
import { makeBatchWorker, WorkerPool } from './engine/pool';
import { Lab } from './lab/lab';
import { SweepSession } from './lab/sweep';
import { shareLink, startup } from './lab/sharing';
import { LIBRARY } from './scenario/library';
import { App } from './ui/App';
import './ui/app.css';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: the lab works without keeping the last work
  }
}

// The end-to-end tests' window.__abrlab exists only in the test build (`vite build --mode e2e`,
// tests/e2e/global-setup.ts): in any other build this branch and the module it loads are gone.
const e2e = import.meta.env.MODE === 'e2e' ? await import('./e2e/hook') : null;

const store = new SampleStore();
const makeWorker = e2e ? e2e.watchWorkers(makeEngineWorker) : makeEngineWorker;
const lab = new Lab(makeWorker, { samples: store, storage: storage() });
e2e?.installTestHook(lab, store, () => {
  const s = lab.getState().current?.scenario;
  return s ? shareLink(s, location.href, LIBRARY.entries, lab.getState().charts).url : null;
});

// Sweeps run in a pool of batch workers (one per core but one); a run opens in the lab.
const sweep = new SweepSession(
  new WorkerPool(makeBatchWorker),
  (json, origin) => lab.load(json, origin),
  (origin) => LIBRARY.entries.some((e) => e.id === origin),
);

// A shared link (#s=1.…) over ?scenario=, the last work kept in storage, or the default.
const start = startup(location, storage(), LIBRARY.entries);
lab.setSpeed(0.01);
for (const { json, origin } of start.loads) lab.load(json, origin);
if (start.notice) lab.notify(start.notice);
lab.setCharts(start.view);
if (start.clearHash) history.replaceState(null, '', location.pathname + location.search);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App lab={lab} store={store} sweep={sweep} />
  </StrictMode>,
);
