// Issue 12, "a class can follow" and "keyboard and screen reader": each scenario opens at a
// speed that plays it in 10–30 s and a share link carries the speed; presentation mode, the
// collapsible side panel, full-screen charts, the shortcuts help, and an axe run over the main
// screens. Screenshots go to test-results/screens/classroom-*.png.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { canvasPixelsOf, libraryScenarios, openLab, repoRoot, seriousViolations, status, textBelow } from './helpers';

const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: resolve(shots, `classroom-${name}.png`) });

const durationOf = (id: string) => libraryScenarios().find((s) => s.scenario.id === id)!.scenario.run.duration_ms;

test('a long scenario opens at a speed that plays it in 10–30 s; the speed travels in a share link', async ({ page, context }) => {
  const errors = await openLab(page, '/?scenario=vsvd-1');
  const speed = Number(await page.getByTestId('speed').inputValue());
  const wallS = durationOf('vsvd-1') / speed / 1000;
  expect(wallS).toBeGreaterThanOrEqual(10);
  expect(wallS).toBeLessThanOrEqual(30);
  // Playing for a second of wall time moves the clock by about `speed` seconds of simulated
  // time (the old default, 0.01×, would have moved it 10 ms).
  await page.getByTestId('play').click();
  await page.waitForTimeout(1500);
  await page.getByTestId('play').click();
  expect((await status(page))!.nowMs).toBeGreaterThan(200);

  // A short one opens at its own, slower speed.
  await page.getByTestId('scenario-picker').selectOption('two-sources');
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).toBe('two-sources');
  await expect(page.getByTestId('speed')).not.toHaveValue(String(speed));
  const shortWallS = durationOf('two-sources') / Number(await page.getByTestId('speed').inputValue()) / 1000;
  expect(shortWallS).toBeGreaterThanOrEqual(10);
  expect(shortWallS).toBeLessThanOrEqual(30);

  // The user's choice goes into the link, and the link opens at it.
  await page.getByTestId('speed').selectOption('0.02');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('share').click();
  await expect.poll(() => page.evaluate(() => (window.__abrlab!.notice() as { link?: string } | null)?.link ?? null)).toContain('&v=0.02');
  const link = (await page.evaluate(() => (window.__abrlab!.notice() as { link: string }).link));
  const other = await context.newPage();
  await openLab(other, link.slice(link.indexOf('/', 8)));
  await expect.poll(() => other.evaluate(() => window.__abrlab!.origin())).toBe('shared link');
  await expect(other.getByTestId('speed')).toHaveValue('0.02');
  await shot(other, 'shared-speed');
  expect(errors).toEqual([]);
});

const fontPx = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));

test('presentation mode: axis labels and legends ≥ 18 px, thicker lines; the side panel hides; a chart goes full screen', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await expect.poll(async () => (await status(page))?.mode).toBe('done');
  const rate = page.getByTestId('chart-rate');
  // C2's colour: C1 lies under C2 (the two rates are equal), C2 is drawn over it.
  const c2 = (await rate.locator('.legend .swatch line').nth(1).getAttribute('stroke'))!;
  await expect.poll(() => canvasPixelsOf(rate, c2)).toBeGreaterThan(100);
  const thinPixels = await canvasPixelsOf(rate, c2);
  expect(await fontPx(page, '[data-testid=chart-rate] .chart-axis-label-y')).toBeLessThan(18);
  await expect(rate.locator('.chart-axis-label-y')).toHaveText('Mbps');
  await expect(rate.locator('.chart-axis-label-x')).toHaveText('time (ms)');

  await page.getByTestId('present').click();
  await expect(page.getByTestId('present')).toHaveAttribute('aria-pressed', 'true');
  expect(page.url()).toContain('present=1');
  for (const sel of ['.chart-axis-label-x', '.chart-axis-label-y', '.legend']) {
    expect(await fontPx(page, `[data-testid=chart-rate] ${sel}`), sel).toBeGreaterThanOrEqual(18);
  }
  // The same lines, drawn at least half again as thick (2 px → 4 px).
  await expect.poll(() => canvasPixelsOf(rate, c2)).toBeGreaterThan(thinPixels * 1.5);
  await shot(page, 'present');

  // The side panel hides (the charts take its room) and comes back; the key \ does the same.
  const width = (await rate.boundingBox())!.width;
  await page.getByTestId('toggle-panel').click();
  await expect(page.getByTestId('lesson')).toHaveCount(0);
  await expect.poll(async () => (await rate.boundingBox())!.width).toBeGreaterThan(width + 200);
  await shot(page, 'present-no-panel');
  await page.locator('body').press('\\');
  await expect(page.getByTestId('lesson')).toBeVisible();

  // One chart full screen (or maximised over the page), taller than in its place; Esc leaves.
  await page.getByTestId('speed').selectOption('0.05');
  await page.getByTestId('reset').click();
  const queue = page.getByTestId('chart-queue');
  const h = (await queue.boundingBox())!.height;
  await queue.getByTestId('full-screen').click();
  await expect(queue).not.toHaveAttribute('data-full', 'no');
  await expect.poll(async () => (await queue.boundingBox())!.height).toBeGreaterThan(h * 2);
  // The plot itself grows with it, not only the box around it.
  await expect.poll(async () => (await queue.locator('canvas').first().boundingBox())!.height).toBeGreaterThan(h * 1.5);
  await shot(page, 'present-full-screen');
  // Space plays and pauses there: the button clicked to get there keeps the focus, but the
  // mouse put it there, so Space is not for it (and full screen has no Play button).
  await page.keyboard.press('Space');
  await expect.poll(async () => (await status(page))?.mode).toBe('playing');
  await expect(queue).not.toHaveAttribute('data-full', 'no');
  await page.keyboard.press('Space');
  await expect.poll(async () => (await status(page))?.mode).toBe('paused');
  await expect(queue).not.toHaveAttribute('data-full', 'no');
  // Reached again with the keyboard, the button is the keyboard's: Space presses it.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(queue.getByTestId('full-screen')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(queue).toHaveAttribute('data-full', 'no');
  expect((await status(page))?.mode).toBe('paused');
  await page.keyboard.press('Escape');
  await expect(queue).toHaveAttribute('data-full', 'no');

  // P leaves presentation mode; ?present=1 opens in it.
  await page.locator('body').press('p');
  await expect(page.getByTestId('present')).toHaveAttribute('aria-pressed', 'false');
  expect(await fontPx(page, '[data-testid=chart-rate] .chart-axis-label-x')).toBeLessThan(18);
  await openLab(page, '/?scenario=gfc1&present=1');
  await expect(page.getByTestId('present')).toHaveAttribute('aria-pressed', 'true');
  expect(await fontPx(page, '[data-testid=chart-rate] .chart-axis-label-x')).toBeGreaterThanOrEqual(18);
  // GFC-1's six groups in the colour-blind-safe palette, on a projector.
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await expect.poll(async () => (await status(page))?.mode, { timeout: 60_000 }).toBe('done');
  await shot(page, 'present-gfc1');
  expect(errors).toEqual([]);
});

