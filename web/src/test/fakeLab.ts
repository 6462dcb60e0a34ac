// A Lab on the fake engine in an in-process worker, with the two-sources scenario loaded: the
// setup of the lab's tests (lab.test.ts and its parts' tests).

import { Lab, type LabOptions } from '../lab/lab';
import { createFakeEngine } from './fakeEngine';
import { costly, InProcessWorker, twoSources } from './fakes';

export function labOnFakeEngine(opts: LabOptions = {}) {
  let worker!: InProcessWorker;
  const lab = new Lab(() => {
    worker = new InProcessWorker((host) => costly(createFakeEngine({ eventsPerSample: 100 }), host));
    return worker;
  }, opts);
  /** Delivers the messages both ways until the worker is idle. */
  const pump = () => {
    for (let i = 0; i < 10; i++) worker.pump();
  };
  lab.load(twoSources(), 'two-sources');
  pump();
  /** Delivers the worker's replies to what it was sent so far, and no more (a busy page's
   *  engine, answering one load while the next waits). */
  const pumpOnce = () => worker.pump(1);
  /** How many times the worker loaded a scenario (a reset or reload each). */
  const loads = () => worker.host.take('loaded').length;
  return { lab, pump, pumpOnce, loads };
}
