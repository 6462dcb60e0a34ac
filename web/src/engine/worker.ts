/// <reference lib="webworker" />
// The engine worker: owns one Simulation (see workerCore.ts). The wasm package is built by
// scripts/build-wasm.sh into web/wasm-pkg; if it is missing (engine not built yet) the worker
// falls back to the JS mock engine and says so in its 'ready' message.

import type { EngineModule, Simulation } from '../contract/engine';
import { createMockEngine, type MockOptions } from '../sim/mockEngine';
import type { EngineChoice, FromWorker, ToWorker } from './protocol';
import { WorkerCore, type WorkerHost } from './workerCore';

declare const self: DedicatedWorkerGlobalScope;

// Globs, not imports, so that the app still builds before the wasm package exists.
const wasmJs = import.meta.glob('../../wasm-pkg/abr_wasm.js');
const wasmUrl = import.meta.glob<string>('../../wasm-pkg/abr_wasm_bg.wasm', { query: '?url', import: 'default' });

interface WasmPackage {
  default(opts: { module_or_path: string | URL }): Promise<unknown>;
  catalogue(): string;
  validateScenario(json: string): string;
  Simulation: new (json: string) => Simulation;
}

async function loadWasm(): Promise<EngineModule | null> {
  const js = Object.values(wasmJs)[0];
  const url = Object.values(wasmUrl)[0];
  if (!js || !url) return null;
  const pkg = (await js()) as WasmPackage;
  await pkg.default({ module_or_path: await url() });
  return {
    kind: 'wasm',
    catalogue: () => pkg.catalogue(),
    validateScenario: (json) => pkg.validateScenario(json),
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

async function init(choice: EngineChoice, mock: MockOptions = {}) {
  let engine: EngineModule | null = null;
  if (choice !== 'mock') {
    try {
      engine = await loadWasm();
    } catch (e) {
      host.post({ type: 'error', message: `could not load the wasm engine: ${(e as Error).message}` });
    }
    if (!engine && choice === 'wasm') {
      host.post({ type: 'error', message: 'wasm engine not built (run scripts/build-wasm.sh); using the mock engine' });
    }
  }
  engine ??= createMockEngine(mock);
  core = new WorkerCore(engine, host);
  host.post({ type: 'ready', engine: engine.kind, catalogue: engine.catalogue() });
  for (const msg of queued.splice(0)) core.handle(msg);
}

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  if (msg.type === 'init') {
    void init(msg.engine, msg.mock);
  } else if (core) {
    core.handle(msg);
  } else {
    queued.push(msg);
  }
};