// QA h53 (a teacher presenting at 1280 × 720): the side panel's headings, tabs, facts, the
// walk-through's step title and buttons, the result's table and the switch inspector's labels
// were 11–16 px while the prompt above them was 22. The export buttons too (QA h65: 14 px).
test('presenting, everything a class reads in the side panel is at least 18 px: lesson, walk-through, result, switches', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const errors = await openLab(page, '/?scenario=two-sources-staggered&present=1');
  await page.getByTestId('lesson-next').click();
  await expect(page.getByTestId('lesson-step')).toBeVisible();
  await expect.poll(async () => (await status(page))?.mode).toBe('paused');
  await page.getByTestId('lesson-reveal').click();
  expect(await textBelow(page, '[data-testid=lesson]'), 'Lesson tab, at a step').toEqual([]);
  // The step's badge on the chart it marks.
  expect(await textBelow(page, '[data-testid=chart-rate] .chart-title'), 'the chart marked by the step').toEqual([]);
  await page.getByTestId('lesson-stops').uncheck();
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await expect.poll(async () => (await status(page))?.mode).toBe('done');
  await page.getByTestId('tab-result').click();
  await expect(page.getByTestId('summary')).toBeVisible();
  expect(await textBelow(page, '[data-testid=lesson]'), 'Result tab').toEqual([]);
  await page.getByTestId('tab-switches').click();
  await expect(page.getByTestId('switch-picker')).toBeVisible();
  // A parameter's meaning and range, under its field, are for whoever edits it.
  await expect(page.getByTestId('switch-settings').locator('.param-help').first()).toBeVisible();
  expect(await textBelow(page, '[data-testid=lesson]', '.param-help, .param-range'), 'Switches tab').toEqual([]);
  // Not presenting, the panel keeps its everyday type.
  await page.locator('body').press('p');
  expect((await textBelow(page, '[data-testid=lesson]')).length).toBeGreaterThan(0);
  // A long button in that type stays inside the panel (it wraps).
  await openLab(page, '/?scenario=vsvd-1&present=1');
  const compare = page.getByTestId('lesson-compare');
  await compare.scrollIntoViewIfNeeded();
  const inner = await page.getByTestId('lesson').evaluate((el) => el.getBoundingClientRect().right - parseFloat(getComputedStyle(el).paddingRight));
  expect((await compare.boundingBox())!.x + (await compare.boundingBox())!.width).toBeLessThanOrEqual(inner + 1);
  expect(errors).toEqual([]);
});

