// Getting started, step 5 (docs/getting-started.md):
// Receive the clock's punches as webhooks on a local server, verifying each signature.
import http from 'node:http';
import { createRestClient, verifyWebhook, WebhookVerificationError } from '@timegate/client';

const baseUrl = process.env.TIMEGATE_URL ?? 'http://localhost:8080';
const apiKey = process.env.TIMEGATE_KEY!;

interface PunchEvent {
  type: string;
  data: { id: number; employee_id: number; device_id: number; punch_time: string };
}

async function main() {
  let secret = ''; // the endpoint's whsec_ secret, shown once when it is created
  let verified: (event: PunchEvent) => void;
  const firstVerified = new Promise<PunchEvent>((resolve) => (verified = resolve));

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        // Verify the raw bytes as received: signature (HMAC-SHA256 with the secret) and timestamp.
        const { id, payload } = verifyWebhook<PunchEvent>(secret, req.headers, Buffer.concat(chunks));
        res.writeHead(204).end();
        console.log(`verified ${id}: ${payload.type} punch ${payload.data.id} of employee ${payload.data.employee_id} on device ${payload.data.device_id}`);
        verified(payload);
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        console.log(`refused a delivery: ${error.reason}`);
        res.writeHead(400).end(error.reason);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  const rest = createRestClient({ baseUrl, apiKey });
  const endpoint = await rest.POST('/public/v2/webhooks', {
    body: { url: `http://127.0.0.1:${port}/timegate`, event_types: ['attendance.created'] },
  });
  if (endpoint.error) throw new Error(endpoint.error.error.message);
  secret = endpoint.data.secret!;
  console.log(`webhook endpoint ${endpoint.data.id} receives on port ${port}`);

  await firstVerified; // the clock's next punch, within seconds
  // This receiver stops here, so its endpoint goes too (else the service would retry deliveries to it).
  await rest.DELETE('/public/v2/webhooks/{id}', { params: { path: { id: endpoint.data.id } } });
  server.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
