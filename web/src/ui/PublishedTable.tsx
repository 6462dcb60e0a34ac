import type { RunSummary as Summary } from '../contract/engine';
import type { ReferenceRow } from '../contract/generated/ReferenceRow';
import { ATM_VIEW, displayUnit, type DisplayUnit, type NetworkView } from '../charts/specs';

/** A number the way the table shows it: up to `digits` decimals, trailing zeros dropped. */
function num(v: number | null | undefined, digits: number): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return Number(v.toFixed(digits)).toLocaleString('en-US', { maximumFractionDigits: digits });
}

/** A relative difference in percent, signed, to one decimal; one that rounds to nothing reads
 *  "0 %", neither "+0 %" nor "-0 %" (a direction it does not show; `abrsim report` says the
 *  same, engine/cli `signed_percent`). QA: fecn-hotspot's table read "-0 %" and "+0 %". */
export function signedPercent(x: number): string {
  const shown = Number((100 * x).toFixed(1));
  if (shown === 0) return '0\u00a0%';
  return `${shown > 0 ? '+' : ''}${num(shown, 1)}\u00a0%`;
}

/** The unit a row is shown in, and the factor from the engine's unit (Mbps shown as Gbps on
 *  Ethernet; a utilisation, a fraction in the engine, in %: QA read "utilization 1 vs 0.9"). */
export function rowUnit(row: ReferenceRow, net: NetworkView): DisplayUnit {
  if (row.quantity === 'utilization') return { unit: '%', scale: 100 };
  return row.unit === 'Mbps' ? displayUnit('Mbps', net) : { unit: row.unit, scale: 1 };
}

/** The footnote marks of the rows without a verdict, one per distinct note, in the table's
 *  order: a figure without a tolerance (its file's reason, or that it gives none) and one
 *  measured under another scheme than this run's switches run (not judged). The verdict cell
 *  has room for a mark, not for the reason. */
export function noToleranceNotes(rows: readonly ReferenceRow[]): { mark: Map<number, string>; notes: { mark: string; text: string }[] } {
  const marks = ['*', '†', '‡', '§'];
  const byText = new Map<string, string>();
  const mark = new Map<number, string>();
  rows.forEach((row, i) => {
    // The engine's words, as `abrsim report` says them.
    const text = row.tolerance === null ? row.no_tolerance_note : row.not_judged_note;
    if (text === null) return;
    if (!byText.has(text)) byText.set(text, marks[byText.size] ?? `(${byText.size + 1})`);
    mark.set(i, byText.get(text)!);
  });
  return { mark, notes: [...byText].map(([text, m]) => ({ mark: m, text })) };
}

/** The sources the rows cite, each once, in the table's order, and the number of each row's
 *  source (from 1). The table lists them under it, visibly: a title shown only on hover is
 *  neither printed nor reached by touch or keyboard (QA: `abrsim report` cites each figure's
 *  source in a column, the Result tab only on hover). */
export function sourceList(rows: readonly ReferenceRow[]): { number: number[]; sources: string[] } {
  const sources: string[] = [];
  const number = rows.map((row) => {
    const at = sources.indexOf(row.source);
    if (at >= 0) return at + 1;
    sources.push(row.source);
    return sources.length;
  });
  return { number, sources };
}

/** The verdict cell: within the tolerance or not, with the tolerance on a line of its own (the
 *  narrowest side panel has room for five columns only so), its figure and unit never parted;
 *  without a tolerance, says so with the mark of the footnote that says why (QA: a bare "–"). */
