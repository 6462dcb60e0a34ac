// Test build only (`vite build --mode e2e`, see tests/e2e/global-setup.ts): lets an end-to-end
// test make the engine fail as a Rust panic does, so that the lab's real crash path runs (the
// worker reports `crashed`, the client replaces it and reloads the scenario). The worker loads
// this module only behind `import.meta.env.MODE === 'e2e'`; a normal build has none of it.

import type { EngineModule } from '../contract/engine';

/** The message (posted straight to the worker) after which the next engine call panics. */
export const PANIC_MESSAGE = 'e2e:panic';
/** The message after which the next scenario check blocks the worker for `ms` (a hang). */
export const HANG_MESSAGE = 'e2e:hang';

/** The engine, with every simulation's advance() throwing "RuntimeError: unreachable" (what a
 *  wasm panic throws) once the panic message has come. */
export function panickable(engine: EngineModule): { engine: EngineModule; handle(msg: unknown): boolean } {
  let armed = false;
  let hangMs = 0;
  return {
    engine: {
      ...engine,
      validateScenario(json) {
        if (hangMs > 0) {
          const until = Date.now() + hangMs;
          hangMs = 0;
          while (Date.now() < until) {
            // Busy, as an engine call that never ends: the worker answers nothing meanwhile.
          }
        }
        return engine.validateScenario(json);
      },
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
      const m = msg as { type?: unknown; ms?: unknown } | null;
      if (m?.type === HANG_MESSAGE) {
        hangMs = Number(m.ms) || 0;
        return true;
      }
      if (m?.type !== PANIC_MESSAGE) return false;
      armed = true;
      return true;
    },
  };
}
