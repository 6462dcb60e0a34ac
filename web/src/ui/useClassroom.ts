// View state for teaching in front of a class: presentation mode (also `?present=1`), the side
// panel shown or hidden, and the shortcuts help; with their page-wide keys (P, \, ?).

import { useCallback, useEffect, useState } from 'react';
import { NORMAL_LOOK, PRESENTATION_LOOK } from '../charts/look';
import { presentIn, searchWithPresent } from './present';
import { commandOf } from './shortcuts';

/** `start`: a teacher's link may open the lab presenting, or with the side panel hidden. */
export function useClassroom(start: { present?: boolean; panelHidden?: boolean } = {}) {
  const [present, setPresent] = useState(() => presentIn(location.search) || !!start.present);
  const [panelOpen, setPanelOpen] = useState(!start.panelHidden);
  const [helpOpen, setHelpOpen] = useState(false);

  const togglePresent = useCallback(() => setPresent((p) => !p), []);
  const togglePanel = useCallback(() => setPanelOpen((p) => !p), []);
  const showPanel = useCallback(() => setPanelOpen(true), []);

  // The address says whether the lab presents (a reload or a bookmark keeps it).
  useEffect(() => {
    const search = searchWithPresent(location.search, present);
    if (search !== location.search) history.replaceState(history.state, '', location.pathname + search + location.hash);
  }, [present]);

  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      if (ev.key === 'Escape') return setHelpOpen(false);
      const command = commandOf(ev);
      if (command !== 'present' && command !== 'panel' && command !== 'help') return; // the lesson's are useLessonWalk's
      ev.preventDefault();
      if (command === 'present') togglePresent();
      else if (command === 'panel') togglePanel();
      else setHelpOpen((h) => !h);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [togglePresent, togglePanel]);

  return {
    present,
    togglePresent,
    look: present ? PRESENTATION_LOOK : NORMAL_LOOK,
    panelOpen,
    togglePanel,
    showPanel,
    helpOpen,
    setHelpOpen,
  };
}
