// How an engine problem reads for people: the place it names (with the element's id, when the
// engine gave one) and its rule.

import type { Problem } from './generated/Problem';

/** Where the problem is: `connections[2] (C3).params.icr_mbps` when the engine named the element, else its path. */
export function problemPlace(p: Pick<Problem, 'path' | 'at'>): string {
  return p.at ?? p.path;
}

/** `place: rule`, or the rule alone when it is about the whole document. */
export function problemLine(p: Pick<Problem, 'path' | 'at' | 'rule'>): string {
  const place = problemPlace(p);
  return place ? `${place}: ${p.rule}` : p.rule;
}
