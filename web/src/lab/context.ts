// What a command module of the lab (switchCommands.ts, virtualPathCommands.ts) uses of it: the
// snapshot it reads and patches, and the load queue its edits go through. The Lab (lab.ts)
// hands each module one; the module never sees the engine client, the undo history or storage.

import type { MakeLoad } from './loadQueue';
import type { LabState } from './state';

export interface LabContext {
  /** The snapshot now. */
  state(): LabState;
  /** Patches the snapshot (every subscriber is told). */
  set(patch: Partial<LabState>): void;
  /** Sends a load now, or behind the load on its way (made when it is sent: see LoadQueue). */
  dispatch(origin: string, make: MakeLoad): void;
}
