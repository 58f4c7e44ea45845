// Follow punches live, resuming after the last cursor whenever the connection drops.
import WebSocket from 'ws';
import { createRestClient, PunchCreatedDocument, subscribeWithResume, type ResumableSubscription } from '@timegate/client';

const baseUrl = process.env.TIMEGATE_URL ?? 'http://localhost:8080';
const apiKey = process.env.TIMEGATE_KEY!; // a sandbox's tg_test_ key

async function main() {
  const rest = createRestClient({ baseUrl, apiKey });
  const { data: employees } = await rest.GET('/public/v2/employees', { params: { query: { per_page: 1 } } });
  const { data: devices } = await rest.GET('/public/v2/devices', { params: { query: { per_page: 1 } } });
  const employee = employees![0];

  // A punch (made here through REST; in a sandbox the virtual clock also punches on its own, once a minute).
  const created = await rest.POST('/public/v2/punches', {
    body: { employee_id: employee.id, company_id: employee.company_id, device_id: devices![0].id, punch_time: new Date().toISOString(), punch_state: '0' },
  });
  if (created.error) throw new Error(created.error.error.message);

  const subscription: ResumableSubscription = subscribeWithResume({
    baseUrl,
    apiKey,
    document: PunchCreatedDocument,
    variables: { employeeId: employee.id },
    // Resume after the cursor stored last time: what was missed is replayed from the outbox (kept
    // 7 days), then live events follow. "0" replays all that is kept.
    after: process.env.LAST_CURSOR ?? '0',
    webSocketImpl: WebSocket, // Node.js 20 has no global WebSocket
    onEvent: ({ punchCreated: { punch } }, cursor) => {
      console.log(`punch ${punch.id} of employee ${punch.employeeId} at ${punch.punchTime} (cursor ${cursor})`);
      if (punch.id === created.data.id) subscription.stop(); // store `cursor` to resume from here later
    },
    onReconnect: (error, attempt) => console.warn(`connection lost, resubscribing after ${subscription.cursor} (attempt ${attempt})`, error),
  });
  await subscription.done;
  console.log(`stopped after cursor ${subscription.cursor}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
