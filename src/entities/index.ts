import { AbsenceRequest } from './absence-request.entity';
import { AbsenceType } from './absence-type.entity';
import { AccessLevel, AccessLevelArea, AccessLevelDoor, AccessLevelEmployee } from './access-level.entity';
import { AccessSchedule } from './access-schedule.entity';
import { ApiKey } from './api-key.entity';
import { Area } from './area.entity';
import { AreaApprover } from './area-approver.entity';
import { AttendanceDay } from './attendance-day.entity';
import { AreaEmployee } from './area-employee.entity';
import { Assignment } from './assignment.entity';
import { AuditEvent } from './audit-event.entity';
import { Company } from './company.entity';
import { Decision } from './decision.embeddable';
import { ConsoleSession } from './console-session.entity';
import { ConsoleSignIn } from './console-sign-in.entity';
import { DeviceAction } from './device-action.entity';
import { DeviceReportedUser } from './device-reported-user.entity';
import { DeviceAccessSchedule } from './device-access-schedule.entity';
import { DeviceCommand } from './device-command.entity';
import { DeviceCommandArchive } from './device-command-archive.entity';
import { DeviceStatusChange } from './device-status-change.entity';
import { Device } from './device.entity';
import { DeviceUser } from './device-user.entity';
import { DoorAction } from './door-action.entity';
import { DoorEvent } from './door-event.entity';
import { Employee } from './employee.entity';
import { EmployeeTemplate } from './employee-template.entity';
import { EmployeePhoto } from './employee-photo.entity';
import { EmployeeAccessToken } from './employee-access-token.entity';
import { EmployeeInvitation } from './employee-invitation.entity';
import { EmployeeSession } from './employee-session.entity';
import { Geofence } from './geofence.entity';
import { FaceEnrollment } from './face-enrollment.entity';
import { DeviceDoorRules } from './device-door-rules.entity';
import { DoorOpeningRules } from './door-opening-rules.entity';
import { VisitorPass } from './visitor-pass.entity';
import { Door } from './door.entity';
import { Event } from './event.entity';
import { Holiday } from './holiday.entity';
import { IdempotencyRecord } from './idempotency-record.entity';
import { JobCursor } from './job-cursor.entity';
import { WorkspaceWriteMark } from './workspace-write-mark.entity';
import { PayPeriod } from './pay-period.entity';
import { LinkageRule } from './linkage-rule.entity';
import { Lockdown, LockdownDoor } from './lockdown.entity';
import { Punch } from './punch.entity';
import { PunchCorrection } from './punch-correction.entity';
import { QuarantinedPunch, QuarantineReason } from './quarantined-punch.entity';
import { OvertimeApproval } from './overtime-approval.entity';
import { ScimActivity } from './scim-activity.entity';
import { ScimGroup, ScimGroupAccessLevel, ScimGroupMember } from './scim-group.entity';
import { ScimUser } from './scim-user.entity';
import { Shift } from './shift.entity';
import { ShiftAssignment } from './shift-assignment.entity';
import { Roster } from './roster.entity';
import { SandboxLease, VirtualTerminal, VirtualTerminalTrigger } from './sandbox.entity';
import { ScheduleOverride } from './schedule-override.entity';
import { UnknownTerminal } from './unknown-terminal.entity';
import { VerificationState } from './verification-state.entity';
import { WebhookAttempt } from './webhook-attempt.entity';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { Workspace } from './workspace.entity';

export {
  AbsenceRequest,
  AbsenceType,
  ConsoleSession,
  ConsoleSignIn,
  ScimActivity,
  ScimGroup,
  ScimGroupAccessLevel,
  ScimGroupMember,
  ScimUser,
  AccessLevel,
  AccessLevelArea,
  AccessLevelDoor,
  AccessLevelEmployee,
  AccessSchedule,
  ApiKey,
  Area,
  AreaApprover,
  AreaEmployee,
  Assignment,
  AttendanceDay,
  AuditEvent,
  Company,
  Decision,
  Device,
  DeviceAccessSchedule,
  DeviceAction,
  DeviceCommand,
  DeviceCommandArchive,
  DeviceReportedUser,
  DeviceStatusChange,
  DeviceUser,
  Door,
  DoorAction,
  DoorEvent,
  Employee,
  EmployeeAccessToken,
  EmployeeInvitation,
  EmployeePhoto,
  EmployeeSession,
  EmployeeTemplate,
  Event,
  FaceEnrollment,
  Geofence,
  DeviceDoorRules,
  DoorOpeningRules,
  VisitorPass,
  Holiday,
  IdempotencyRecord,
  JobCursor,
  LinkageRule,
  Lockdown,
  LockdownDoor,
  PayPeriod,
  Punch,
  PunchCorrection,
  QuarantinedPunch,
  QuarantineReason,
  OvertimeApproval,
  Shift,
  ShiftAssignment,
  Roster,
  SandboxLease,
  ScheduleOverride,
  UnknownTerminal,
  VirtualTerminal,
  VirtualTerminalTrigger,
  VerificationState,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  Workspace,
  WorkspaceWriteMark,
};

/** Every entity, for the ORM configuration. */
export const entities = [
  SandboxLease,
  VirtualTerminal,
  VirtualTerminalTrigger,
  ScimActivity,
  ScimGroup,
  ScimGroupAccessLevel,
  ScimGroupMember,
  ScimUser,
  Workspace,
  ApiKey,
  Company,
  ConsoleSession,
  ConsoleSignIn,
  Employee,
  Device,
  IdempotencyRecord,
  VerificationState,
  Punch,
  QuarantinedPunch,
  Area,
  AreaEmployee,
  Assignment,
  DeviceUser,
  DeviceCommand,
  DeviceCommandArchive,
  DoorAction,
  DeviceStatusChange,
  UnknownTerminal,
  EmployeeTemplate,
  AuditEvent,
  Event,
  WebhookEndpoint,
  WebhookDelivery,
  WebhookAttempt,
  DoorEvent,
  Shift,
  Holiday,
  Roster,
  ShiftAssignment,
  ScheduleOverride,
  PayPeriod,
  AttendanceDay,
  JobCursor,
  WorkspaceWriteMark,
  Door,
  AccessSchedule,
  AccessLevel,
  AccessLevelDoor,
  AccessLevelEmployee,
  AccessLevelArea,
  DeviceAccessSchedule,
  DeviceAction,
  DeviceReportedUser,
  EmployeePhoto,
  FaceEnrollment,
  AbsenceType,
  Decision,
  AbsenceRequest,
  PunchCorrection,
  OvertimeApproval,
  Lockdown,
  LockdownDoor,
  LinkageRule,
  DeviceDoorRules,
  DoorOpeningRules,
  VisitorPass,
  EmployeeAccessToken,
  EmployeeInvitation,
  EmployeeSession,
  Geofence,
  AreaApprover,
];
