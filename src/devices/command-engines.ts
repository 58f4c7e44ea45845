// Start-up wiring of the command queue: each engine that queues terminal commands registers the
// outcome handler of its command kinds (and, where a payload is computed at delivery, a renderer).
// The queue (command-queue.ts) knows none of them; this file is the one place that knows them all,
// and nothing imports it but the app's start-up (createApp) and tests that use the queue alone.
import { ACCESS_SCHEDULE_COMMAND_KIND, noteRefusedAccessTables } from '../services/sync/access-sync.service';
import { CLOCK_SYNC_COMMAND_KIND, mirrorDeviceActions, renderClockSync } from '../services/fleet/device-action.service';
import { FACE_PHOTO_COMMAND_KIND, mirrorDeviceUsers, SYNC_COMMAND_KIND } from '../services/sync/device-sync.service';
import { mirrorDoorActions } from '../services/access/door-action.service';
import { mirrorFaceEnrollments } from '../services/sync/face-enrollment.service';
import { CONTROLLER_RULES_COMMAND_KIND, mirrorControllerRules } from '../services/access/controller-rules.service';
import { registerCommandHandler, registerCommandRenderer } from '../services/commands/command-queue';
import { LOCKDOWN_COMMAND_KINDS, lockLockdownsOfCommands, mirrorLockdownDoors } from '../services/access/lockdown.service';
import { DOOR_OPENING_RULES_COMMAND_KIND, mirrorDoorOpeningRules } from '../services/access/door-opening-rules.service';

/** Registers every engine with the command queue (idempotent: a second call replaces the same entries). */
export function registerCommandEngines(): void {
  registerCommandHandler('door_actions', { kinds: ['door_*'], onChange: mirrorDoorActions });
  registerCommandHandler('device_actions', { kinds: ['action_*'], onChange: mirrorDeviceActions });
  registerCommandHandler('device_users', { kinds: [SYNC_COMMAND_KIND, FACE_PHOTO_COMMAND_KIND], onChange: mirrorDeviceUsers });
  registerCommandHandler('face_enrollments', { kinds: [SYNC_COMMAND_KIND, FACE_PHOTO_COMMAND_KIND], onChange: mirrorFaceEnrollments });
  registerCommandHandler('access_tables', {
    kinds: [ACCESS_SCHEDULE_COMMAND_KIND],
    onChange: (ctx, ids) => noteRefusedAccessTables(ctx.em, ids),
  });
  registerCommandHandler('lockdowns', { kinds: LOCKDOWN_COMMAND_KINDS, onChange: mirrorLockdownDoors, lockFirst: lockLockdownsOfCommands });
  registerCommandHandler('controller_rules', { kinds: [CONTROLLER_RULES_COMMAND_KIND], onChange: mirrorControllerRules });
  registerCommandHandler('door_opening_rules', { kinds: [DOOR_OPENING_RULES_COMMAND_KIND], onChange: mirrorDoorOpeningRules });
  registerCommandRenderer(CLOCK_SYNC_COMMAND_KIND, renderClockSync);
}
