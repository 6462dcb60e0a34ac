import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import type { RunSummary as Summary } from '../contract/engine';
import type { ReferenceRow } from '../contract/generated/ReferenceRow';
import { noToleranceNotes, PublishedTable, signedPercent, sourceList } from './PublishedTable';

const row = (over: Partial<ReferenceRow>): ReferenceRow => ({
  about: { connection: 'C1' },
  about_label: 'connection C1',
  quantity: 'mean_rate_mbps',
  unit: 'Mbps',
  published: 45,
  ours: 40.5,
  difference: -4.5,
  relative_difference: -0.1,
  tolerance: null,
  within_tolerance: null,
  no_tolerance_reason: null,
  no_tolerance_note: null,
  source: 'Fig. 1',
  algorithm: null,
  not_judged_note: null,
  ...over,
});

const WHY = 'A target, not a measurement: ERICA aims at U = 0.9 of it.';
// The engine's notes (reference.rs words them; the CLI's tests hold its words).
const becauseWhy = { no_tolerance_reason: WHY, no_tolerance_note: `No tolerance: ${WHY}` };
const NONE_GIVEN = 'No tolerance: the file gives none.';

function table(rows: ReferenceRow[]): Document {
  const html = renderToStaticMarkup(<PublishedTable summary={{ reference: rows } as unknown as Summary} />);
  return new DOMParser().parseFromString(html, 'text/html');
}

const cells = (doc: Document, i: number) => [...doc.querySelectorAll('tbody tr')[i].querySelectorAll('td')].map((td) => td.textContent);

// QA: core-edge read "link L1: utilization 1 vs 0.9", unit-less.
it('shows a utilisation in % with its unit, each number labelled published or ours', () => {
  const doc = table([
    row({ about: { link: 'L1' }, about_label: 'link L1', quantity: 'utilization', unit: '', published: 1, ours: 0.9, difference: -0.1, ...becauseWhy }),
  ]);
  const [what, published, ours, diff] = cells(doc, 0);
  expect(what).toBe('link L1: utilisation (%)');
  expect(published).toBe('100');
  expect(ours).toBe('90');
  expect(diff).toBe('-10\u00a0%');
  const tds = doc.querySelectorAll('tbody td');
  expect(tds[1].getAttribute('aria-label')).toBe('published 100 %');
  expect(tds[2].getAttribute('aria-label')).toBe('ours 90 %');
  expect(tds[3].getAttribute('title')).toBe('ours − published = -10 percentage points');
});

// QA: an "agrees –" cell showed no tolerance and no reason.
it('every verdict cell states its tolerance, or that there is none with a footnote saying why', () => {
  const doc = table([
    row(becauseWhy),
    row({ about_label: 'connection C2', ...becauseWhy }),
    row({ about_label: 'connection C3', no_tolerance_note: NONE_GIVEN }),
    row({ about_label: 'connection C4', tolerance: 0.05, within_tolerance: false }),
    row({ about_label: 'connection C5', tolerance: 0.05, ours: null, difference: null, relative_difference: null }),
  ]);
  const verdicts = [0, 1, 2, 3, 4].map((i) => cells(doc, i)[4]);
  expect(verdicts).toEqual(['no tolerance*', 'no tolerance*', 'no tolerance†', 'no (±5\u00a0%)', '– (±5\u00a0%)']);
  const notes = [...doc.querySelectorAll('[data-testid="published-no-tolerance"]')].map((p) => p.textContent);
  expect(notes).toEqual([`* No tolerance: ${WHY}`, `† ${NONE_GIVEN}`]);
});

// QA: a copy of gfc1 run with EPRCA judged its queues against ERICA+'s published ones.
it('a figure measured under another scheme than the run is not judged, with a footnote saying why', () => {
  const other = 'Not judged: measured under ERICA+, and here SW2 runs EPRCA, so ours is shown beside it without a verdict.';
  const doc = table([
    row({ about_label: 'port SW2->SW3', tolerance: 0.2, algorithm: 'erica_plus', not_judged_note: other }),
    row({ about_label: 'connection C2', ...becauseWhy }),
    row({ about_label: 'port SW3->SW4', tolerance: 0.2, algorithm: 'erica_plus', within_tolerance: true }),
  ]);
  expect([0, 1, 2].map((i) => cells(doc, i)[4])).toEqual(['not judged* (±20\u00a0%)', 'no tolerance†', 'yes (±20\u00a0%)']);
  const notes = [...doc.querySelectorAll('[data-testid="published-no-tolerance"]')].map((p) => p.textContent);
  expect(notes).toEqual([`* ${other}`, `† No tolerance: ${WHY}`]);
});

it('gives no footnote when every figure has a tolerance', () => {
  expect(noToleranceNotes([row({ tolerance: 0.05, within_tolerance: true })]).notes).toEqual([]);
});

// QA: fecn-hotspot's table read "-0 %" and "+0 %" for differences of a few hundredths of a percent.
it('a relative difference that rounds to nothing has no sign', () => {
  expect(signedPercent(0.0004)).toBe('0\u00a0%');
  expect(signedPercent(-0.0004)).toBe('0\u00a0%');
  expect(signedPercent(0.0006)).toBe('+0.1\u00a0%');
  expect(signedPercent(-0.125)).toBe('-12.5\u00a0%');
  const doc = table([row({ ours: 44.99, difference: -0.01, relative_difference: -0.0002 })]);
  expect(cells(doc, 0)[3]).toBe('0\u00a0%');
});

// QA: `abrsim report` cites each figure's source in a column; the Result tab only in a title on
// hover, which is neither printed nor reached by touch or keyboard.
it('lists the sources under the table, each once, numbered and marked on their rows when several', () => {
  const rows = [
    row({ about_label: 'port SW1->SW2', source: 'Ch. 9, configuration 1: switch 1.' }),
    row({ about_label: 'port SW2->SW3', source: 'Ch. 9, configuration 1: switch 2' }),
    row({ about_label: 'connection C1', source: 'Ch. 9, configuration 1: switch 1.' }),
  ];
  expect(sourceList(rows)).toEqual({ number: [1, 2, 1], sources: ['Ch. 9, configuration 1: switch 1.', 'Ch. 9, configuration 1: switch 2'] });
  const doc = table(rows);
  expect([0, 1, 2].map((i) => cells(doc, i)[0])).toEqual([
    'port SW1->SW2: mean rate (Mbps) [1]',
    'port SW2->SW3: mean rate (Mbps) [2]',
    'connection C1: mean rate (Mbps) [1]',
  ]);
  expect(doc.querySelector('[data-testid="published-sources"]')?.textContent).toBe(
    'Sources: [1] Ch. 9, configuration 1: switch 1; [2] Ch. 9, configuration 1: switch 2.',
  );
  // One source for every row: said once, no marks on the rows.
  const one = table([row({}), row({ about_label: 'connection C2' })]);
  expect(cells(one, 1)[0]).toBe('connection C2: mean rate (Mbps)');
  expect(one.querySelector('[data-testid="published-sources"]')?.textContent).toBe('Source: Fig. 1.');
});
