// Where the user was comes back after a reload: the view tab and the side panel's tab (kept in
// the tab's sessionStorage), within what a teacher's link allows; a new tab starts on Charts.
import { expect, test, type Page } from '@playwright/test';
import { openLab } from './helpers';

/** The view tab and the side panel's tab the page shows. */
async function expectPlace(page: Page, view: string, side: string) {
  await expect(page.getByTestId(`view-${view}`)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId(`tab-${side}`)).toHaveAttribute('aria-selected', 'true');
}

async function moveTo(page: Page, view: string, side: string) {
  await page.getByTestId(`view-${view}`).click();
  await page.getByTestId(`tab-${side}`).click();
}

// QA: a reload went back to Charts and the Lesson tab instead of the Sweep tab and the
// Switches tab the user was in.
test('a reload comes back to the view tab and the side panel tab the user was in; a new tab starts on Charts', async ({ page, context }) => {
  const errors = await openLab(page, '/?scenario=two-sources');
  await moveTo(page, 'sweep', 'switches');
  await expect(page.getByTestId('param-sweep')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('view-sweep')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('param-sweep')).toBeVisible();
  await expect(page.getByTestId('tab-switches')).toHaveAttribute('aria-selected', 'true');
  // Moved on, and reloaded again: the new place.
  await moveTo(page, 'editor', 'lesson');
  await page.reload();
  await expectPlace(page, 'editor', 'lesson');
  // A new tab of the lab is not this one: Charts and the lesson.
  const other = await context.newPage();
  await openLab(other, '/?scenario=two-sources');
  await expectPlace(other, 'charts', 'lesson');
  expect(errors).toEqual([]);
});

test("a reload does not bring back a view tab the teacher's link hides; the side panel's tab comes back", async ({ page }) => {
  await openLab(page, '/?scenario=two-sources&hide=sweep');
  await expect(page.getByTestId('view-sweep')).toHaveCount(0);
  // This tab was on the Sweep tab before (kept by a page without the teacher's settings).
  await page.evaluate(() => sessionStorage.setItem('abrlab.view-place', JSON.stringify({ v: 1, tab: 'sweep', network: false, side: 'switches' })));
  await page.reload();
  await expectPlace(page, 'charts', 'switches');
});

// QA: on a reload, the saved tab won over a `#t=` typed into the address since (a fragment
// changed by hand loads no page): the address wins when it asks for another place than when the
// place was kept; the place the user moved on to wins over the address it was opened from.
test("a reload opens the address's tab when it asks for another than it did, else where the user was", async ({ page }) => {
  const errors = await openLab(page, '/?scenario=two-sources#t=sweep&p=switches');
  await expectPlace(page, 'sweep', 'switches');
  // Moved on: a reload of the same address comes back where the user was.
  await moveTo(page, 'editor', 'lesson');
  await page.reload();
  await expectPlace(page, 'editor', 'lesson');
  // Another place typed into the address, then a reload: the address's.
  await page.evaluate(() => history.replaceState(history.state, '', `${location.pathname}${location.search}#t=compare`));
  await page.reload();
  await expect(page.getByTestId('view-compare')).toHaveAttribute('aria-selected', 'true');
  // Moved on from there: where the user was again.
  await page.getByTestId('view-charts').click();
  await page.reload();
  await expect(page.getByTestId('view-charts')).toHaveAttribute('aria-selected', 'true');
  expect(errors).toEqual([]);
});
