import type { Scenario } from '../contract/scenario';

const W = 320;
const H = 150;
const PAD = 22;

/**
 * A small drawing of the network from the nodes' editor positions. Switches can be clicked to
 * select them (when `onSelect` is given); the selected one is outlined.
 */
export function Topology({
  scenario,
  selected,
  onSelect,
}: {
  scenario: Scenario;
  selected?: string | null;
  onSelect?: (switchId: string) => void;
}) {
  const nodes = scenario.nodes.map((n, i) => ({ ...n, x: n.x ?? i * 100, y: n.y ?? 0 }));
  const xs = nodes.map((n) => n.x);
  const ys = nodes.map((n) => n.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const k = Math.min((W - 2 * PAD) / Math.max(1, x1 - x0), (H - 2 * PAD) / Math.max(1, y1 - y0));
  const ox = (W - (x1 - x0) * k) / 2;
  const oy = (H - (y1 - y0) * k) / 2;
  const pos = new Map(nodes.map((n) => [n.id, { x: ox + (n.x - x0) * k, y: oy + (n.y - y0) * k, kind: n.kind }]));
  // Shrink the nodes when they crowd (many sources), and drop labels that would not fit.
  let gap = Infinity;
  const pts = [...pos.values()];
  for (let i = 0; i < pts.length; i++)
    for (let j = i + 1; j < pts.length; j++) gap = Math.min(gap, Math.hypot(pts[i].x - pts[j].x, pts[i].y - pts[j].y));
  const r = Math.max(2.5, Math.min(11, gap / 2.3));
  return (
    <svg className="topology" viewBox={`0 0 ${W} ${H}`} role="img" aria-label="network topology">
      {scenario.links.map((l) => {
        const a = pos.get(l.from);
        const b = pos.get(l.to);
        if (!a || !b) return null;
        return (
          <g key={l.id}>
            <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} className="topo-link" />
            <title>{`${l.id}: ${l.rate_mbps} Mbps`}</title>
          </g>
        );
      })}
      {[...pos].map(([id, p]) => {
        const pickable = p.kind === 'switch' && onSelect;
        return (
          <g
            key={id}
            transform={`translate(${p.x},${p.y})`}
            className={`topo-node topo-${p.kind}${pickable ? ' topo-pickable' : ''}${id === selected ? ' topo-selected' : ''}`}
            data-testid={`topo-${id}`}
            onClick={pickable ? () => onSelect(id) : undefined}
          >
            {p.kind === 'switch' ? <rect x={-15} y={-11} width={30} height={22} rx={5} /> : <circle r={r} />}
            {(p.kind === 'switch' || r >= 9) && <text dy="0.35em">{id}</text>}
            <title>{pickable ? `${id}: click to inspect` : id}</title>
          </g>
        );
      })}
    </svg>
  );
}
