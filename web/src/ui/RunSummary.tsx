import type { ConnSummary, RunSummary as Summary } from '../contract/engine';
import { ATM_VIEW, displayUnit, type NetworkView } from '../charts/specs';
import { PublishedTable } from './PublishedTable';
import { NoteText } from './ScenarioNotes';
import { leftAfterVolume } from '../lab/compare';

function fmt(v: number | null | undefined, digits = 1) {
  return v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(digits);
}

/**
 * Sources that sent faster than their access link carries: how many cells waited at the host
 * (the engine holds a source back once 1,000 wait), and how many still did at the end.
 */
export function hostQueueNote(conns: readonly ConnSummary[], item: string): string[] {
  return conns
    .filter((c) => c.host_queue_max_cells > 1)
    .map(
      (c) =>
        `${c.id} asked for more than its access link carries: up to ${c.host_queue_max_cells} ${item} waited at its host` +
        ` (${c.host_queue_cells} still at the end), and the source was held to the link's rate.`,
    );
}

/**
 * Ethernet flows offered faster than their rate limiter let them go: how many frames waited at
 * the host at most. A flow sending that backlog once the limiter lets it can average more than
 * it offers (QA: qcn-hotspot's F2 read 5.27 Gbps against 5 offered, the backlog unseen).
 */
export function sourceBacklogNote(conns: readonly ConnSummary[], item: string): string[] {
  const held = conns.filter((c) => c.kind === 'ethernet' && (c.max_source_queue_cells ?? 0) > 1);
  if (held.length === 0) return [];
  const list = held.map((c) => `${c.id} ${c.max_source_queue_cells!.toLocaleString('en-US')}`).join(', ');
  const one = held.length === 1;
  return [
    `Offered more than ${one ? 'its rate limit' : 'their rate limits'} let through, ${item} waited at the host${one ? '' : 's'} (at most): ${list}. ` +
      `A flow sends its backlog as the limit allows, so its mean rate may exceed what it offers.`,
  ];
}

/**
 * The "Converged at" row: the engine's convergence time; else, when the rates never stayed
 * within 10 % of their target shares for good, that they did not converge and how much of the
 * steady window they were within it (a target that keeps moving, such as a VBR background
 * switching, is followed a round trip late, so there is no time from which on they stay: QA
 * read "not within 10 %" where they tracked well); else why nothing is judged. `label` is the
 * row's name (QA: "Converged at: not for good: within 10 % in 0 % …" read badly).
 */
export function convergedText(
  summary: Pick<Summary, 'convergence_ms' | 'judged_rates'> & { on_target_fraction?: number | null },
): { label: string; text: string; title?: string } {
  if (summary.convergence_ms != null) {
    return { label: 'Converged at', text: `${summary.convergence_ms.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} ms` };
  }
  // The engine judges the rates the network sets (not UBR, not background); there may be none.
  if (summary.judged_rates === 0) return { label: 'Converged at', text: '– (no rate-controlled source)' };
  const rule = 'more than 1 % of the rates the network sets were more than 10 % from their target share';
  const on = summary.on_target_fraction;
  const label = 'Did not converge';
  if (on == null) return { label, text: 'not within 10 % to the end of the run', title: `Up to the end of the run, some sample had ${rule}.` };
  return {
    label,
    text: `within 10 % for ${Math.floor(on * 100 + 1e-9)} % of the steady window`,
    title:
      `Up to the end of the run, some sample had ${rule}. ` +
      'Where the target moves (background traffic, sources coming and going), the rates follow it a round trip late: ' +
      'this is the part of the steady window\'s samples in which they were within 10 %.',
  };
}

/**
 * When a connection left before the steady window began (its mean rate and shares over that
 * window say nothing): its stop time, else null.
 */
export function leftBeforeSteady(stopMs: number | undefined, steadyFromMs: number): number | null {
  return stopMs !== undefined && stopMs <= steadyFromMs ? stopMs : null;
}

/**
 * What a connection's row says instead of its mean rate and shares when it was gone before the
 * steady window: its stop time, or the volume it sent before it left (a source given
 * `volume_mb` leaves when that is sent; the engine's shares then give it none in the window, and
 * it sent nothing there). Null when it has numbers to show.
 */
export function leftEarly(
  conn: { stop_ms?: number | null; volume_mb?: number | null } | undefined,
  c: Pick<ConnSummary, 'mean_rate_mbps' | 'fair_share_mbps'>,
  steadyFromMs: number,
): string | null {
  const stopped = leftBeforeSteady(conn?.stop_ms ?? undefined, steadyFromMs);
  if (stopped !== null) return `left at ${fmt(stopped, 0)} ms`;
  const volume = conn?.volume_mb;
  if (volume != null && leftAfterVolume(true, c.mean_rate_mbps, c.fair_share_mbps)) return `left after sending ${+volume.toPrecision(6)} Mb`;
  return null;
}