// QA h61 (presenting at 1440 × 900): the Compare button's second line spilled out under it, the
// side panel's tabs took two rows, the Result table's "max-min share" read "max-" over "min", and
// GFC-1's published words at 11.1 and 5.55 Mbps touched. Boxes that hold their text, at 1280,
// 1440 and 1920 px.
test('presenting at 1280, 1440 and 1920 px the side panel\'s button, tabs and table hold their text, and published words never touch', async ({ page }) => {
  /** The box of an element's text (all its lines) and its own box. */
  const textAndBox = (sel: string) =>
    page.locator(sel).first().evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const t = range.getBoundingClientRect();
      const b = el.getBoundingClientRect();
      return { text: { top: t.top, bottom: t.bottom, left: t.left, right: t.right }, box: { top: b.top, bottom: b.bottom, left: b.left, right: b.right } };
    });
  /** The published words' boxes the rate chart drew (x y w h). */
  const publishedWords = async () =>
    ((await page.locator('[data-testid=chart-rate] [data-published-labels]').getAttribute('data-published-labels')) ?? '')
      .split(';')
      .filter(Boolean)
      .map((b) => b.split(' ').map(Number));
  const apart = (boxes: number[][]) => {
    const touching: string[] = [];
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i], boxes[j]];
        if (a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3]) touching.push(`${a} and ${b}`);
      }
    return touching;
  };
  for (const [width, height] of [[1280, 720], [1440, 900], [1920, 1080]] as const) {
    const at = `${width} × ${height}`;
    await page.setViewportSize({ width, height });
    const errors = await openLab(page, '/?scenario=qcn-hotspot&present=1');
    // 1. The button's text, over two lines, inside the button; the button inside the panel.
    await page.getByTestId('lesson-compare').scrollIntoViewIfNeeded();
    const compare = await textAndBox('[data-testid=lesson-compare]');
    expect(compare.text.bottom - compare.text.top, `${at}: the Compare button wraps`).toBeGreaterThan(30);
    expect(compare.text.top, at).toBeGreaterThanOrEqual(compare.box.top);
    expect(compare.text.bottom, `${at}: its last line inside it`).toBeLessThanOrEqual(compare.box.bottom);
    expect(compare.text.right, at).toBeLessThanOrEqual(compare.box.right);
    expect(compare.box.right, at).toBeLessThanOrEqual((await page.getByTestId('lesson').boundingBox())!.x + (await page.getByTestId('lesson').boundingBox())!.width);

    // 4. GFC-1's published words, presenting and not: drawn, and no two touching.
    await openLab(page, '/?scenario=gfc1');
    await expect.poll(async () => (await publishedWords()).length, `${at}: published words drawn`).toBeGreaterThanOrEqual(3);
    expect(apart(await publishedWords()), `${at}: published words, not presenting`).toEqual([]);
    await page.getByTestId('present').click();
    await expect.poll(async () => (await publishedWords())[0]?.[3] ?? 0, `${at}: the words in presenting type`).toBeGreaterThan(15);
    expect((await publishedWords()).length, at).toBeGreaterThanOrEqual(3);
    expect(apart(await publishedWords()), `${at}: published words, presenting`).toEqual([]);
    // Each of its four values its own words (QA h65: 5.55 Mbps shared 11.1's, presenting).
    const words = async () => ((await page.locator('[data-testid=chart-rate] [data-published-words]').getAttribute('data-published-words')) ?? '').split(';').sort();
    expect(await words(), `${at}: a label for each value, presenting`).toEqual(['published 11.1', 'published 33.3', 'published 5.55', 'published 50']);
    await page.getByTestId('present').click();
    await expect.poll(async () => (await publishedWords())[0]?.[3] ?? 99, `${at}: the words in the page's type`).toBeLessThan(15);
    expect(await words(), `${at}: a label for each value, not presenting`).toEqual(['published 11.1', 'published 33.3', 'published 5.55', 'published 50']);
    await page.getByTestId('present').click();

    // 2. The tabs, with "Result ●" and "VPs", on one row in 18 px type, none past the row's end.
    await page.getByTestId('speed').selectOption('max');
    await page.getByTestId('play').click();
    await expect.poll(async () => (await status(page))?.mode, { timeout: 60_000 }).toBe('done');
    await expect(page.getByTestId('tab-result')).toHaveText('Result ●');
    await expect(page.getByTestId('tab-paths')).toBeVisible();
    const tabs = await page.locator('.lesson .tabs button').evaluateAll((els) => els.map((e) => ({ top: e.getBoundingClientRect().top, right: e.getBoundingClientRect().right, px: parseFloat(getComputedStyle(e).fontSize) })));
    const row = (await page.locator('.lesson .tabs').boundingBox())!;
    expect(tabs.length, at).toBe(4);
    for (const t of tabs) {
      expect(Math.abs(t.top - tabs[0].top), `${at}: the tabs on one row`).toBeLessThan(1);
      expect(t.right, `${at}: every tab in view`).toBeLessThanOrEqual(row.x + row.width + 0.5);
      expect(t.px, at).toBeGreaterThanOrEqual(18);
    }

    // 3. The Result's rates table: no header narrower than its longest word, the table within its box.
    await page.getByTestId('tab-result').click();
    const table = page.getByTestId('summary-rates');
    await table.scrollIntoViewIfNeeded();
    const headers = await table.locator('th').evaluateAll((els) => {
      const ctx = document.createElement('canvas').getContext('2d')!;
      return els.map((th) => {
        const cs = getComputedStyle(th);
        ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const longest = Math.max(...th.textContent!.trim().split(/\s+/).map((w) => ctx.measureText(w).width));
        const inner = th.getBoundingClientRect().width - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        return { text: th.textContent!.trim(), inner, longest, px: parseFloat(cs.fontSize) };
      });
    });
    for (const h of headers) {
      expect(h.inner + 0.5, `${at}: "${h.text}" (${h.inner.toFixed(1)} px) holds its longest word (${h.longest.toFixed(1)} px)`).toBeGreaterThanOrEqual(h.longest);
      expect(h.px, at).toBeGreaterThanOrEqual(18);
    }
    const scroll = await page.locator('.summary-scroll').first().evaluate((el) => ({ client: el.clientWidth, scroll: el.scrollWidth }));
    expect(scroll.scroll, `${at}: the table fits its box`).toBeLessThanOrEqual(scroll.client + 1);
    if (width === 1440) await shot(page, 'present-result-1440');
    expect(errors).toEqual([]);
  }
});

