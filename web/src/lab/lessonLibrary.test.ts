// Every library lesson names only what its scenario has (QA h53: a step that names a port, a
// node or a connection the scenario lacks, or marks a chart it does not draw, sends a class
// looking for nothing). Read from the files, as the lab loads them.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../contract/scenario';
import { repoFile } from '../test/fakes';
import { lessonSteps, lessonText } from './lessonWalk';

const library = readdirSync(repoFile('scenarios'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(repoFile(`scenarios/${f}`), 'utf8')) as Scenario);

/** Capitals and a number that are names of quantities in the lessons, not of elements
 *  (FECN's N0 flows, ERICA+'s T0, Series-D's thresholds Q1..Q4, the AAL5 layer). */
const NOT_IDS = new Set(['N0', 'T0', 'Q1', 'Q2', 'Q3', 'Q4', 'AAL5']);

/** What in `text` looks like an element's name and is not one of `s`'s: ids ("SW1", "C10") and
 *  output ports ("SW1->SW2", which must be a switch's end of a link). */
function unknownNames(s: Scenario, text: string): string[] {
  const ids = new Set<string>([...s.nodes, ...s.links, ...s.connections, ...(s.virtual_paths ?? [])].map((e) => e.id));
  const switches = new Set(s.nodes.filter((n) => n.kind === 'switch').map((n) => n.id));
  const linked = (a: string, b: string) => s.links.some((l) => (l.from === a && l.to === b) || (l.from === b && l.to === a));
  const out: string[] = [];
  for (const [, a, b] of text.matchAll(/\b([A-Za-z]+\d*)->([A-Za-z]+\d*)\b/g)) {
    if (!switches.has(a) || !linked(a, b)) out.push(`${a}->${b}`);
  }
  for (const [name] of text.matchAll(/\b[A-Z]{1,3}\d{1,2}\b/g)) {
    if (!ids.has(name) && !NOT_IDS.has(name)) out.push(name);
  }
  return out;
}

describe("the library's lessons", () => {
  it('name only the nodes, connections and switch output ports their scenario has', () => {
    const wrong: string[] = [];
    for (const s of library) {
      const parts = [{ where: 'text', text: lessonText(s.lesson) }, ...lessonSteps(s.lesson).map((st, i) => ({ where: `step ${i + 1}`, text: `${st.prompt} ${st.reveal ?? ''}` }))];
      for (const { where, text } of parts) for (const n of unknownNames(s, text)) wrong.push(`${s.id} ${where}: ${n}`);
    }
    expect(wrong).toEqual([]);
  });

  it("mark only charts their scenario draws, at times within its run", () => {
    const wrong: string[] = [];
    for (const s of library) {
      const tcp = s.connections.some((c) => c.tcp);
      lessonSteps(s.lesson).forEach((st, i) => {
        const h = st.highlight;
        if (h && 'chart' in h && (h.chart === 'cwnd' || h.chart === 'goodput') && !tcp) wrong.push(`${s.id} step ${i + 1}: the ${h.chart} chart (no TCP)`);
        if (st.at_ms > s.run.duration_ms) wrong.push(`${s.id} step ${i + 1}: at ${st.at_ms} ms, after the run's ${s.run.duration_ms} ms`);
      });
    }
    expect(wrong).toEqual([]);
  });

  it('are checked by a rule that can fail: a port, a node and a chart the scenario lacks are named', () => {
    const s = library.find((x) => x.id === 'two-sources')!;
    expect(unknownNames(s, 'Watch SW1->SW2 and S1.')).toEqual([]);
    expect(unknownNames(s, 'Watch SW2->SW3, SW1->D1 (no such link), S1->SW1 (a source is no port) and C3.')).toEqual(['SW2->SW3', 'SW1->D1', 'S1->SW1', 'SW3', 'C3']);
  });
});
