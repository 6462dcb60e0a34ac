// Issue 14, "Nothing lost, nothing crashes": the user's own scenarios survive picking another
// scenario, reload and back/forward; mangled links, bad files, a hung or panicking engine each
// get a message in words, and the previous work is still there.
import { expect, test, type Page } from '@playwright/test';
import { deflateSync, strToU8 } from 'fflate';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { DICTIONARY_V1, toBase64Url } from '../../web/src/scenario/share';
import { downloadText, libraryScenarios, openLab, repoRoot, status, url, waitForMode } from './helpers';

const shots = resolve(repoRoot, 'test-results/screens');
mkdirSync(shots, { recursive: true });

const hook = <T>(page: Page, fn: () => T) => page.evaluate(fn);
/** The open scenario (null before one is loaded, e.g. right after a reload). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const scenarioOf = async (page: Page): Promise<any> => {
  const text = await hook(page, () => window.__abrlab?.scenario() ?? null);
  return text ? JSON.parse(text) : null;
};
/** A link fragment holding this text, deflated as version 1 links are. */
const fragmentOf = (text: string | Uint8Array) =>
  `#s=1.${toBase64Url(deflateSync(typeof text === 'string' ? strToU8(text) : text, { level: 9, dictionary: strToU8(DICTIONARY_V1) }))}`;

/** Builds a small network of the user's own from an empty canvas: one source, one switch. */
async function buildOnEmptyCanvas(page: Page) {
  await page.getByTestId('view-editor').click();
  await page.getByTestId('clear-network').click();
  await page.getByTestId('empty-atm').click();
  await expect.poll(async () => (await scenarioOf(page))?.nodes.length).toBe(0);
  await page.getByTestId('add-source').click();
  await page.getByTestId('add-switch').click();
  await expect.poll(async () => (await scenarioOf(page))?.nodes.map((n: { id: string }) => n.id)).toEqual(['S1', 'SW1']);
}

test('issue 14: a network built on an empty canvas survives another pick, back, reload, and is listed under My scenarios', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await buildOnEmptyCanvas(page);
  await expect(page).toHaveURL(/\?mine=[a-z0-9]+$/);
  const mineUrl = page.url();
  const mine = await scenarioOf(page);
  expect(mine.name).toBe('My network');

  // Named in the editor: the name in the panel and the picker.
  const name = page.getByTestId('scenario-name');
  await name.fill('Class demo');
  await name.press('Enter');
  await expect(page.getByTestId('lesson').locator('.lesson-title')).toHaveText('Class demo');
  await expect(page.getByTestId('my-scenarios').locator('option')).toHaveText([/^Class demo · \d\d:\d\d$/]);
  await hook(page, () => window.__abrlab!.saved());

  // Another library scenario: the address names it; the network is kept.
  await page.getByTestId('scenario-picker').selectOption('gfc1');
  await expect.poll(() => hook(page, () => (window.__abrlab?.scenarioId() ?? null))).toBe('gfc1');
  await expect(page).toHaveURL(/\?scenario=gfc1$/);
  await page.screenshot({ path: resolve(shots, 'mine-1-picker.png') });

  // Back: the user's network again.
  await page.goBack();
  await expect(page).toHaveURL(mineUrl);
  await expect.poll(async () => (await scenarioOf(page))?.name).toBe('Class demo');
  expect((await scenarioOf(page))?.nodes).toEqual(mine.nodes);

  // Forward, then reload on the library scenario, then pick the user's from the list.
  await page.goForward();
  await expect.poll(() => hook(page, () => (window.__abrlab?.scenarioId() ?? null))).toBe('gfc1');
  await page.reload();
  await expect.poll(() => hook(page, () => (window.__abrlab?.scenarioId() ?? null))).toBe('gfc1');
  const mineOption = page.getByTestId('my-scenarios').locator('option');
  await expect(mineOption).toHaveCount(1);
  await page.getByTestId('scenario-picker').selectOption((await mineOption.getAttribute('value'))!);
  await expect.poll(async () => (await scenarioOf(page))?.name).toBe('Class demo');
  await expect(page).toHaveURL(mineUrl);

  // Reload on the user's scenario: it opens again, as theirs.
  await page.reload();
  await expect.poll(async () => (await scenarioOf(page))?.name).toBe('Class demo');
  expect(await hook(page, () => (window.__abrlab?.place() ?? null))).toMatch(/^mine:/);
  await page.getByTestId('view-editor').click();
  await expect(page.getByTestId('ed-node-SW1')).toHaveCount(1);
  await page.screenshot({ path: resolve(shots, 'mine-2-reloaded.png') });
  expect(errors).toEqual([]);
});

test('a name typed and not yet entered is kept: the focus stays in the field, one Undo takes it back, and a reload keeps it', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await buildOnEmptyCanvas(page);
  await expect(page).toHaveURL(/\?mine=[a-z0-9]+$/);
  const name = page.getByTestId('scenario-name');
  await name.fill('');
  await name.pressSequentially('Week 3 demo', { delay: 30 });
  // Kept after a pause, while the field still has the focus and its text.
  await expect.poll(async () => (await scenarioOf(page))?.name).toBe('Week 3 demo');
  await expect(name).toBeFocused();
  await expect(name).toHaveValue('Week 3 demo');
  // The typing was one edit: one Undo goes back to the name before it, Redo to the whole name.
  await page.getByTestId('undo').click();
  await expect.poll(async () => (await scenarioOf(page))?.name).toBe('My network');
  await expect(name).toHaveValue('My network');
  await page.getByTestId('redo').click();
  await expect.poll(async () => (await scenarioOf(page))?.name).toBe('Week 3 demo');
  await hook(page, () => window.__abrlab!.saved());
  await page.reload();
  await expect.poll(async () => (await scenarioOf(page))?.name).toBe('Week 3 demo');
  await page.getByTestId('view-editor').click();
  await expect(page.getByTestId('scenario-name')).toHaveValue('Week 3 demo');
  expect(errors).toEqual([]);
});

test('a name typed and a reload at once: the reload opens the scenario renamed, kept under My scenarios', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  await page.getByTestId('scenario-name').fill('Reloaded at once');
  await page.reload(); // well inside the 400 ms pause, from ?scenario=two-sources
  await expect.poll(async () => (await scenarioOf(page))?.name).toBe('Reloaded at once');
  await expect(page).toHaveURL(/\?mine=[a-z0-9]+$/);
  await hook(page, () => window.__abrlab!.saved());
  await expect(page.getByTestId('my-scenarios').locator('option')).toHaveText([/^Reloaded at once · /]);
  expect(errors).toEqual([]);
});