/** Every text shown under `root` that reads under 18 px: an HTML text's computed size, an SVG
 *  text's size times the scale its SVG is drawn at (its box on screen against its own). Boxes of
 *  a pixel or less (text hidden from sight, for screen readers) are not read. */
const smallText = (page: Page, root: string, except = '') =>
  page.locator(root).first().evaluate((box, except) => {
    const small: string[] = [];
    for (const el of box.querySelectorAll<HTMLElement | SVGTextElement>('*')) {
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
      const field = el instanceof HTMLInputElement || el instanceof HTMLSelectElement;
      if ((!own && !field) || el.closest('.visually-hidden, option, optgroup') || (except && el.closest(except))) continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1 || getComputedStyle(el).visibility === 'hidden') continue;
      const ownH = el instanceof SVGTextElement ? el.getBBox().height : r.height;
      const px = parseFloat(getComputedStyle(el).fontSize) * (r.height / ownH);
      if (px < 17.95) small.push(`${px.toFixed(1)} px: ${(el.textContent || (el as HTMLInputElement).value || el.tagName).trim().slice(0, 40)}`);
    }
    return small;
  }, except);

// QA (a class at the back of the room, presenting at 1280 × 720): the toolbar read at 13 px, the
// run's state (PAUSED) at 11, the network editor at 12–13 and the side panel's drawing of the
// network at 8.5 (its SVG drawn smaller than its 320 units). Below 1280 px, presenting keeps
// that floor down to 1024 × 768: the presenter's own controls fold behind More, the clock takes a
// row of its own, and the page is one column (the side panel under the charts).
test('presenting at 1920 × 1080, 1280 × 720 and 1024 × 768, the toolbar, the run\'s state, the views\' row, the Network view\'s head, the side panel\'s drawing and the editor read at 18 px or more', async ({ page }) => {
  for (const [width, height] of [[1920, 1080], [1280, 720], [1024, 768]] as const) {
    const at = `${width} × ${height}`;
    await page.setViewportSize({ width, height });
    const errors = await openLab(page, '/?scenario=gfc1&present=1');
    expect(await smallText(page, '.toolbar'), `${at}: the toolbar`).toEqual([]);
    await expect(page.locator('.clock .mode')).toHaveText('paused');
    expect(await fontPx(page, '.clock .mode'), `${at}: the run's state`).toBeGreaterThanOrEqual(18);
    // The toolbar stays within the window, in two rows (three below 1280 px: the clock's own).
    const toolbar = (await page.locator('.toolbar').boundingBox())!;
    expect(toolbar.height, at).toBeLessThanOrEqual(width < 1280 ? 160 : 115);
    const rows = await page.locator('.toolbar .btn:visible, .toolbar select:visible, .toolbar input:visible, .clock').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right));
    expect(Math.max(...rows), at).toBeLessThanOrEqual(width);
    // Below 1280 px, one column: the side panel under the charts, as wide as they are.
    const charts = (await page.locator('.charts').boundingBox())!;
    const panel = (await page.getByTestId('lesson').boundingBox())!;
    if (width < 1280) expect(panel.y, at).toBeGreaterThanOrEqual(charts.y + charts.height);
    else expect(panel.x, at).toBeGreaterThanOrEqual(charts.x + charts.width);
    // The side panel's drawing: every switch named, at 18 px or more on screen.
    await expect(page.locator('.topology .topo-switch text')).toHaveCount(5);
    expect(await smallText(page, '.topology'), `${at}: the side panel's drawing`).toEqual([]);
    // Its switches' boxes apart (QA h65: GFC-1's nearly touched), by 8 px or more on screen.
    const boxes = (await page.locator('.topology .topo-switch rect').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))).sort((a, b) => a.left - b.left);
    for (const [i, b] of boxes.slice(1).entries()) expect(b.left - boxes[i].right, `${at}: the side panel's switches apart`).toBeGreaterThanOrEqual(8);
    // The presenter's controls are behind More, and come out of it in the same type.
    await expect(page.getByTestId('share')).toBeHidden();
    await page.getByTestId('toolbar-more').click();
    for (const id of ['share', 'export', 'import', 'teacher', 'shortcuts']) await expect(page.getByTestId(id)).toBeVisible();
    expect(await smallText(page, '.toolbar'), `${at}: the toolbar, More opened`).toEqual([]);
    await page.getByTestId('toolbar-more').click();
    await expect(page.getByTestId('share')).toBeHidden();
    // The views' row (QA h61: 13–14 px): the tabs, the Network and Event log toggles, the zoom's
    // hint (QA h65: 13 px) and Pin this run, every one inside the row, none over another.
    expect(await smallText(page, '.views', '.view-body'), `${at}: the views' row`).toEqual([]);
    const apartInside = async (sel: string, within: string, what: string) => {
      const boxes = await page.locator(sel).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
      const outer = (await page.locator(within).first().boundingBox())!;
      expect(boxes.length, what).toBeGreaterThan(1);
      for (const [i, b] of boxes.entries()) {
        expect(b.left, `${what}: inside`).toBeGreaterThanOrEqual(outer.x - 0.5);
        expect(b.right, `${what}: inside`).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
        for (const c of boxes.slice(i + 1)) {
          const overlap = b.left < c.right - 0.5 && c.left < b.right - 0.5 && b.top < c.bottom - 0.5 && c.top < b.bottom - 0.5;
          expect(overlap, `${what}: ${JSON.stringify(b)} over ${JSON.stringify(c)}`).toBe(false);
        }
      }
    };
    await apartInside('.view-tabs button, .view-bar .view-toggles button, .view-bar .pin button, .view-bar .zoom-hint', '.views', `${at}: the views' row`);
    // The Network view's head: its buttons (Slow down, Legend, Full screen) in the same type, the
    // note on the moving cells not squeezed to a word a line.
    await page.getByTestId('view-network').click();
    await expect(page.getByTestId('nv-slow')).toBeVisible();
    expect(await smallText(page, '.nv-head'), `${at}: the Network view's head`).toEqual([]);
    await apartInside('.nv-head h2, .nv-head .nv-clock, .nv-head .nv-rm-note, .nv-head > .btn', '.network-view', `${at}: the Network view's head`);
    expect((await page.getByTestId('nv-rm-note').boundingBox())!.height, `${at}: the note on the moving cells`).toBeLessThan(90);
    if (width === 1280) await shot(page, 'present-network-head-1280');
    await page.getByTestId('view-network').click();
    // The editor's tools, name, hint and a switch's line.
    await page.getByTestId('view-editor').click();
    await page.locator('.editor-canvas .ed-node', { hasText: /^SW1$/ }).click();
    await expect(page.locator('.editor-switch')).toBeVisible();
    expect(await smallText(page, '.editor', '.editor-canvas'), `${at}: the editor`).toEqual([]);
    expect(errors).toEqual([]);
  }
  // Not presenting, the toolbar keeps its everyday type (and its controls in view).
  await page.locator('body').press('p');
  expect((await smallText(page, '.toolbar')).length).toBeGreaterThan(0);
  await expect(page.getByTestId('share')).toBeVisible();
  await expect(page.getByTestId('toolbar-more')).toHaveCount(0);
});

