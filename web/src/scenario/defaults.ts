// Engine defaults the web needs before the engine has answered, said once. The engine's rule
// (engine/sim/src/algorithms/mod.rs, `default_for`) is not in its catalogue yet: this mirrors it.

import type { Scenario, ScenarioNode } from '../contract/scenario';

/** The algorithm a switch runs when the scenario names none: ERICA on ATM, none (FIFO) on Ethernet. */
export function defaultAlgorithm(s: Pick<Scenario, 'ethernet'>): string {
  return s.ethernet ? 'none' : 'erica';
}

/** The algorithm a switch runs: its own, else the network's default. */
export function algorithmOf(s: Pick<Scenario, 'ethernet'>, node: Pick<ScenarioNode, 'algorithm'>): string {
  return node.algorithm ?? defaultAlgorithm(s);
}
