// Test build only (`vite build --mode e2e`, see tests/e2e/global-setup.ts): lets an end-to-end
// test make the engine fail as a Rust panic does, so that the lab's real crash path runs (the
// worker reports `crashed`, the client replaces it and reloads the scenario). The worker loads
// this module only behind `import.meta.env.MODE === 'e2e'`; a normal build has none of it.

import type { EngineModule } from '../contract/engine';

/** The message (posted straight to the worker) after which the next engine call panics. */
export const PANIC_MESSAGE = 'e2e:panic';

/** The engine, with every simulation's advance() throwing "RuntimeError: unreachable" (what a
 *  wasm panic throws) once the panic message has come. */
export function panickable(engine: EngineModule): { engine: EngineModule; handle(msg: unknown): boolean } {
  let armed = false;
  return {
    engine: {
      ...engine,
      createSimulation(json) {
        const sim = engine.createSimulation(json);
        const advance = sim.advance.bind(sim);
        sim.advance = (untilMs, maxEvents) => {
          if (armed) {
            const e = new Error('unreachable');
            e.name = 'RuntimeError';
            throw e;
          }
          return advance(untilMs, maxEvents);
        };
        return sim;
      },
    },
    handle(msg) {
      if ((msg as { type?: unknown } | null)?.type !== PANIC_MESSAGE) return false;
      armed = true;
      return true;
    },
  };
}
