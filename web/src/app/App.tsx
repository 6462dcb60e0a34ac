import { useEffect, useMemo } from 'react';
import { TimeChart } from '../charts/TimeChart';
import { CHARTS, linesFor, unitFor } from '../charts/specs';
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
            />
          ))}
        </div>
        <LessonPanel state={state} />
      </main>
    </div>
  );
}
