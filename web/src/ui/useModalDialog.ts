import { useEffect, useRef } from 'react';

/** A <dialog> shown modal while mounted: the focus stays inside and goes back where it was. */
export function useModalDialog() {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const before = document.activeElement as HTMLElement | null;
    if (typeof dialog.showModal === 'function' && !dialog.open) dialog.showModal();
    return () => before?.focus?.();
  }, []);
  return ref;
}