// QA: a switch parameter typed and neither entered nor left was lost on a reload (a typed name
// was kept); one that breaks its rule stays unapplied, as leaving the field would leave it.
test('a switch parameter typed and a reload at once: the reload opens it applied, kept under My scenarios', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('tab-switches').click();
  const field = page.getByTestId('param-target_utilization').locator('input');
  await field.fill('0.77');
  await page.reload();
  await expect.poll(async () => (await scenarioOf(page))?.nodes.find((n: { id: string }) => n.id === 'SW1')?.params?.target_utilization).toBe(0.77);
  await expect(page).toHaveURL(/\?mine=[a-z0-9]+$/);
  await page.getByTestId('tab-switches').click();
  await expect(page.getByTestId('param-target_utilization').locator('input')).toHaveValue('0.77');
  // Out of range: not applied, nothing kept, and the reload says so, with the field and its rule
  // (QA: the 7 was gone without a word).
  await page.getByTestId('param-target_utilization').locator('input').fill('7');
  await page.reload();
  await expect.poll(async () => (await scenarioOf(page))?.nodes.find((n: { id: string }) => n.id === 'SW1')?.params?.target_utilization).toBe(0.77);
  await expect(page.getByTestId('typing-notice')).toHaveText(/Your typed 7 for SW1 target_utilization was not kept: target_utilization = 7 is out of range: must be between \S+ and 1\./);
  // Said once: the next reload has nothing to tell.
  await page.reload();
  await expect.poll(async () => (await scenarioOf(page))?.id ?? null).not.toBeNull();
  await expect(page.getByTestId('typing-notice')).toHaveCount(0);
  expect(errors).toEqual([]);
});

// QA: the notice of a teacher's settings ignored (or of a broken link) at the start hid the one
// of a typed value refused as the page went away: both are shown, one above the other.
test("a typed value refused as the page goes to a teacher's link with settings it ignores: both notices are shown", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('tab-switches').click();
  await page.getByTestId('param-target_utilization').locator('input').fill('7');
  await page.goto(url('/?scenario=two-sources&hide=wings'));
  await expect(page.getByTestId('notice')).toContainText('ignored: hide=wings');
  await expect(page.getByTestId('typing-notice')).toContainText('Your typed 7 for SW1 target_utilization was not kept');
  // Each goes on its own.
  await page.getByTestId('typing-notice').getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByTestId('typing-notice')).toHaveCount(0);
  await expect(page.getByTestId('notice')).toContainText('ignored: hide=wings');
  expect(errors).toEqual([]);
});

test('a link capacity typed out of range and a reload at once: the reload says it was not kept, naming the field and the rule', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  await page.getByTestId('ed-link-L3').click({ force: true });
  await page.getByTestId('link-rate').fill('0');
  await page.reload();
  await expect(page.getByTestId('typing-notice')).toContainText('Your typed 0 for L3 rate_mbps was not kept: rate_mbps = 0 is out of range: must be between 0.001 and 100000 Mbps.');
  await expect.poll(async () => (await scenarioOf(page))?.links.find((l: { id: string }) => l.id === 'L3')?.rate_mbps).toBe(155.52);
  expect(errors).toEqual([]);
});

test("a connection's start typed in the editor and a reload at once: the reload opens it applied", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  await page.getByTestId('ed-conn-C2').click();
  await page.getByTestId('conn-start_ms').fill('50');
  await page.reload();
  await expect.poll(async () => (await scenarioOf(page))?.connections.find((c: { id: string }) => c.id === 'C2')?.start_ms).toBe(50);
  await expect(page).toHaveURL(/\?mine=[a-z0-9]+$/);
  expect(errors).toEqual([]);
});

test('a name being typed goes to the scenario it was typed for, never to the one Back opens', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('scenario-picker').selectOption('three-sources');
  await expect.poll(() => page.evaluate(() => window.__abrlab?.scenarioId() ?? null)).toBe('three-sources');
  await page.getByTestId('view-editor').click();
  const name = page.getByTestId('scenario-name');
  await name.fill('Half typed');
  await page.goBack(); // before the 400 ms pause keeps it
  await expect.poll(() => page.evaluate(() => window.__abrlab?.scenarioId() ?? null)).toBe('two-sources');
  await page.waitForTimeout(800);
  expect((await scenarioOf(page))?.name).toBe('Two sources');
  await expect(name).toHaveValue('Two sources');
  expect(await hook(page, () => window.__abrlab?.place() ?? null)).toBe('library:two-sources');
  // Back kept its address, and the name went to a copy of three-sources, kept under My scenarios.
  expect(new URL(page.url()).search).toBe('?scenario=two-sources');
  await hook(page, () => window.__abrlab!.saved());
  await expect(page.getByTestId('my-scenarios').locator('option')).toHaveText([/^Half typed · /]);
  expect(errors).toEqual([]);
});

// QA: Forward after typed-then-Back opened the library original, not the copy the name went to.
test('a name typed and given at Back: Forward brings back the copy it went to, not the library original', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('scenario-picker').selectOption('three-sources');
  await expect.poll(() => page.evaluate(() => window.__abrlab?.scenarioId() ?? null)).toBe('three-sources');
  await page.getByTestId('view-editor').click();
  await page.getByTestId('scenario-name').fill('Half typed');
  await page.goBack(); // before the 400 ms pause keeps it
  await expect.poll(() => page.evaluate(() => window.__abrlab?.scenarioId() ?? null)).toBe('two-sources');
  await hook(page, () => window.__abrlab!.saved());
  await page.goForward();
  await expect(page).toHaveURL(/\?mine=[a-z0-9]+$/);
  await expect.poll(async () => (await scenarioOf(page))?.name).toBe('Half typed');
  expect((await scenarioOf(page))?.id).toBe('three-sources');
  const copy = new URL(page.url()).searchParams.get('mine');
  // The entry now names the copy: Back and Forward again, and a reload, open it.
  await page.goBack();
  await expect.poll(() => page.evaluate(() => window.__abrlab?.place() ?? null)).toBe('library:two-sources');
  await page.goForward();
  await expect.poll(() => page.evaluate(() => window.__abrlab?.place() ?? null)).toBe(`mine:${copy}`);
  await page.reload();
  await expect.poll(async () => (await scenarioOf(page))?.name).toBe('Half typed');
  // Nothing else was made: one copy in My scenarios, the library scenarios as they were.
  await expect(page.getByTestId('my-scenarios').locator('option')).toHaveText([/^Half typed · /]);
  expect(errors).toEqual([]);
});

