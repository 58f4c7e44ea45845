// API keys (admins): list, create (the secret is shown once), revoke.
import { useContext, useState } from 'preact/hooks';
import { SessionContext } from '../app-context';
import { useMutation, useQuery } from '@urql/preact';
import { errorMessage } from '../client';
import { ErrorNote, Section } from '../components';
import { EntityTable } from '../entity-list';
import { when } from '../format';
import { ApiKeysDocument, CreateApiKeyDocument, RevokeApiKeyDocument } from '../gql';

const SCOPES = ['read', 'write', 'admin', 'doors:unlock', 'doors:manage'];

export function ApiKeys() {
  const { keyId } = useContext(SessionContext);
  const [keys, refresh] = useQuery({ query: ApiKeysDocument });
  const [creating, create] = useMutation(CreateApiKeyDocument);
  const [revoking, revoke] = useMutation(RevokeApiKeyDocument);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['read']);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <div class="grid">
      <Section title="API keys">
        <ErrorNote message={errorMessage(keys.error) ?? errorMessage(revoking.error)} />
        <EntityTable
          rows={keys.data?.apiKeys ?? []}
          columns={[
            { header: 'Name', cell: (k) => k.name || <span class="muted">(no name)</span> },
            {
              header: 'Key',
              cell: (k) => (
                <code>
                  {k.prefix}…{k.last4}
                </code>
              ),
            },
            { header: 'Scopes', cell: (k) => k.scopes.join(', ') },
            { header: 'Created', cell: (k) => when(k.createdAt) },
          ]}
          actions={(k) =>
            k.revokedAt ? (
              <span class="muted">revoked {when(k.revokedAt)}</span>
            ) : k.id === keyId ? (
              // Not offered for the key this console is signed in with: it would lock you out.
              <span class="muted">this console's key</span>
            ) : (
              <button
                type="button"
                onClick={async () => {
                  await revoke({ id: k.id });
                  refresh({ requestPolicy: 'network-only' });
                }}
              >
                Revoke {k.name || `${k.prefix}…${k.last4}`}
              </button>
            )
          }
        />
      </Section>
      <Section title="New key">
        <form
          class="form"
          onSubmit={async (event) => {
            event.preventDefault();
            const result = await create({ input: { name, scopes } });
            if (result.data?.createApiKey.key) {
              setSecret(result.data.createApiKey.key);
              refresh({ requestPolicy: 'network-only' });
            }
          }}
        >
          <p class="field">
            <label for="key-name">Name</label>
            <input id="key-name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} required />
          </p>
          <fieldset>
            <legend>Scopes</legend>
            {SCOPES.map((s) => (
              <label class="check">
                <input
                  type="checkbox"
                  checked={scopes.includes(s)}
                  onChange={(e) => setScopes((e.target as HTMLInputElement).checked ? [...scopes, s] : scopes.filter((x) => x !== s))}
                />{' '}
                {s}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={creating.fetching || scopes.length === 0}>
            Create key
          </button>
          <ErrorNote message={errorMessage(creating.error)} />
          {secret && (
            <p role="status" class="secret">
              The new key, shown this once: <code>{secret}</code>
            </p>
          )}
        </form>
      </Section>
    </div>
  );
}
