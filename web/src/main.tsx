import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { Lab } from './lab/lab';
import { installTestHook } from './e2e/hook';
import { makeEngineWorker } from './engine/client';
import { LIBRARY } from './scenario/library';
import { shareLink, startup } from './lab/sharing';
import type { EngineChoice } from './engine/protocol';
import './ui/app.css';

const params = new URLSearchParams(location.search);
// ?engine=mock runs the JS stand-in; ?mock_panic_ms=T makes it fail like a Rust panic at time T
// (used by the end-to-end test of crash recovery).
const engine = (params.get('engine') as EngineChoice | null) ?? 'auto';
const panicAt = params.get('mock_panic_ms');
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: the lab works without keeping the last work
  }
}
const lab = new Lab(
  makeEngineWorker,
  { engine, mock: panicAt === null ? undefined : { panicAtMs: Number(panicAt) } },
  storage(),
);
installTestHook(lab, () => {
  const s = lab.getState().current?.scenario;
  return s ? shareLink(s, location.href, LIBRARY.entries, lab.getState().charts).url : null;
});

// A shared link (#s=1.…) over ?scenario=, the last work kept in storage, or the default.
const start = startup(location, storage(), LIBRARY.entries);
lab.setSpeed(0.01);
for (const { json, origin } of start.loads) lab.load(json, origin);
if (start.notice) lab.notify(start.notice);
lab.setCharts(start.view);
if (start.clearHash) history.replaceState(null, '', location.pathname + location.search);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App lab={lab} />
  </StrictMode>,
);
