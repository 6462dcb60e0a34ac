/// <reference lib="webworker" />
// The engine worker: owns one Simulation (see workerCore.ts). The wasm package is built by
// scripts/build-wasm.sh into web/wasm-pkg; if it is missing or cannot be instantiated the
// worker answers `unavailable` with the reason, and the lab says so in its notice bar.

import type { EngineModule } from '../contract/engine';
import type { FromWorker, ToWorker } from './protocol';
import { loadWasmPackage } from './wasmPackage';
import { WorkerCore, type WorkerHost } from './workerCore';

declare const self: DedicatedWorkerGlobalScope;

async function loadWasm(): Promise<EngineModule> {
  const pkg = await loadWasmPackage();
  return {
    kind: 'wasm',
    catalogue: () => pkg.catalogue(),
    validateScenario: (json) => pkg.validateScenario(json),
    sweepPlan: (json) => pkg.sweepPlan(json),
    createSimulation: (json) => new pkg.Simulation(json),
  };
}

// A Rust panic reaches JS as "RuntimeError: unreachable"; the panic hook (if the engine installs
// one) prints the actual message with console.error first. Keep it for the crash report.
let lastConsoleError = '';
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  lastConsoleError = args.map(String).join(' ');
  consoleError(...args);
};

const channel = new MessageChannel();
const immediate: (() => void)[] = [];
channel.port1.onmessage = () => immediate.shift()?.();

const host: WorkerHost = {
  post(msg: FromWorker, transfer: Transferable[] = []) {
    if (msg.type === 'crashed' && lastConsoleError) {
      msg = { ...msg, message: `${msg.message}\n${lastConsoleError}` };
    }
    self.postMessage(msg, transfer);
  },
  now: () => performance.now(),
  schedule(fn, delayMs) {
    if (delayMs > 0) {
      const id = setTimeout(fn, delayMs);
      return () => clearTimeout(id);
    }
    let live = true;
    immediate.push(() => live && fn());
    channel.port2.postMessage(null);
    return () => {
      live = false;
    };
  },
};

let core: WorkerCore | null = null;
const queued: ToWorker[] = [];
/** Test build only (`vite build --mode e2e`): handles the end-to-end tests' own messages. */
let testMessage: ((msg: unknown) => boolean) | null = null;

async function init() {
  let engine: EngineModule;
  try {
    engine = await loadWasm();
  } catch (e) {
    host.post({ type: 'unavailable', message: (e as Error).message || String(e) });
    return;
  }
  if (import.meta.env.MODE === 'e2e') {
    const hook = (await import('../e2e/workerHook')).panickable(engine);
    engine = hook.engine;
    testMessage = hook.handle;
  }
  core = new WorkerCore(engine, host);
  host.post({ type: 'ready', engine: engine.kind, catalogue: engine.catalogue() });
  for (const msg of queued.splice(0)) if (!testMessage?.(msg)) core.handle(msg);
}

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  if (testMessage?.(msg)) return;
  if (msg.type === 'init') {
    void init();
  } else if (core) {
    core.handle(msg);
  } else {
    queued.push(msg);
  }
};
