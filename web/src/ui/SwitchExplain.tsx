// "A switch explains itself": the picked port's explain record, shown generically (the rule,
// every quantity with its label, value and unit, and the per-VC table), whatever the algorithm.
// The lab asks the engine whenever the run stops at a new time (lab/explain.ts).

import { useEffect, useState } from 'react';
import type { Lab, LabState } from '../lab/lab';
import { explainable, explainsNothing, portCarriesBackground, quantityText, switchPorts, vcTable, withoutAbsentVbr } from '../lab/explain';

/** A port to explain, asked for from elsewhere (a click on it in the Network view); `n` tells
 *  two requests for the same port apart. */
export type PortInspect = { switchId: string; port: string; n: number };

/** `holder`: which inspector this is (the side panel's, or the full-screen Network view's: the
 *  lab explains the port of the one that picked last). */
export function SwitchExplain({ lab, state, node, inspect, holder = 'panel' }: { lab: Lab; state: LabState; node: string; inspect?: PortInspect | null; holder?: string }) {
  const scenario = state.current?.scenario;
  const ports = scenario ? switchPorts(scenario, node) : [];
  // View state: the port picked (the first toward the network by default, or the one clicked
  // in the Network view).
  const [picked, setPicked] = useState<string | null>(null);
  useEffect(() => {
    if (inspect && inspect.switchId === node) setPicked(inspect.port);
  }, [inspect, node]);
  const port = picked && ports.includes(picked) ? picked : (ports[0] ?? null);
  useEffect(() => {
    lab.explainPort(port ? { switchId: node, port } : null, holder);
  }, [lab, node, port, holder]);
  useEffect(() => () => lab.explainPort(null, holder), [lab, holder]);
  if (!port) return null;
  const shown = state.explanation?.switchId === node && state.explanation.port === port ? state.explanation : null;
  const stopped = explainable(state.status);
  const e = shown?.explain && scenario ? withoutAbsentVbr(shown.explain, portCarriesBackground(scenario, port)) : shown?.explain;
  const algName = (id: string) => state.catalogue?.algorithms.find((a) => a.id === id)?.name ?? id;
  const table = e ? vcTable(e) : null;
  return (
    <details className="explain" data-testid="switch-explain" open>
      <summary>How {node} computes its feedback</summary>
      <label className="inspector-row">
        <span className="inspector-label">port</span>
        <select data-testid="explain-port" value={port} onChange={(ev) => setPicked(ev.target.value)}>
          {ports.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      {!stopped ? (
        <p className="inspector-help" data-testid="explain-paused-only">
          Pause the run (or step it) to see the algorithm’s numbers at that moment.
        </p>
      ) : shown?.problem ? (
        <p className="field-error" data-testid="explain-problem">
          {shown.problem.path}: {shown.problem.rule}
        </p>
      ) : e && explainsNothing(e) ? (
        <p className="inspector-help" data-testid="explain-nothing">
          {algName(e.algorithm)} computes no feedback at {e.port}: it has nothing to explain.
        </p>
      ) : e ? (
        <>
          <p className="explain-head" data-testid="explain-head">
            {algName(e.algorithm)} at {e.port}, t = {(e.time_us / 1000).toFixed(3)} ms
          </p>
          <p className="explain-rule" data-testid="explain-rule">
            <code>{e.rule}</code>
          </p>
          <dl className="explain-values" data-testid="explain-values">
            {e.values.map((q) => (
              <div key={q.name} data-name={q.name}>
                <dt>{q.label}</dt>
                <dd>{quantityText(q)}</dd>
                {/* The engine's word on a value that would surprise (ERICA's MaxAllocPrevious
                    above the target rate), under it. */}
                {q.note && (
                  <dd className="explain-note" data-testid="explain-note">
                    {q.note}
                  </dd>
                )}
              </div>
            ))}
          </dl>
          {table && table.rows.length > 0 && (
            <div className="explain-vcs-wrap" tabIndex={0} role="region" aria-label={`${node}'s values per VC`}>
              {/* One row per quantity, one column per VC; many VCs scroll sideways (focusable, so
                  the arrow keys scroll it too). */}
              <table className="explain-vcs" data-testid="explain-vcs">
                <thead>
                  <tr>
                    <th scope="col">per VC</th>
                    {table.rows.map((r) => (
                      <th key={r.connection} scope="col">
                        {r.connection}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {table.columns.map((c, i) => (
                    <tr key={c.name} data-name={c.name}>
                      <th scope="row">{c.label}</th>
                      {table.rows.map((r) => (
                        <td key={r.connection}>{r.cells[i]}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      ) : (
        <p className="inspector-help">Asking {node}…</p>
      )}
    </details>
  );
}