export function Verdict({ row, mark }: { row: ReferenceRow; mark?: string }) {
  if (row.tolerance === null)
    return (
      <span className="published-none">
        no tolerance<sup>{mark ?? '*'}</sup>
      </span>
    );
  const tol = <span className="published-rel">(±{num(100 * row.tolerance, 1)}{'\u00a0'}%)</span>;
  if (row.not_judged_note !== null)
    return (
      <span className="published-none">
        not judged<sup>{mark ?? '*'}</sup> <br />
        {tol}
      </span>
    );
  if (row.within_tolerance === null)
    return (
      <span title="No value of ours to judge yet (no sample in the steady window)">
        – <br />
        {tol}
      </span>
    );
  return (
    <>
      {row.within_tolerance ? 'yes' : 'no'} <br />
      {tol}
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

/** A quantity's name in words, its unit left to the unit column ("mean_rate_mbps" → "mean
 *  rate"), in the lab's spelling ("utilisation", as on its charts). */
export function quantityWords(quantity: string): string {
  return quantity
    .replace(/_(mbps|cells)$/, '')
    .replace(/_/g, ' ')
    .replace(/utilization/, 'utilisation');
}

/** The table's value columns after the figure's own: the header, its tooltip, and the label a
 *  cell carries (`data-label`) for the narrow layout, where each row's values stand under its
 *  figure as label/value lines (app.css: presenting, the five columns did not fit the 340 px
 *  side panel at 18 px and the last ran out of sight, QA h65). */
const VALUE_COLUMNS = [
  // The header may break as pub-lished: the narrowest side panel needs the room.
  { head: 'pub\u00adlished', label: 'published', title: "The study's value" },
  { head: 'ours', label: 'ours', title: "This run's value" },
  { head: 'diff.', label: 'difference', title: 'The difference, ours − published, relative to the published value (hover a cell for it in the figure\'s unit)' },
  { head: 'agrees', label: 'agrees', title: "Whether ours is within the figure's tolerance of the published value" },
] as const;

/** The study's published figures beside ours (the engine computed both columns: `summary.reference`). */
export function PublishedTable({ summary, net = ATM_VIEW }: { summary: Summary; net?: NetworkView }) {
  const rows = summary.reference ?? [];
  if (rows.length === 0) return null;
  const untoleranced = noToleranceNotes(rows);
  const cited = sourceList(rows);
  const several = cited.sources.length > 1;
  return (
    // A long table scrolls in its box: focusable, so that the keyboard scrolls it too.
    <div className="summary-scroll published-scroll" tabIndex={0} role="region" aria-label="published figures beside ours">
      <table className="summary-table published-table" data-testid="summary-published">
        <thead>
          <tr>
            <th>Published figure</th>
            {VALUE_COLUMNS.map((c) => (
              <th key={c.label} title={c.title}>
                {c.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const { unit, scale } = rowUnit(row, net);
            const digits = unit === '' ? 3 : 2;
            const s = (v: number | null) => (v === null ? null : v * scale);
            const rel = row.relative_difference === null ? null : signedPercent(row.relative_difference);
            // A difference of two percentages is in points, not a percentage of either.
            const diffUnit = unit === '%' ? 'percentage points' : unit;
            const diff = `${num(s(row.difference), digits)}${diffUnit ? ` ${diffUnit}` : ''}`;
            const withUnit = (v: number | null) => `${num(s(v), digits)}${unit ? ` ${unit}` : ''}`;
            return (
              <tr key={i} title={row.source} className={row.within_tolerance === false ? 'published-off' : undefined}>
                <td>
                  <AboutLabel label={row.about_label} />: {quantityWords(row.quantity)}
                  {unit && <span className="published-unit"> ({unit})</span>}
                  {several && <span className="published-source-mark"> [{cited.number[i]}]</span>}
                </td>
                <td data-label={VALUE_COLUMNS[0].label} aria-label={`published ${withUnit(row.published)}`}>
                  <span>{num(s(row.published), digits)}</span>
                </td>
                <td data-label={VALUE_COLUMNS[1].label} aria-label={`ours ${withUnit(row.ours)}`}>
                  <span>{num(s(row.ours), digits)}</span>
                </td>
                {/* Relative: published and ours are beside it; the difference itself on hover. */}
                <td data-label={VALUE_COLUMNS[2].label} title={`ours − published = ${diff}`} data-difference={row.difference ?? ''}>
                  <span>{rel ?? diff}</span>
                </td>
                <td data-label={VALUE_COLUMNS[3].label}>
                  <span>
                    <Verdict row={row} mark={untoleranced.mark.get(i)} />
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="summary-note">
        Each row: the study’s published value, ours from this run, and their difference relative to the published value.
      </p>
      <p className="summary-note" data-testid="published-sources">
        {several ? 'Sources: ' : 'Source: '}
        {cited.sources.map((text, k) => (
          <span key={k}>
            {k > 0 && ' '}
            {several && `[${k + 1}] `}
            {text.replace(/[.;]\s*$/, '')}
            {several && k < cited.sources.length - 1 ? ';' : '.'}
          </span>
        ))}
      </p>
      {untoleranced.notes.map((n) => (
        <p key={n.mark} className="summary-note" data-testid="published-no-tolerance">
          <sup>{n.mark}</sup> {n.text}
        </p>
      ))}
    </div>
  );
}
