// Who is really on a terminal. `users.reconcile` (device-action.service.ts) asks the terminal for
// its user table (attendance `DATA QUERY USERINFO`: each user comes back as an OPERLOG `USER`
// record; access control `DATA QUERY tablename=user,…`: the rows are posted to /iclock/querydata);
// it answers with the number of users, and the users land in `device_reported_user`. Once every one
// has arrived (in whichever order the result and the uploads come), the report is compared with
// what Timegate says the terminal should hold (`device_user`): missing on the device, unexpected on
// it, differing (name or privilege). With `fix`, exactly the commands that close the gap are queued:
// the missing and differing users are sent again, the unexpected ones deleted by pin. Never a
// wholesale clear.
import type { EntityManager } from '@mikro-orm/postgresql';
import { deleteAccessUserCommands, deleteUserInfoCommand } from '../../protocol';
import { recordEvents, type NewEvent } from '../../events/outbox';
import { deviceActionEvent } from './device-action-event';
import { notifyCommandsQueued } from '../commands/command-queue-changes';
import { withEm, type RequestContext } from '../../context/request-context';
import { cutToCodePoints } from '../common/validation';
import { queueRecords, recordTarget } from '../commands/record-batches';
import { templateFits, terminalOf } from '../sync/sync-commands';

export interface ReportedUser {
  pin: string;
  name: string | null;
  privilege: number | null;
}

/** Users a terminal reported (OPERLOG `USER`): remembered, then any reconcile waiting for them is finished. */
export async function recordReportedUsers(ctx: RequestContext, device: { id: number; workspaceId: number }, users: readonly ReportedUser[]): Promise<void> {
  if (users.length === 0) return;
  const now = ctx.now();
  await ctx.em.transactional(async (em) => {
    await em.execute(
      `insert into device_reported_user (workspace_id, device_id, pin, name, privilege, reported_at)
       select ?, ?, r.pin, r.name, r.privilege, ? from jsonb_to_recordset(?::jsonb) as r(pin text, name text, privilege int)
       on conflict (device_id, pin) do update set name = excluded.name, privilege = excluded.privilege, reported_at = excluded.reported_at`,
      [
        device.workspaceId,
        device.id,
        now,
        JSON.stringify(
          users.map((u) => ({ pin: cutToCodePoints(u.pin, 64), name: u.name == null ? null : cutToCodePoints(u.name, 201), privilege: u.privilege })),
        ),
      ],
    );
    await finishReconciles(withEm(ctx, em), device.id);
  });
}

/**
 * Templates: what the terminal says it holds (its INFO counters: fingerprints, and people with a
 * face; null when it does not report them, as access-control terminals) against what Timegate's
 * stored templates put there (fingerprints, and people with a face template, of the algorithm
 * versions the terminal takes). A gap is a reason to re-send the users concerned.
 */
async function templateCounts(em: EntityManager, deviceId: number, employeeIds: number[]) {
  const [device] = await em.execute<
    {
      mode_type: string;
      fp_algorithm: string | null;
      face_algorithm: string | null;
      reported_options: Record<string, string> | null;
      fingerprint_count: number | null;
      face_count: number | null;
    }[]
  >('select mode_type, fp_algorithm, face_algorithm, reported_options, fingerprint_count, face_count from device where id = ?', [deviceId]);
  const terminal = terminalOf({
    access: device!.mode_type === 'acc',
    fpAlgorithm: device!.fp_algorithm,
    faceAlgorithm: device!.face_algorithm,
    reportedOptions: device!.reported_options,
  });
  const stored = await em.execute<{ employee_id: number; type: number; version: string | null }[]>(
    'select employee_id, type, version from employee_template where employee_id = any(?::int[])',
    [`{${employeeIds.join(',')}}`],
  );
  const fitting = stored.filter((t) => templateFits(terminal, t));
  return {
    fingerprintsOnDevice: device!.fingerprint_count,
    fingerprintsExpected: fitting.filter((t) => t.type === 1).length,
    facesOnDevice: device!.face_count,
    facesExpected: new Set(fitting.filter((t) => t.type === 2 || t.type === 9).map((t) => t.employee_id)).size,
  };
}

interface WaitingAction {
  id: number;
  workspace_id: number;
  action_id: string;
  device_id: number;
  company_id: number;
  mode_type: string;
  options: { fix?: boolean };
  result: { usersReported: number };
  created_at: Date;
  completed_at: Date;
  expires_at: Date;
}

/**
 * Finishes the device's reconciles whose terminal has now reported every user it counted (in the
 * caller's transaction): the comparison, the fix when asked, the completed result and its event.
 */
