// Writes the scale benchmark networks scenarios/bench/scale-{10,1000,10000}.json: N greedy ABR
// sources, each on its own OC-3 access link, through SW1 -> SW2 (ERICA) to one destination node.
// The same cell load crosses the bottleneck at every size, so events per second should not
// fall with N. Run: node scripts/gen-scale.mjs (the files are committed; this documents them).
import { writeFileSync } from 'node:fs';

for (const n of [10, 1000, 10000]) {
  const nodes = [];
  const links = [];
  const connections = [];
  for (let i = 1; i <= n; i++) {
    nodes.push({ id: `S${i}`, kind: 'source' });
    links.push({ id: `L${i}`, from: `S${i}`, to: 'SW1', rate_mbps: 155.52, delay_us: 5 });
    connections.push({ id: `C${i}`, from: `S${i}`, to: 'D1' });
  }
  nodes.push({ id: 'SW1', kind: 'switch' }, { id: 'SW2', kind: 'switch' }, { id: 'D1', kind: 'destination' });
  links.push(
    { id: 'TRUNK', from: 'SW1', to: 'SW2', rate_mbps: 155.52, delay_us: 5 },
    { id: 'EGRESS', from: 'SW2', to: 'D1', rate_mbps: 155.52, delay_us: 5 },
  );
  const scenario = {
    version: 1,
    id: `scale-${n}`,
    name: `Scale: ${n} sources (benchmark)`,
    description: `Speed benchmark: ${n} greedy ABR sources share one OC-3 bottleneck (ERICA); build time and events/s against size.`,
    run: { duration_ms: 500, sample_interval_us: 10000, seed: 1 },
    defaults: { source: { icr_mbps: Number((100 / n).toPrecision(3)), rif: 1 } },
    nodes,
    links,
    connections,
  };
  // One object per line: readable, and small enough to commit.
  const text =
    JSON.stringify({ ...scenario, nodes: [], links: [], connections: [] }, null, 2)
      .replace('"nodes": []', `"nodes": [\n${nodes.map((x) => '    ' + JSON.stringify(x)).join(',\n')}\n  ]`)
      .replace('"links": []', `"links": [\n${links.map((x) => '    ' + JSON.stringify(x)).join(',\n')}\n  ]`)
      .replace(
        '"connections": []',
        `"connections": [\n${connections.map((x) => '    ' + JSON.stringify(x)).join(',\n')}\n  ]`,
      ) + '\n';
  writeFileSync(new URL(`../scenarios/bench/scale-${n}.json`, import.meta.url), text);
}
