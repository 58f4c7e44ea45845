import { Args, Authorized, Resolver, Root, Subscription } from 'type-graphql';
import { DomainError } from '../errors/domain-error';
import type { SubscriptionContext } from '../events/event-feed';
import { publicEventId, type StoredEvent } from '../events/event-types';
import { renameKeys, snakeToCamel } from '../kernel/case';
import {
  PunchCorrectionUpdatedArgs,
  PunchCorrectionUpdatedEvent,
  OvertimeApprovalUpdatedArgs,
  OvertimeApprovalUpdatedEvent,
  AbsenceRequestUpdatedArgs,
  AbsenceRequestUpdatedEvent,
  DeviceActionUpdatedArgs,
  DeviceActionUpdatedEvent,
  AccessDeniedArgs,
  AccessDeniedEvent,
  DoorAlarmArgs,
  DoorAlarmEvent,
  AttendanceDayUpdatedArgs,
  AttendanceDayUpdatedEvent,
  DeviceEventArgs,
  DeviceStatusChangedEvent,
  DoorActionUpdatedArgs,
  DoorActionUpdatedEvent,
  DoorOpenedEvent,
  PunchCreatedArgs,
  PunchCreatedEvent,
} from '../schema/event.type';
import { LockdownUpdatedArgs, LockdownUpdatedEvent } from '../schema/lockdown.type';
import { dayViewOf, type DayRecord } from '../services/attendance/day-record';
import { workspaceOf } from '../context/request-context';
import { attendanceDayObject } from './timesheet.resolver';
import { absenceRequestObject, punchCorrectionObject } from '../schema/absence.type';
import { overtimeApprovalObject } from '../schema/overtime-approval.type';
import { deviceActionFromEvent as deviceActionObject } from '../services/fleet/device-action.service';

/** graphql-ws operations get the request context plus this process's event feed. */

const DATE_FIELDS = new Set(['punchTime', 'receivedAt', 'createdAt', 'timestamp', 'sentAt', 'completedAt', 'expiresAt', 'openedAt', 'at', 'releasedAt']);

// One StoredEvent object is handed to every subscriber of its workspace in this process: map it once.
const mapped = new WeakMap<StoredEvent, unknown>();

/** The stored snake_case payload as the GraphQL object (camelCase, times as Dates). */
function objectOf<T>(event: StoredEvent): T {
  const cached = mapped.get(event);
  if (cached) return cached as T;
  const object = renameKeys(event.data, snakeToCamel) as Record<string, unknown>;
  for (const key of Object.keys(object)) if (DATE_FIELDS.has(key) && typeof object[key] === 'string') object[key] = new Date(object[key] as string);
  mapped.set(event, object);
  return object as T;
}

function envelope(event: StoredEvent) {
  return { cursor: event.id, eventId: publicEventId(event.id), type: event.type, createdAt: event.createdAt };
}

type Filter = Record<string, number | null | undefined>;

/** Subscribes to the caller's workspace only; `filter` maps data fields (snake_case) to required values. */
const MAX_EVENT_ID = 2n ** 63n - 1n;

function follow(context: SubscriptionContext, types: string[], after: string | null | undefined, filter: Filter) {
  const workspaceId = workspaceOf(context);
  // Event ids are PostgreSQL bigints: a larger number is no event's cursor (and must not reach SQL).
  if (after != null && (!/^\d{1,19}$/.test(after) || BigInt(after) > MAX_EVENT_ID)) {
    throw DomainError.field('after', 'invalid_cursor', 'after must be the `cursor` of an event (a decimal number).');
  }
  const wanted = Object.entries(filter).filter(([, value]) => value != null);
  return context.events.subscribe({
    workspaceId,
    types,
    after: after ?? null,
    matches: (event) => wanted.every(([field, value]) => event.data[field] === value),
  });
}

@Resolver()
export class EventResolver {
  @Authorized('read')
  @Subscription(() => PunchCreatedEvent, {
    description: 'Every new punch (terminal or manual); a re-sent punch is not new.',
    subscribe: ({ args, context }) =>
      follow(context, ['attendance.created'], args.after, { company_id: args.companyId, device_id: args.deviceId, employee_id: args.employeeId }),
  })
  punchCreated(@Root() event: StoredEvent, @Args() _args: PunchCreatedArgs): PunchCreatedEvent {
    return { ...envelope(event), punch: objectOf(event) };
  }

  @Authorized('read')
  @Subscription(() => DoorOpenedEvent, {
    description: 'A door opened (a remote unlock the terminal confirmed).',
    subscribe: ({ args, context }) => follow(context, ['door.opened'], args.after, { company_id: args.companyId, device_id: args.deviceId }),
  })
  doorOpened(@Root() event: StoredEvent, @Args() _args: DeviceEventArgs): DoorOpenedEvent {
    return { ...envelope(event), doorOpening: objectOf(event) };
  }

  @Authorized('read')
  @Subscription(() => DeviceStatusChangedEvent, {
    description: 'A terminal came online (`device.online`) or went offline (`device.offline`).',
    subscribe: ({ args, context }) =>
      follow(context, ['device.online', 'device.offline'], args.after, { company_id: args.companyId, device_id: args.deviceId }),
  })
  deviceStatusChanged(@Root() event: StoredEvent, @Args() _args: DeviceEventArgs): DeviceStatusChangedEvent {
    return { ...envelope(event), change: objectOf(event) };
  }

