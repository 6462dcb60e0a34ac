// Sharing: a link with the whole scenario (recorded changes included) reproduces the very same
// run in another page; a damaged link says so and leaves the user's last work open; export
// writes the library's file format.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { canonicalJson, decodeScenario, shareHash } from '../../web/src/scenario/share';
import { openLab, repoRoot, status, waitForMode } from './helpers';

const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });

const hook = <T>(page: Page, fn: () => T) => page.evaluate(fn);

/** Stops at `atMs`, then sets a switch parameter live (recorded in the scenario's changes). */
async function liveChange(page: Page, atMs: number, node: string, param: string, value: string) {
  await page.getByTestId('step-ms').fill(String(atMs));
  await page.getByTestId('step').click();
  await expect.poll(async () => (await status(page))?.nowMs).toBe(atMs);
  await page.getByTestId(`topo-${node}`).click();
  await expect(page.getByTestId('param-mode')).toContainText('apply live');
  const field = page.getByTestId(`param-${param}`).locator('input');
  await field.fill(value);
  await field.press('Enter');
  await expect(page.getByTestId('changes')).toContainText(`${node} ${param} → ${value}`);
}

async function playToEnd(page: Page) {
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  await expect.poll(() => hook(page, () => window.__abrlab!.digest())).not.toBeNull();
  return (await hook(page, () => window.__abrlab!.digest()))!;
}