test('a name typed on a shared link and given at Back: Forward opens the copy, not the link again', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  const link = (await hook(page, () => window.__abrlab!.shareLink()))!;
  await page.getByTestId('scenario-picker').selectOption('three-sources');
  await expect.poll(() => hook(page, () => window.__abrlab?.scenarioId() ?? null)).toBe('three-sources');
  await page.evaluate((f) => (location.hash = f), link.slice(link.indexOf('#')));
  await expect.poll(() => hook(page, () => window.__abrlab!.origin())).toBe('shared link');
  await page.getByTestId('view-editor').click();
  await page.getByTestId('scenario-name').fill('From the link');
  await page.goBack();
  await expect.poll(() => hook(page, () => window.__abrlab?.scenarioId() ?? null)).toBe('three-sources');
  await hook(page, () => window.__abrlab!.saved());
  await page.goForward();
  await expect(page).toHaveURL(/\?mine=[a-z0-9]+$/);
  await expect.poll(async () => (await scenarioOf(page))?.name).toBe('From the link');
  expect(errors).toEqual([]);
});

test('issue 14: My scenarios are deleted from the list with Undo; the open one stays open', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await buildOnEmptyCanvas(page);
  await expect(page).toHaveURL(/\?mine=[a-z0-9]+$/);
  const id = new URL(page.url()).searchParams.get('mine')!;
  await hook(page, () => window.__abrlab!.saved());

  await page.getByTestId('my-scenarios-menu').click();
  await expect(page.getByTestId('my-scenarios-list').locator('li')).toHaveCount(1);
  await page.screenshot({ path: resolve(shots, 'mine-3-menu.png') });
  await page.getByTestId(`delete-mine-${id}`).click();
  await expect(page.getByTestId('deleted')).toContainText('Deleted “My network” from your scenarios. It stays open, no longer kept');
  await page.screenshot({ path: resolve(shots, 'mine-4-deleted.png') });
  // No longer in the picker; the menu stays, listing it as recently deleted.
  await expect(page.getByTestId('my-scenarios')).toHaveCount(0);
  await expect(page.getByTestId(`restore-mine-${id}`)).toBeVisible();
  await expect(page.getByTestId('scenario-picker').locator('option:checked')).toHaveText('My network (deleted)');
  expect(await hook(page, () => window.__abrlab?.place() ?? null)).toBe('none');
  expect(new URL(page.url()).search).toBe('');
  expect((await scenarioOf(page))?.nodes.map((n: { id: string }) => n.id)).toEqual(['S1', 'SW1']);

  await page.getByTestId('undo-delete').click();
  await expect(page.getByTestId('deleted')).toHaveCount(0);
  await expect(page.getByTestId('my-scenarios').locator('option')).toHaveCount(1);
  await expect(page).toHaveURL(new RegExp(`\\?mine=${id}$`));
  await hook(page, () => window.__abrlab!.saved());
  await page.reload();
  await expect.poll(async () => (await scenarioOf(page))?.name).toBe('My network');
  expect(await hook(page, () => window.__abrlab?.place() ?? null)).toBe(`mine:${id}`);

  // Deleted while another is open: gone after a reload too.
  await page.getByTestId('scenario-picker').selectOption('gfc1');
  await expect.poll(() => hook(page, () => window.__abrlab?.scenarioId() ?? null)).toBe('gfc1');
  await page.getByTestId('my-scenarios-menu').click();
  await page.getByTestId(`delete-mine-${id}`).click();
  await expect(page.getByTestId('deleted')).toHaveText(/Deleted “My network” from your scenarios\.\s*Undo/);
  await hook(page, () => window.__abrlab!.saved());
  await page.reload();
  await expect.poll(() => hook(page, () => window.__abrlab?.scenarioId() ?? null)).toBe('gfc1');
  await expect(page.getByTestId('my-scenarios')).toHaveCount(0);
  // The Undo message went with the page; for 30 days the menu still restores it.
  await page.getByTestId('my-scenarios-menu').click();
  await expect(page.getByTestId('my-deleted')).toBeVisible();
  await page.screenshot({ path: resolve(shots, 'mine-5-recently-deleted.png') });
  await page.getByTestId(`restore-mine-${id}`).click();
  await expect(page.getByTestId('my-scenarios').locator('option')).toHaveText([/^My network · /]);
  await expect(page.getByTestId(`restore-mine-${id}`)).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a kept scenario the engine now refuses can still be saved as a file, to mend and import', async ({ page }) => {
  await openLab(page, '/?scenario=two-sources');
  // As an older lab might have kept it: a link with no capacity, a switch linked to nothing.
  const stored = await page.evaluate(async () => {
    const s = JSON.parse(window.__abrlab!.scenario()!);
    s.name = 'Old-format work';
    s.links[0].rate_mbps = 0;
    const json = JSON.stringify(s);
    const db = await new Promise<IDBDatabase>((done) => {
      const o = indexedDB.open('abrlab');
      o.onsuccess = () => done(o.result);
    });
    await new Promise((done) => {
      const t = db.transaction('scenarios', 'readwrite');
      t.objectStore('scenarios').put({ id: 'oldwork1', name: 'Old-format work', updatedMs: Date.now(), json });
      t.oncomplete = done;
    });
    db.close();
    return json;
  });
  await page.goto(url('/?mine=oldwork1'));
  await expect(page.getByTestId('problems')).toContainText('Could not load Old-format work');
  await expect(page.getByTestId('problems')).toContainText('rate_mbps');
  const file = await downloadText(page, () => page.getByTestId('save-refused').click());
  expect(file.name).toBe('Old-format-work.json');
  expect(file.text).toBe(stored);
});

