import { useEffect, useMemo, useState } from 'react';
import { TimeChart } from '../charts/TimeChart';
import { algorithmQuantities, ALGORITHM_CHART, CHARTS, linesFor, onlyQuantity, unitFor } from '../charts/specs';
import type { Lab } from './lab';
import { LessonPanel } from './LessonPanel';
import { Notices } from './Notices';
import { Toolbar } from './Toolbar';
import { useLabState } from './useLab';

export function App({ lab }: { lab: Lab }) {
  const state = useLabState(lab);
  const endMs = state.current?.scenario.run.duration_ms ?? state.status?.endMs ?? 1;
  const charts = useMemo(
    () => CHARTS.map((spec) => ({ spec, lines: linesFor(spec, state.meta), unit: unitFor(spec, state.meta) })),
    [state.meta],
  );
  // View state: which algorithm quantity the fourth chart shows (the first one by default).
  const [wanted, setWanted] = useState<string | null>(null);
  const quantities = useMemo(() => algorithmQuantities(state.meta), [state.meta]);
  const quantity = wanted !== null && quantities.includes(wanted) ? wanted : (quantities[0] ?? null);
  const algorithmChart = useMemo(() => {
    const keep = onlyQuantity(quantity);
    return { lines: linesFor(ALGORITHM_CHART, state.meta, keep), unit: unitFor(ALGORITHM_CHART, state.meta, keep) };
  }, [state.meta, quantity]);
  const quantityPicker = useMemo(
    () =>
      quantities.length > 0 && (
        <select
          className="chart-select"
          aria-label="algorithm quantity"
          data-testid="algorithm-quantity"
          value={quantity ?? ''}
          onChange={(e) => setWanted(e.target.value)}
        >
          {quantities.map((q) => (
            <option key={q} value={q}>
              {q}
            </option>
          ))}
        </select>
      ),
    [quantities, quantity],
  );
  const changes = state.current?.scenario.changes;
  const markers = useMemo(() => (changes ?? []).map((c) => c.at_ms), [changes]);

  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      const t = ev.target as HTMLElement;
      if (ev.code !== 'Space' || ['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(t.tagName)) return;
      ev.preventDefault();
      lab.togglePlay();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [lab]);

  return (
    <div className="app">
      <Toolbar lab={lab} state={state} />
      <Notices lab={lab} state={state} />
      <main className="workspace">
        <div className="charts">
          {charts.map(({ spec, lines, unit }) => (
            <TimeChart
              key={spec.id}
              testId={`chart-${spec.id}`}
              store={lab.store}
              title={spec.title}
              lines={lines}
              endMs={endMs}
              yUnit={unit}
              yFloor={spec.yFloor}
              markers={markers}
            />
          ))}
          <TimeChart
            testId="chart-algorithm"
            store={lab.store}
            title={ALGORITHM_CHART.title}
            lines={algorithmChart.lines}
            endMs={endMs}
            yUnit={algorithmChart.unit}
            yFloor={ALGORITHM_CHART.yFloor}
            markers={markers}
            controls={quantityPicker}
            emptyText="No switch reports internal state (every switch runs “none”)."
          />
        </div>
        <LessonPanel lab={lab} state={state} />
      </main>
    </div>
  );
}
