import { AbsenceResolver } from './absence.resolver';
import { ApiKeyResolver } from './api-key.resolver';
import { AreaResolver } from './area.resolver';
import { AssignmentResolver } from './assignment.resolver';
import { AuditEventResolver } from './audit-event.resolver';
import { CompanyResolver } from './company.resolver';
import { DeviceResolver } from './device.resolver';
import { DirectoryGroupResolver } from './directory-group.resolver';
import { DoorActionResolver } from './door-action.resolver';
import { DoorResolver } from './door.resolver';
import { DoorRulesResolver } from './door-rules.resolver';
import { VisitorPassResolver } from './visitor-pass.resolver';
import { AccessResolver } from './access.resolver';
import { DeviceActionResolver } from './device-action.resolver';
import { DoorEventResolver } from './door-event.resolver';
import { LockdownResolver } from './lockdown.resolver';
import { LinkageRuleResolver } from './linkage-rule.resolver';
import { EmployeeResolver } from './employee.resolver';
import { EmployeeTemplateResolver } from './employee-template.resolver';
import { EmployeePhotoResolver } from './employee-photo.resolver';
import { DeviceCommandResolver } from './device-command.resolver';
import { EventResolver } from './event.resolver';
import { HolidayResolver } from './holiday.resolver';
import { PayPeriodResolver } from './pay-period.resolver';
import { PunchResolver } from './punch.resolver';
import { PunchCorrectionResolver } from './punch-correction.resolver';
import { QuarantinedPunchResolver } from './quarantined-punch.resolver';
import { OvertimeApprovalResolver } from './overtime-approval.resolver';
import { ShiftAssignmentResolver } from './shift-assignment.resolver';
import { RosterResolver } from './roster.resolver';
import { ScheduleOverrideResolver } from './schedule-override.resolver';
import { ShiftResolver } from './shift.resolver';
import { TimesheetResolver } from './timesheet.resolver';
import { UnknownTerminalResolver } from './unknown-terminal.resolver';
import { VerificationStateResolver } from './verification-state.resolver';
import { WebhookResolver } from './webhook.resolver';
import { WorkspaceResolver } from './workspace.resolver';
import { SandboxResolver } from './sandbox.resolver';
import { MeResolver } from './me.resolver';
import { GeofenceResolver } from './geofence.resolver';
import { EmployeeAccessResolver } from './employee-access.resolver';

export const resolvers = [
  WorkspaceResolver,
  SandboxResolver,
  ApiKeyResolver,
  DirectoryGroupResolver,
  CompanyResolver,
  EmployeeResolver,
  EmployeeTemplateResolver,
  EmployeePhotoResolver,
  DeviceCommandResolver,
  DeviceResolver,
  VerificationStateResolver,
  PunchResolver,
  QuarantinedPunchResolver,
  AreaResolver,
  AssignmentResolver,
  DoorActionResolver,
  DoorResolver,
  DoorRulesResolver,
  VisitorPassResolver,
  AccessResolver,
  DeviceActionResolver,
  DoorEventResolver,
  LockdownResolver,
  LinkageRuleResolver,
  UnknownTerminalResolver,
  AuditEventResolver,
  EventResolver,
  WebhookResolver,
  ShiftResolver,
  HolidayResolver,
  ShiftAssignmentResolver,
  RosterResolver,
  ScheduleOverrideResolver,
  TimesheetResolver,
  PayPeriodResolver,
  AbsenceResolver,
  PunchCorrectionResolver,
  OvertimeApprovalResolver,
  GeofenceResolver,
  EmployeeAccessResolver,
  MeResolver,
] as const;
