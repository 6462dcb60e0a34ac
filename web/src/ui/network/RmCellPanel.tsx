// The RM cell picked in the Network view: its fields at the shown time, as far as the trace has
// them, and its journey (lab/rmCells.ts: journeyOf), stop by stop; on Ethernet, the
// rate-discovery frame or QCN notification, in Ethernet's words and Gbps (rmWords).

import { Fragment, useEffect, useRef } from 'react';
import type { LabState } from '../../lab/lab';
import { acrReason, cellFields, fieldsAt, journeyOf, type JourneyStop } from '../../lab/rmCells';
import { acrText, ATM_WORDS, erText, loopName, lowererName, rateText, timeText, type RateUnit, type RmWords } from '../../lab/rmLog';
import type { NetworkPainter } from './painter';
import { scrollIntoViewSoon } from '../scrollSoon';

/** The network's words for what a cell carries (`er`: ER or tag rate; the source's rate), and
 *  its unit. */
interface Speech {
  words: RmWords;
  rate: RateUnit;
}

/** A stop of a cell's journey as the panel lists it (exported for tests). */
export function stopText(s: JourneyStop, algorithmName: (id: string) => string, speech: Speech): string {
  const text = stopWhat(s, algorithmName, speech);
  // Who marked it (ATM's bits; Ethernet's frames have none): QA, an EFCI run's journey never
  // said where CI came from, nor why the source's ACR then fell.
  if (!s.set.length) return text;
  // TM 4.0's destination sets CI in the cell it turns around when its data cells came marked
  // (an EFCI switch marks data cells, never RM cells).
  const efci = s.direction === 'turnaround' && s.set.includes('CI') ? ' (its data cells came marked EFCI)' : '';
  return `${text}; ${s.set.join(' and ')} set here${efci}`;
}

function stopWhat(s: JourneyStop, algorithmName: (id: string) => string, { words, rate }: Speech): string {
  // With its unit (QA: a FECN frame's "forward at SW1, tag rate 1.25", Gbps unsaid).
  const er = s.er_out_mbps === null ? '' : ` ${words.er} ${rateText(s.er_out_mbps, rate)} ${rate.unit}`;
  switch (s.direction) {
    case 'sent':
      return `sent by ${s.node}${s.er_in_mbps === null ? '' : ` with ${words.er} ${rateText(s.er_in_mbps, rate)}`}`;
    case 'notification':
      return `sent by switch ${s.node}${s.feedback === null ? '' : ` (feedback ${erText(s)})`}`;
    case 'turnaround':
      return `${words.turned} at ${s.node}${loweredText(s, algorithmName, { words, rate })}`;
    case 'received': {
      const acr = acrText(s, rate);
      const carried = s.feedback !== null ? ` feedback ${erText(s)}` : er || ` no ${words.er}`;
      // Why ATM's ACR moved (TM 4.0's rules on the cell's CI, NI and ER).
      const why = words === ATM_WORDS && acr ? acrReason(s) : '';
      return `received by ${s.node}:${carried}${acr ? `; its ${words.sourceRate} ${acr}${why ? ` (${why})` : ''}` : ''}`;
    }
    case 'lost':
      return `lost at ${s.node}: dropped at its output port`;
    default:
      // A switch's notification passing another switch on its way to the source (BN = 1): no
      // ER for that switch to lower, and it was never turned around.
      if (s.direction === 'backward' && s.bn) return `passed switch ${s.node} on its way to the source`;
      return `${s.direction} at ${s.node}${loweredText(s, algorithmName, { words, rate }) || (er ? `,${er}` : '')}`;
  }
}

const capital = (s: string) => `${s[0].toUpperCase()}${s.slice(1)}`;

function loweredText(s: JourneyStop, algorithmName: (id: string) => string, { words, rate }: Speech): string {
  if (!s.loweredMbps || s.er_in_mbps === null || s.er_out_mbps === null) return '';
  return `: ${s.by ? algorithmName(s.by) : words.er} lowered ${words.er} ${rateText(s.er_in_mbps, rate)} → ${rateText(s.er_out_mbps, rate)} (−${rateText(s.loweredMbps, rate)})`;
}