test('issue 14: back to a scenario opened from a file, or a link, opens it again', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  const three = libraryScenarios().find((s) => s.file === 'three-sources.json')!.scenario;
  const fromFile = { ...three, name: 'From a file', run: { ...three.run, duration_ms: 123 } };
  await page.getByTestId('scenario-file').setInputFiles({ name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(fromFile)) });
  await expect.poll(async () => (await scenarioOf(page))?.name).toBe('From a file');
  expect(await hook(page, () => window.__abrlab?.place() ?? null)).toBe('none');
  await page.getByTestId('scenario-picker').selectOption('gfc1');
  await expect.poll(() => hook(page, () => window.__abrlab?.scenarioId() ?? null)).toBe('gfc1');

  await page.goBack();
  await expect.poll(async () => (await scenarioOf(page))?.name).toBe('From a file');
  expect((await scenarioOf(page))?.run.duration_ms).toBe(123);
  expect(await hook(page, () => window.__abrlab?.origin() ?? null)).toBe('From a file (mine.json)');
  await page.goBack();
  await expect.poll(() => hook(page, () => window.__abrlab?.scenarioId() ?? null)).toBe('two-sources');
  await page.goForward();
  await expect.poll(async () => (await scenarioOf(page))?.name).toBe('From a file');
  await page.goForward();
  await expect.poll(() => hook(page, () => window.__abrlab?.scenarioId() ?? null)).toBe('gfc1');

  // A shared link: its fragment is cleared once read, but its history entry keeps it.
  const link = await hook(page, () => window.__abrlab!.shareLink());
  await page.goto(link!);
  await expect.poll(() => hook(page, () => window.__abrlab?.scenarioId() ?? null)).toBe('gfc1');
  expect(await hook(page, () => window.__abrlab?.origin() ?? null)).toBe('shared link');
  await page.getByTestId('scenario-picker').selectOption('two-sources');
  await expect.poll(() => hook(page, () => window.__abrlab?.scenarioId() ?? null)).toBe('two-sources');
  await page.goBack();
  await expect.poll(() => hook(page, () => window.__abrlab?.origin() ?? null)).toBe('shared link');
  expect(await hook(page, () => window.__abrlab?.scenarioId() ?? null)).toBe('gfc1');
  expect(errors).toEqual([]);
});

test('issue 14: a shared link opened elsewhere becomes that user\'s own copy at the first change', async ({ page, context }) => {
  await openLab(page, '/?scenario=three-sources');
  const link = await hook(page, () => window.__abrlab!.shareLink());
  const other = await context.newPage();
  await openLab(other, link!);
  expect(await hook(other, () => (window.__abrlab?.place() ?? null))).toBe('none');
  expect(await hook(other, () => window.__abrlab!.myScenarios())).toEqual([]);
  await other.getByTestId('view-editor').click();
  await other.getByTestId('ed-node-S3').click();
  await other.keyboard.press('Delete');
  await expect.poll(() => hook(other, () => (window.__abrlab?.place() ?? null))).toMatch(/^mine:/);
  await expect(other).toHaveURL(/\?mine=/);
  await expect.poll(() => hook(other, () => window.__abrlab!.myScenarios())).toHaveLength(1);
});

test('issue 14: mangled links say what is wrong, clear the fragment, and open the previous work', async ({ page, context }) => {
  await openLab(page, '/?scenario=three-sources');
  await page.getByTestId('step-ms').fill('10');
  await page.getByTestId('step').click();
  await expect.poll(async () => (await status(page))?.nowMs).toBe(10);
  await page.getByTestId('topo-SW1').click();
  const field = page.getByTestId('param-target_utilization').locator('input');
  await field.fill('0.8');
  await field.press('Enter');
  await expect(page.getByTestId('changes')).toContainText('SW1 target_utilization → 0.8');
  const work = await hook(page, () => window.__abrlab!.scenario());
  const link = (await hook(page, () => window.__abrlab!.shareLink()))!;
  const [data, check] = link.slice(link.indexOf('#s=2.') + 5).split('.');
  const flipped = data.slice(0, 40) + (data[40] === 'A' ? 'B' : 'A') + data.slice(41);
  const two = libraryScenarios().find((s) => s.file === 'two-sources.json')!.scenario;
  const deep = `{"version":1,"id":"x","nodes":[],"links":[],"connections":[],"run":{"duration_ms":1},"lesson":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;

  const cases: [string, string, RegExp][] = [
    ['truncated', `#s=2.${data.slice(0, Math.floor(data.length / 2) & ~3)}`, /cut short: the check at its end is missing/],
    ['truncated, version 1', `#s=1.${data.slice(0, Math.floor(data.length / 2) & ~3)}`, /does not decompress/],
    ['bit-flipped', `#s=2.${flipped}.${check}`, /could not be opened: the link (was changed on its way|'s data does not decompress)/],
    ['bad deflate', `#s=1.${toBase64Url(new Uint8Array([255, 254, 253, 252, 251, 250]))}`, /does not decompress/],
    ['bad JSON', fragmentOf('{"version": 1, "id": '), /not valid JSON/],
    ['deep nesting', fragmentOf(deep), /nests arrays or objects more than 64 levels deep/],
    ['huge', fragmentOf(new Uint8Array(20 * 1024 * 1024)), /would inflate to more than 8 MB/],
  ];
  for (const [what, fragment, message] of cases) {
    const next = await context.newPage();
    const errors = await openLab(next, `/${fragment}`);
    await expect(next.getByTestId('notice'), what).toContainText('This scenario link could not be opened');
    await expect(next.getByTestId('notice'), what).toContainText(message);
    await expect(next.getByTestId('notice'), what).toContainText('Nothing was lost: your last work is open instead');
    expect(new URL(next.url()).hash, what).toBe('');
    expect(await hook(next, () => window.__abrlab!.scenario()), what).toBe(work);
    if (what === 'deep nesting') await next.screenshot({ path: resolve(shots, 'link-deep-nesting.png') });
    expect(errors, what).toEqual([]);
    // Reloading does not fail again: the fragment is gone.
    await next.reload();
    await expect.poll(() => hook(next, () => window.__abrlab?.scenario() ?? null)).toBe(work);
    await next.close();
  }

  // A scenario the engine refuses: its problems, and the previous work stays loaded.
  const invalid = { ...two, run: { ...two.run, duration_ms: -5 } };
  const next = await context.newPage();
  await openLab(next, `/${fragmentOf(JSON.stringify(invalid))}`);
  await expect(next.getByTestId('problems')).toContainText('Could not load shared link');
  await expect(next.getByTestId('problems')).toContainText('run.duration_ms');
  expect(await hook(next, () => window.__abrlab!.scenario())).toBe(work);
});

// QA: a link the engine refuses is cleared from the address once read; its scenario was then
// nowhere to mend. It is offered as a file, which imports again once mended.
test("a shared link the engine refuses can be saved as a file, mended and imported", async ({ page }) => {
  const two = libraryScenarios().find((s) => s.file === 'two-sources.json')!.scenario as { run: Record<string, unknown> };
  const invalid = { ...two, run: { ...two.run, duration_ms: -5 } };
  const errors = await openLab(page, `/?scenario=three-sources${fragmentOf(JSON.stringify(invalid))}`);
  await expect(page.getByTestId('problems')).toContainText('Could not load shared link');
  await expect(page.getByTestId('problems')).toContainText('run.duration_ms');
  expect(new URL(page.url()).hash).toBe('');
  await page.screenshot({ path: resolve(shots, 'link-refused-save.png') });
  const file = await downloadText(page, () => page.getByTestId('save-refused').click());
  expect(JSON.parse(file.text)).toEqual(invalid);
  expect(await hook(page, () => window.__abrlab!.scenarioId())).toBe('three-sources');
  // Mended (a positive duration) and imported: it opens.
  const mended = JSON.stringify({ ...invalid, run: { ...invalid.run, duration_ms: 50 } });
  await page.getByTestId('scenario-file').setInputFiles({ name: file.name, mimeType: 'application/json', buffer: Buffer.from(mended) });
  await expect.poll(() => hook(page, () => window.__abrlab!.scenarioId())).toBe('two-sources');
  expect(JSON.parse((await hook(page, () => window.__abrlab!.scenario()))!).run.duration_ms).toBe(50);
  expect(errors).toEqual([]);
});

test('issue 14: bad imports are refused with a message; the scenario open stays', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=core-edge');
  const work = await hook(page, () => window.__abrlab!.scenario());
  const two = libraryScenarios().find((s) => s.file === 'two-sources.json')!.scenario;
  const files: [string, string, RegExp][] = [
    ['null.json', 'null', /holds only null, not a scenario object/],
    ['text.json', 'this is not JSON', /not valid JSON/],
    ['invalid.json', JSON.stringify({ ...two, run: { ...two.run, duration_ms: -5 } }), /run\.duration_ms/],
  ];
  for (const [name, text, message] of files) {
    await page.getByTestId('scenario-file').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
    // Named by the file (and the scenario's name, when it has one to read).
    await expect(page.getByTestId('problems')).toContainText(name === 'invalid.json' ? `Could not load Two sources (${name})` : `Could not load ${name}`);
    await expect(page.getByTestId('problems')).toContainText(message);
    await expect(page.getByTestId('problems')).toContainText('Still showing');
    expect(await hook(page, () => window.__abrlab!.scenario())).toBe(work);
    if (name === 'null.json') await page.screenshot({ path: resolve(shots, 'import-null.png') });
  }
  expect(errors).toEqual([]);
});

