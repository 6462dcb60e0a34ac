// The Compare view's form in a DOM (jsdom): what a variant runs is what its form shows. The
// session is real; its pool never answers (the form is under test, not the runs).

import { act } from 'react';
import { describe, expect, it } from 'vitest';
// First: the page the view needs as it loads.
import { render } from '../test/reactPage';
import type { Scenario } from '../contract/scenario';
import { CompareSession } from '../lab/compareSession';
import type { VariantDraft } from '../lab/compare';
import { LIBRARY, type LibraryEntry } from '../scenario/library';
import type { Place } from '../scenario/place';
import { ENGINE_CATALOGUE } from '../test/engineCatalogue';
import { parseRow } from '../lab/sweepTable';
import { compareText, CompareView } from './CompareView';

const entry = (id: string) => LIBRARY.entries.find((e) => e.id === id)!;

/** The view on library scenario `id` with `drafts` in its form, over `library`. */
function view(id: string, drafts: VariantDraft[], library: readonly LibraryEntry[] = LIBRARY.entries) {
  const never = { submit: () => new Promise<never>(() => undefined), cancel: () => undefined, size: 1 };
  const compare = new CompareSession(never, (from) => library.find((e) => e.id === from)?.json);
  const place: Place = { kind: 'library', id };
  compare.drafts.set(place, id, drafts);
  const current = entry(id);
  const host = render(
    <CompareView compare={compare} current={current.scenario} currentJson={current.json} place={place} catalogue={ENGINE_CATALOGUE} library={library} onOpen={() => undefined} />,
  );
  const $ = <T extends HTMLElement = HTMLElement>(testId: string) => host.querySelector<T>(`[data-testid="${testId}"]`);
  const choose = (testId: string, value: string) => {
    const select = $<HTMLSelectElement>(testId)!;
    act(() => {
      select.value = value;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
  };
  /** The lists a variant shows: switch id → [value, the option shown]. */
  const lists = (variant: number) =>
    Object.fromEntries(
      [...host.querySelectorAll<HTMLSelectElement>(`[data-testid^="variant-${variant}-alg-"]`)].map((s) => [
        s.dataset.testid!.slice(`variant-${variant}-alg-`.length),
        [s.value, s.selectedOptions[0]?.textContent ?? ''],
      ]),
    );
  const run = () => act(() => $('compare-run')!.click());
  return { compare, $, choose, lists, run };
}

it("the table's numbers: a row of counts whole, a rate as the readouts, Jain's index to its row's 4 decimals", () => {
  expect(compareText(1043, { values: [1043, 2, null] })).toBe('1043');
  expect(compareText(5.26968, { values: [5.26968, 4] })).toBe('5.27');
  // One row, one format: a whole 1 ms beside 0.5 ms is 1.00, not 1.
  expect(compareText(1, { values: [1, 0.5] })).toBe('1.00');
  expect(compareText(0.99876, { values: [0.99876, 1], digits: 4 })).toBe('0.9988');
  expect(compareText(1, { values: [0.99876, 1], digits: 4 })).toBe('1.0000');
});

describe('CompareView: a variant runs what its form shows', () => {
  // Review: SW1's list hid once "from" named a library scenario, and its earlier pick still ran.
  it("keeps a variant's algorithm lists when it starts from a library scenario: a pick made before shows, and runs", () => {
    const v = view('vsvd-1', [{ from: '', algorithms: {}, sets: '' }]);
    v.choose('variant-1-alg-SW1', 'erica');
    v.choose('variant-1-from', 'vsvd-1-end-to-end');
    expect(v.lists(1)).toEqual({ SW1: ['erica', 'ERICA'], SW2: ['', 'as it is (erica_plus)'], SW3: ['', 'as it is (erica_plus)'] });
    // The switches pick differently: the every-switch list says so.
    expect(v.$<HTMLSelectElement>('variant-1-every-switch')!.selectedOptions[0]?.textContent).toBe('each its own');
    v.run();
    expect(v.compare.getState().variants).toEqual([{ from: 'vsvd-1-end-to-end', sets: ['nodes.SW1.algorithm=erica'] }]);
    // "As it is" is the library scenario's algorithm, not the current one's.
    v.choose('variant-1-alg-SW1', '');
    expect(v.lists(1).SW1).toEqual(['', 'as it is (erica_plus)']);
  });

  it("says what a switch runs as it is in the scenario the variant starts from", () => {
    const other = { ...entry('vsvd-1-end-to-end') };
    const doc = JSON.parse(other.json) as Scenario;
    doc.nodes = doc.nodes.map((n) => (n.id === 'SW2' ? { ...n, algorithm: 'ut' } : n));
    other.json = JSON.stringify(doc);
    other.scenario = doc;
    const v = view('vsvd-1', [{ from: 'vsvd-1-end-to-end', algorithms: {}, sets: '' }], [entry('vsvd-1'), other]);
    expect(v.lists(1).SW2).toEqual(['', 'as it is (ut)']);
  });

  // A draft kept before, or an old link's, may hold a pick the lists do not offer (another
  // network's algorithm, a node that is no switch): shown as it is, never as "as it is".
  it('shows a pick its list does not offer, and one for a node that is no switch, rather than hide it', () => {
    const v = view('vsvd-1', [{ from: '', algorithms: { SW1: 'qcn', S1: 'erica' }, sets: '' }]);
    expect(v.lists(1)).toEqual({
      SW1: ['qcn', 'QCN (not for ATM)'],
      SW2: ['', 'as it is (erica_plus)'],
      SW3: ['', 'as it is (erica_plus)'],
      S1: ['erica', 'ERICA'],
    });
    v.run();
    expect(v.compare.getState().variants).toEqual([{ sets: ['nodes.SW1.algorithm=qcn', 'nodes.S1.algorithm=erica'] }]);
    // "As it is" takes a node's pick away: a list that is not a switch's goes with it.
    v.choose('variant-1-alg-S1', '');
    expect(Object.keys(v.lists(1))).toEqual(['SW1', 'SW2', 'SW3']);
  });

  it('shows a "from" the list does not offer as it is, not as "this scenario"', () => {
    const v = view('vsvd-1', [
      { from: 'two-sources', algorithms: {}, sets: '' },
      { from: 'gone', algorithms: {}, sets: '' },
    ]);
    const shown = (n: number) => {
      const select = v.$<HTMLSelectElement>(`variant-${n}-from`)!;
      return [select.value, select.selectedOptions[0]?.textContent];
    };
    expect(shown(1)).toEqual(['two-sources', 'two-sources (another topology)']);
    expect(shown(2)).toEqual(['gone', 'gone (not in the library)']);
    // Another topology's switches are not this comparison's to pick for (it cannot run): no
    // lists of its own, only the picks the draft holds, which say what it would run.
    expect(v.lists(1)).toEqual({});
    const picked = view('vsvd-1', [{ from: 'two-sources', algorithms: { SW1: 'eprca' }, sets: '' }]);
    expect(Object.keys(picked.lists(1))).toEqual(['SW1']);
  });
});

describe('CompareView: a comparison kept from before a reload', () => {
  const json = entry('two-sources').json;
  const row = '[["conn.C1.mean_rate_mbps",69.99],["jain_index",1.0]]';
  const runs = [
    { label: 'two-sources', json, sets: [], variant: 0 },
    { label: 'SW1.algorithm = erica_plus', json, sets: ['nodes.SW1.algorithm=erica_plus'], variant: 1 },
  ];
  /** The view showing a comparison kept with `outcomes`; its pool answers when the test says. */
  function kept(outcomes: ({ ok: true; digest: string } | undefined)[], auto: boolean) {
    const answers: ((digest: string) => void)[] = [];
    const pool = {
      submit: () => new Promise<never>((resolve) => answers.push((digest) => resolve({ type: 'run', row, digest, events: 1, wallMs: 1 } as never))),
      cancel: () => undefined,
      size: 1,
    };
    const compare = new CompareSession(pool, () => undefined);
    const place: Place = { kind: 'library', id: 'two-sources' };
    const host = render(
      <CompareView compare={compare} current={entry('two-sources').scenario} currentJson={json} place={place} catalogue={ENGINE_CATALOGUE} library={LIBRARY.entries} onOpen={() => undefined} />,
    );
    act(() => {
      compare.showKept(
        {
          json,
          variants: [{ sets: ['nodes.SW1.algorithm=erica_plus'] }],
          drafts: [{ from: '', algorithms: { SW1: 'erica_plus' }, sets: '' }],
          runs,
          outcomes: outcomes.map((o) => o && { ...o, cells: parseRow(row) }),
          scenarios: [json, json],
          notes: [],
          elapsedMs: 30_000,
          key: 'library:two-sources',
          ranAtMs: Date.UTC(2026, 10, 30, 5, 0),
        },
        { auto },
      );
    });
    const text = (testId: string) => host.querySelector(`[data-testid="${testId}"]`)?.textContent ?? null;
    const answer = (i: number, digest: string) => act(async () => answers[i](digest));
    return { compare, host, text, answer, answers };
  }

  it('one cut short shows what finished, the rest not run, and finishes on a click: the run kept checked', async () => {
    const v = kept([{ ok: true, digest: 'aaaaaaaa1' }, undefined], false);
    expect(v.text('compare-kept')).toContain('Kept from before the reload');
    expect(v.text('compare-kept')).toContain('1 of 2 runs had finished.');
    expect(v.text('compare-head-1')).toContain('not run');
    expect(v.answers).toHaveLength(0);
    act(() => (v.host.querySelector('[data-testid="compare-redraw"]') as HTMLButtonElement).click());
    expect(v.text('compare-kept')).toContain('the charts are being redrawn by running the variants again');
    expect(v.answers).toHaveLength(2);
    await v.answer(0, 'aaaaaaaa1');
    await v.answer(1, 'bbbbbbbb2');
    expect(v.compare.getState().phase).toBe('done');
    expect(v.text('compare-kept')).toContain('and finished now. ✓ The same runs: the 1 that had finished before gave the digest kept.');
    expect(v.text('compare-head-0')).toContain('✓ as kept');
  });

  it('a run again that gives another digest is said to differ, by its name', async () => {
    const v = kept([{ ok: true, digest: 'aaaaaaaa1' }, { ok: true, digest: 'bbbbbbbb2' }], true);
    expect(v.answers).toHaveLength(2);
    await v.answer(0, 'aaaaaaaa1');
    await v.answer(1, 'cccccccc3');
    expect(v.text('compare-kept')).toContain('≠ Run again, SW1.algorithm = erica_plus gave another digest than the one kept');
    expect(v.text('compare-head-1')).toContain('≠ the kept digest');
    expect(v.text('compare-head-0')).toContain('✓ as kept');
  });

  it('a long one waits for a click to draw its charts, saying about how long it takes', () => {
    const v = kept([{ ok: true, digest: 'aaaaaaaa1' }, { ok: true, digest: 'bbbbbbbb2' }], false);
    expect(v.text('compare-kept')).toContain('Its charts are drawn by running its 2 runs again (about 30 s).');
    expect(v.text('compare-redraw')).toBe('Draw the charts');
    expect(v.answers).toHaveLength(0);
  });
});
