// The RM cell picked in the Network view: its fields at the shown time, as far as the trace has
// them, and its journey (lab/rmCells.ts: journeyOf), stop by stop.

import { useEffect, useRef } from 'react';
import type { LabState } from '../../lab/lab';
import { fieldsAt, journeyOf, type JourneyStop } from '../../lab/rmCells';
import { acrText, erText, loopName, lowererName, rateText, timeText } from '../../lab/rmLog';
import type { NetworkPainter } from './painter';
import { scrollIntoViewSoon } from '../scrollSoon';

const DIR_TEXT = { forward: 'forward (DIR = 0)', backward: 'backward (DIR = 1)', notification: 'congestion notification' } as const;
const bit = (b: boolean) => (b ? '1' : '0');

function stopText(s: JourneyStop, algorithmName: (id: string) => string, rateName: string): string {
  const er = s.er_out_mbps === null ? '' : ` ER ${rateText(s.er_out_mbps)}`;
  switch (s.direction) {
    case 'sent':
      return `sent by ${s.node}${s.er_in_mbps === null ? '' : ` with ER ${rateText(s.er_in_mbps)}`}`;
    case 'notification':
      return `sent by switch ${s.node}${s.feedback === null ? '' : ` (feedback ${erText(s)})`}`;
    case 'turnaround':
      return `turned around at ${s.node}${loweredText(s, algorithmName)}`;
    case 'received': {
      const acr = acrText(s);
      const carried = s.feedback !== null ? ` feedback ${erText(s)}` : er || ' no ER';
      return `received by ${s.node}:${carried}${acr ? `; its ${rateName} ${acr}` : ''}`;
    }
    case 'lost':
      return `lost at ${s.node}: dropped at its output port`;
    default:
      return `${s.direction} at ${s.node}${loweredText(s, algorithmName) || (er ? `,${er}` : '')}`;
  }
}

function loweredText(s: JourneyStop, algorithmName: (id: string) => string): string {
  if (!s.loweredMbps || s.er_in_mbps === null || s.er_out_mbps === null) return '';
  return `: ${s.by ? algorithmName(s.by) : 'ER'} lowered ER ${rateText(s.er_in_mbps)} → ${rateText(s.er_out_mbps)} (−${rateText(s.loweredMbps)})`;
}

export function RmCellPanel({ painter, id, state, onClose }: { painter: NetworkPainter; id: string; state: LabState; onClose: () => void }) {
  const cell = painter.cells()?.cells.find((c) => c.id === id);
  const algorithmName = (a: string) => lowererName(a, state.catalogue?.algorithms ?? []);
  // Below the drawing, the panel can open off screen (at 1400×900 only its heading shows): a
  // pick brings it into view, or the click would seem to do nothing.
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => scrollIntoViewSoon(() => panel.current), [id]);
  if (!cell) {
    return (
      <div className="nv-cell" data-testid="nv-cell" data-cell={id} ref={panel}>
        <p>That RM cell is no longer in the trace kept.</p>
        <button className="btn" onClick={onClose}>
          Close
        </button>
      </div>
    );
  }
  const shownUs = (painter.shownMs ?? state.status?.nowMs ?? 0) * 1000;
  const f = fieldsAt(cell, shownUs) ?? fieldsAt(cell, Infinity)!;
  const j = journeyOf(cell);
  return (
    <div className="nv-cell" data-testid="nv-cell" data-cell={id} aria-live="polite" ref={panel}>
      <div className="nv-cell-head">
        <strong>
          {loopName(cell)} · RM cell #{cell.seq}
        </strong>{' '}
        {cell.vp ? (
          <span>
            (the virtual path&apos;s loop from {cell.origin}, carried under {cell.connection})
          </span>
        ) : (
          <span>(the loop of {cell.origin})</span>
        )}
        <button className="btn" onClick={onClose} data-testid="nv-cell-close">
          Close
        </button>
      </div>
      <dl className="nv-fields" data-testid="nv-cell-fields">
        <dt>DIR</dt>
        <dd data-name="dir">{DIR_TEXT[f.dir]}</dd>
        <dt>ER</dt>
        <dd data-name="er">{f.erMbps === null ? '—' : `${rateText(f.erMbps)} Mbps`}</dd>
        <dt>CCR</dt>
        <dd data-name="ccr">{f.ccrMbps === null ? '—' : `${rateText(f.ccrMbps)} Mbps`}</dd>
        <dt>CI</dt>
        <dd data-name="ci">{bit(f.ci)}</dd>
        <dt>NI</dt>
        <dd data-name="ni">{bit(f.ni)}</dd>
        <dt>BN</dt>
        <dd data-name="bn">{bit(f.bn)}</dd>
      </dl>
      <p className="nv-journey-sum" data-testid="nv-journey-summary">
        {j.turnedAt ? `Turned around at ${j.turnedAt}. ` : j.stops[0].direction === 'notification' ? '' : 'Not turned around yet. '}
        {j.lowered.length
          ? `ER lowered at ${j.lowered.map((s) => `${s.node} by ${algorithmName(s.by)} (−${rateText(s.loweredMbps!)} Mbps)`).join(', ')}.`
          : 'ER not lowered on its way.'}
        {j.complete ? ` Home with ER ${rateText(j.erNowMbps)} Mbps.` : j.lostAt ? ` Lost at ${j.lostAt} (dropped at its output port).` : ' Still on its way.'}
      </p>
      <ol className="nv-journey" data-testid="nv-journey">
        {j.stops.map((s, i) => (
          <li key={i} className={s.time_us <= shownUs ? 'done' : 'ahead'} data-direction={s.direction} data-node={s.node}>
            <span className="nv-journey-t">{timeText(s.time_us)} ms</span> {stopText(s, algorithmName, state.current?.scenario.ethernet ? 'rate limit' : 'ACR')}
          </li>
        ))}
      </ol>
    </div>
  );
}
