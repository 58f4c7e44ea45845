// Devices: the list with status, last contact, firmware and model; a device's page with its doors
// (and an "open door" button that follows the action's lifecycle) and its assigned employees.
import { useEffect, useState } from 'preact/hooks';
import { useClient, useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { Empty, ErrorNote, Section, StatusBadge } from '../components';
import { when } from '../format';
import { DeviceCommandsDocument, DevicePageDocument, DevicesDocument, DoorActionStatusDocument, OpenDoorDocument } from '../gql';
import { href } from '../router';
import { LevelReach } from './level-reach';
import { DeviceActions, WhyNotOnline } from './device-actions';
import { DoorOpeningRules } from './door-opening-rules';
import { DoorRules } from './door-rules';

export function DeviceList() {
  const [devices] = useQuery({ query: DevicesDocument, variables: { first: 1000 } });
  const list = devices.data?.devices.nodes ?? [];
  return (
    <Section title="Devices">
      <ErrorNote message={errorMessage(devices.error)} />
      {list.length === 0 ? (
        <Empty>No devices.</Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Serial</th>
              <th scope="col">Status</th>
              <th scope="col">Last seen</th>
              <th scope="col">Family</th>
              <th scope="col">Firmware</th>
              <th scope="col">People in sync</th>
            </tr>
          </thead>
          <tbody>
            {list.map((d) => (
              <tr>
                <td>
                  <a href={href('devices', d.id)}>{d.name}</a>
                </td>
                <td>{d.serialNumber}</td>
                <td>
                  <StatusBadge status={d.status} />
                </td>
                <td>{when(d.lastSeenAt)}</td>
                <td>{d.modeType === 'acc' ? 'access control' : 'attendance'}</td>
                <td>{d.firmware ?? '—'}</td>
                <td class="sync-state" data-device={d.id}>
                  {d.syncState.synced} synced
                  {d.syncState.pending > 0 && (
                    <>
                      {' '}
                      · <StatusBadge status="pending" /> {d.syncState.pending}
                    </>
                  )}
                  {d.syncState.failed > 0 && (
                    <>
                      {' '}
                      · <StatusBadge status="failed" /> {d.syncState.failed}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

// `no_answer`: delivered and never answered (the action stays `sent`; the door may have opened).
const FINAL = ['succeeded', 'failed', 'expired', 'no_answer'];

function OpenDoorButton({ doorId, label }: { doorId: number; label: string }) {
  const client = useClient();
  const [opening, open] = useMutation(OpenDoorDocument);
  const [status, setStatus] = useState<string | null>(null);
  const [actionId, setActionId] = useState<string | null>(null);
  useEffect(() => {
    if (!actionId || (status && FINAL.includes(status))) return;
    const timer = setInterval(async () => {
      const result = await client.query(DoorActionStatusDocument, { actionId }, { requestPolicy: 'network-only' }).toPromise();
      const found = result.data?.doorAction;
      const next = found && (found.status === 'sent' && found.statusDetail === 'no_answer' ? 'no_answer' : found.status);
      if (next) setStatus(next);
    }, 400);
    return () => clearInterval(timer);
  }, [actionId, status]);
  return (
    <span class="door-action">
      <button
        type="button"
        disabled={opening.fetching || (status !== null && !FINAL.includes(status))}
        onClick={async () => {
          setStatus(null);
          const result = await open({ doorId, input: { action: 'unlock', duration: 5 } });
          if (result.data) {
            setActionId(result.data.performDoorAction.actionId);
            setStatus(result.data.performDoorAction.status);
          }
        }}
      >
        Open {label}
      </button>
      {status && (
        <span class="lifecycle" role="status" aria-live="polite">
          <StatusBadge status={status} />
        </span>
      )}
      <ErrorNote message={errorMessage(opening.error)} />
    </span>
  );
}

/** The terminal's pending (queued or sent) or failed commands: what it has not taken, or refused. */
function DeviceCommands({ deviceId }: { deviceId: number }) {
  const [which, setWhich] = useState<'pending' | 'failed'>('pending');
  const status = which === 'pending' ? ['queued', 'sent'] : ['failed'];
  const [commands, refresh] = useQuery({ query: DeviceCommandsDocument, variables: { deviceId, status } });
  useEffect(() => {
    const timer = setInterval(() => refresh({ requestPolicy: 'network-only' }), 3000);
    return () => clearInterval(timer);
  }, [deviceId, which]);
  const list = commands.data?.deviceCommands.nodes ?? [];
  return (
    <Section title="Commands">
      <p class="field">
        <label for="commands-status">Show</label>
        <select id="commands-status" value={which} onChange={(e) => setWhich((e.target as HTMLSelectElement).value as 'pending' | 'failed')}>
          <option value="pending">pending (queued or sent)</option>
          <option value="failed">failed</option>
        </select>
      </p>
      <ErrorNote message={errorMessage(commands.error)} />
      {list.length === 0 ? (
        <Empty>{which === 'pending' ? 'Nothing waiting for this terminal.' : 'No failed commands.'}</Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Command</th>
              <th scope="col">For</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Queued</th>
            </tr>
          </thead>
          <tbody>
            {list.map((c) => (
              <tr>
                <td>
                  <code>{c.verb}</code>
                </td>
                <td>{c.kind}</td>
                <td>
                  <StatusBadge status={c.status} />
                  {c.returnCode !== null && c.returnCode !== undefined && <span class="muted"> code {c.returnCode}</span>}
                </td>
                <td>{c.attempts}</td>
                <td>{when(c.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

export function DevicePage({ id }: { id: number }) {
  const canUnlock = useAllowed('doors:unlock');
  const [page, refresh] = useQuery({ query: DevicePageDocument, variables: { id } });
  useEffect(() => {
    const timer = setInterval(() => refresh({ requestPolicy: 'network-only' }), 3000);
    return () => clearInterval(timer);
  }, [id]);
  if (page.error) return <ErrorNote message={errorMessage(page.error)} />;
  if (!page.data) return <p>Loading…</p>;
  const { device, deviceDoors, deviceEmployees } = page.data;
  return (
    <div class="grid">
      <Section title={device.name} actions={<StatusBadge status={device.status} />}>
        <dl class="facts">
          <dt>Serial</dt>
          <dd>{device.serialNumber}</dd>
          <dt>Family</dt>
          <dd>{device.modeType === 'acc' ? 'access control' : 'attendance'}</dd>
          <WhyNotOnline device={device} />
          <dt>Model</dt>
          <dd>{device.model ?? '—'}</dd>
          <dt>Firmware</dt>
          <dd>{device.firmware ?? '—'}</dd>
          <dt>Clock skew</dt>
          <dd>{device.clockSkewSeconds === null || device.clockSkewSeconds === undefined ? '—' : `${device.clockSkewSeconds} s`}</dd>
          <dt>Time zone</dt>
          <dd>{device.timeZone}</dd>
        </dl>
      </Section>
      <Section title="Doors">
        <ul class="doors">
          {deviceDoors.map((door) => (
            <li>
              <strong>{door.name}</strong>{' '}
              <span class="muted">
                sensor {door.state.sensor}, relay {door.state.relay}
              </span>
              {door.state.alarms.length > 0 && <span class="badge badge-failed">{door.state.alarms.join(', ')}</span>}
              {canUnlock && <OpenDoorButton doorId={door.id} label={door.name} />}
            </li>
          ))}
        </ul>
      </Section>
      {device.modeType === 'acc' && deviceDoors.length > 0 && <DoorRules deviceId={device.id} />}
      {device.modeType === 'acc' && deviceDoors.length > 0 && <DoorOpeningRules deviceId={device.id} companyId={device.companyId} />}
      <DeviceActions deviceId={device.id} attendance={device.modeType !== 'acc'} />
      <DeviceCommands deviceId={device.id} />
      {device.modeType === 'acc' && deviceDoors.length > 0 && <LevelReach companyId={device.companyId} doorIds={deviceDoors.map((d) => d.id)} />}
      <Section title="Assigned employees">
        {deviceEmployees.nodes.length === 0 ? (
          <Empty>
            Nobody is assigned to this terminal directly
            {device.modeType === 'acc' && deviceDoors.length > 0 ? ' (see the people who reach it through access levels)' : ''}.
          </Empty>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Employee</th>
                <th scope="col">Pin</th>
                <th scope="col">Via</th>
                <th scope="col">Sync</th>
              </tr>
            </thead>
            <tbody>
              {deviceEmployees.nodes.map((a) => (
                <tr>
                  <td>
                    <a href={href('employees', a.employeeId)}>
                      {a.employeeName} {a.employeeLastname}
                    </a>
                  </td>
                  <td>{a.employeePin ?? '—'}</td>
                  <td>{a.source}</td>
                  <td>
                    <StatusBadge status={a.syncStatus} />
                    {a.returnCode !== null && a.returnCode !== undefined && <span class="muted"> code {a.returnCode}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </div>
  );
}
