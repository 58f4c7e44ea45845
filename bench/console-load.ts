// Time to a usable console overview on localhost: the service (as `npm start` runs it) with 50
// terminals, a real Chromium signed in with a key; from navigation to the status board showing
// every terminal. The first load is cold (no cached assets); the median is over the warm loads.
// Run: `npm run bench:console` (not part of `npm run bench`: it needs Chromium).
import { launchBrowser } from '../test/support/browser';
import { benchDatabase, createFleet, spawnService } from './support';

const TERMINALS = 50;
const WARM_LOADS = 9;

async function main(): Promise<void> {
  const database = await benchDatabase('console');
  const service = await spawnService(database.url);
  const browser = await launchBrowser();
  try {
    const fleet = await createFleet(service.url, TERMINALS, 'CON');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(`sessionStorage.setItem('timegate.apiKey', ${JSON.stringify(fleet.key)})`);
    const page = await context.newPage();
    const load = async () => {
      const started = performance.now();
      await page.goto(`${service.url}/console`, { waitUntil: 'commit' });
      await page.locator('.tile').nth(TERMINALS - 1).waitFor();
      return performance.now() - started;
    };
    const cold = await load();
    const warm: number[] = [];
    for (let i = 0; i < WARM_LOADS; i++) warm.push(await load());
    warm.sort((a, b) => a - b);
    console.log(`console overview usable (${TERMINALS} terminals on the board): cold ${cold.toFixed(0)} ms, warm median ${warm[Math.floor(WARM_LOADS / 2)]!.toFixed(0)} ms (max ${warm.at(-1)!.toFixed(0)} ms)`);
  } finally {
    await browser.close();
    await service.stop();
    await database.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
