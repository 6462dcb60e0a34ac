import type { RunSummary as Summary } from '../sim/engine';

function fmt(v: number | null | undefined, digits = 1) {
  return v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(digits);
}

/** The end-of-run numbers: steady-state rate against the shares, fairness, convergence, queues. */
export function RunSummary({ summary }: { summary: Summary }) {
  const conns = summary.connections ?? [];
  const ports = [...(summary.ports ?? [])].sort((a, b) => (b.max_queue_cells ?? 0) - (a.max_queue_cells ?? 0));
  const lost = conns.reduce((n, c) => n + (c.lost_cells ?? 0), 0);
  return (
    <section className="summary" data-testid="summary">
      <h3>Result</h3>
      <dl className="facts">
        <dt>Jain index</dt>
        <dd>{fmt(summary.jain_index, 4)}</dd>
        <dt>Converged at</dt>
        <dd>{summary.convergence_ms == null ? 'not within 10 %' : `${fmt(summary.convergence_ms, 1)} ms`}</dd>
        <dt>Cells lost</dt>
        <dd>{lost}</dd>
        {ports[0] && (
          <>
            <dt>Largest queue</dt>
            <dd>
              {ports[0].max_queue_cells} cells at {ports[0].id}
            </dd>
          </>
        )}
      </dl>
      {conns.length > 0 && (
        <table className="summary-table">
          <thead>
            <tr>
              <th>Source</th>
              <th title={`Mean ACR from ${fmt(summary.steady_from_ms, 0)} ms to the end`}>mean rate</th>
              <th>target share</th>
              <th>max-min share</th>
            </tr>
          </thead>
          <tbody>
            {conns.slice(0, 12).map((c) => (
              <tr key={c.id}>
                <td>{c.id}</td>
                <td>{fmt(c.mean_rate_mbps, 2)}</td>
                <td>{fmt(c.target_share_mbps, 2)}</td>
                <td>{fmt(c.fair_share_mbps, 2)}</td>
              </tr>
            ))}
          </tbody>
          {conns.length > 12 && (
            <tfoot>
              <tr>
                <td colSpan={4}>… and {conns.length - 12} more</td>
              </tr>
            </tfoot>
          )}
        </table>
      )}
      <p className="summary-note">
        Rates in Mbps, averaged from {fmt(summary.steady_from_ms, 0)} ms to the end of the run.
      </p>
    </section>
  );
}