export function RmCellPanel({
  painter,
  id,
  state,
  onClose,
  words,
  rate,
  focusKey = 0,
}: {
  painter: NetworkPainter;
  id: string;
  state: LabState;
  onClose: () => void;
  /** Changed (above 0) when the panel was opened by a button that then goes (the view's *Show
   *  it*): the panel takes the keyboard's focus, on its Close button, instead of the page. */
  focusKey?: number;
} & Speech) {
  const cell = painter.cells()?.cells.find((c) => c.id === id);
  const algorithmName = (a: string) => lowererName(a, state.catalogue?.algorithms ?? []);
  // Below the drawing, the panel can open off screen (at 1400×900 only its heading shows): a
  // pick brings it into view, or the click would seem to do nothing.
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => scrollIntoViewSoon(() => panel.current), [id]);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusKey > 0) close.current?.focus({ preventScroll: true });
  }, [focusKey]);
  if (!cell) {
    return (
      <div className="nv-cell" data-testid="nv-cell" data-cell={id} ref={panel}>
        <p>That {words.cell} is no longer in the trace kept.</p>
        <button className="btn" onClick={onClose}>
          Close
        </button>
      </div>
    );
  }
  const shownUs = (painter.shownMs ?? state.status?.nowMs ?? 0) * 1000;
  const f = fieldsAt(cell, shownUs) ?? fieldsAt(cell, Infinity)!;
  const j = journeyOf(cell);
  const speech = { words, rate };
  const notification = j.stops[0].direction === 'notification';
  const what = notification ? words.phase.notification : words.cell;
  const er = words.er;
  const u = ` ${rate.unit}`;
  return (
    <div className="nv-cell" data-testid="nv-cell" data-cell={id} aria-live="polite" ref={panel}>
      <div className="nv-cell-head">
        <strong>
          {loopName(cell)} · {what} #{cell.seq}
        </strong>{' '}
        {cell.vp ? (
          <span>
            (the virtual path&apos;s loop from {cell.origin}, carried under {cell.connection})
          </span>
        ) : notification ? (
          <span>(from switch {cell.origin} to the source)</span>
        ) : (
          <span>({words.loopOf(cell.origin)})</span>
        )}
        <button className="btn" onClick={onClose} data-testid="nv-cell-close" ref={close}>
          Close
        </button>
      </div>
      <dl className="nv-fields" data-testid="nv-cell-fields">
        {cellFields(f, !!state.current?.scenario.ethernet, rate).map((row) => (
          <Fragment key={row.name}>
            <dt>{row.label}</dt>
            <dd data-name={row.name}>{row.value}</dd>
          </Fragment>
        ))}
      </dl>
      <p className="nv-journey-sum" data-testid="nv-journey-summary">
        {notification ? (
          j.complete ? 'Delivered to the source.' : j.lostAt ? `Lost at ${j.lostAt} (dropped at its output port).` : 'Still on its way.'
        ) : (
          <>
            {j.turnedAt ? `${capital(words.turned)} at ${j.turnedAt}. ` : `Not ${words.turned} yet. `}
            {/* A sentence of its own: "Tag rate not lowered…" (QA: it began "tag rate"). */}
            {j.lowered.length
              ? `${capital(er)} lowered at ${j.lowered.map((s) => `${s.node} by ${algorithmName(s.by)} (−${rateText(s.loweredMbps!, rate)}${u})`).join(', ')}.`
              : `${capital(er)} not lowered on its way.`}
            {j.stops
              .filter((s) => s.set.length)
              .map((s) => ` ${s.set.join(' and ')} set at ${s.node}.`)
              .join('')}
            {j.complete ? ` Home with ${er} ${rateText(j.erNowMbps, rate)}${u}.` : j.lostAt ? ` Lost at ${j.lostAt} (dropped at its output port).` : ' Still on its way.'}
          </>
        )}
      </p>
      <ol className="nv-journey" data-testid="nv-journey">
        {j.stops.map((s, i) => (
          <li key={i} className={s.time_us <= shownUs ? 'done' : 'ahead'} data-direction={s.direction} data-node={s.node}>
            <span className="nv-journey-t">{timeText(s.time_us)} ms</span> {stopText(s, algorithmName, speech)}
          </li>
        ))}
      </ol>
    </div>
  );
}
