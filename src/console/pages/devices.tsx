// Devices: the list with status, last contact, firmware and model; a device's page with its doors
// (and an "open door" button that follows the action's lifecycle) and its assigned employees.
import { useEffect, useState } from 'preact/hooks';
import { useClient, useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { Empty, ErrorNote, Section, StatusBadge } from '../components';
import { when } from '../format';
import { DevicePageDocument, DevicesDocument, DoorActionStatusDocument, OpenDoorDocument } from '../gql';
import { href } from '../router';

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
            <tr><th scope="col">Name</th><th scope="col">Serial</th><th scope="col">Status</th><th scope="col">Last seen</th><th scope="col">Family</th><th scope="col">Firmware</th></tr>
          </thead>
          <tbody>
            {list.map((d) => (
              <tr>
                <td><a href={href('devices', d.id)}>{d.name}</a></td>
                <td>{d.serialNumber}</td>
                <td><StatusBadge status={d.status} /></td>
                <td>{when(d.lastSeenAt)}</td>
                <td>{d.modeType === 'acc' ? 'access control' : 'attendance'}</td>
                <td>{d.firmware ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

const FINAL = ['succeeded', 'failed', 'expired'];

function OpenDoorButton({ doorId, label }: { doorId: number; label: string }) {
  const client = useClient();
  const [opening, open] = useMutation(OpenDoorDocument);
  const [status, setStatus] = useState<string | null>(null);
  const [actionId, setActionId] = useState<string | null>(null);
  useEffect(() => {
    if (!actionId || (status && FINAL.includes(status))) return;
    const timer = setInterval(async () => {
      const result = await client.query(DoorActionStatusDocument, { actionId }, { requestPolicy: 'network-only' }).toPromise();
      const next = result.data?.doorAction.status;
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
          <dt>Serial</dt><dd>{device.serialNumber}</dd>
          <dt>Family</dt><dd>{device.modeType === 'acc' ? 'access control' : 'attendance'}</dd>
          <dt>Last seen</dt><dd>{when(device.lastSeenAt)}</dd>
          <dt>Model</dt><dd>{device.model ?? '—'}</dd>
          <dt>Firmware</dt><dd>{device.firmware ?? '—'}</dd>
          <dt>Clock skew</dt><dd>{device.clockSkewSeconds === null || device.clockSkewSeconds === undefined ? '—' : `${device.clockSkewSeconds} s`}</dd>
          <dt>Time zone</dt><dd>{device.timeZone}</dd>
        </dl>
      </Section>
      <Section title="Doors">
        <ul class="doors">
          {deviceDoors.map((door) => (
            <li>
              <strong>{door.name}</strong> <span class="muted">sensor {door.state.sensor}, relay {door.state.relay}</span>
              {door.state.alarms.length > 0 && <span class="badge badge-failed">{door.state.alarms.join(', ')}</span>}
              {canUnlock && <OpenDoorButton doorId={door.id} label={door.name} />}
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Assigned employees">
        {deviceEmployees.nodes.length === 0 ? (
          <Empty>Nobody is assigned to this terminal.</Empty>
        ) : (
          <table>
            <thead><tr><th scope="col">Employee</th><th scope="col">Pin</th><th scope="col">Via</th><th scope="col">Sync</th></tr></thead>
            <tbody>
              {deviceEmployees.nodes.map((a) => (
                <tr>
                  <td><a href={href('employees', a.employeeId)}>{a.employeeName} {a.employeeLastname}</a></td>
                  <td>{a.employeePin ?? '—'}</td>
                  <td>{a.source}</td>
                  <td><StatusBadge status={a.syncStatus} />{a.returnCode !== null && a.returnCode !== undefined && <span class="muted"> code {a.returnCode}</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </div>
  );
}