// QA h65 (presenting gfc1 at 1280 × 720): the charts' own buttons read at 13–14 px; the
// Result's "Series CSV" and "Summary JSON" broke a word a line; its five-column table of
// published figures ran past the 340 px side panel, its last columns out of sight.
test('presenting gfc1 at 1280 × 720 and 1920 × 1080, the charts\' buttons read at 18 px, the Result\'s exports keep one line each, and every published figure is whole in the panel', async ({ page }) => {
  for (const [width, height] of [[1280, 720], [1920, 1080]] as const) {
    const at = `${width} × ${height}`;
    await page.setViewportSize({ width, height });
    const errors = await openLab(page, '/?scenario=gfc1&present=1');
    const buttons = await page.locator('.charts .chart-export button').evaluateAll((els) => els.map((e) => `${parseFloat(getComputedStyle(e).fontSize)} px: ${e.textContent}`));
    expect(buttons.length, at).toBeGreaterThanOrEqual(4);
    expect(buttons.filter((b) => parseFloat(b) < 18), `${at}: the charts' buttons`).toEqual([]);
    await page.getByTestId('speed').selectOption('max');
    await page.getByTestId('play').click();
    await expect.poll(async () => (await status(page))?.mode, { timeout: 60_000 }).toBe('done');
    await page.getByTestId('tab-result').click();
    await expect(page.getByTestId('summary-published')).toBeVisible();
    const panel = await page.getByTestId('lesson').evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { left: r.left + parseFloat(getComputedStyle(el).paddingLeft), right: r.right - parseFloat(getComputedStyle(el).paddingRight) };
    });
    // Each export on one line of 18 px type, inside the panel.
    for (const id of ['export-series-csv', 'export-summary-json']) {
      const b = await page.getByTestId(id).evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return { lines: range.getClientRects().length, px: parseFloat(getComputedStyle(el).fontSize), right: el.getBoundingClientRect().right };
      });
      expect(b.lines, `${at}: ${id} on one line`).toBe(1);
      expect(b.px, at).toBeGreaterThanOrEqual(18);
      expect(b.right, `${at}: ${id} inside the panel`).toBeLessThanOrEqual(panel.right + 0.5);
    }
    // Every cell of the published figures (its text and, stacked, its column's name) inside the
    // panel and its box, none scrolled out of sight sideways, in 18 px type.
    const box = page.getByTestId('summary-published').locator('xpath=..');
    const scroll = await box.evaluate((el) => ({ client: el.clientWidth, scroll: el.scrollWidth }));
    expect(scroll.scroll, `${at}: the published figures fit their box`).toBeLessThanOrEqual(scroll.client + 1);
    const cells = await page.getByTestId('summary-published').locator('td').evaluateAll((els) =>
      els.map((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        const t = range.getBoundingClientRect();
        return { text: `${getComputedStyle(td, '::before').content} ${td.textContent}`, left: t.left, right: t.right, px: parseFloat(getComputedStyle(td).fontSize) };
      }),
    );
    expect(cells.length, at).toBeGreaterThanOrEqual(5 * 4);
    for (const c of cells) {
      expect(c.right, `${at}: "${c.text}" inside the panel`).toBeLessThanOrEqual(panel.right + 0.5);
      expect(c.left, `${at}: "${c.text}" inside the panel`).toBeGreaterThanOrEqual(panel.left - 0.5);
      expect(c.px, at).toBeGreaterThanOrEqual(18);
    }
    // Stacked, a value says which column it is.
    const stacked = await page.getByTestId('summary-published').locator('td[data-label]').first().evaluate((td) => getComputedStyle(td, '::before').content);
    expect(stacked, `${at}: a value's column named beside it`).toBe('"published"');
    expect(errors).toEqual([]);
  }
});