test('a shared link opens the scenario with its recorded change in a new page and replays the same run', async ({
  page,
  context,
}) => {
  const errors = await openLab(page, '/?scenario=parking-lot-3');
  await liveChange(page, 30, 'SW1', 'target_utilization', '0.7');
  const digest = await playToEnd(page);
  await page.getByTestId('tab-result').click();
  await expect(page.getByTestId('digest')).toHaveText(digest);

  // The fourth chart shows another algorithm quantity: the link carries that choice too.
  const picker = page.getByTestId('algorithm-quantity');
  const quantity = await picker.locator('option').nth(1).getAttribute('value');
  await picker.selectOption(quantity!);
  await page.getByTestId('share').click();
  await expect(page.getByTestId('notice')).toContainText('with its 1 recorded change');
  const link = await page.getByTestId('share-link').inputValue();
  // The chart choice, the playback speed (max, picked to play to the end) and the side panel's
  // tab (Result, where the digest was read) ride along.
  expect(link).toMatch(/^[^?]*#s=2\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{6}&q=[a-z_]+&v=max&p=result$/);
  expect(link.length).toBeLessThan(2000);
  await page.screenshot({ path: resolve(shots, 'share-1-link.png') });

  const other = await context.newPage();
  const otherErrors = await openLab(other, link);
  await expect.poll(() => hook(other, () => window.__abrlab!.origin())).toBe('shared link');
  // The picker names what is open, and where it came from (QA: it said only "shared link").
  await expect(other.getByTestId('scenario-picker').locator('option:checked')).toHaveText('Parking lot, three sources (shared link)');
  // The fragment is read once and cleared: a reload opens the last work, not the link again.
  expect(new URL(other.url()).hash).toBe('');
  const shared = JSON.parse((await hook(other, () => window.__abrlab!.scenario()))!);
  const original = JSON.parse((await hook(page, () => window.__abrlab!.scenario()))!);
  expect(shared).toEqual(original);
  expect(shared.changes).toEqual([{ at_ms: 30, node: 'SW1', param: 'target_utilization', value: 0.7 }]);
  await expect(other.getByTestId('lesson')).toContainText('What to watch');
  await expect(other.getByTestId('algorithm-quantity')).toHaveValue(quantity!);
  expect(await playToEnd(other)).toBe(digest);
  // The same samples, not only the same digest: the last row of every series.
  expect(await hook(other, () => window.__abrlab!.last())).toEqual(await hook(page, () => window.__abrlab!.last()));
  await other.screenshot({ path: resolve(shots, 'share-2-opened.png') });
  expect(errors).toEqual([]);
  expect(otherErrors).toEqual([]);
});

test('a damaged link shows what is wrong and opens the previous work intact', async ({ page, context }) => {
  await openLab(page, '/?scenario=three-sources');
  await liveChange(page, 10, 'SW1', 'target_utilization', '0.8');
  const work = await hook(page, () => window.__abrlab!.scenario());
  await page.getByTestId('share').click();
  const link = await page.getByTestId('share-link').inputValue();

  for (const damaged of [link.slice(0, link.length - 25), link.replace('#s=2.', '#s=2.%21'), link.replace('#s=2.', '#s=7.')]) {
    const next = await context.newPage();
    const errors = await openLab(next, damaged);
    // A version this lab does not know yet is a newer lab's link (its own test is below).
    await expect(next.getByTestId('notice')).toContainText(
      damaged.includes('#s=7.') ? 'This link was made by a newer version of ABR Lab' : 'This scenario link could not be opened',
    );
    await expect(next.getByTestId('notice')).toContainText('your last work is open instead');
    expect(await hook(next, () => window.__abrlab!.scenarioId())).toBe('three-sources');
    expect(await hook(next, () => window.__abrlab!.scenario())).toBe(work);
    await expect(next.getByTestId('changes')).toHaveCount(0); // the lesson tab is open
    await next.getByTestId('tab-switches').click();
    await expect(next.getByTestId('changes')).toContainText('SW1 target_utilization → 0.8');
    if (damaged.endsWith(link.slice(-40, -25))) await next.screenshot({ path: resolve(shots, 'share-3-damaged.png') });
    expect(errors).toEqual([]);
    await next.close();
  }
});

// QA: raw deflate has no check: a link with one character changed could inflate to another
// valid scenario and open it as the one sent. A version 2 link carries a check of its scenario.
test('a link with one character changed that still inflates to a scenario is refused; the same link whole opens', async ({ page, browser }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  const link = (await hook(page, () => window.__abrlab!.shareLink()))!;
  const fragment = link.slice(link.indexOf('#s=2.') + 5);
  const [data, rest] = [fragment.slice(0, fragment.indexOf('.')), fragment.slice(fragment.indexOf('.'))];
  const original = canonicalJson(decodeScenario(`1.${data}`).ok && (decodeScenario(`1.${data}`) as { scenario: unknown }).scenario);
  // A change of one character that version 1 would have opened as another scenario.
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let changed: string | null = null;
  for (let i = 0; i < data.length && !changed; i++) {
    for (const c of alphabet) {
      const d = data.slice(0, i) + c + data.slice(i + 1);
      const v1 = decodeScenario(`1.${d}`);
      if (v1.ok && canonicalJson(v1.scenario) !== original) {
        changed = d;
        break;
      }
    }
  }
  expect(changed).not.toBeNull();
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  const otherErrors = await openLab(other, `${link.slice(0, link.indexOf('#'))}#s=2.${changed}${rest}`);
  await expect(other.getByTestId('notice')).toContainText('This scenario link could not be opened: the link was changed on its way');
  expect(await hook(other, () => window.__abrlab!.origin())).not.toBe('shared link');
  // The link as it was made opens, its full stop from the end of a sentence and all.
  await other.goto(`${link}.`);
  await expect.poll(() => hook(other, () => window.__abrlab?.origin() ?? null)).toBe('shared link');
  expect(canonicalJson(JSON.parse((await hook(other, () => window.__abrlab!.scenario()))!))).toBe(canonicalJson(JSON.parse((await hook(page, () => window.__abrlab!.scenario()))!)));
  await expect(other.getByTestId('speed')).toHaveValue(await page.getByTestId('speed').inputValue());
  await fresh.close();
  expect(errors).toEqual([]);
  expect(otherErrors).toEqual([]);
});

test('a link pasted into the address bar of an open lab opens there; a damaged one says so and changes nothing', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=three-sources');
  await liveChange(page, 10, 'SW1', 'target_utilization', '0.8');
  await page.getByTestId('share').click();
  const link = await page.getByTestId('share-link').inputValue();
  const fragment = link.slice(link.indexOf('#'));
  // Back at a library scenario, the same page: only the fragment changes (no page load).
  await page.getByTestId('scenario-picker').selectOption('two-sources');
  await expect.poll(() => hook(page, () => window.__abrlab!.scenarioId())).toBe('two-sources');
  const before = await hook(page, () => window.__abrlab!.scenario());
  await page.evaluate((f) => (location.hash = f.slice(0, f.length - 25)), fragment);
  await expect(page.getByTestId('notice')).toContainText('This scenario link could not be opened');
  await expect(page.getByTestId('notice')).toContainText('what was open stays open');
  expect(await hook(page, () => window.__abrlab!.scenario())).toBe(before);
  await page.evaluate((f) => (location.hash = f), fragment);
  await expect.poll(() => hook(page, () => window.__abrlab!.origin())).toBe('shared link');
  expect(JSON.parse((await hook(page, () => window.__abrlab!.scenario()))!).changes).toEqual([{ at_ms: 10, node: 'SW1', param: 'target_utilization', value: 0.8 }]);
  expect(new URL(page.url()).hash).toBe(''); // read once, cleared
  // Back returns to what was open before.
  await page.goBack();
  await expect.poll(() => hook(page, () => window.__abrlab!.scenarioId())).toBe('two-sources');
  expect(errors).toEqual([]);
});