test('issue 14: a load that hangs is shown with Cancel; the watchdog restarts the engine; the work stays', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources&answer_timeout_ms=2500');
  // Cancel by hand.
  await hook(page, () => window.__abrlab!.hangEngine(60_000));
  await page.getByTestId('scenario-picker').selectOption('gfc1');
  await expect(page.getByTestId('loading')).toContainText('Loading “Generic Fairness Configuration 1”');
  await expect(page.getByTestId('loading')).toContainText('23 connections');
  await page.screenshot({ path: resolve(shots, 'loading-cancel.png') });
  await page.getByTestId('cancel-load').click();
  await expect(page.getByTestId('loading')).toHaveCount(0);
  await expect(page.getByTestId('notice')).toContainText('Stopped loading “Generic Fairness Configuration 1”');
  expect(await hook(page, () => (window.__abrlab?.scenarioId() ?? null))).toBe('two-sources');

  // Left alone: the watchdog restarts it after the timeout.
  await hook(page, () => window.__abrlab!.hangEngine(60_000));
  await page.getByTestId('scenario-picker').selectOption('core-edge');
  await expect(page.getByTestId('notice')).toContainText('was still loading after 2.5 s, so the engine was stopped and restarted', { timeout: 20_000 });
  await expect(page.getByTestId('notice')).toContainText('Nothing of yours was lost');
  expect(await hook(page, () => (window.__abrlab?.scenarioId() ?? null))).toBe('two-sources');
  // The restarted engine runs.
  await page.getByTestId('run-until').click();
  await expect.poll(async () => (await status(page))?.nowMs).toBe(50);
  // And a pick now goes through.
  await page.getByTestId('scenario-picker').selectOption('core-edge');
  await expect.poll(() => hook(page, () => (window.__abrlab?.scenarioId() ?? null))).toBe('core-edge');

  // A change of the user's the engine does not take in time is said not to be made.
  await page.getByTestId('scenario-picker').selectOption('two-sources');
  await expect.poll(() => hook(page, () => (window.__abrlab?.scenarioId() ?? null))).toBe('two-sources');
  const algorithm = async () => JSON.parse((await hook(page, () => window.__abrlab!.scenario()))!).nodes.find((n: { id: string }) => n.id === 'SW1').algorithm;
  const before = await algorithm();
  await hook(page, () => window.__abrlab!.hangEngine(60_000));
  await page.getByTestId('tab-switches').click();
  await page.getByTestId('switch-algorithm').selectOption('erica_plus');
  await expect(page.getByTestId('notice')).toContainText('Your change to “Two sources” was not made: the engine had not taken it after 2.5 s, so it was stopped and restarted. “Two sources” is still open, at t = 0, as it was before that change.', { timeout: 20_000 });
  await expect(page.getByTestId('notice')).not.toContainText('Nothing of yours was lost');
  expect(await algorithm()).toBe(before);
  await page.screenshot({ path: resolve(shots, 'change-timed-out.png') });
  expect(errors).toEqual([]);
});

test('issue 14: an engine panic is told in words; the raw panic text is only under the details', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('speed').selectOption('max');
  await hook(page, () => window.__abrlab!.panicEngine());
  await page.getByTestId('play').click();
  const notice = page.getByTestId('notice');
  await expect(notice).toContainText('The simulation engine stopped on an internal error');
  await expect(notice).toContainText('reloaded at t = 0');
  await expect(notice).toContainText('Your scenarios and your changes are kept.');
  await expect(notice.locator('.notice-text')).not.toContainText('unreachable');
  await expect(page.getByTestId('notice-details')).toBeHidden();
  await notice.locator('summary').click();
  await expect(page.getByTestId('notice-details')).toContainText('RuntimeError: unreachable');
  await page.screenshot({ path: resolve(shots, 'panic-words.png') });
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  expect(errors).toEqual([]);
});