// QA h65: presenting gfc1 at 1280 × 720, the Network view opened under the charts' row with its
// drawing running below the window's bottom; it fitted only once scrolled to.
test('presenting at 1280 × 720 and 1024 × 768, the Network view opened (or open as presenting starts) is on screen whole: its drawing between the toolbar and the window\'s bottom', async ({ page }) => {
  for (const [width, height] of [[1280, 720], [1024, 768]] as const) {
    const at = `${width} × ${height}`;
    await page.setViewportSize({ width, height });
    const errors = await openLab(page, '/?scenario=gfc1&present=1');
    const onScreen = async (what: string) => {
      await expect
        .poll(async () => {
          const toolbar = (await page.locator('.toolbar').boundingBox())!;
          const head = (await page.locator('.nv-head').boundingBox())!;
          const canvas = (await page.locator('.nv-canvas').boundingBox())!;
          return head.y >= toolbar.y + toolbar.height - 0.5 && canvas.y + canvas.height <= height + 0.5;
        }, `${at}: ${what}`)
        .toBe(true);
    };
    await page.getByTestId('view-network').click();
    await onScreen('opened');
    // Back to the page's top, out of presenting and in again: it comes into view again.
    await page.locator('body').press('p');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('body').press('p');
    await onScreen('presenting again');
    expect(errors).toEqual([]);
  }
});

// QA h65: the editor's canvas draws its names and link labels in canvas units, so a big network
// fitted to it read at 7–12 px presenting. They keep 16 px or more on screen at any zoom.
test('presenting, the editor canvas\'s names and link labels read at 16 px or more on screen, fitted and zoomed out, the switches\' names apart', async ({ page }) => {
  /** Each label's size on screen (its computed size times the view's zoom) and box. */
  const labels = () =>
    page.getByTestId('editor-canvas').evaluate((canvas) => {
      const zoom = Number(canvas.dataset.viewport!.split(' ')[2]);
      return [...canvas.querySelectorAll<HTMLElement>('.ed-node-id, .ed-link-label')].map((el) => ({
        text: el.textContent!,
        px: parseFloat(getComputedStyle(el).fontSize) * zoom,
        box: el.getBoundingClientRect().toJSON() as DOMRect,
        node: el.classList.contains('ed-node-id'),
      }));
    });
  for (const [id, width, height] of [['gfc1', 1280, 720], ['gfc1', 1920, 1080], ['two-sources', 1280, 720]] as const) {
    const at = `${id} at ${width} × ${height}`;
    await page.setViewportSize({ width, height });
    const errors = await openLab(page, `/?scenario=${id}&present=1`);
    await page.getByTestId('view-editor').click();
    await expect(page.locator('.editor-canvas .ed-node-id', { hasText: /^SW1$/ })).toBeVisible();
    for (const step of ['fitted', 'zoomed out']) {
      if (step === 'zoomed out') {
        const before = await page.getByTestId('editor-canvas').getAttribute('data-viewport');
        await page.getByTestId('zoom-out').click();
        await expect(page.getByTestId('editor-canvas')).not.toHaveAttribute('data-viewport', before!);
      }
      await expect
        .poll(async () => (await labels()).filter((l) => l.px < 15.95).map((l) => `${l.px.toFixed(1)} px: ${l.text}`), `${at}, ${step}`)
        .toEqual([]);
      const all = await labels();
      if (id === 'two-sources') expect(all.filter((l) => !l.node).length, `${at}: its links labelled`).toBeGreaterThan(0);
      const switches = all.filter((l) => /^SW\d$/.test(l.text)).sort((a, b) => a.box.left - b.box.left);
      for (const [i, b] of switches.slice(1).entries())
        expect(b.box.left > switches[i].box.right || b.box.top > switches[i].box.bottom || b.box.bottom < switches[i].box.top, `${at}, ${step}: ${switches[i].text} and ${b.text} apart`).toBe(true);
    }
    expect(errors).toEqual([]);
  }
});

