/** At most `max` members of `list`, evenly spread over it (its first and last included), in
 *  order: what stands for a list too long to draw (10,000 sources). */
export function evenlySpread<T>(list: readonly T[], max: number): T[] {
  if (list.length <= max) return [...list];
  if (max <= 1) return list.slice(0, Math.max(0, max));
  const step = (list.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => list[Math.round(i * step)]);
}
