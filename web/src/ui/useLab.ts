import { useSyncExternalStore } from 'react';
import type { Lab, LabState } from '../lab/lab';

export function useLabState(lab: Lab): LabState {
  return useSyncExternalStore(lab.subscribe, lab.getState);
}
