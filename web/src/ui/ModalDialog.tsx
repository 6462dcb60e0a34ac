import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A <dialog> shown modal while mounted, with a header (its title and Close): the focus stays
 * inside and goes back where it was; Esc (and, if asked, a click on the backdrop) closes it.
 */
export function ModalDialog({
  className,
  testId,
  closeTestId,
  title,
  onClose,
  closeOnBackdrop = false,
  children,
}: {
  className: string;
  testId: string;
  closeTestId: string;
  title: string;
  onClose: () => void;
  closeOnBackdrop?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const before = document.activeElement as HTMLElement | null;
    if (typeof dialog.showModal === 'function' && !dialog.open) dialog.showModal();
    return () => before?.focus?.();
  }, []);
  return (
    <dialog
      ref={ref}
      className={className}
      data-testid={testId}
      aria-labelledby={`${testId}-title`}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (closeOnBackdrop && e.target === ref.current) onClose();
      }}
    >
      <div className="dialog-head">
        <h2 id={`${testId}-title`}>{title}</h2>
        <button className="btn" data-testid={closeTestId} onClick={onClose} autoFocus>
          Close
        </button>
      </div>
      {children}
    </dialog>
  );
}
