// A unit as the page shows a quantity, shared by every layer that formats one (the charts, the
// event log, Compare, the published table).

/** The unit shown, and the factor from the engine's unit: shown = engine × scale. */
export interface DisplayUnit {
  unit: string;
  scale: number;
}