test('? opens the shortcuts help (Space among them); play state changes are announced; each chart has a text alternative', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.locator('body').press('?');
  const help = page.getByTestId('shortcuts-help');
  await expect(help).toBeVisible();
  await expect(help.getByRole('row', { name: /Space.*Play \/ pause/ })).toBeVisible();
  for (const key of ['P', '\\', 'Ctrl+Z', 'Delete', 'Esc']) await expect(help.locator('kbd', { hasText: key }).first()).toBeVisible();
  await shot(page, 'shortcuts-help');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await page.getByTestId('shortcuts').click();
  await expect(help).toBeVisible();
  await help.getByTestId('shortcuts-close').click();
  await expect(help).toHaveCount(0);
  // A button reached with the keyboard (not clicked) is pressed by Space; the run stays.
  await page.getByTestId('shortcuts').focus();
  await page.keyboard.press('Space');
  await expect(help).toBeVisible();
  expect((await status(page))?.mode).not.toBe('playing');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  // Space plays; the live region says so, then that the run ended.
  const announcer = page.getByTestId('play-announcer');
  await expect(announcer).toHaveAttribute('aria-live', 'polite');
  await page.getByTestId('speed').selectOption('0.05');
  // Space plays when no button or field has the focus (on a button it presses the button).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Space');
  await expect(announcer).toHaveText(/^Playing at 0\.05×/);
  await expect(announcer).toHaveText(/The run has ended, at 100 ms/, { timeout: 30_000 });

  // The rate chart's text alternative: C1 and C2 at about half the total each.
  const summary = page.getByTestId('chart-rate').getByTestId('chart-summary');
  await expect(summary).toHaveText(/latest values at t = 100\.0 ms: .*C1 ACR [\d.]+ Mbps, 50 % of the total; .*C2 ACR [\d.]+ Mbps, 50 % of the total/);
  await expect(page.getByTestId('chart-rate')).toHaveAccessibleDescription(/C1 ACR/);
  expect(errors).toEqual([]);
});


// QA: the run's state read "PLAYING" in #0f9d76 on white (3.4:1 at 11 px): axe's serious
// color-contrast, on every screen while a run plays, and the main-screens test runs to the end first.
test('axe: while a run plays its state (PLAYING) has enough contrast, in both modes', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('speed').selectOption('0.01');
  await page.getByTestId('play').click();
  await expect.poll(async () => (await status(page))?.mode).toBe('playing');
  const contrast = async () => (await seriousViolations(page)).filter((v) => v.rule === 'color-contrast');
  expect(await contrast()).toEqual([]);
  await page.keyboard.press('p');
  await expect(page.locator('.app.present')).toHaveCount(1);
  expect((await status(page))?.mode).toBe('playing');
  expect(await contrast()).toEqual([]);
  expect(errors).toEqual([]);
});

test('axe: no serious or critical violations on the main screens', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = await openLab(page, '/?scenario=two-sources-staggered');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await expect.poll(async () => (await status(page))?.mode).toBe('done');
  const screens: [string, () => Promise<void>][] = [
    ['charts and the result', async () => {}],
    ['lesson tab', async () => page.getByRole('tab', { name: 'Lesson' }).click()],
    ['switches tab', async () => page.getByRole('tab', { name: 'Switches' }).click()],
    ['presentation mode', async () => page.getByTestId('present').click()],
    // Presenting, Keys is among the presenter's controls, behind More.
    ['shortcuts help', async () => {
      await page.getByTestId('toolbar-more').click();
      await page.getByTestId('shortcuts').click();
    }],
    ['network editor', async () => {
      await page.keyboard.press('Escape');
      await page.getByTestId('present').click();
      await page.getByTestId('view-editor').click();
    }],
    ['compare', async () => page.getByTestId('view-compare').click()],
  ];
  const found: Record<string, unknown> = {};
  for (const [name, open] of screens) {
    await open();
    await page.waitForTimeout(300);
    const v = await seriousViolations(page);
    if (v.length) found[name] = v;
  }
  // A long result (GFC-1's 23 sources and its published figures scroll in their boxes).
  await openLab(page, '/?scenario=gfc1');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await expect.poll(async () => (await status(page))?.mode, { timeout: 60_000 }).toBe('done');
  await page.getByTestId('tab-result').click();
  const long = await seriousViolations(page);
  if (long.length) found['gfc1 result'] = long;
  // A sweep's tab, with its table filled in.
  await openLab(page, '/?scenario=fecn-n0-sweep');
  await page.getByTestId('view-sweep').click();
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep')).toHaveAttribute('data-phase', 'done', { timeout: 120_000 });
  const v = await seriousViolations(page);
  if (v.length) found.sweep = v;
  await shot(page, 'sweep');
  expect(found).toEqual({});
  expect(errors).toEqual([]);
});

// QA: at 1024 px the picker (220 px) cut long names ("Generic Fairness Configuration (edge-sw…")
// with nothing to read the rest in. The chosen entry's whole text is its title (the tooltip),
// for the library's scenarios and the user's own alike, and every option keeps its whole name.
test('at 1024 px the scenario picker, too narrow for long names, gives the chosen one in full as its title', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  const errors = await openLab(page, '/?scenario=gfc-edge-case2');
  const picker = page.getByTestId('scenario-picker');
  const full = 'Generic Fairness Configuration (edge-switch study, case 2: group A 800 km away)';
  // Cut on screen: the name is wider than the picker.
  const cut = await picker.evaluate((el, text) => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = getComputedStyle(el).font;
    return ctx.measureText(text).width > el.clientWidth;
  }, full);
  expect(cut).toBe(true);
  await expect(picker).toHaveAttribute('title', full);
  await expect(picker.locator('option:checked')).toHaveText(full);
  // The user's own: the name and the time of its last change, as its option reads.
  await page.getByTestId('tab-switches').click();
  await page.getByTestId('switch-algorithm').first().selectOption('erica_plus');
  // Kept: Mine (always shown since helper-36, greyed out until then) takes it.
  await expect(page.getByTestId('my-scenarios-menu')).toBeEnabled();
  const chosen = (await picker.locator('option:checked').textContent())!;
  expect(chosen).toMatch(/^Generic Fairness Configuration \(edge-switch study, case 2: group A 800 km away\) · /);
  await expect(picker).toHaveAttribute('title', chosen);
  expect(errors).toEqual([]);
});