test('issue 14: a refused edit says only why, and Ctrl+Z undoes wherever the focus is', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('view-editor').click();
  await page.getByTestId('ed-conn-C1').click();
  await page.getByTestId('conn-params').locator('summary').click();
  await page.getByTestId('conn-param-pcr_mbps').fill('60');
  await page.getByTestId('conn-param-pcr_mbps').press('Enter');
  await expect(page.getByTestId('editor-message')).toHaveText('C1 pcr_mbps changed: the run restarted at t = 0.');
  // MCR above PCR: each is in range, the engine refuses the pair.
  await page.getByTestId('conn-param-mcr_mbps').fill('100');
  await page.getByTestId('conn-param-mcr_mbps').press('Enter');
  await expect(page.getByTestId('editor-message')).toContainText('Not applied, the engine refused it');
  await expect(page.getByTestId('editor-message')).toContainText('must not exceed pcr_mbps');
  await expect(page.getByTestId('editor-message')).not.toContainText('restarted');
  await page.screenshot({ path: resolve(shots, 'refused-edit.png') });
  expect((await scenarioOf(page))?.connections[0].params).toEqual({ pcr_mbps: 60 });

  // On the charts, focus on a button: Ctrl+Z undoes the PCR edit, Ctrl+Shift+Z redoes it.
  await page.getByTestId('view-charts').click();
  await page.getByTestId('reset').focus();
  await page.keyboard.press('Control+z');
  await expect.poll(async () => (await scenarioOf(page))?.connections[0].params).toBeUndefined();
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(async () => (await scenarioOf(page))?.connections[0].params).toEqual({ pcr_mbps: 60 });
  // In a text field the browser's own undo applies: the network stays.
  await page.getByTestId('step-ms').fill('7');
  await page.getByTestId('step-ms').press('Control+z');
  await page.waitForTimeout(300);
  expect((await scenarioOf(page))?.connections[0].params).toEqual({ pcr_mbps: 60 });
  expect(errors).toEqual([]);
});

test('issue 14: flows that left before the steady window say when they left in the result', async ({ page }) => {
  await openLab(page, '/?scenario=fecn-hotspot');
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('play').click();
  await waitForMode(page, 'done');
  await page.getByTestId('tab-result').click();
  const rates = page.getByTestId('summary-rates');
  await expect(rates.locator('[data-testid^="summary-left-"]')).toHaveCount(2);
  await expect(rates.locator('[data-testid^="summary-left-"]').first()).toHaveText('left at 80 ms');
  await rates.scrollIntoViewIfNeeded();
  await page.screenshot({ path: resolve(shots, 'summary-left.png') });
});

// QA: the same scenario of the user's in two tabs, each changed: the tab holding the older copy
// wrote it over the other's change, which was lost without a word.
test('two tabs on one of your scenarios: both tabs\' changes are kept, the older copy\'s as a scenario of its own', async ({ page, context }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  const setParam = async (p: Page, name: string, value: string) => {
    await p.getByTestId('tab-switches').click();
    const field = p.getByTestId(`param-${name}`).locator('input');
    await field.fill(value);
    await field.press('Enter');
  };
  const param = async (p: Page, name: string) => (await scenarioOf(p))?.nodes.find((n: { id: string }) => n.id === 'SW1')?.params?.[name];
  await setParam(page, 'target_utilization', '0.8');
  await expect.poll(() => hook(page, () => window.__abrlab?.place() ?? null)).toMatch(/^mine:/);
  const mine = page.url();

  const other = await context.newPage();
  await openLab(other, new URL(mine).pathname + new URL(mine).search);
  await expect.poll(() => param(other, 'target_utilization')).toBe(0.8);

  await setParam(page, 'target_utilization', '0.6'); // tab A
  await expect.poll(() => param(page, 'target_utilization')).toBe(0.6);
  await hook(page, () => window.__abrlab!.saved()); // kept
  await expect(other.getByTestId('notice')).toContainText('was just changed in another tab'); // B is told at once
  await setParam(other, 'delta', '0.05'); // tab B, still holding 0.8
  await expect(other.getByTestId('notice')).toContainText('changed in another tab since this tab opened it');
  await other.screenshot({ path: resolve(shots, 'mine-two-tabs.png') });
  expect(other.url()).not.toBe(mine); // tab B moved to its own copy

  // A reload of tab A finds its 0.6; tab B's copy has B's change on the 0.8 it held.
  await page.reload();
  await expect.poll(() => param(page, 'target_utilization')).toBe(0.6);
  expect(await param(page, 'delta')).toBeUndefined();
  await other.reload();
  await expect.poll(() => param(other, 'delta')).toBe(0.05);
  expect(await param(other, 'target_utilization')).toBe(0.8);
  expect(errors).toEqual([]);
});

test("a tab told of another tab's change shows that version with one click", async ({ page, context }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  const field = (p: Page) => p.getByTestId('param-target_utilization').locator('input');
  const set = async (p: Page, value: string) => {
    await p.getByTestId('tab-switches').click();
    await field(p).fill(value);
    await field(p).press('Enter');
  };
  const param = async (p: Page) => (await scenarioOf(p))?.nodes.find((n: { id: string }) => n.id === 'SW1')?.params?.target_utilization;
  await set(page, '0.8');
  await expect.poll(() => hook(page, () => window.__abrlab?.place() ?? null)).toMatch(/^mine:/);
  await hook(page, () => window.__abrlab!.saved());
  const mine = page.url();
  const other = await context.newPage();
  await openLab(other, new URL(mine).pathname + new URL(mine).search);
  await expect.poll(() => param(other)).toBe(0.8);
  await set(page, '0.6');
  await hook(page, () => window.__abrlab!.saved());
  await expect(other.getByTestId('notice')).toContainText('was just changed in another tab');
  await other.getByTestId('notice-reopen').click();
  await expect.poll(() => param(other)).toBe(0.6);
  expect(other.url()).toBe(mine);
  await expect(other.getByTestId('notice')).toHaveCount(0);
  expect(errors).toEqual([]);
});

// QA: a scenario deleted in one tab stayed in the other's Mine (deletions were not told).
test('a scenario deleted in one tab leaves the Mine of another, which keeps it open, unkept', async ({ page, context }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  const field = page.getByTestId('param-target_utilization').locator('input');
  await page.getByTestId('tab-switches').click();
  await field.fill('0.8');
  await field.press('Enter');
  await expect.poll(() => hook(page, () => window.__abrlab?.place() ?? null)).toMatch(/^mine:/);
  await hook(page, () => window.__abrlab!.saved());
  const id = (await hook(page, () => window.__abrlab!.place()))!.slice('mine:'.length);
  const mine = new URL(page.url());
  const other = await context.newPage();
  await openLab(other, mine.pathname + mine.search);
  await expect(other.getByTestId('my-scenarios-menu')).toHaveText('Mine (1) ▾');
  await page.getByTestId('my-scenarios-menu').click();
  await page.getByTestId(`delete-mine-${id}`).click();
  await expect(page.getByTestId('deleted')).toBeVisible();
  await expect(other.getByTestId('my-scenarios-menu')).toHaveText('Mine (0) ▾');
  await expect(other.getByTestId('notice')).toContainText('was deleted in another tab. It stays open here, no longer kept');
  expect(await hook(other, () => window.__abrlab?.place() ?? null)).toBe('none');
  await other.getByTestId('my-scenarios-menu').click();
  await expect(other.getByTestId(`restore-mine-${id}`)).toBeVisible();
  await other.screenshot({ path: resolve(shots, 'mine-deleted-in-another-tab.png') });
  // Undone there: listed here again.
  await page.getByTestId('undo-delete').click();
  await expect(other.getByTestId('my-scenarios-menu')).toHaveText('Mine (1) ▾');
  expect(errors).toEqual([]);
});

