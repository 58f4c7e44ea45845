// Getting started, step 4 (docs/getting-started.md):
// Make the sandbox's virtual clock punch every few seconds, and receive its punches live.
import WebSocket from 'ws';
import { createRestClient, PunchCreatedDocument, subscribeWithResume } from '@timegate/client';

const baseUrl = process.env.TIMEGATE_URL ?? 'http://localhost:8080';
const apiKey = process.env.TIMEGATE_KEY!; // the sandbox's tg_test_ key
const clockId = Number(process.env.TIMEGATE_CLOCK); // the virtual clock's device id

async function main() {
  // One punch a simulated minute, ten simulated seconds per real second: a punch every 6 real seconds.
  const rest = createRestClient({ baseUrl, apiKey });
  const sped = await rest.PUT('/public/v2/virtual_terminals/{id}', { params: { path: { id: clockId } }, body: { punches_per_hour: 60, speed: 10 } });
  if (sped.error) throw new Error(sped.error.error.message);
  console.log(`clock ${clockId} punches every ${3600 / sped.data.punches_per_hour! / sped.data.speed} s`);

  // Live punches of that clock (no `after`: from now on).
  const subscription = subscribeWithResume({
    baseUrl,
    apiKey,
    document: PunchCreatedDocument,
    variables: { deviceId: clockId },
    webSocketImpl: WebSocket, // Node.js 20 has no global WebSocket
    onEvent: ({ punchCreated: { punch } }, cursor) => {
      console.log(`punch ${punch.id} of employee ${punch.employeeId} at ${punch.punchTime} on device ${punch.deviceId} (cursor ${cursor})`);
      subscription.stop(); // one is enough here; a real integration keeps listening and stores `cursor`
    },
  });
  await subscription.done;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
