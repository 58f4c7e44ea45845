// Receive webhooks and verify their Standard Webhooks signature before acting on them.
import http from 'node:http';
import { createRestClient, verifyWebhook, WebhookVerificationError } from '@timegate/client';

const baseUrl = process.env.TIMEGATE_URL ?? 'http://localhost:8080';
const apiKey = process.env.TIMEGATE_KEY!;

async function main() {
  let secret = ''; // the endpoint's whsec_ secret, shown once when it is created
  const seen = new Set<string>();
  let delivered: (id: string) => void;
  const firstDelivery = new Promise<string>((resolve) => (delivered = resolve));

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        // The raw bytes, exactly as received: never JSON.parse then stringify before verifying.
        const { id, payload } = verifyWebhook<{ type: string; data: { id: number } }>(secret, req.headers, Buffer.concat(chunks));
        res.writeHead(204).end(); // answer quickly; retries repeat the same webhook-id
        if (seen.has(id)) return;
        seen.add(id);
        console.log(`verified ${id}: ${payload.type} ${JSON.stringify(payload.data).slice(0, 80)}`);
        delivered(id);
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        res.writeHead(400).end(error.reason);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  const rest = createRestClient({ baseUrl, apiKey });
  const endpoint = await rest.POST('/public/v2/webhooks', {
    body: { url: process.env.WEBHOOK_URL ?? `http://127.0.0.1:${port}/timegate`, event_types: ['attendance.created'] },
  });
  if (endpoint.error) throw new Error(endpoint.error.error.message);
  secret = endpoint.data.secret!;

  const { data: employees } = await rest.GET('/public/v2/employees', { params: { query: { per_page: 1 } } });
  const { data: devices } = await rest.GET('/public/v2/devices', { params: { query: { per_page: 1 } } });
  await rest.POST('/public/v2/punches', {
    body: {
      employee_id: employees![0].id,
      company_id: employees![0].company_id,
      device_id: devices![0].id,
      punch_time: new Date().toISOString(),
      punch_state: '0',
    },
  });
  console.log(`first delivery: ${await firstDelivery}`);
  server.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
