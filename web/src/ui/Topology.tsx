import { useMemo } from 'react';
import type { Scenario } from '../contract/scenario';
import { countsText, MAX_DRAWN, PAGE_FRAME, PRESENT_FRAME, topologyDrawing } from './topologyDrawing';

/**
 * A small drawing of the network from the nodes' editor positions (a huge network is drawn
 * summarised: a sample of its sources, and their number). Switches can be clicked to select
 * them (when `onSelect` is given); the selected one is outlined.
 */
export function Topology({
  scenario,
  selected,
  onSelect,
  marked,
  present = false,
}: {
  scenario: Scenario;
  /** Presenting: the taller frame its larger names need (app.css sizes them). */
  present?: boolean;
  selected?: string | null;
  /** A node a lesson step points at: drawn marked. */
  marked?: string | null;
  onSelect?: (switchId: string) => void;
}) {
  const frame = present ? PRESENT_FRAME : PAGE_FRAME;
  const { nodes, links, r, summary, endNames } = useMemo(() => topologyDrawing(scenario, MAX_DRAWN, frame), [scenario.nodes, scenario.links, frame]);
  return (
    <figure className="topology-figure">
      <svg className="topology" viewBox={`0 0 ${frame.width} ${frame.height}`} role="img" aria-label="network topology">
        {links.map(({ id, a, b, rateMbps }) => (
          <g key={id}>
            <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} className="topo-link" />
            <title>{`${id}: ${rateMbps} Mbps`}</title>
          </g>
        ))}
        {nodes.map((p) => {
          const pickable = p.kind === 'switch' && onSelect;
          return (
            <g
              key={p.id}
              transform={`translate(${p.x},${p.y})`}
              className={`topo-node topo-${p.kind}${pickable ? ' topo-pickable' : ''}${p.id === selected ? ' topo-selected' : ''}${p.id === marked ? ' topo-marked' : ''}`}
              data-testid={`topo-${p.id}`}
              onClick={pickable ? () => onSelect(p.id) : undefined}
            >
              {p.kind === 'switch' ? <rect x={-15} y={-11} width={30} height={22} rx={5} /> : <circle r={r} />}
              {(p.kind === 'switch' || endNames) && <text dy="0.35em">{p.id}</text>}
              <title>{pickable ? `${p.id}: click to inspect` : p.id}</title>
            </g>
          );
        })}
      </svg>
      {summary && (
        <figcaption className="topology-summary" data-testid="topology-summary">
          {countsText(summary)} ({nodes.length} drawn)
        </figcaption>
      )}
    </figure>
  );
}
