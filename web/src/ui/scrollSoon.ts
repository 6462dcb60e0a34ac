// Bringing an element into view once the frame that draws it is laid out.

/**
 * Scrolls the element `find` gives (looked up at the next frame, when a change just rendered
 * is laid out) into view; the returned function cancels it (an effect's cleanup).
 */
export function scrollIntoViewSoon(find: () => Element | null | undefined, options: ScrollIntoViewOptions = { block: 'nearest' }): () => void {
  // jsdom has no scrollIntoView: the call is optional.
  const frame = requestAnimationFrame(() => find()?.scrollIntoView?.(options));
  return () => cancelAnimationFrame(frame);
}
