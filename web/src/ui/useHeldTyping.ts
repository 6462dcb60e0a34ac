// What a field typed in and neither entered nor left gives the lab when the page goes away or
// another scenario opens (`Lab.holdTyping`), as leaving the field would: a value typed and then
// a reload is kept, as a typed name is (QA: a switch parameter typed was lost).

import { useEffect, useRef } from 'react';
import type { DroppedTyping } from '../lab/droppedTyping';

/** How a field registers its giving with the lab; returns the unregistration. A field that
 *  refuses what is typed (it breaks the field's rule) gives back what it refused, for the lab
 *  to tell (lab/droppedTyping.ts). */
export type HoldTyping = (give: () => DroppedTyping | void) => () => void;

/**
 * Registers `give` (what the field does when it loses the focus: applies what is typed, or
 * leaves a value that breaks its rule unapplied) with `hold` while the field is shown. The
 * latest `give` is the one called.
 */
export function useHeldTyping(hold: HoldTyping | undefined, give: () => DroppedTyping | void): void {
  const giveRef = useRef(give);
  giveRef.current = give;
  const holdRef = useRef(hold);
  holdRef.current = hold;
  useEffect(() => holdRef.current?.(() => giveRef.current()), []);
}
