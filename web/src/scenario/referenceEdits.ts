// A scenario's published figures (`reference`) follow its network: an edit that removes the
// connection, group, port or link a figure is about drops that figure (the engine refuses a
// figure about nothing). Pure.

import type { Scenario } from '../contract/scenario';

type Figure = NonNullable<Scenario['reference']>[number];

/** Whether the element a figure is about still exists (the engine's rule: validate.rs). */
function resolves(s: Scenario, about: Figure['about']): boolean {
  if (about === 'network') return true;
  if ('connection' in about) return s.connections.some((c) => c.id === about.connection);
  if ('group' in about) return s.connections.some((c) => c.group === about.group);
  if ('link' in about) return s.links.some((l) => l.id === about.link);
  const [from, to] = about.port.split('->');
  const isSwitch = s.nodes.some((n) => n.id === from && n.kind === 'switch');
  return isSwitch && s.links.some((l) => (l.from === from && l.to === to) || (l.from === to && l.to === from));
}

/** The scenario without the figures whose element is gone (the same object when none is). */
export function keepResolvableReferences(s: Scenario): Scenario {
  if (!s.reference) return s;
  const reference = s.reference.filter((r) => resolves(s, r.about));
  if (reference.length === s.reference.length) return s;
  const out = { ...s };
  if (reference.length) out.reference = reference;
  else delete out.reference;
  return out;
}
