import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu','--disable-background-networking'] });
for (let i = 0; i < 3; i++) {
const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
if (process.env.CPU) await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.CPU) });
await page.goto(process.argv[2]);
await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
console.log(await page.evaluate(() => { let last = 0; return performance.getEntriesByType('mark').map(m => { const d = m.startTime - last; last = m.startTime; return `${m.name.replace('boot:','')} +${d.toFixed(0)}`; }).join('  ') + `  (ready ${performance.now().toFixed(0)})`; }));
await context.close();
}
await browser.close();