// QA: with IndexedDB full, a change was listed under Mine as if kept; another scenario and
// Back then said it "is not kept in this browser", and it was gone. It is kept in the
// browser's local storage instead, and the message says so.
test("IndexedDB full: a change is kept in local storage instead; Back, Mine and a reload open it", async ({ page }) => {
  await page.addInitScript(() => {
    IDBObjectStore.prototype.put = function () {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('tab-switches').click();
  const field = page.getByTestId('param-target_utilization').locator('input');
  await field.fill('0.77');
  await field.press('Enter');
  await expect(page.getByTestId('notice')).toContainText("Your scenarios cannot be kept in this browser's database (The quota has been exceeded)");
  await expect(page.getByTestId('notice')).toContainText('kept in its smaller local storage instead, where Mine lists them');
  await expect(page).toHaveURL(/\?mine=[a-z0-9]+$/);
  const mineUrl = page.url();
  await page.screenshot({ path: resolve(shots, 'idb-full.png') });
  const sw1 = async () => JSON.parse((await hook(page, () => window.__abrlab?.scenario() ?? null)) ?? 'null')?.nodes.find((n: { id: string }) => n.id === 'SW1')?.params?.target_utilization;

  await page.getByTestId('scenario-picker').selectOption('gfc1');
  await expect.poll(() => hook(page, () => window.__abrlab?.scenarioId() ?? null)).toBe('gfc1');
  await page.goBack();
  await expect(page).toHaveURL(mineUrl);
  await expect.poll(sw1).toBe(0.77);

  await page.goForward();
  await expect.poll(() => hook(page, () => window.__abrlab?.scenarioId() ?? null)).toBe('gfc1');
  await page.reload();
  await expect.poll(() => hook(page, () => window.__abrlab?.scenarioId() ?? null)).toBe('gfc1');
  const mine = page.getByTestId('my-scenarios').locator('option');
  await expect(mine).toHaveText([/^Two sources · /]);
  await page.getByTestId('scenario-picker').selectOption((await mine.getAttribute('value'))!);
  await expect.poll(sw1).toBe(0.77);
  await page.goto(mineUrl); // the address alone opens it too
  await expect.poll(sw1).toBe(0.77);
  expect(errors).toEqual([]);
});

// QA: a reload took the undo history away with it.
test('undo and redo go on after a reload, and undoing Empty canvas returns to the scenario it left', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await buildOnEmptyCanvas(page);
  await hook(page, () => window.__abrlab!.saved());
  await page.reload();
  await expect.poll(async () => (await scenarioOf(page))?.nodes.length).toBe(2);
  await page.getByTestId('view-editor').click();
  await expect(page.getByTestId('undo')).toBeEnabled();
  await page.getByTestId('undo').click(); // the switch
  await expect.poll(async () => (await scenarioOf(page))?.nodes.map((n: { id: string }) => n.id)).toEqual(['S1']);
  await page.getByTestId('undo').click(); // the source
  await page.getByTestId('undo').click(); // the empty canvas: two-sources itself, not a copy
  await expect(page).toHaveURL(/\?scenario=two-sources$/);
  await expect.poll(() => hook(page, () => window.__abrlab?.place() ?? null)).toBe('library:two-sources');
  await page.getByTestId('redo').click();
  await expect.poll(() => hook(page, () => window.__abrlab?.place() ?? null)).toMatch(/^mine:/);
  await expect(page.getByTestId('my-scenarios').locator('option')).toHaveCount(1);
  expect(errors).toEqual([]);
});

// QA: a tab closed within milliseconds of a change could lose it. The browser's database
// writes asynchronously (here held back by another transaction, as a slow disk would), and
// the last work in local storage, where a reload finds the change, is one for every tab.
test('a change the database had not written when its tab closed is kept, though another tab changes its own scenario after', async ({ context, page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await buildOnEmptyCanvas(page);
  await hook(page, () => window.__abrlab!.saved());
  const mineUrl = page.url();
  // Hold the database's writes back: a read-write transaction kept busy.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const open = indexedDB.open('abrlab', 1);
        open.onsuccess = () => {
          const store = open.result.transaction('scenarios', 'readwrite').objectStore('scenarios');
          const spin = () => (store.get('none').onsuccess = spin);
          spin();
          resolve();
        };
      }),
  );
  await page.getByTestId('add-destination').click();
  await expect.poll(async () => (await scenarioOf(page))?.nodes.length).toBe(3);
  // Hidden (a phone may end a hidden page with no pagehide): the change is in local storage.
  const keptAtHide = await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    return Object.keys(localStorage).filter((k) => k.startsWith('abrlab.unkept/')).map((k) => JSON.parse(localStorage.getItem(k)!).json.length > 0);
  });
  expect(keptAtHide).toEqual([true]);
  await page.close({ runBeforeUnload: true });

  // Another tab changes another scenario: the last work is its now.
  const other = await context.newPage();
  await openLab(other, '/?scenario=gfc1');
  await other.getByTestId('view-editor').click();
  await other.getByTestId('add-switch').click();
  await expect(other).toHaveURL(/\?mine=/);
  await hook(other, () => window.__abrlab!.saved());

  const later = await context.newPage();
  await openLab(later, new URL(mineUrl).pathname + new URL(mineUrl).search);
  await expect.poll(async () => (await scenarioOf(later))?.nodes.length).toBe(3);
  expect(errors).toEqual([]);
});