test('on a 1024 × 700 laptop the header is one line: with the list of your scenarios, presenting and the panel hidden too', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  const errors = await openLab(page, '/?scenario=gfc1');
  const oneLine = async () => {
    const row = page.locator('.toolbar-row').first();
    const tops = await row.locator('.brand, select, button:visible, a').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    expect(new Set(tops.filter((_, i) => i > 0)).size, `tops ${tops.join(', ')}`).toBe(1);
    const box = (await row.boundingBox())!;
    expect(box.height).toBeLessThan(60);
    expect(box.width).toBeLessThanOrEqual(1024);
  };
  await oneLine();
  for (const name of ['Import…', 'Export', 'Share', 'Present', 'Hide panel', '⌨ Keys', 'Teacher']) await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
  // A change makes the scenario the user's own: "Mine (1)" comes alive in the row; the longer labels too.
  await page.getByTestId('tab-switches').click();
  await page.getByTestId('switch-algorithm').selectOption('erica_plus');
  await expect(page.getByTestId('my-scenarios-menu')).toBeEnabled();
  await page.getByTestId('present').click();
  await page.getByTestId('toggle-panel').click();
  await expect(page.getByTestId('toggle-panel')).toHaveText('Show panel');
  await oneLine();
  await shot(page, 'header-1024');
  expect(errors).toEqual([]);
});

// QA: at 1280 px while a run played, the progress bar shrank to 0 px and "/ 1,000.00 ms" wrapped,
// leaving "ms" alone on a second line (the clock 45 px tall).
test('the run clock reads on one line, with a progress bar, at 1280 and 1024 px, playing and paused, in both modes', async ({ page }) => {
  const clockFits = async (where: string) => {
    const m = await page.evaluate(() => {
      const box = (e: Element) => {
        const r = e.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
      };
      const clock = document.querySelector('[data-testid=clock]')!;
      const time = clock.querySelector('.clock-time')!;
      // What shows: the time, the bar and every readout not given way (display: none or the
      // visually hidden ones are 1 px or less).
      const parts = [time, clock.querySelector('.progress')!, ...[...clock.querySelectorAll('.clock-meta > *')].filter((e) => box(e).width > 1)].map((e) => ({ text: e.textContent ?? '', ...box(e), lines: new Set([...e.getClientRects()].map((r) => Math.round(r.top))).size, clipped: e.scrollWidth > e.clientWidth + 1 }));
      return { time: box(time), end: new Set([...clock.querySelector('.clock-end')!.getClientRects()].map((r) => Math.round(r.top))).size, parts, viewport: innerWidth };
    });
    const label = `${where}: ${JSON.stringify(m.parts.map((p) => [p.text, Math.round(p.left), Math.round(p.width), Math.round(p.height)]))}`;
    expect(m.end, label).toBe(1);
    expect(m.time.height, label).toBeLessThan(32);
    const bar = m.parts.find((p) => p.text === '')!;
    expect(bar.width, label).toBeGreaterThanOrEqual(80);
    for (const p of m.parts) {
      expect(p.lines, `${label} — ${p.text}`).toBe(1);
      expect(p.clipped, `${label} — ${p.text}`).toBe(false);
      expect(p.left, label).toBeGreaterThanOrEqual(0);
      expect(p.right, label).toBeLessThanOrEqual(m.viewport);
    }
    for (const [i, a] of m.parts.entries())
      for (const b of m.parts.slice(i + 1)) {
        const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
        expect(apart, `${label}: "${a.text}" overlaps "${b.text}"`).toBe(true);
      }
  };
  for (const [width, height] of [[1280, 800], [1024, 768]]) {
    await page.setViewportSize({ width, height });
    for (const present of [false, true]) {
      const errors = await openLab(page, `/?scenario=two-sources${present ? '&present=1' : ''}`);
      await page.getByTestId('speed').selectOption('0.01');
      await page.getByTestId('play').click();
      await expect.poll(async () => (await status(page))?.mode).toBe('playing');
      // The rate readouts come with the first reports of the time.
      await expect(page.getByTestId('clock')).toContainText('events/s');
      await clockFits(`${width} px${present ? ', presenting' : ''}, playing`);
      // A readout that gives way is still in the clock's title.
      await expect(page.getByTestId('clock')).toHaveAttribute('title', /× real time.*events\/s/);
      if (width === 1280 && present) await shot(page, 'clock-1280-playing');
      await page.getByTestId('play').click();
      await expect.poll(async () => (await status(page))?.mode).toBe('paused');
      await clockFits(`${width} px${present ? ', presenting' : ''}, paused`);
      expect(errors).toEqual([]);
    }
  }
});
