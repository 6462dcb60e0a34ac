import type {} from '../../web/src/e2e/hook';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '../..');

export interface LibraryScenario {
  file: string;
  json: string;
  scenario: {
    id: string;
    run: { duration_ms: number; sample_interval_us?: number; tolerance?: number; expect_maxmin?: boolean };
    connections: { id: string; start_ms?: number; stop_ms?: number; background?: unknown; tcp?: { service?: string } }[];
    ethernet?: { frame_bytes?: number };
  };
}

export function libraryScenarios(): LibraryScenario[] {
  const dir = resolve(repoRoot, 'scenarios');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const json = readFileSync(resolve(dir, file), 'utf8');
      return { file, json, scenario: JSON.parse(json) };
    });
}

export function url(path = '/') {
  const base = process.env.ABR_BASE_URL;
  if (!base) throw new Error('ABR_BASE_URL not set (global setup did not run)');
  return new URL(path, base).toString();
}

/** Opens the lab and waits for the engine and the first scenario. */
export async function openLab(page: Page, path = '/') {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url(path));
  await expect.poll(() => page.evaluate(() => window.__abrlab?.engine() ?? null)).not.toBeNull();
  await expect.poll(() => page.evaluate(() => window.__abrlab!.scenarioId())).not.toBeNull();
  return errors;
}

export type Status = { mode: string; nowMs: number; endMs: number; done: boolean; events: number };

export const status = (page: Page) => page.evaluate(() => window.__abrlab!.status() as Status | null);

export async function waitForMode(page: Page, mode: string, timeout = 60_000) {
  await expect.poll(async () => (await status(page))?.mode, { timeout }).toBe(mode);
}

/** The native CLI, when it is built (`npm test` builds it before the end-to-end tests). */
export function abrsimPath(): string | null {
  const path = resolve(repoRoot, 'engine/target/release/abrsim');
  return existsSync(path) ? path : null;
}

/** Saves what a click downloads; returns its suggested name and its text. */
export async function downloadText(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') };
}

/**
 * A chart's drawing as the user sees it: uPlot's canvas (axes, grid, pinned run) with the lines'
 * canvas over it (charts/lineLayer.ts), composed on one canvas in the page. A chart off screen
 * is not drawn while a run plays (charts/timeChart.ts), so it is scrolled into view first and
 * given two frames to draw. Returns the composed image's RGBA bytes through `count`.
 */
export const composedChart = <T, A extends string | number[]>(chart: Locator, count: (data: Uint8ClampedArray, arg: A) => T, arg: A, layer: 'all' | 'under' | 'lines' = 'all'): Promise<T> =>
  chart.evaluate(
    async (el: HTMLElement, { count, arg, layer }: { count: string; arg: string | number[]; layer: string }) => {
      el.scrollIntoView({ block: 'nearest' });
      for (let i = 0; i < 60 && !el.querySelector('[data-on-screen="yes"]'); i++) await new Promise((r) => setTimeout(r, 16));
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const all = [...el.querySelectorAll('canvas')];
      const canvases = layer === 'under' ? all.slice(0, 1) : layer === 'lines' ? all.filter((c) => c.classList.contains('chart-lines')) : all;
      const out = document.createElement('canvas');
      out.width = canvases[0].width;
      out.height = canvases[0].height;
      const ctx = out.getContext('2d')!;
      for (const c of canvases) ctx.drawImage(c, 0, 0);
      const { data } = ctx.getImageData(0, 0, out.width, out.height);
      return (new Function(`return (${count})`)() as (d: Uint8ClampedArray, a: unknown) => unknown)(data, arg);
    },
    { count: count.toString(), arg, layer },
  ) as Promise<T>;

/** Pixels of a chart's drawing within a small distance of a colour (#rrggbb), opaque enough to
 *  be a line (not a faint pinned copy). */
export const canvasPixelsOf = (chart: Locator, hex: string) =>
  composedChart(
    chart,
    (data, hex: string) => {
      const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i] - want[0]) + Math.abs(data[i + 1] - want[1]) + Math.abs(data[i + 2] - want[2]) < 40 && data[i + 3] > 200) n++;
      }
      return n;
    },
    hex,
  );

/** The serious and critical axe violations of the page as it is (rule, impact, where). */
/** Moderate rules held as strictly as the serious ones: the page's outline and landmarks. */
const STRUCTURE_RULES = ['heading-order', 'page-has-heading-one', 'landmark-banner-is-top-level', 'landmark-no-duplicate-banner', 'region'];

export async function seriousViolations(page: Page, exclude: string[] = []) {
  let builder = new AxeBuilder({ page });
  for (const sel of exclude) builder = builder.exclude(sel);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || STRUCTURE_RULES.includes(v.id))
    .map((v) => ({ rule: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}

/**
 * The text a class would read under `root` that is set below `minPx`: every visible text node
 * (on screen, not visually hidden) whose element's computed font size is smaller, as
 * "12px: Walk-through" lines. SVG text is left out (it scales with its drawing: measure it
 * through its box), and so is text inside `except` (a selector: what is not for the room).
 * Scrolls `root` through its height so that text below the fold is seen too.
 */
export async function textBelow(page: Page, root: string, except = '', minPx = 18): Promise<string[]> {
  return page.locator(root).first().evaluate(async (box: HTMLElement, { except, minPx }: { except: string; minPx: number }) => {
    const small = new Set<string>();
    const scroller = box.scrollHeight > box.clientHeight ? box : null;
    const stops = scroller ? Math.ceil(scroller.scrollHeight / Math.max(1, scroller.clientHeight)) : 1;
    for (let i = 0; i < stops; i++) {
      if (scroller) scroller.scrollTop = i * scroller.clientHeight;
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent!.trim();
        const el = n.parentElement!;
        if (!text || el.closest('svg, .visually-hidden') || (except && el.closest(except))) continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || r.bottom < 0 || r.top > innerHeight) continue;
        const px = parseFloat(getComputedStyle(el).fontSize);
        if (px < minPx) small.add(`${px}px: ${text.slice(0, 40)}`);
      }
    }
    if (scroller) scroller.scrollTop = 0;
    return [...small];
  }, { except, minPx });
}

/** A table's scroll box (`useRowBoundary`) scrolls and ends between two of its rows. */
export async function expectBoxEndsBetweenRows(box: Locator) {
  await box.scrollIntoViewIfNeeded();
  const fit = await box.evaluate((el) => {
    const top = el.getBoundingClientRect().top;
    const bottoms = [...el.querySelectorAll('tr')].map((r) => r.getBoundingClientRect().bottom - top);
    return { height: el.clientHeight, scrolls: el.scrollHeight > el.clientHeight + 1, bottoms };
  });
  expect(fit.scrolls).toBe(true);
  expect(fit.bottoms.some((b) => Math.abs(b - fit.height) <= 1)).toBe(true);
}