test('export downloads the scenario in the library format; import loads it back', async ({ page }) => {
  await openLab(page, '/?scenario=two-sources');
  await liveChange(page, 20, 'SW1', 'target_utilization', '0.6');
  const download = page.waitForEvent('download');
  await page.getByTestId('export').click();
  const file = await download;
  // Changed, it is not the library's file: its name says so.
  expect(file.suggestedFilename()).toBe('two-sources-edited.json');
  const text = readFileSync((await file.path())!, 'utf8');
  const current = JSON.parse((await hook(page, () => window.__abrlab!.scenario()))!);
  expect(JSON.parse(text)).toEqual(current);
  expect(text).toBe(`${JSON.stringify(current, null, 2)}\n`);

  await page.getByTestId('scenario-picker').selectOption('gfc1');
  await expect.poll(() => hook(page, () => window.__abrlab!.scenarioId())).toBe('gfc1');
  await page.getByTestId('scenario-file').setInputFiles({ name: 'two-sources-edited.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect.poll(() => hook(page, () => window.__abrlab!.origin())).toBe('Two sources (two-sources-edited.json)'); // its name, and the file's
  expect(JSON.parse((await hook(page, () => window.__abrlab!.scenario()))!).changes).toHaveLength(1);
});

// QA: a capacity typed in the editor and Share clicked at once (no Enter) gave a link of the
// network before it: the field's blur had only just sent the change. The link, opened in a
// fresh browser (nothing of this one's storage), holds the capacity and replays the same run.
test('a value typed and Share clicked at once: the link holds it and a fresh browser replays the very same run', async ({ page, browser }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  await page.getByTestId('ed-link-L3').click({ force: true });
  await page.getByTestId('link-rate').fill('100');
  await page.getByTestId('share').click();
  const link = await page.getByTestId('share-link').inputValue();
  const rateOf = async (p: Page) => JSON.parse((await hook(p, () => window.__abrlab!.scenario()))!).links.find((l: { id: string }) => l.id === 'L3').rate_mbps;
  expect(await rateOf(page)).toBe(100);
  await page.getByTestId('view-charts').click();
  const digest = await playToEnd(page);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await openLab(other, link);
  await expect.poll(() => hook(other, () => window.__abrlab!.origin())).toBe('shared link');
  expect(await rateOf(other)).toBe(100);
  expect(await playToEnd(other)).toBe(digest);
  await fresh.close();
  expect(errors).toEqual([]);
});

// QA: the first change of a scenario made "Mine (1)" appear beside the picker, moving Import,
// Export and Share under the pointer: a value typed and Share clicked at once lost the click.
test('the toolbar does not move when a first change keeps the scenario as yours', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  const share = page.getByTestId('share');
  const before = (await share.boundingBox())!;
  await expect(page.getByTestId('my-scenarios-menu')).toBeDisabled();
  await page.getByTestId('view-editor').click();
  await page.getByTestId('ed-link-L3').click({ force: true });
  await page.getByTestId('link-rate').fill('100');
  await page.getByTestId('link-rate').press('Enter');
  await expect(page.getByTestId('my-scenarios-menu')).toHaveText('Mine (1) ▾');
  await expect(page.getByTestId('my-scenarios-menu')).toBeEnabled();
  const after = (await share.boundingBox())!;
  expect([after.x, after.y]).toEqual([before.x, before.y]);
  expect(errors).toEqual([]);
});

// Issue: a Share link opened on the charts whatever view it was shared from (a Sweep shared
// from the Sweep tab opened on the charts).
test('a link shared from the Sweep tab, or with the Network view open, opens on that view; an older link on the charts', async ({ page, context }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-sweep').click();
  await page.getByTestId('share').click();
  const sweepLink = await page.getByTestId('share-link').inputValue();
  expect(sweepLink).toMatch(/&t=sweep$/);
  await page.getByTestId('view-charts').click();
  await page.getByTestId('view-network').click();
  await page.getByTestId('share').click();
  // The first Share's notice is still up until this one replaces it: wait for the new link.
  await expect(page.getByTestId('share-link')).toHaveValue(/&n=1$/);
  const networkLink = await page.getByTestId('share-link').inputValue();

  const other = await context.newPage();
  const otherErrors = await openLab(other, sweepLink);
  await expect(other.getByTestId('view-sweep')).toHaveAttribute('aria-selected', 'true');
  await expect.poll(() => hook(other, () => window.__abrlab!.origin())).toBe('shared link');
  // The link of the same scenario made before views were carried: the charts, as it always did.
  const older = await context.newPage();
  const olderErrors = await openLab(older, sweepLink.replace(/&t=sweep$/, ''));
  await expect.poll(() => hook(older, () => window.__abrlab!.origin())).toBe('shared link');
  await expect(older.getByTestId('view-charts')).toHaveAttribute('aria-selected', 'true');
  await expect(older.getByTestId('view-network')).toHaveAttribute('aria-pressed', 'false');
  // Pasted into the address bar of an open lab, a link shows its view there too; an older one
  // the charts, as in a new tab.
  await older.evaluate((f) => (location.hash = f), sweepLink.slice(sweepLink.indexOf('#')));
  await expect(older.getByTestId('view-sweep')).toHaveAttribute('aria-selected', 'true');
  await older.evaluate((f) => (location.hash = f), networkLink.slice(networkLink.indexOf('#')));
  await expect(older.getByTestId('view-charts')).toHaveAttribute('aria-selected', 'true');
  await expect(older.getByTestId('view-network')).toHaveAttribute('aria-pressed', 'true');
  const withNetwork = await context.newPage();
  const networkErrors = await openLab(withNetwork, networkLink);
  await expect(withNetwork.getByTestId('view-charts')).toHaveAttribute('aria-selected', 'true');
  await expect(withNetwork.getByTestId('view-network')).toHaveAttribute('aria-pressed', 'true');
  expect(errors).toEqual([]);
  expect([...otherErrors, ...olderErrors, ...networkErrors]).toEqual([]);
});

// QA: the side panel's tab came back on reload but not in Share links.
test("a link shared on a side panel tab opens on it; one this lab has not is left out and said", async ({ page, context }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('tab-switches').click();
  await page.getByTestId('share').click();
  const link = await page.getByTestId('share-link').inputValue();
  expect(link).toMatch(/&p=switches$/);
  const other = await context.newPage();
  const otherErrors = await openLab(other, link);
  await expect.poll(() => hook(other, () => window.__abrlab!.origin())).toBe('shared link');
  await expect(other.getByTestId('tab-switches')).toHaveAttribute('aria-selected', 'true');
  // Back on the lesson, the link says nothing of the side panel.
  await page.getByTestId('tab-lesson').click();
  await page.getByTestId('share').click();
  await expect(page.getByTestId('share-link')).not.toHaveValue(/&p=/);
  // A hand-made tab name: the lesson, and a notice naming it.
  const bad = await context.newPage();
  const badErrors = await openLab(bad, link.replace(/&p=switches$/, '&p=inspector'));
  await expect(bad.getByTestId('tab-lesson')).toHaveAttribute('aria-selected', 'true');
  await expect(bad.getByTestId('notice')).toContainText('side panel tab “inspector” (the tabs are lesson, result, switches, paths) could not be read');
  expect([...errors, ...otherErrors, ...badErrors]).toEqual([]);
});

// QA: a hand-made `&t=sweep` on a scenario without switches opened an empty Sweep view.
test('a link asking for the Sweep view of a scenario without switches opens on the charts and says why', async ({ page }) => {
  const doc = {
    version: 1,
    id: 'no-switch',
    name: 'No switch',
    run: { duration_ms: 10, sample_interval_us: 500, seed: 1 },
    nodes: [
      { id: 'S1', kind: 'source', x: 80, y: 80 },
      { id: 'D1', kind: 'destination', x: 300, y: 80 },
    ],
    links: [{ id: 'L1', from: 'S1', to: 'D1', rate_mbps: 155.52, distance_km: 1 }],
    connections: [{ id: 'C1', from: 'S1', to: 'D1' }],
  };
  const errors = await openLab(page, `/${shareHash(doc)}&t=sweep`);
  await expect.poll(() => hook(page, () => window.__abrlab!.origin())).toBe('shared link');
  await expect(page.getByTestId('view-charts')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('view-sweep')).toHaveCount(0);
  await expect(page.getByTestId('notice')).toContainText('Sweep view is not offered for “No switch”, which has no switches to sweep');
  expect(errors).toEqual([]);
});

// Issue: Share pressed inside an embed gave an embed link (the lab without its library, editor
// and views); it gives the whole lab's link, the one the embed's "Open in ABR Lab" opens.
// QA: view choices typed into an open lab's address (a teacher's `?scenario=` link, then `#t=…`)
// did nothing until a reload.
test("view choices typed into an open lab's address show at once; one it cannot read is said", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.evaluate(() => (location.hash = '#t=sweep&p=switches'));
  await expect(page.getByTestId('view-sweep')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('tab-switches')).toHaveAttribute('aria-selected', 'true');
  expect(await page.evaluate(() => window.__abrlab!.scenarioId())).toBe('two-sources');
  await page.evaluate(() => (location.hash = '#t=compare&p=nowhere'));
  await expect(page.getByTestId('view-compare')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('notice')).toContainText('side panel tab “nowhere”');
  expect(errors).toEqual([]);
});

