#!/usr/bin/env node
// Frame rate of the Compare view (issue 11), in the production build on the system Chromium:
// gfc1 (23 sources) against a variant with a shorter ERICA+ queue target at SW3, the two running at
// once in the pool's workers while the page counts its animation frames; then, with both runs'
// charts drawn (overlaid and side by side), the frames per second while the cursor sweeps the
// rate chart (every chart redraws its cursor, the tooltip follows). Numbers, not pass/fail.
import { withPage } from './bench-page.mjs';

const SCENARIO = process.env.ABR_BENCH_COMPARE ?? 'gfc1';
const VARIANT = process.env.ABR_BENCH_VARIANT ?? 'nodes.SW3.params.target_delay_us=500';
const SWEEP_MS = 3000;

await withPage(async (page, url) => {
  await page.goto(url(`/?scenario=${SCENARIO}`));
  await page.getByTestId('view-compare').click();
  await page.getByTestId('variant-1-sets').fill(VARIANT);

  // While both run in the workers: frames until the view says done.
  const running = await page.evaluate(
    () =>
      new Promise((done) => {
        const view = document.querySelector('[data-testid="compare"]');
        let frames = 0;
        const t0 = performance.now();
        const tick = () => {
          frames++;
          if (view.getAttribute('data-phase') === 'done') done({ frames, ms: performance.now() - t0 });
          else requestAnimationFrame(tick);
        };
        document.querySelector('[data-testid="compare-run"]').click();
        requestAnimationFrame(tick);
      }),
  );

  const failed = await page.getByTestId('compare-error').allTextContents();
  if (failed.length) throw new Error(`a variant failed: ${failed.join('; ')}`);

  /** Frames per second over SWEEP_MS while the mouse crosses a chart back and forth. */
  const sweepFps = async (chartTestId) => {
    const box = await page.getByTestId(chartTestId).locator('.u-over').boundingBox();
    const counted = page.evaluate(
      (ms) =>
        new Promise((done) => {
          let frames = 0;
          const t0 = performance.now();
          const tick = () => {
            frames++;
            if (performance.now() - t0 < ms) requestAnimationFrame(tick);
            else done((frames * 1000) / (performance.now() - t0));
          };
          requestAnimationFrame(tick);
        }),
      SWEEP_MS,
    );
    const t0 = Date.now();
    for (let i = 0; Date.now() - t0 < SWEEP_MS; i++) {
      const f = (i % 40) / 40;
      await page.mouse.move(box.x + box.width * (i % 80 < 40 ? f : 1 - f), box.y + box.height / 2);
    }
    return counted;
  };
  await page.getByTestId('compare-mode-overlaid').click();
  const overlaid = await sweepFps('compare-overlay-rate');
  const lines = await page.getByTestId('compare-overlay-rate').getAttribute('data-lines');
  await page.getByTestId('compare-mode-side').click();
  const side = await sweepFps('compare-chart-rate-0');

  console.log(`\ncompare view frame rate, ${SCENARIO} against ${VARIANT} (frames per second; 60 is the display's)`);
  console.log(`  both variants running in the pool:   ${((running.frames * 1000) / running.ms).toFixed(1)} fps over ${running.ms.toFixed(0)} ms`);
  console.log(`  overlaid charts (${lines} rate lines), cursor sweeping:   ${overlaid.toFixed(1)} fps`);
  console.log(`  side by side (4 charts), cursor sweeping:   ${side.toFixed(1)} fps`);
});