// QA: a change a tab kept in local storage as it was hidden (the database had not written it)
// reached the database only at some tab's next start: a tab open all along picked it from Mine
// and got the older text.
test('a change kept as its tab was hidden opens from Mine in a tab open all along', async ({ context, page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  const set = async (p: Page, value: string) => {
    await p.getByTestId('tab-switches').click();
    const field = p.getByTestId('param-target_utilization').locator('input');
    await field.fill(value);
    await field.press('Enter');
  };
  const param = async (p: Page) => (await scenarioOf(p))?.nodes.find((n: { id: string }) => n.id === 'SW1')?.params?.target_utilization;
  await set(page, '0.8');
  await expect.poll(() => hook(page, () => window.__abrlab?.place() ?? null)).toMatch(/^mine:/);
  await hook(page, () => window.__abrlab!.saved());
  const id = (await hook(page, () => window.__abrlab!.place()))!.slice('mine:'.length);

  const other = await context.newPage(); // open all along, on another scenario
  const otherErrors = await openLab(other, '/?scenario=gfc1');
  await expect(other.getByTestId('my-scenarios').locator('option')).toHaveCount(1);

  // Tab A's database writes held back (a read-write transaction kept busy, as a slow disk).
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const open = indexedDB.open('abrlab', 1);
        open.onsuccess = () => {
          const store = open.result.transaction('scenarios', 'readwrite').objectStore('scenarios');
          const spin = () => (store.get('none').onsuccess = spin);
          spin();
          resolve();
        };
      }),
  );
  await set(page, '0.6');
  await expect.poll(() => param(page)).toBe(0.6);
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.close({ runBeforeUnload: true });

  await other.getByTestId('scenario-picker').selectOption(`mine:${id}`);
  await expect.poll(() => hook(other, () => window.__abrlab?.place() ?? null)).toBe(`mine:${id}`);
  await expect.poll(() => param(other)).toBe(0.6);
  await hook(other, () => window.__abrlab!.saved());
  await other.reload(); // kept in the database now
  await expect.poll(() => param(other)).toBe(0.6);
  expect(await other.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('abrlab.unkept/')))).toEqual([]);
  expect([...errors, ...otherErrors]).toEqual([]);
});

// QA: undoing Empty canvas back into a library scenario kept no history there: after a
// reload, Redo to the network drawn on the canvas was gone.
test('undoing Empty canvas back into a library scenario: Redo goes on after a reload', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await buildOnEmptyCanvas(page);
  await hook(page, () => window.__abrlab!.saved());
  const mine = await hook(page, () => window.__abrlab!.place());
  for (let i = 0; i < 3; i++) await page.getByTestId('undo').click(); // the switch, the source, the canvas
  await expect(page).toHaveURL(/\?scenario=two-sources$/);
  await expect.poll(() => hook(page, () => window.__abrlab?.place() ?? null)).toBe('library:two-sources');
  await page.reload();
  await expect.poll(() => hook(page, () => window.__abrlab?.place() ?? null)).toBe('library:two-sources');
  await page.getByTestId('view-editor').click();
  await expect(page.getByTestId('redo')).toBeEnabled();
  await page.getByTestId('redo').click(); // the canvas: the user's network, as it was kept
  await expect.poll(() => hook(page, () => window.__abrlab?.place() ?? null)).toBe(mine);
  await page.getByTestId('redo').click();
  await page.getByTestId('redo').click();
  await expect.poll(async () => (await scenarioOf(page))?.nodes.map((n: { id: string }) => n.id)).toEqual(['S1', 'SW1']);
  await expect(page.getByTestId('my-scenarios').locator('option')).toHaveCount(1);
  expect(errors).toEqual([]);
});

// QA: undoing Empty canvas into a scenario deleted since opened it, but Mine did not list it
// until it was changed again.
test('undoing Empty canvas into a scenario deleted since lists it in Mine again, after a reload too', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await page.getByTestId('tab-switches').click();
  const field = page.getByTestId('param-target_utilization').locator('input');
  await field.fill('0.8');
  await field.press('Enter');
  await expect.poll(() => hook(page, () => window.__abrlab?.place() ?? null)).toMatch(/^mine:/);
  const first = (await hook(page, () => window.__abrlab!.place()))!;
  await page.getByTestId('view-editor').click();
  await page.getByTestId('clear-network').click();
  await page.getByTestId('empty-atm').click();
  await expect.poll(() => hook(page, () => window.__abrlab?.place() ?? null)).not.toBe(first);
  await hook(page, () => window.__abrlab!.saved());
  await page.getByTestId('my-scenarios-menu').click();
  await page.getByTestId(`delete-mine-${first.slice('mine:'.length)}`).click();
  await expect(page.getByTestId('deleted')).toBeVisible();
  await page.getByTestId('undo').click();
  await expect.poll(() => hook(page, () => window.__abrlab?.place() ?? null)).toBe(first);
  await expect(page.getByTestId('notice')).toContainText('“Two sources”, deleted since, is back among your scenarios (Mine)');
  await expect(page.getByTestId('my-scenarios').locator('option')).toHaveCount(2);
  await hook(page, () => window.__abrlab!.saved());
  await page.reload();
  await expect.poll(() => hook(page, () => window.__abrlab?.place() ?? null)).toBe(first);
  await expect(page.getByTestId('my-scenarios').locator('option')).toHaveCount(2);
  await expect(page.getByTestId('notice')).toHaveCount(0);
  expect(errors).toEqual([]);
});

// QA: a change the page went away before the engine's verdict, refused at the reload, showed
// two red boxes saying much the same (the problems, and a notice). One, naming field and rule.
test('a change refused at the reload is said in one message, naming the field and the rule', async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  const refused = await page.evaluate(() => {
    const s = JSON.parse(window.__abrlab!.scenario()!);
    s.run.duration_ms = 0;
    const last = JSON.stringify({ json: JSON.stringify(s, null, 2), origin: 'Two sources', unsaved: true, from: { kind: 'library', id: 'two-sources' } });
    localStorage.setItem('abrlab.last', last);
    sessionStorage.setItem('abrlab.last', last);
    return s;
  });
  await page.reload();
  await expect(page.getByTestId('problems')).toContainText('Your last change to “Two sources”, made as the page went away, was not kept');
  await expect(page.getByTestId('problems')).toContainText('run.duration_ms');
  await expect(page.locator('.notice-error')).toHaveCount(1);
  await expect(page.getByTestId('notice')).toHaveCount(0);
  await page.screenshot({ path: resolve(shots, 'refused-change-one-message.png') });
  const file = await downloadText(page, () => page.getByTestId('save-refused').click());
  expect(JSON.parse(file.text).run.duration_ms).toBe(refused.run.duration_ms);
  expect(errors).toEqual([]);
});
