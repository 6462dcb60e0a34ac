// Updating the lab for a link made by a newer ABR Lab: the service worker is asked for the
// newest build (vite.config.ts: skipWaiting and clientsClaim, so a new one takes the page as
// soon as it is installed), and once it has the page, the page reloads with the link. What the
// user has open is kept first (the last work, a change not yet kept: Lab.flushUnsaved), as it is
// at any page's end, and opens again under the link.

import type { Lab } from '../lab/lab';
import { newerLinkNotice, type UpdateStage } from '../lab/sharing';
import type { Notice } from '../lab/state';

/** What `updateLab` needs of the service worker container (navigator.serviceWorker). */
export interface WorkerContainer {
  /** The worker that served this page (null: the page came from the server itself). */
  readonly controller: unknown;
  getRegistration(): Promise<WorkerRegistration | undefined>;
  addEventListener(type: 'controllerchange', listener: () => void): void;
  removeEventListener(type: 'controllerchange', listener: () => void): void;
}

/** What `updateLab` needs of a registration (ServiceWorkerRegistration). */
export interface WorkerRegistration {
  readonly installing: unknown;
  readonly waiting: unknown;
  update(): Promise<unknown>;
  addEventListener(type: 'updatefound', listener: () => void): void;
  removeEventListener(type: 'updatefound', listener: () => void): void;
}

/** How long a newer worker may take to install and take the page (ms) before it is given up. */
export const UPDATE_TIMEOUT_MS = 30_000;

/**
 * Asks the service worker for a newer lab; once one has taken the page, calls `reload` (which
 * keeps the user's work and reopens the link) and says `updating`. `latest`: there is none (a
 * page no worker served came from the server: it is the newest there is; a worker that finds
 * no new build); `failed`: the server could not be reached, or the new worker did not take the
 * page in `timeoutMs`.
 */
export async function updateLab(
  container: WorkerContainer | undefined,
  reload: () => void,
  timeoutMs = UPDATE_TIMEOUT_MS,
): Promise<Exclude<UpdateStage, 'asked'>> {
  if (!container || !container.controller) return 'latest';
  let registration: WorkerRegistration | undefined;
  try {
    registration = await container.getRegistration();
  } catch {
    return 'failed';
  }
  if (!registration) return 'latest';
  const reg = registration;
  // Listened for before the update is asked: the new worker may take the page at once.
  let taken = false;
  let found = false;
  let settle: (() => void) | null = null;
  const onTaken = () => {
    taken = true;
    settle?.();
  };
  const onFound = () => (found = true);
  container.addEventListener('controllerchange', onTaken);
  reg.addEventListener('updatefound', onFound);
  try {
    try {
      await reg.update();
    } catch {
      return 'failed';
    }
    if (!taken && !found && !reg.installing && !reg.waiting) return 'latest';
    if (!taken) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        settle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    if (!taken) return 'failed';
    reload();
    return 'updating';
  } finally {
    container.removeEventListener('controllerchange', onTaken);
    reg.removeEventListener('updatefound', onFound);
  }
}

/**
 * Runs the update a notice offers (`notice.update`) in this page: says it is on its way, keeps
 * the user's work and reloads with the link once the newer lab has the page, or says why not.
 */
export async function runUpdate(lab: Lab, update: NonNullable<Notice['update']>) {
  const { hash, version, instead } = update;
  lab.notify(newerLinkNotice(hash, version, instead, 'updating'));
  const container = 'serviceWorker' in navigator ? (navigator.serviceWorker as unknown as WorkerContainer) : undefined;
  const stage = await updateLab(container, () => {
    lab.flushUnsaved();
    // The link back in the address: the newer lab opens it as it opens any link.
    history.replaceState(history.state, '', location.pathname + location.search + hash);
    location.reload();
  });
  if (stage !== 'updating') lab.notify(newerLinkNotice(hash, version, instead, stage));
}
