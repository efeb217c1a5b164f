// The in-browser core bench (bench.html): whole-window re-simulations timed in wasm after a warm-up.
export async function measureCore(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(new URL('bench.html', url).href);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 300000 });
  const results = await page.evaluate(() => window.benchResults);
  await context.close();
  return results;
}