export async function finishReconciles(ctx: RequestContext, deviceId: number): Promise<void> {
  const em = ctx.em;
  const waiting = await em.execute<WaitingAction[]>(
    `select a.id, a.workspace_id, a.action_id, a.device_id, d.company_id, d.mode_type, a.options, a.result, a.created_at, a.completed_at, a.expires_at
     from device_action a join device d on d.id = a.device_id
     where a.device_id = ? and a.type = 'users.reconcile' and a.status = 'succeeded' and (a.result->>'complete')::boolean is false
     for update of a`,
    [deviceId],
  );
  const events: NewEvent[] = [];
  for (const action of waiting) {
    const reported = await em.execute<{ pin: string; name: string | null; privilege: number | null }[]>(
      'select pin, name, privilege from device_reported_user where device_id = ? and reported_at >= ? order by pin',
      [deviceId, action.created_at],
    );
    if (reported.length < action.result.usersReported) continue;
    const desired = await em.execute<{ id: number; employee_id: number; pin: string; name: string; privilege: number }[]>(
      'select id, employee_id, pin, name, privilege from device_user where device_id = ? and present order by pin',
      [deviceId],
    );
    const onDevice = new Map(reported.map((r) => [r.pin, r]));
    const wanted = new Map(desired.map((d) => [d.pin, d]));
    const missing = desired.filter((d) => !onDevice.has(d.pin));
    // Visitors' pins (passes not yet removed from the controllers) are expected too: a fix must not delete a live pass.
    const visitors = await em.execute<{ pin: string }[]>('select pin from visitor_pass where company_id = ? and removed_at is null', [action.company_id]);
    const visitorPins = new Set(visitors.map((v) => v.pin));
    const unexpected = reported.filter((r) => !wanted.has(r.pin) && !visitorPins.has(r.pin));
    const differing = desired.filter((d) => {
      const r = onDevice.get(d.pin);
      return r !== undefined && ((r.name !== null && r.name !== d.name) || (r.privilege !== null && r.privilege !== d.privilege));
    });
    let fixedCommands = 0;
    const now = ctx.now();
    if (action.options.fix) {
      const resend = [...missing, ...differing].map((d) => d.id);
      if (resend.length > 0) {
        await em.execute(`update device_user set sync_status = 'pending', return_code = null, changed_at = ? where id = any(?::int[])`, [
          now,
          `{${resend.join(',')}}`,
        ]);
      }
      const deletesOf = unexpected.map((u) => (action.mode_type === 'acc' ? deleteAccessUserCommands(u.pin) : [deleteUserInfoCommand(u.pin)]));
      const deletes = deletesOf.flat();
      const target = deletes.length > 0 ? await recordTarget(em, deviceId, ctx.config.commandBatchSize) : null;
      // Each unexpected user's deletes in order (authorisations and templates before the user): revocations, ahead of any addition.
      if (target)
        await queueRecords(
          em,
          target,
          deletesOf.map((commands) =>
            commands.map((command) => ({ command, kind: 'reconcile_fix', lane: 'revocation' as const, reference: `reconcile:${action.action_id}` })),
          ),
          now,
        );
      fixedCommands = resend.length + deletes.length;
      notifyCommandsQueued(em, [deviceId]);
    }
    const templates = await templateCounts(
      em,
      deviceId,
      desired.map((d) => d.employee_id),
    );
    const result = {
      complete: true,
      usersReported: reported.length,
      missingOnDevice: missing.map((d) => d.pin),
      unexpectedOnDevice: unexpected.map((u) => u.pin),
      differing: differing.map((d) => d.pin),
      templates,
      ...(action.options.fix ? { fixed: fixedCommands } : {}),
    };
    await em.execute('update device_action set result = ?::jsonb where id = ?', [JSON.stringify(result), action.id]);
    events.push(
      deviceActionEvent({
        ...action,
        device_id: deviceId,
        type: 'users.reconcile',
        status: 'succeeded',
        status_detail: null,
        // Nested keys in REST spelling too (the stored result is camelCase).
        result: {
          complete: true,
          users_reported: result.usersReported,
          missing_on_device: result.missingOnDevice,
          unexpected_on_device: result.unexpectedOnDevice,
          differing: result.differing,
          templates: {
            fingerprints_on_device: templates.fingerprintsOnDevice,
            fingerprints_expected: templates.fingerprintsExpected,
            faces_on_device: templates.facesOnDevice,
            faces_expected: templates.facesExpected,
          },
          ...(action.options.fix ? { fixed: fixedCommands } : {}),
        },
      }),
    );
  }
  await recordEvents(ctx, events);
}
