// Scenario types. The Rust serde types in engine/sim/src/scenario.rs are the schema; these will
// be replaced by the ts-rs output in ./generated/ once it lands. Keep this file a thin mirror.

export type NodeKind = 'source' | 'switch' | 'destination';

export interface ScenarioNode {
  id: string;
  kind: NodeKind;
  algorithm?: string;
  params?: Record<string, number>;
  buffer_cells?: number;
  x?: number;
  y?: number;
}

export interface ScenarioLink {
  id: string;
  from: string;
  to: string;
  rate_mbps: number;
  delay_us?: number;
  distance_km?: number;
}

export interface ScenarioConnection {
  id: string;
  from: string;
  to: string;
  path?: string[];
  start_ms?: number;
  stop_ms?: number;
  params?: Record<string, number>;
}

export interface RunSettings {
  duration_ms: number;
  sample_interval_us?: number;
  seed?: number;
  steady_from_ms?: number;
  tolerance?: number;
}

export interface Scenario {
  version: number;
  id: string;
  name: string;
  group?: string;
  description: string;
  source: string;
  lesson: string;
  run: RunSettings;
  defaults?: { source?: Record<string, number> };
  nodes: ScenarioNode[];
  links: ScenarioLink[];
  connections: ScenarioConnection[];
}