/** The end-of-run numbers: steady-state rate against the shares, fairness, convergence, queues. */
export function RunSummary({
  summary,
  net = ATM_VIEW,
  digest = null,
  onExport,
  connections = [],
}: {
  summary: Summary;
  net?: NetworkView;
  digest?: string | null;
  /** Saves the whole run: every series as CSV, or this summary as JSON. */
  onExport?: (kind: 'series-csv' | 'summary-json') => void;
  /** The scenario's connections (their stop times). */
  connections?: readonly { id: string; stop_ms?: number | null; volume_mb?: number | null }[];
}) {
  const connOf = new Map(connections.map((c) => [c.id, c]));
  // The engine counts frames on Ethernet (its *_cells fields) and rates in Mbps.
  const item = net.ethernet ? 'frames' : 'cells';
  const rate = displayUnit('Mbps', net);
  const r = (v: number | null | undefined) => (v == null ? undefined : v * rate.scale);
  const kb = (frames: number | undefined) => (net.ethernet && net.frameBytes !== null && frames !== undefined ? ` (${fmt((frames * net.frameBytes) / 1000, 0)} KB)` : '');
  const conns = summary.connections ?? [];
  // What a row says instead of its numbers when its connection was gone before the window.
  const left = new Map(conns.map((c) => [c.id, leftEarly(connOf.get(c.id), c, summary.steady_from_ms)]));
  const ports = [...(summary.ports ?? [])].sort((a, b) => (b.max_queue_cells ?? 0) - (a.max_queue_cells ?? 0));
  const buffer = largestBuffer(summary);
  const lost = conns.reduce((n, c) => n + (c.lost_cells ?? 0), 0);
  const converged = convergedText(summary);
  const noShare = (kind: string | undefined) => kind === 'background';
  return (
    <section className="summary" data-testid="summary">
      <div className="summary-head">
        <h2>Result</h2>
        {onExport && (
          <span className="chart-export" role="group" aria-label="export the whole run">
            <button
              data-testid="export-series-csv"
              title="Every series of the run, one column each, every sample kept (the columns of abrsim run --series-csv; a run too long to keep every sample: the min and max of each bucket, marked)"
              onClick={() => onExport('series-csv')}
            >
              Series CSV
            </button>
            <button data-testid="export-summary-json" title="This summary as JSON (what abrsim run prints)" onClick={() => onExport('summary-json')}>
              Summary JSON
            </button>
          </span>
        )}
      </div>
      {(summary.notes ?? []).map((n) => (
        <p key={n} className="summary-note summary-warning" role="note" data-testid="summary-note">
          <NoteText note={n} />
        </p>
      ))}
      <dl className="facts">
        <dt>Jain's index</dt>
        <dd>{fmt(summary.jain_index, 4)}</dd>
        <dt data-testid="summary-converged-label">{converged.label}</dt>
        <dd data-testid="summary-converged" title={converged.title}>
          {converged.text}
        </dd>
        <dt>{net.ethernet ? 'Frames dropped' : 'Cells lost'}</dt>
        <dd>{lost}</dd>
        {ports[0] && (
          <>
            <dt>Largest queue</dt>
            <dd>
              {ports[0].max_queue_cells.toLocaleString('en-US')} {ports[0].max_queue_cells === 1 ? item.slice(0, -1) : item}
              {kb(ports[0].max_queue_cells)} at <span className="nowrap">{ports[0].id}</span>
            </dd>
          </>
        )}
      </dl>
      {conns.length > 0 && (
        // A long table scrolls in its box: focusable, so that the keyboard scrolls it too.
        <div className="summary-scroll" tabIndex={0} role="region" aria-label={`mean rate of each ${net.ethernet ? 'flow' : 'source'}`}>
          <table className="summary-table" data-testid="summary-rates">
            <thead>
              <tr>
                <th>{net.ethernet ? 'Flow' : 'Source'}</th>
                <th title={`Mean rate delivered from ${fmt(summary.steady_from_ms, 0)} ms to the end`}>mean rate</th>
                <th>target share</th>
                {/* Never "max-" over "min": the header wraps between its words only. */}
                <th>
                  <span className="nowrap">max-min</span> share
                </th>
              </tr>
            </thead>
            <tbody>
              {conns.map((c) => (
                <tr key={c.id} title={c.kind === 'ubr' ? 'UBR: sent at PCR, no feedback' : noShare(c.kind) ? 'CBR/VBR background: served first, no share' : undefined}>
                  <td>
                    {c.id}
                    {c.kind === 'ubr' ? ' (UBR)' : noShare(c.kind) ? ' (VBR/CBR)' : ''}
                  </td>
                  {left.get(c.id) != null ? (
                    <td
                      colSpan={3}
                      className="summary-left"
                      data-testid={`summary-left-${c.id}`}
                      title={`It left before the steady window (from ${fmt(summary.steady_from_ms, 0)} ms): no mean rate or share to show`}
                    >
                      {left.get(c.id)}
                    </td>
                  ) : (
                    <>
                      <td>{fmt(r(c.mean_rate_mbps), 2)}</td>
                      <td>{noShare(c.kind) ? '–' : fmt(r(c.target_share_mbps), 2)}</td>
                      <td>{noShare(c.kind) ? '–' : fmt(r(c.fair_share_mbps), 2)}</td>
                    </>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="summary-note">
        Rates in {rate.unit}, averaged from {fmt(summary.steady_from_ms, 0)} ms to the end of the run.
      </p>
      {hostQueueNote(summary.connections ?? [], item).map((line) => (
        <p key={line} className="summary-note" data-testid="summary-host-queue">
          {line}
        </p>
      ))}
      {sourceBacklogNote(summary.connections ?? [], item).map((line) => (
        <p key={line} className="summary-note" data-testid="summary-source-backlog">
          {line}
        </p>
      ))}
      <PublishedTable summary={summary} net={net} />
      <TcpTable summary={summary} />
      <VirtualPathTable summary={summary} />
      {(summary.virtual_sources?.length ?? 0) > 0 && (
        <p className="summary-note" data-testid="summary-vsvd">
          Largest per-VC queue at a virtual source:{' '}
          {Math.max(...(summary.virtual_sources ?? []).map((v) => v.max_queue_cells))} cells
          {buffer && (
            <>
              ; largest switch buffer (a port's queue and the per-VC queues waiting for it): {buffer.cells} cells at{' '}
              {buffer.port}
            </>
          )}
        </p>
      )}
      {digest && (
        <p className="summary-note" title="The engine's digest of every sample: a shared link replays the run with the same digest">
          Run digest <code data-testid="digest">{digest}</code>
        </p>
      )}
    </section>
  );
}

/** TCP connections: goodput (AAL5 overhead accounted), timeouts, the largest queue at the host. */
function TcpTable({ summary }: { summary: Summary }) {
  const tcp = (summary.connections ?? []).filter((c) => c.goodput_mbps !== undefined || c.timeouts !== undefined);
  if (tcp.length === 0) return null;
  return (
    <table className="summary-table" data-testid="summary-tcp">
      <thead>
        <tr>
          <th>TCP</th>
          <th title="New data delivered in order over the steady window">goodput (Mbps)</th>
          <th>timeouts</th>
          <th title="The largest number of cells waiting at the sending host">host queue (cells)</th>
        </tr>
      </thead>
      <tbody>
        {tcp.slice(0, 20).map((c) => (
          <tr key={c.id}>
            <td>{c.id}</td>
            <td>{fmt(c.goodput_mbps, 2)}</td>
            <td>{c.timeouts ?? '–'}</td>
            <td>{c.max_source_queue_cells ?? '–'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Virtual paths: goodput of their members, fairness within each and among them, edge queues. */
function VirtualPathTable({ summary }: { summary: Summary }) {
  const vps = summary.virtual_paths ?? [];
  if (vps.length === 0) return null;
  return (
    <table className="summary-table" data-testid="summary-vp">
      <thead>
        <tr>
          <th>VPC</th>
          <th>goodput (Mbps)</th>
          <th title="Jain's index of the member connections' goodput">Jain within</th>
          <th title="The largest queue of the VPC's per-VC queues at its first edge switch">edge queue (cells)</th>
        </tr>
      </thead>
      <tbody>
        {vps.map((v) => (
          <tr key={v.id}>
            <td>{v.id}</td>
            <td>{fmt(v.goodput_mbps, 2)}</td>
            <td>{fmt(v.jain_index, 3)}</td>
            <td>{v.max_queue_cells ?? '–'}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={4}>Jain's index among the VPCs: {fmt(summary.jain_among_virtual_paths, 3)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

/** The VS/VD port whose buffer (its queue and the virtual sources' per-VC queues) held most. */
function largestBuffer(summary: Summary): { port: string; cells: number } | null {
  let best: { port: string; cells: number } | null = null;
  for (const p of summary.ports ?? []) {
    if (p.max_buffer_cells !== undefined && (!best || p.max_buffer_cells > best.cells)) best = { port: p.id, cells: p.max_buffer_cells };
  }
  return best;
}
