import { useEffect, useRef, useState } from 'react';
import type { Lab, LabState } from '../lab/lab';
import { lastChangeText, mineTimes } from '../scenario/myScenarios';

/**
 * The user's own scenarios as a list beside the picker, each with Delete (undone from the
 * message that follows, not asked beforehand). Greyed out while the user keeps none, not hidden:
 * it appeared at the first change and moved Import, Export and Share under the pointer (QA: a
 * value typed and Share clicked at once, the click was lost as the button moved).
 */
export function MyScenariosMenu({ lab, state }: { lab: Lab; state: LabState }) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (ev: MouseEvent) => {
      if (!box.current?.contains(ev.target as Node)) setOpen(false);
    };
    window.addEventListener('mousedown', away);
    return () => window.removeEventListener('mousedown', away);
  }, [open]);
  const mine = state.myScenarios;
  const times = mineTimes(mine);
  const deleted = state.deletedScenarios;
  const none = mine.length === 0 && deleted.length === 0;
  const place = state.current?.place;
  return (
    <div className="my-menu presenter-chrome" ref={box}>
      <button
        className="btn ghost"
        data-testid="my-scenarios-menu"
        aria-expanded={open && !none}
        disabled={none}
        onClick={() => setOpen(!open)}
        title={
          none
            ? 'Your scenarios: none yet. Your first change to a scenario keeps it here, in this browser'
            : 'Your scenarios kept in this browser: open or delete them (a deleted one can be restored for 30 days)'
        }
      >
        Mine ({mine.length}) ▾
      </button>
      {open && !none && (
        <ul className="my-list" data-testid="my-scenarios-list">
          {mine.map((m) => (
            <li key={m.id} className={place?.kind === 'mine' && place.id === m.id ? 'my-open' : undefined}>
              <button
                className="my-name"
                data-testid={`open-mine-${m.id}`}
                onClick={() => {
                  setOpen(false);
                  void lab.openMine(m.id);
                }}
              >
                {m.name}
                <span className="my-when">{times.get(m.id)}</span>
              </button>
              <button className="btn small" data-testid={`delete-mine-${m.id}`} title={`Delete “${m.name}” from this browser`} onClick={() => void lab.deleteMine(m.id)}>
                Delete
              </button>
            </li>
          ))}
          {deleted.length > 0 && (
            <li className="my-deleted-head" data-testid="my-deleted">
              Recently deleted (kept 30 days)
            </li>
          )}
          {deleted.map((m) => (
            <li key={m.id} className="my-deleted">
              <span className="my-name">
                {m.name}
                <span className="my-when">deleted {lastChangeText(m.deletedMs ?? m.updatedMs)}</span>
              </span>
              <button className="btn small" data-testid={`restore-mine-${m.id}`} title={`Bring “${m.name}” back among your scenarios`} onClick={() => void lab.restoreMine(m.id)}>
                Restore
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
