// Directory sync (admins): per company, its SCIM connections (the company's `scim` keys: create one,
// its token shown once with the address to paste into the directory; revoke after confirming), the
// last sync of each (when the directory last called, what it last changed, its last error), and the
// directory groups it pushed with their members and their mapping to an area and access levels.
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { ConfirmButton, Empty, ErrorNote, Section } from '../components';
import { when } from '../format';
import { CreateScimConnectionDocument, DirectorySyncDocument, RevokeApiKeyDocument, SetDirectoryGroupMappingDocument, type DirectorySyncQuery } from '../gql';

type Connection = DirectorySyncQuery['apiKeys'][number];
type Group = DirectorySyncQuery['directoryGroups'][number];
type Named = { id: number; name: string };

/** The address a directory is given (Entra ID's "Tenant URL", Okta's "SCIM connector base URL"). */
const scimBaseUrl = () => `${location.origin}/scim/v2`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function LastSync({ connection }: { connection: Connection }) {
  const sync = connection.scimSync;
  if (!sync?.lastRequestAt) return <span class="muted">never called</span>;
  return (
    <span>
      {when(sync.lastRequestAt)} <span class="muted">({sync.lastRequest})</span>
    </span>
  );
}

function LastError({ connection }: { connection: Connection }) {
  const sync = connection.scimSync;
  if (!sync?.lastErrorAt) return <span class="muted">none</span>;
  return (
    <span class="sync-error">
      {when(sync.lastErrorAt)}: {sync.lastErrorRequest} answered {sync.lastErrorStatus}
      {sync.lastError ? ` (${sync.lastError})` : ''}
    </span>
  );
}