  @Authorized('read')
  @Subscription(() => DoorActionUpdatedEvent, {
    description: 'A door action was created (`queued`) or changed status (`sent`, `succeeded`, `failed`, `expired`).',
    subscribe: ({ args, context }) => follow(context, ['door.action.updated'], args.after, { device_id: args.deviceId }),
  })
  doorActionUpdated(@Root() event: StoredEvent, @Args() _args: DoorActionUpdatedArgs): DoorActionUpdatedEvent {
    return { ...envelope(event), doorAction: objectOf(event) };
  }

  @Authorized('read')
  @Subscription(() => AttendanceDayUpdatedEvent, {
    description: "An employee's attendance day was computed anew and changed (a punch, a void, a shift, assignment or holiday change, or its window ended).",
    subscribe: ({ args, context }) => follow(context, ['attendance.day.updated'], args.after, { company_id: args.companyId, employee_id: args.employeeId }),
  })
  attendanceDayUpdated(@Root() event: StoredEvent, @Args() _args: AttendanceDayUpdatedArgs): AttendanceDayUpdatedEvent {
    return { ...envelope(event), day: attendanceDayObject(dayViewOf(event.data as unknown as DayRecord)) };
  }

  @Authorized('read')
  @Subscription(() => DoorAlarmEvent, {
    description: 'A door alarm was raised (`door.alarm`: forced open, held open, tamper, duress, power, battery) or cleared (`door.alarm.cleared`).',
    subscribe: ({ args, context }) =>
      follow(context, ['door.alarm', 'door.alarm.cleared'], args.after, { company_id: args.companyId, device_id: args.deviceId, door_id: args.doorId }),
  })
  doorAlarm(@Root() event: StoredEvent, @Args() _args: DoorAlarmArgs): DoorAlarmEvent {
    return { ...envelope(event), alarm: objectOf(event) };
  }

  @Authorized('read')
  @Subscription(() => AccessDeniedEvent, {
    description: 'A terminal refused someone (not registered, outside the schedule, expired, wrong verify mode, anti-passback, other).',
    subscribe: ({ args, context }) =>
      follow(context, ['access.denied'], args.after, { company_id: args.companyId, device_id: args.deviceId, employee_id: args.employeeId }),
  })
  accessDenied(@Root() event: StoredEvent, @Args() _args: AccessDeniedArgs): AccessDeniedEvent {
    return { ...envelope(event), denial: objectOf(event) };
  }

  @Authorized('read')
  @Subscription(() => DeviceActionUpdatedEvent, {
    description: 'A device action was created (`queued`) or changed status (`sent`, `succeeded` with its result, `failed`, `expired`).',
    subscribe: ({ args, context }) => follow(context, ['device.action.updated'], args.after, { company_id: args.companyId, device_id: args.deviceId }),
  })
  deviceActionUpdated(@Root() event: StoredEvent, @Args() _args: DeviceActionUpdatedArgs): DeviceActionUpdatedEvent {
    return { ...envelope(event), action: deviceActionObject(event.data) };
  }

  @Authorized('read')
  @Subscription(() => AbsenceRequestUpdatedEvent, {
    description: 'An absence request was filed (`pending`) or decided (`approved`, `rejected`, `cancelled`).',
    subscribe: ({ args, context }) => follow(context, ['absence_request.updated'], args.after, { company_id: args.companyId, employee_id: args.employeeId }),
  })
  absenceRequestUpdated(@Root() event: StoredEvent, @Args() _args: AbsenceRequestUpdatedArgs): AbsenceRequestUpdatedEvent {
    return { ...envelope(event), request: absenceRequestObject(event.data) };
  }

  @Authorized('read')
  @Subscription(() => PunchCorrectionUpdatedEvent, {
    description: 'A punch correction was filed (`pending`) or decided (`approved`, `rejected`, `cancelled`).',
    subscribe: ({ args, context }) => follow(context, ['punch_correction.updated'], args.after, { company_id: args.companyId, employee_id: args.employeeId }),
  })
  punchCorrectionUpdated(@Root() event: StoredEvent, @Args() _args: PunchCorrectionUpdatedArgs): PunchCorrectionUpdatedEvent {
    return { ...envelope(event), correction: punchCorrectionObject(event.data) };
  }

  @Authorized('read')
  @Subscription(() => OvertimeApprovalUpdatedEvent, {
    description: 'An overtime approval was filed (`pending`) or decided (`approved`, `rejected`).',
    subscribe: ({ args, context }) => follow(context, ['overtime_approval.updated'], args.after, { company_id: args.companyId, employee_id: args.employeeId }),
  })
  overtimeApprovalUpdated(@Root() event: StoredEvent, @Args() _args: OvertimeApprovalUpdatedArgs): OvertimeApprovalUpdatedEvent {
    return { ...envelope(event), approval: overtimeApprovalObject(event.data) };
  }

  @Authorized('read')
  @Subscription(() => LockdownUpdatedEvent, {
    description:
      'A lockdown or evacuation started (`created`), one of its doors changed state (`door`: confirmed, failed, released...), or it was released (`released`).',
    subscribe: ({ args, context }) => follow(context, ['lockdown.updated'], args.after, { company_id: args.companyId, lockdown_id: args.lockdownId }),
  })
  lockdownUpdated(@Root() event: StoredEvent, @Args() _args: LockdownUpdatedArgs): LockdownUpdatedEvent {
    return { ...envelope(event), lockdown: objectOf(event) };
  }
}
