// Webhooks (admins): endpoints, each one's latest deliveries with every attempt, replay and test.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { errorMessage } from '../client';
import { Empty, ErrorNote, Section, StatusBadge } from '../components';
import { when } from '../format';
import { RedeliverWebhookDocument, TestWebhookDocument, WebhookDeliveriesDocument, WebhooksDocument } from '../gql';

/**
 * `tests`: test events sent to this endpoint from this page so far. Each one sent while the list is
 * open reloads it once queued (the console keeps no GraphQL cache that would); opening the list
 * reads it anyway.
 */
function Deliveries({ endpointId, tests }: { endpointId: number; tests: number }) {
  const [deliveries, refresh] = useQuery({ query: WebhookDeliveriesDocument, variables: { endpointId } });
  const testsSeen = useRef(tests);
  useEffect(() => {
    if (tests === testsSeen.current) return;
    testsSeen.current = tests;
    refresh({ requestPolicy: 'network-only' });
  }, [tests]);
  const [replaying, replay] = useMutation(RedeliverWebhookDocument);
  const list = deliveries.data?.webhookDeliveries.nodes ?? [];
  if (list.length === 0) return <Empty>No deliveries yet.</Empty>;
  return (
    <>
      <ErrorNote message={errorMessage(replaying.error)} />
      <table>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((d) => (
            <tr>
              <td>
                {d.eventType}
                <br />
                <span class="muted">{when(d.createdAt)}</span>
              </td>
              <td>
                <StatusBadge status={d.status} />
              </td>
              <td>
                <ol class="attempts">
                  {d.attempts.map((a) => (
                    <li>
                      {when(a.attemptedAt)}: {a.succeeded ? 'ok' : 'failed'} {a.statusCode ?? ''} {a.error ?? ''} <span class="muted">{a.durationMs} ms</span>
                    </li>
                  ))}
                </ol>
              </td>
              <td>
                <button
                  type="button"
                  disabled={replaying.fetching}
                  onClick={async () => {
                    await replay({ deliveryId: d.id });
                    refresh({ requestPolicy: 'network-only' });
                  }}
                >
                  Replay
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function Webhooks() {
  const [endpoints] = useQuery({ query: WebhooksDocument });
  const [testing, test] = useMutation(TestWebhookDocument);
  const [open, setOpen] = useState<number | null>(null);
  const [tests, setTests] = useState<Record<number, number>>({});
  // Counted once queued: a refused test event (shown above) has nothing new for the list to show.
  const sendTest = async (id: number) => {
    const sent = await test({ id });
    if (!sent.error) setTests((counts) => ({ ...counts, [id]: (counts[id] ?? 0) + 1 }));
  };
  const list = endpoints.data?.webhookEndpoints.nodes ?? [];
  return (
    <Section title="Webhooks">
      <ErrorNote message={errorMessage(endpoints.error) ?? errorMessage(testing.error)} />
      {list.length === 0 ? (
        <Empty>No webhook endpoints. Create them through the API (POST /public/v2/webhooks or createWebhookEndpoint).</Empty>
      ) : (
        <ul class="endpoints">
          {list.map((e) => (
            <li>
              <p>
                <strong>{e.url}</strong> <StatusBadge status={e.enabled ? 'enabled' : 'disabled'} /> <span class="muted">{e.eventTypes.join(', ')}</span>{' '}
                {e.disabledReason && <span class="error">{e.disabledReason}</span>}
              </p>
              <p class="inline-form">
                <button type="button" onClick={() => setOpen(open === e.id ? null : e.id)} aria-expanded={open === e.id}>
                  {open === e.id ? 'Hide deliveries' : 'Show deliveries'}
                </button>
                {e.enabled && (
                  <button type="button" onClick={() => sendTest(e.id)}>
                    Send a test event
                  </button>
                )}
              </p>
              {open === e.id && <Deliveries endpointId={e.id} tests={tests[e.id] ?? 0} />}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