function Connections({ companyId, connections, reload }: { companyId: number; connections: Connection[]; reload: () => void }) {
  const [revoking, revoke] = useMutation(RevokeApiKeyDocument);
  const [creating, create] = useMutation(CreateScimConnectionDocument);
  const [name, setName] = useState('');
  const [issued, setIssued] = useState<{ name: string; key: string } | null>(null);
  const active = connections.filter((c) => !c.revokedAt);
  const revoked = connections.filter((c) => c.revokedAt);
  const counts = connections[0]?.scimSync;
  return (
    <Section title="SCIM connections">
      {counts && (
        <p class="sync-counts">
          Provisioned by the directory: {plural(counts.users, 'user')} ({counts.activeUsers} active), {plural(counts.groups, 'group')}.
        </p>
      )}
      <ErrorNote message={errorMessage(revoking.error)} />
      {active.length === 0 ? (
        <Empty>No SCIM connection for this company: create one below and paste its token into the directory.</Empty>
      ) : (
        <table class="fold-on-phone">
          <thead>
            <tr>
              <th scope="col">Connection</th>
              <th scope="col">Last call</th>
              <th scope="col">Last change</th>
              <th scope="col">Last error</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {active.map((c) => (
              <tr>
                <td data-label="Connection">
                  {c.name || <span class="muted">(no name)</span>}{' '}
                  <code>
                    {c.prefix}…{c.last4}
                  </code>
                  <br />
                  <span class="muted">
                    created {when(c.createdAt)}, {plural(c.scimSync?.requestCount ?? 0, 'request')}
                  </span>
                </td>
                <td data-label="Last call">
                  <LastSync connection={c} />
                </td>
                <td data-label="Last change">{c.scimSync?.lastChangeAt ? when(c.scimSync.lastChangeAt) : <span class="muted">none</span>}</td>
                <td data-label="Last error">
                  <LastError connection={c} />
                </td>
                <td>
                  <ConfirmButton
                    label="Revoke"
                    labelDetail={`connection ${c.name || c.prefix}`}
                    title={`Revoke the connection ${c.name || `${c.prefix}…${c.last4}`}?`}
                    confirm="Revoke connection"
                    onConfirm={async () => {
                      await revoke({ id: c.id });
                      reload();
                    }}
                  >
                    <p>
                      The directory's next call is refused (401): nothing it changes reaches Timegate until it is given a new token. The people and groups it
                      provisioned stay as they are.
                    </p>
                  </ConfirmButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoked.length > 0 && (
        <p class="muted">
          Revoked:{' '}
          {revoked
            .map((c) => `${c.name || c.prefix} (${when(c.revokedAt)}, last call ${c.scimSync?.lastRequestAt ? when(c.scimSync.lastRequestAt) : 'never'})`)
            .join('; ')}
        </p>
      )}
      <form
        class="inline-form new-connection"
        onSubmit={async (event) => {
          event.preventDefault();
          const result = await create({ name: name.trim(), companyId });
          const key = result.data?.createApiKey.key;
          if (key) {
            setIssued({ name: name.trim(), key });
            setName('');
            reload();
          }
        }}
      >
        <p class="field">
          <label for="scim-connection-name">New connection's name</label>
          <input
            id="scim-connection-name"
            value={name}
            placeholder="Entra ID"
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
            required
            maxLength={200}
          />
        </p>
        <p class="field">
          <button type="submit" disabled={creating.fetching || name.trim() === ''}>
            Create connection
          </button>
        </p>
      </form>
      <ErrorNote message={errorMessage(creating.error)} />
      {issued && (
        <div role="status" class="secret scim-secret">
          <p>Paste these into the directory's provisioning settings. The token is shown this once.</p>
          <dl>
            <dt>SCIM base URL (Entra ID: Tenant URL; Okta: SCIM connector base URL)</dt>
            <dd>
              <code>{scimBaseUrl()}</code>
            </dd>
            <dt>Token of {issued.name} (Entra ID: Secret Token; Okta: Authorization, HTTP header "Bearer")</dt>
            <dd>
              <code>{issued.key}</code>
            </dd>
          </dl>
        </div>
      )}
    </Section>
  );
}

/** Which of `before` are not in `after`, by name. */
function lost(before: number[], after: number[], names: Named[]): string[] {
  return before.filter((id) => !after.includes(id)).map((id) => names.find((n) => n.id === id)?.name ?? `#${id}`);
}

function MappingEditor({ group, areas, levels, onDone }: { group: Group; areas: Named[]; levels: Named[]; onDone: (saved: boolean) => void }) {
  const [setting, setMapping] = useMutation(SetDirectoryGroupMappingDocument);
  const [areaId, setAreaId] = useState(group.areaId === null || group.areaId === undefined ? '' : String(group.areaId));
  const [levelIds, setLevelIds] = useState<number[]>(group.accessLevelIds);
  const chosenArea = areaId === '' ? null : Number(areaId);
  const save = async (input: { areaId: number | null; accessLevelIds: number[] }) => {
    const result = await setMapping({ id: group.id, input });
    if (!result.error) onDone(true);
  };
  const lostArea = group.areaId != null && group.areaId !== chosenArea ? lost([group.areaId], [], areas) : [];
  const lostLevels = lost(group.accessLevelIds, levelIds, levels);
  const members = plural(group.memberIds.length, 'member');
  const prefix = `mapping-${group.id}`;
  return (
    <form class="mapping" aria-label={`Mapping of ${group.displayName}`} onSubmit={(e) => e.preventDefault()}>
      <h3>Mapping of {group.displayName}</h3>
      <p class="field">
        <label for={`${prefix}-area`}>Area</label>
        <select id={`${prefix}-area`} value={areaId} onChange={(e) => setAreaId((e.target as HTMLSelectElement).value)}>
          <option value="">No area</option>
          {areas.map((a) => (
            <option value={String(a.id)}>{a.name}</option>
          ))}
        </select>
      </p>
      <fieldset>
        <legend>Access levels</legend>
        {levels.length === 0 && <span class="muted">This company has no access level yet.</span>}
        {levels.map((l) => (
          <label class="check">
            <input
              type="checkbox"
              checked={levelIds.includes(l.id)}
              onChange={(e) => setLevelIds((e.target as HTMLInputElement).checked ? [...levelIds, l.id] : levelIds.filter((x) => x !== l.id))}
            />{' '}
            {l.name}
          </label>
        ))}
      </fieldset>
      <ErrorNote message={errorMessage(setting.error)} />
      <p class="inline-form">
        {lostArea.length + lostLevels.length === 0 ? (
          <button type="button" disabled={setting.fetching} onClick={() => save({ areaId: chosenArea, accessLevelIds: levelIds })}>
            Save mapping
          </button>
        ) : (
          <ConfirmButton
            label="Save mapping"
            labelDetail={`of ${group.displayName}`}
            title={`Change the mapping of ${group.displayName}?`}
            confirm="Save mapping"
            onConfirm={() => save({ areaId: chosenArea, accessLevelIds: levelIds })}
          >
            <p>
              Its {members} lose {[...lostArea.map((a) => `the area ${a}`), ...lostLevels.map((l) => `the access level ${l}`)].join(', ')} (unless another group
              or an administrator gave it to them); the terminals and controllers are told at once.
            </p>
          </ConfirmButton>
        )}
        {(group.areaId != null || group.accessLevelIds.length > 0) && (
          <ConfirmButton
            label="Clear mapping"
            labelDetail={`of ${group.displayName}`}
            title={`Clear the mapping of ${group.displayName}?`}
            confirm="Clear mapping"
            onConfirm={() => save({ areaId: null, accessLevelIds: [] })}
          >
            <p>
              Its {members} lose everything the group gave them:{' '}
              {[...lost(group.areaId != null ? [group.areaId] : [], [], areas), ...lost(group.accessLevelIds, [], levels)].join(', ')}. Memberships an
              administrator gave by hand stay.
            </p>
          </ConfirmButton>
        )}
        <button type="button" class="secondary" onClick={() => onDone(false)}>
          Cancel
        </button>
      </p>
    </form>
  );
}

function Groups({ groups, areas, levels, reload }: { groups: Group[]; areas: Named[]; levels: Named[]; reload: () => void }) {
  const [editing, setEditing] = useState<string | null>(null);
  const nameOf = (list: Named[], id: number) => list.find((x) => x.id === id)?.name ?? `#${id}`;
  const group = groups.find((g) => g.id === editing);
  return (
    <Section title="Directory groups">
      {groups.length === 0 ? (
        <Empty>The directory has pushed no group for this company yet.</Empty>
      ) : (
        <table class="fold-on-phone">
          <thead>
            <tr>
              <th scope="col">Group</th>
              <th scope="col">Members</th>
              <th scope="col">Area</th>
              <th scope="col">Access levels</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr aria-current={g.id === editing ? 'true' : undefined}>
                <td data-label="Group">{g.displayName}</td>
                <td data-label="Members">{g.memberIds.length}</td>
                <td data-label="Area">{g.areaId != null ? nameOf(areas, g.areaId) : <span class="muted">none</span>}</td>
                <td data-label="Access levels">
                  {g.accessLevelIds.length > 0 ? g.accessLevelIds.map((id) => nameOf(levels, id)).join(', ') : <span class="muted">none</span>}
                </td>
                <td>
                  <button type="button" onClick={() => setEditing(g.id)} aria-expanded={g.id === editing}>
                    Map<span class="sr-only"> {g.displayName}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {group && (
        <MappingEditor
          key={group.id}
          group={group}
          areas={areas}
          levels={levels}
          onDone={(saved) => {
            setEditing(null);
            if (saved) reload();
          }}
        />
      )}
      <p class="muted">Members of a mapped group belong to its area (so they are on its terminals) and hold its access levels (so they open its doors).</p>
    </Section>
  );
}

export function DirectorySync() {
  const { companyId, picker } = useCompanyPicker('directory-company');
  const [data, refresh] = useQuery({ query: DirectorySyncDocument, variables: { companyId }, pause: companyId === 0, requestPolicy: 'network-only' });
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const connections = (data.data?.apiKeys ?? []).filter((k) => k.scopes.includes('scim') && k.companyId === companyId);
  return (
    <div class="stack">
      <Section
        title="Directory sync"
        actions={
          <button type="button" class="secondary" onClick={reload}>
            Refresh
          </button>
        }
      >
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          {picker}
        </form>
        <p class="muted">
          The company's directory (Microsoft Entra ID, Okta) creates, changes and removes its people and groups over SCIM; docs/identity.md has the steps.
        </p>
        <ErrorNote message={errorMessage(data.error)} />
      </Section>
      {data.data && <Connections companyId={companyId} connections={connections} reload={reload} />}
      {data.data && <Groups groups={data.data.directoryGroups} areas={data.data.areas.nodes} levels={data.data.accessLevels.nodes} reload={reload} />}
    </div>
  );
}
