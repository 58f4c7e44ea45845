// The client package's generated files (clients/typescript/src/generated) are regenerated here from
// the current schema.graphql, openapi.json and operations/*.graphql and compared with the checked-in
// ones: `npm run client:generate` fixes a failure.
import fs from 'node:fs';
import path from 'node:path';
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { verifyWebhook, WebhookVerificationError } from '@timegate/client';
import { generateClientFiles } from '../../clients/typescript/scripts/generate';

const CLIENT = path.resolve(__dirname, '..', '..', '..', 'clients', 'typescript');

describe('@timegate/client', () => {
  it('its generated files are those the generators print from the current schema.graphql and openapi.json', async function () {
    this.timeout(120_000);
    const files = await generateClientFiles(CLIENT);
    expect(Object.keys(files).sort()).to.deep.equal(['src/generated/graphql.ts', 'src/generated/openapi.ts']);
    for (const [file, text] of Object.entries(files)) {
      const stored = fs.readFileSync(path.join(CLIENT, file), 'utf8');
      expect(stored === text, `clients/typescript/${file} is stale: run npm run client:generate`).to.equal(true);
    }
  });

  describe('verifyWebhook', () => {
    const secret = `whsec_${Buffer.from('a 32-byte key for the unit tests').toString('base64')}`;
    const body = '{"type":"attendance.created","data":{"id":7}}';
    const now = new Date('2026-12-07T10:00:00Z');
    const timestamp = String(now.getTime() / 1000);
    const sign = (id: string, ts: string, raw: string) =>
      `v1,${createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
        .update(`${id}.${ts}.${raw}`)
        .digest('base64')}`;
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': timestamp, 'webhook-signature': sign('evt_1', timestamp, body) };
    const reason = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        if (error instanceof WebhookVerificationError) return error.reason;
        throw error;
      }
      return 'accepted';
    };

    it('accepts a signed delivery (also among several signatures, with a Headers object) and answers its payload', () => {
      expect(verifyWebhook(secret, headers, body, { now })).to.deep.equal({
        id: 'evt_1',
        timestamp: now,
        payload: { type: 'attendance.created', data: { id: 7 } },
      });
      const rotated = new Headers({ ...headers, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}` });
      expect(verifyWebhook(secret, rotated, Buffer.from(body), { now }).id).to.equal('evt_1');
    });

    it('refuses a changed body, id or timestamp, another secret, a stale timestamp and missing headers', () => {
      expect(reason(() => verifyWebhook(secret, headers, body.replace('7', '8'), { now }))).to.equal('invalid_signature');
      expect(reason(() => verifyWebhook(secret, { ...headers, 'webhook-id': 'evt_2' }, body, { now }))).to.equal('invalid_signature');
      const other = `whsec_${Buffer.from('another key').toString('base64')}`;
      expect(reason(() => verifyWebhook(other, headers, body, { now }))).to.equal('invalid_signature');
      expect(reason(() => verifyWebhook(secret, headers, body, { now: new Date(now.getTime() + 301_000) }))).to.equal('timestamp_out_of_tolerance');
      expect(reason(() => verifyWebhook(secret, { ...headers, 'webhook-timestamp': 'soon' }, body, { now }))).to.equal('invalid_timestamp');
      expect(reason(() => verifyWebhook(secret, { 'webhook-id': 'evt_1' }, body, { now }))).to.equal('missing_header');
      expect(reason(() => verifyWebhook('secret', headers, body, { now }))).to.equal('invalid_secret');
    });
  });
});
