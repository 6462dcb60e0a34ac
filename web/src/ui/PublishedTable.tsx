import type { RunSummary as Summary } from '../contract/engine';
import type { ReferenceRow } from '../contract/generated/ReferenceRow';
import { ATM_VIEW, displayUnit, type NetworkView } from '../charts/specs';

/** A number the way the table shows it: up to `digits` decimals, trailing zeros dropped. */
function num(v: number | null | undefined, digits: number): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return Number(v.toFixed(digits)).toLocaleString('en-US', { maximumFractionDigits: digits });
}

/** The unit a row is shown in, and the factor from the engine's unit (Mbps shown as Gbps on Ethernet). */
export function rowUnit(row: ReferenceRow, net: NetworkView): { unit: string; scale: number } {
  return row.unit === 'Mbps' ? displayUnit('Mbps', net) : { unit: row.unit, scale: 1 };
}

/** The verdict cell: within the tolerance or not, or nothing to judge by; the tolerance on a
 *  line of its own (the narrowest side panel has room for five columns only so), its figure
 *  and unit never parted. */
export function Verdict({ row }: { row: ReferenceRow }) {
  if (row.within_tolerance === null || row.tolerance === null) return <>–</>;
  return (
    <>
      {row.within_tolerance ? 'yes' : 'no'} <br />
      <span className="published-rel">(±{num(100 * row.tolerance, 1)}{'\u00a0'}%)</span>
    </>
  );
}

/** What a figure is about (`port SW1->SW2`): a port's name breaks, where it must, before its
 *  arrow, never after the arrow's hyphen (QA: "SW1-" / ">SW2"). */
function AboutLabel({ label }: { label: string }) {
  return (
    <>
      {label.split(' ').map((word, i) => {
        const arrow = word.indexOf('->');
        return (
          <span key={i}>
            {i > 0 && ' '}
            {arrow > 0 ? (
              <>
                {word.slice(0, arrow)}
                <wbr />
                <span className="published-port">{word.slice(arrow)}</span>
              </>
            ) : (
              word
            )}
          </span>
        );
      })}
    </>
  );
}

/** A quantity's name in words, its unit left to the unit column ("mean_rate_mbps" → "mean rate"). */
export function quantityWords(quantity: string): string {
  return quantity.replace(/_(mbps|cells)$/, '').replace(/_/g, ' ');
}

/** The study's published figures beside ours (the engine computed both columns: `summary.reference`). */
export function PublishedTable({ summary, net = ATM_VIEW }: { summary: Summary; net?: NetworkView }) {
  const rows = summary.reference ?? [];
  if (rows.length === 0) return null;
  return (
    // A long table scrolls in its box: focusable, so that the keyboard scrolls it too.
    <div className="summary-scroll" tabIndex={0} role="region" aria-label="published figures beside ours">
      <table className="summary-table published-table" data-testid="summary-published">
        <thead>
          <tr>
            <th>Published figure</th>
            {/* May break as pub-lished: the narrowest side panel needs the room. */}
            <th>pub{'\u00ad'}lished</th>
            <th>ours</th>
            <th title="The difference, ours − published, relative to the published value (hover a cell for it in the figure's unit)">diff.</th>
            <th title="Whether ours is within the figure's tolerance of the published value">agrees</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const { unit, scale } = rowUnit(row, net);
            const digits = unit === '' ? 3 : 2;
            const s = (v: number | null) => (v === null ? null : v * scale);
            const rel = row.relative_difference === null ? null : `${row.relative_difference >= 0 ? '+' : ''}${num(100 * row.relative_difference, 1)}\u00a0%`;
            const diff = `${num(s(row.difference), digits)}${unit ? ` ${unit}` : ''}`;
            return (
              <tr key={i} title={row.source} className={row.within_tolerance === false ? 'published-off' : undefined}>
                <td>
                  <AboutLabel label={row.about_label} />: {quantityWords(row.quantity)}
                  {unit && <span className="published-unit"> ({unit})</span>}
                </td>
                <td>{num(s(row.published), digits)}</td>
                <td>{num(s(row.ours), digits)}</td>
                {/* Relative: published and ours are beside it; the difference itself on hover. */}
                <td title={`ours − published = ${diff}`} data-difference={row.difference ?? ''}>
                  {rel ?? diff}
                </td>
                <td>
                  <Verdict row={row} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="summary-note">Published figures: hover a row for the figure or table it comes from.</p>
    </div>
  );
}
