// Visitor passes: issue one (visitor, host, validity, doors, card; the pin the service generates is
// shown once issued), the passes of a company with their state, their uses (door events: admitted or
// refused and why) and revoke after confirming (the controllers delete the visitor at once).
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { ConfirmButton, Empty, ErrorNote, Section, personName } from '../components';
import { EntityList } from '../entity-list';
import { REASON_LABELS, denialReason, useDoorBoard } from '../door-board';
import { EntityForm, doorOptions, ids, textOrNull, type DoorOption, type Field, type Values } from '../entity-form';
import { when } from '../format';
import {
  CreateVisitorPassDocument,
  SecurityAreasDocument,
  RevokeVisitorPassDocument,
  VisitorPassUsesDocument,
  VisitorPassesDocument,
  type CreateVisitorPassMutation,
  type VisitorPassesQuery,
} from '../gql';
import { usePeopleById } from '../people';
import { problemText } from '../problems';

type Pass = VisitorPassesQuery['visitorPasses'][number];

/** A `datetime-local` value (the browser's zone) for an instant. */
function localInput(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

const STATE_LABELS: Record<string, string> = { scheduled: 'scheduled', active: 'active', ended: 'ended' };

function passState(p: Pass): { label: string; tone: string } {
  if (p.revokedAt) return { label: 'revoked', tone: 'failed' };
  return { label: STATE_LABELS[p.status] ?? p.status, tone: p.status === 'active' ? 'succeeded' : p.status === 'scheduled' ? 'pending' : 'none' };
}

function passFields(companyId: number, doors: DoorOption[]): Field[] {
  return [
    { name: 'name', label: "Visitor's name", kind: 'text', maxLength: 100, required: true },
    { name: 'hostEmployeeId', label: 'Host', kind: 'person', companyId },
    { name: 'validFrom', label: 'Valid from', kind: 'datetime', required: true, row: 'valid' },
    { name: 'validUntil', label: 'Valid until', kind: 'datetime', required: true, row: 'valid' },
    { name: 'doorIds', label: 'Doors', kind: 'doors', doors, empty: 'This company has no access-control doors.' },
    { name: 'cardNo', label: 'Card number (optional)', kind: 'text', maxLength: 20, digits: true, row: 'credentials' },
    {
      name: 'pin',
      label: 'PIN (optional)',
      kind: 'text',
      maxLength: 23,
      digits: true,
      row: 'credentials',
      hint: "Without a PIN the service draws one. Times are in this browser's zone; the controller refuses the pass outside them, also offline.",
    },
  ];
}

/** A new pass's values: from now for eight hours. */
const blankPass = (): Values => ({
  name: '',
  hostEmployeeId: '',
  validFrom: localInput(new Date()),
  validUntil: localInput(new Date(Date.now() + 8 * 3600_000)),
  doorIds: [],
  cardNo: '',
  pin: '',
});

function PassUses({ pass, doorName }: { pass: Pass; doorName: (deviceId: number | null | undefined, door: number | null | undefined) => string }) {
  const [uses] = useQuery({ query: VisitorPassUsesDocument, variables: { id: pass.id }, requestPolicy: 'network-only' });
  const list = uses.data?.visitorPass.uses ?? [];
  return (
    <Section title={`Uses of ${pass.name}'s pass`}>
      <ErrorNote message={errorMessage(uses.error)} />
      {!uses.data ? (
        <p role="status">Loading its door events…</p>
      ) : list.length === 0 ? (
        <Empty>The pass was not used yet.</Empty>
      ) : (
        <table class="fold-on-phone">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Door</th>
              <th scope="col">What</th>
            </tr>
          </thead>
          <tbody>
            {list.map((u) => (
              <tr>
                <td>{u.localTime}</td>
                <td>{doorName(u.deviceId, u.door)}</td>
                <td>
                  {u.eventClass === 'denied'
                    ? `refused: ${REASON_LABELS[denialReason(u.eventCode)]}`
                    : u.opened
                      ? 'admitted'
                      : `${u.eventClass} event ${u.eventCode}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

export function VisitorPasses() {
  const canManage = useAllowed('doors:manage');
  const { companyId, picker } = useCompanyPicker('visitor-company');
  const [passes, refresh] = useQuery({ query: VisitorPassesDocument, variables: { companyId }, pause: !companyId, requestPolicy: 'network-only' });
  const [areasResult] = useQuery({ query: SecurityAreasDocument, variables: { companyId }, pause: !companyId });
  const [revoking, revoke] = useMutation(RevokeVisitorPassDocument);
  const [, issue] = useMutation(CreateVisitorPassDocument);
  const board = useDoorBoard(0);
  const people = usePeopleById();
  const [issued, setIssued] = useState<Pass | null>(null);
  const [shown, setShown] = useState<number | null>(null);
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const areas = areasResult.data?.areas.nodes ?? [];
  const hostName = (id: number | null | undefined) =>
    id == null ? 'unknown person' : people.person(id) ? personName(people.person(id)) : people.answered(id) ? 'unknown person' : '…';
  const doorLabel = (id: number) => {
    const d = board.doors.find((x) => x.id === id);
    return d ? `${d.name} (${d.device.name})` : `door #${id}`;
  };
  const doorName = (deviceId: number | null | undefined, door: number | null | undefined) => {
    const d = board.doors.find((x) => x.deviceId === deviceId && x.number === door);
    return d ? `${d.name} (${d.device.name})` : `door ${door ?? '?'}`;
  };
  const list = passes.data?.visitorPasses ?? [];
  const chosen = list.find((p) => p.id === shown) ?? null;
  return (
    <div class="grid">
      <EntityList
        title="Visitor passes"
        filters={picker}
        before={
          issued && (
            <p class="issued" role="status">
              Pass issued for <strong>{issued.name}</strong>: PIN <strong class="pin">{issued.pin}</strong>
              {issued.cardNo ? `, card ${issued.cardNo}` : ''}. Give the visitor the PIN (or the card); it works from {when(issued.validFrom)} to{' '}
              {when(issued.validUntil)}.
            </p>
          )
        }
        rows={passes.data ? list : companyId ? null : []}
        empty="No visitor passes in this company."
        error={errorMessage(passes.error) ?? problemText(revoking.error)}
        rowData={(p) => ({ pass: p.id })}
        columns={[
          { header: 'Visitor', rowHeader: true, cell: (p) => p.name },
          { header: 'Host', label: 'Host', cell: (p) => hostName(p.hostEmployeeId) },
          {
            header: 'Valid',
            label: 'Valid',
            cell: (p) => (
              <>
                {when(p.validFrom)} – {when(p.validUntil)}
              </>
            ),
          },
          { header: 'Doors', label: 'Doors', cell: (p) => p.doorIds.map(doorLabel).join(', ') },
          {
            header: 'State',
            label: 'State',
            cell: (p) => {
              const state = passState(p);
              return (
                <>
                  <span class={`badge badge-${state.tone}`}>{state.label}</span>
                  <span class="muted"> PIN {p.pin}</span>
                </>
              );
            },
          },
        ]}
        actions={(p) => (
          <>
            <button type="button" class="secondary" aria-pressed={shown === p.id} onClick={() => setShown(shown === p.id ? null : p.id)}>
              Uses<span class="sr-only"> of {p.name}</span>
            </button>
            {canManage && p.status !== 'ended' && (
              <ConfirmButton
                label="Revoke"
                labelDetail={`${p.name}'s pass`}
                title={`Revoke ${p.name}'s pass?`}
                confirm="Revoke pass"
                onConfirm={async () => {
                  await revoke({ id: p.id });
                  if (issued?.id === p.id) setIssued(null);
                  reload();
                }}
              >
                <p>
                  The pass ends now: its controllers delete the visitor (PIN {p.pin}) and refuse it from then on. A revoked pass cannot be restored; issue a new
                  one.
                </p>
              </ConfirmButton>
            )}
          </>
        )}
      />
      {chosen && <PassUses key={chosen.id} pass={chosen} doorName={doorName} />}
      {canManage && companyId > 0 && (
        <EntityForm
          title="Issue a visitor pass"
          idPrefix="visitor"
          fields={passFields(
            companyId,
            doorOptions(
              board.doors.filter((d) => d.device.companyId === companyId && d.present),
              areas,
            ),
          )}
          initial={blankPass()}
          submitLabel="Issue pass"
          disabled={(v) => ids(v.doorIds).length === 0 || !v.hostEmployeeId}
          save={(v) =>
            issue({
              input: {
                companyId,
                name: (v.name as string).trim(),
                hostEmployeeId: Number(v.hostEmployeeId),
                validFrom: new Date(v.validFrom as string).toISOString(),
                validUntil: new Date(v.validUntil as string).toISOString(),
                doorIds: ids(v.doorIds),
                cardNo: textOrNull(v.cardNo),
                pin: textOrNull(v.pin),
              },
            })
          }
          onSaved={(data) => {
            setIssued((data as CreateVisitorPassMutation).createVisitorPass);
            reload();
          }}
        />
      )}
    </div>
  );
}
