import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { Lab } from './app/lab';
import { installTestHook } from './app/testHook';
import { makeEngineWorker } from './sim/client';
import { DEFAULT_SCENARIO, LIBRARY } from './scenario/library';
import type { EngineChoice } from './sim/protocol';
import './app/app.css';

const params = new URLSearchParams(location.search);
// ?engine=mock runs the JS stand-in; ?mock_panic_ms=T makes it fail like a Rust panic at time T
// (used by the end-to-end test of crash recovery).
const engine = (params.get('engine') as EngineChoice | null) ?? 'auto';
const panicAt = params.get('mock_panic_ms');
const lab = new Lab(makeEngineWorker, {
  engine,
  mock: panicAt === null ? undefined : { panicAtMs: Number(panicAt) },
});
installTestHook(lab);

const wanted = params.get('scenario') ?? DEFAULT_SCENARIO;
const first = LIBRARY.entries.find((e) => e.id === wanted) ?? LIBRARY.entries[0];
lab.setSpeed(0.01);
if (first) lab.load(first.json, first.id);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App lab={lab} />
  </StrictMode>,
);
