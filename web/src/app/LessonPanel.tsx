import type { Scenario } from '../scenario/types';
import type { LabState } from './lab';
import { RunSummary } from './RunSummary';
import { Topology } from './Topology';

/** The scenario's story: what it is, the network, what to watch, where it comes from. */
export function LessonPanel({ state }: { state: LabState }) {
  const s = state.current?.scenario;
  if (!s) return <aside className="lesson" />;
  return (
    <aside className="lesson" data-testid="lesson">
      <div className="lesson-group">{s.group}</div>
      <h1 className="lesson-title">{s.name || s.id}</h1>
      {s.description && <p className="lesson-description">{s.description}</p>}
      <Topology scenario={s} />
      <RunFacts scenario={s} state={state} />
      {s.lesson && (
        <section>
          <h3>What to watch</h3>
          {s.lesson.split(/\n\s*\n/).map((para, i) => (
            <p key={i}>{para}</p>
          ))}
        </section>
      )}
      {state.summary && <RunSummary summary={state.summary} />}
      {s.source && (
        <section>
          <h3>Source</h3>
          <p className="lesson-source">{s.source}</p>
        </section>
      )}
    </aside>
  );
}

function RunFacts({ scenario, state }: { scenario: Scenario; state: LabState }) {
  const algos = new Map<string, string[]>();
  for (const n of scenario.nodes) {
    if (n.kind !== 'switch') continue;
    const id = n.algorithm ?? 'erica';
    algos.set(id, [...(algos.get(id) ?? []), n.id]);
  }
  const nameOf = (id: string) => state.catalogue?.algorithms.find((a) => a.id === id)?.name ?? id;
  return (
    <dl className="facts">
      <dt>Duration</dt>
      <dd>{scenario.run.duration_ms} ms</dd>
      <dt>Sampling</dt>
      <dd>every {scenario.run.sample_interval_us ?? 500} µs</dd>
      <dt>Connections</dt>
      <dd>{scenario.connections.length}</dd>
      {[...algos].map(([id, nodes]) => (
        <FactPair key={id} term={nameOf(id)} value={nodes.join(', ')} />
      ))}
    </dl>
  );
}

function FactPair({ term, value }: { term: string; value: string }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </>
  );
}