test('Share inside an embed gives the link of the whole lab, the same as its Open in ABR Lab', async ({ page, context }) => {
  const errors = await openLab(page, '/?scenario=two-sources&embed=1');
  await page.getByTestId('share').click();
  const link = await page.getByTestId('share-link').inputValue();
  expect(new URL(link).searchParams.has('embed')).toBe(false);
  expect(link).toMatch(/#s=2\./);
  await expect(page.getByTestId('embed-full-lab')).toHaveAttribute('href', link);
  const other = await context.newPage();
  const otherErrors = await openLab(other, link);
  await expect(other.getByTestId('scenario-picker')).toBeVisible();
  await expect(other.getByTestId('view-editor')).toBeVisible();
  await expect.poll(() => hook(other, () => window.__abrlab!.origin())).toBe('shared link');
  expect(JSON.parse((await hook(other, () => window.__abrlab!.scenario()))!)).toEqual(JSON.parse((await hook(page, () => window.__abrlab!.scenario()))!));
  expect(errors).toEqual([]);
  expect(otherErrors).toEqual([]);
});

// Issue: a copy of the lab its service worker kept from before version 2 refused a v2 link,
// saying only that it could not read it. A lab now tells a newer lab's link apart, keeps what is
// open, and updates itself (here nothing newer is served: it says so and offers to try again).
test('a link of a newer version says a newer ABR Lab made it, keeps the work open and offers the update', async ({ page, context }) => {
  const errors = await openLab(page, '/?scenario=three-sources');
  await liveChange(page, 10, 'SW1', 'target_utilization', '0.8');
  const work = await hook(page, () => window.__abrlab!.scenario());
  await page.getByTestId('share').click();
  const link = await page.getByTestId('share-link').inputValue();
  const newer = link.replace('#s=2.', '#s=3.');
  const next = await context.newPage();
  const nextErrors = await openLab(next, newer);
  const notice = next.getByTestId('notice');
  await expect(notice).toContainText('This link was made by a newer version of ABR Lab (a version 3 link; this lab reads versions 1 and 2)');
  await expect(notice).toContainText('Nothing was lost: your last work is open instead.');
  // It asked for the newest lab at once: this server has no newer one, and the lab says so.
  await expect(notice).toContainText('This server offers no newer version than this one');
  await expect(next.getByTestId('notice-update')).toBeVisible();
  expect(await hook(next, () => window.__abrlab!.scenario())).toBe(work);
  await next.screenshot({ path: resolve(shots, 'share-4-newer.png') });
  // Pasted into an open lab, a newer compare link is offered the update too; what is open stays.
  await next.getByTestId('notice-update').click();
  await expect(notice).toContainText('This server offers no newer version than this one');
  await next.evaluate(() => (location.hash = '#c=3.abc.defghi'));
  await expect(notice).toContainText('This link was made by a newer version of ABR Lab (a version 3 link');
  await expect(notice).toContainText('what was open stays open');
  await expect(next.getByTestId('notice-update')).toBeVisible();
  expect(await hook(next, () => window.__abrlab!.scenario())).toBe(work);
  expect(errors).toEqual([]);
  expect(nextErrors).toEqual([]);
});
