#!/usr/bin/env node
// Frame rate of the page with the Network view open (issue 12), in the production build on the
// system Chromium: gfc1 (23 sources, 5 switches) playing at 1× (the target is ≥ 30 fps), then
// the same in presentation mode, then two-sources in slow motion with its RM cells moving (the
// trace recorded and drawn). The page counts its animation frames while the run plays; gfc1
// lasts 400 ms of simulated time, so it is played several times over (reset, play), and the
// main thread's busy share while it plays (Chromium's TaskDuration) says how much room is left, and its
// CPU time per frame (ThreadTime) what a frame costs whatever else the machine is doing.
// Numbers, not pass/fail.
import { withPage } from './bench-page.mjs';

const SCENARIO = process.env.ABR_BENCH_NETWORK ?? 'gfc1';
const PLAYS = Number(process.env.ABR_BENCH_NETWORK_PLAYS ?? 5);
const SLOW_MS = 3000;

/** Counts animation frames until the toolbar says the run is over (or `ms` passed, when given). */
const countFrames = (page, ms = null) =>
  page.evaluate(
    (limit) =>
      new Promise((done) => {
        let frames = 0;
        let worst = 0;
        let last = performance.now();
        const t0 = last;
        const tick = () => {
          const now = performance.now();
          frames++;
          worst = Math.max(worst, now - last);
          last = now;
          const over = limit === null ? document.querySelector('[data-testid="clock"] .mode-done') !== null : now - t0 >= limit;
          if (over && now - t0 > 50) done({ frames, ms: now - t0, worstMs: worst });
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    ms,
  );

/** The page's main-thread busy time so far (ms; Chromium's TaskDuration, wall time) and its
 *  CPU time (ThreadTime: what the page's work costs, whatever else the machine is doing). */
async function busyMs(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const ms = (name) => metrics.find((m) => m.name === name).value * 1000;
  return { wall: ms('TaskDuration'), cpu: ms('ThreadTime') };
}

async function playFps(page, cdp) {
  let busy = 0;
  let cpu = 0;
  let frames = 0;
  let ms = 0;
  let worstMs = 0;
  for (let i = 0; i < PLAYS; i++) {
    await page.getByTestId('reset').click();
    await page.waitForTimeout(200);
    const busy0 = await busyMs(cdp);
    const counted = countFrames(page);
    await page.getByTestId('play').click();
    const r = await counted;
    const busy1 = await busyMs(cdp);
    busy += busy1.wall - busy0.wall;
    cpu += busy1.cpu - busy0.cpu;
    frames += r.frames;
    ms += r.ms;
    worstMs = Math.max(worstMs, r.worstMs);
  }
  return { fps: (frames * 1000) / ms, ms, worstMs, busy, cpuPerFrame: cpu / frames };
}

await withPage(async (page, url) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const open = async (path, network = true) => {
    await page.goto(url(path));
    await page.getByTestId('reset').waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid="reset"]').disabled);
    if (network) {
      await page.getByTestId('view-network').click();
      await page.getByTestId('nv-node-SW1').waitFor();
    }
    await page.getByTestId('speed').selectOption('1');
    // gfc1's lesson has steps, at which a run below max speed pauses: played straight through here.
    const stops = page.getByTestId('lesson-stops');
    if ((await stops.count()) > 0 && (await stops.isChecked())) await stops.uncheck();
  };
  // The same page without the Network view, for comparison.
  await open(`/?scenario=${SCENARIO}`, false);
  const without = await playFps(page, cdp);
  await open(`/?scenario=${SCENARIO}`);
  const plain = await playFps(page, cdp);
  await open(`/?scenario=${SCENARIO}&present=1`);
  const present = await playFps(page, cdp);

  // gfc1 at max speed, played to the end (issue 16's target: under 0.3 s of engine time): the
  // wall time from Play to Replay (the engine, the rows' posting, the checkpoints, the charts'
  // drawing) and the engine's share of it as the worker counts it. Best of three.
  let maxSpeedMs = Infinity;
  let engineMs = Infinity;
  for (let i = 0; i < 3; i++) {
    await open(`/?scenario=${SCENARIO}`, false);
    await page.getByTestId('speed').selectOption('max');
    const ms = await page.evaluate(
      () =>
        new Promise((done) => {
          const play = () => document.querySelector('[data-testid="play"]');
          const t0 = performance.now();
          play().click();
          const poll = () => (play().textContent.includes('Replay') ? done(performance.now() - t0) : requestAnimationFrame(poll));
          requestAnimationFrame(poll);
        }),
    );
    maxSpeedMs = Math.min(maxSpeedMs, ms);
    // The worker's own count of its time in the engine (RunStatus.engineMs, on the clock).
    const inEngine = Number(await page.getByTestId('clock').getAttribute('data-engine-ms'));
    engineMs = Math.min(engineMs, inEngine);
  }

  // A finished run left on screen (a class listening to the teacher): gfc1 played to the end
  // with the Network view and the event log open (its RM cells recorded), then 3 s of nothing; the main thread's busy share, unthrottled
  // and at 4× CPU throttling (a modest classroom laptop), its frame rate and CPU per frame.
  // Before the painter skipped unchanged frames (h37) it laid out the RM-cell markers again
  // every frame: at 4× the page fell to ~16 fps doing nothing.
  const idle = {};
  for (const rate of [1, 4]) {
    await open(`/?scenario=${SCENARIO}`);
    await page.getByTestId('view-rmlog').click();
    await page.getByTestId('rmlog-record').check();
    await page.getByTestId('speed').selectOption('max');
    await page.getByTestId('play').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="play"]').textContent.includes('Replay'), null, { timeout: 120_000 });
    await page.waitForTimeout(500);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    const b0 = await busyMs(cdp);
    const r = await countFrames(page, 3000);
    const b1 = await busyMs(cdp);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    idle[rate] = `${((100 * (b1.wall - b0.wall)) / r.ms).toFixed(0)} % busy, ${((r.frames * 1000) / r.ms).toFixed(0)} fps, ${((b1.cpu - b0.cpu) / r.frames).toFixed(1)} ms of CPU per frame`;
  }

  // Slow motion: two-sources with its RM cells drawn (the trace on).
  await page.goto(url('/?scenario=two-sources'));
  await page.getByTestId('view-network').click();
  await page.getByTestId('nv-slow').click();
  const speed = await page.getByTestId('speed').inputValue();
  await page.getByTestId('play').click();
  const slow = await countFrames(page, SLOW_MS);

  const line = (name, r) =>
    `  ${name.padEnd(44)} ${r.fps.toFixed(1).padStart(5)} fps over ${r.ms.toFixed(0)} ms (longest frame ${r.worstMs.toFixed(0)} ms` +
    (r.busy === undefined ? ')' : `; main thread busy ${((100 * r.busy) / r.ms).toFixed(0)} % of it, ${r.cpuPerFrame.toFixed(1)} ms of its CPU per frame)`);
  console.log(`\nNetwork view frame rate (frames per second; 60 is the display's; the target is ≥ 30 while gfc1 plays at 1×)`);
  console.log(line(`${SCENARIO} at 1×, charts only (no Network view)`, without));
  console.log(line(`${SCENARIO} at 1×, ${PLAYS} plays`, plain));
  console.log(line(`${SCENARIO} at 1×, presentation mode`, present));
  console.log(`  ${SCENARIO} at max speed, Play to the end: ${maxSpeedMs.toFixed(0)} ms of wall time, ${engineMs.toFixed(0)} ms of it in the engine (best of 3; the target is < 300 ms of engine time)`);
  console.log(`  ${SCENARIO} finished, Network view and event log open, 3 s idle: ${idle[1]}; at 4× CPU throttling ${idle[4]}`);
  console.log(line(`two-sources at ${speed}×, RM cells moving`, { fps: (slow.frames * 1000) / slow.ms, ms: slow.ms, worstMs: slow.worstMs }));
});
