import { chromium } from '@playwright/test';
import fs from 'fs';
const ids = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run'] });
const out = {};
for (const id of ids) {
  const dur = JSON.parse(fs.readFileSync(`scenarios/${id}.json`,'utf8')).run.duration_ms;
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await ctx.newPage();
  const errs = [];
  page.on('pageerror', e => errs.push('pageerror: ' + e.message));
  page.on('console', m => { if (m.type() === 'error' || m.type()==='warning') errs.push(m.type()+': ' + m.text()); });
  await page.goto(`http://localhost:5173/?scenario=${id}`);
  await page.waitForFunction(() => window.__abrlab && window.__abrlab.engine() && window.__abrlab.scenarioId(), null, { timeout: 60000 });
  await page.fill('[data-testid=until-ms]', String(dur));
  await page.keyboard.press('Tab');
  const t0 = Date.now();
  await page.click('[data-testid=run-until]');
  let ok = true;
  try {
    await page.waitForFunction(d => (window.__abrlab.status()?.nowMs ?? 0) >= d - 1e-6, dur, { timeout: 180000, polling: 250 });
  } catch (e) { ok = false; }
  const wall = (Date.now() - t0) / 1000;
  await page.waitForTimeout(1500);
  const st = await page.evaluate(() => window.__abrlab.status());
  const summary = await page.evaluate(() => window.__abrlab.summary());
  const problems = await page.evaluate(() => window.__abrlab.problems());
  const notice = await page.evaluate(() => window.__abrlab.notice());
  const lesson = await page.evaluate(() => document.querySelector('[data-testid=lesson]')?.innerText ?? null);
  const summaryText = await page.evaluate(() => document.querySelector('[data-testid=summary]')?.innerText ?? null);
  const meta = await page.evaluate(() => window.__abrlab.meta());
  const last = await page.evaluate(() => window.__abrlab.last());
  await page.screenshot({ path: `/tmp/uireview/${id}.png`, fullPage: true });
  if (process.env.SWITCHES) {
    await page.click('[data-testid=tab-switches]');
    await page.waitForTimeout(800);
    await page.screenshot({ path: `/tmp/uireview/${id}-switches.png`, fullPage: true });
    if (process.env.PATHS) { await page.click('[data-testid=tab-paths]'); await page.waitForTimeout(800); await page.screenshot({ path: `/tmp/uireview/${id}-paths.png`, fullPage: true }); }
  }
  out[id] = { dur, ok, wall, st, summary, problems, notice, errs, lesson, summaryText, meta, last };
  console.log(id, 'ok', ok, 'wall', wall, 'now', st?.nowMs, 'mode', st?.mode, 'errs', errs.length);
  fs.writeFileSync(`/tmp/uireview/${id}.json`, JSON.stringify(out[id], null, 2));
  await ctx.close();
}
await browser.close();
