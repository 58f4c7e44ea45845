/** The fields each REST resource returns, as GraphQL fragments shared by its routes. */
export const companyFields = `fragment CompanyFields on Company { id name code
  payPolicy { earlyOvertime overtimeMinMinutes dailyOvertimeAfterMinutes weeklyOvertimeAfterMinutes weekStart doubleTimeAfterMinutes nightStart nightEnd holidayWork restDayWork
    overtimeRequiresApproval overtimeRatePercent doubleTimeRatePercent nightPremiumPercent holidayRatePercent restDayRatePercent }
  settings { mobilePunch mobilePunchAccuracyM managerApprovals }
  createdAt updatedAt }`;

export const employeeFields = `fragment EmployeeFields on Employee {
  id companyId name lastname code pin email isActive employmentStartDate employmentEndDate areaIds createdAt updatedAt
}`;

export const deviceFields = `fragment DeviceFields on Device {
  id companyId areaId name serialNumber status modeType timeZone lastSeenAt firmware ip model protocol
  userCount fingerprintCount faceCount attlogCount clockSkewSeconds clockCheckedAt pairing pairedAt pushCommKeySet allowedSourceCidrs
  capabilities { doors accessLevels fingerprint face facePhoto userPhoto attendanceBackfill antiPassback interlock firstPersonIn multiPerson capacity { users fingerprints faces records userPhotos } }
  createdAt updatedAt
}`;

export const verificationStateFields = `fragment VerificationStateFields on VerificationState { id name value createdAt updatedAt }`;

export const punchFields = `fragment PunchFields on Punch {
  id companyId employeeId deviceId deviceSerial pin punchTime localTime timeZone punchState
  verifyType verifyCode recordType workCode deviceRecordIndex receivedAt voidedAt voidReason
  source latitude longitude accuracyM geofenceId offlineQueued
}`;

export const areaFields = `fragment AreaFields on Area { id name code companyId deviceIds employeeIds createdAt updatedAt }`;

export const assignmentFields = `fragment AssignmentFields on Assignment {
  employeeId deviceId permissionId source areaId syncStatus returnCode
  employeeName employeeLastname employeePin deviceName deviceSerialNumber
}`;

export const doorActionFields = `fragment DoorActionFields on DoorAction {
  actionId status statusDetail timestamp deviceId deviceSerial deviceStatus door duration returnCode createdAt sentAt completedAt expiresAt
}`;

/** A door action as the `/public/v2` door routes show it (the /v1 unlock reply keeps its own fields). */
export const doorActionV2Fields = `fragment DoorActionV2Fields on DoorAction {
  actionId action status statusDetail deviceId deviceSerial deviceStatus door duration returnCode createdAt sentAt completedAt expiresAt
}`;

export const doorFields = `fragment DoorFields on Door { id deviceId number name present absentSince state { sensor relay alarms } updatedAt }`;

export const accessScheduleFields = `fragment AccessScheduleFields on AccessSchedule {
  id companyId name intervals { weekday startTime endTime } holidayIntervals { holidayType startTime endTime } builtIn createdAt updatedAt
}`;

export const accessLevelFields = `fragment AccessLevelFields on AccessLevel { id companyId name scheduleId doorIds createdAt updatedAt }`;

export const unknownTerminalFields = `fragment UnknownTerminalFields on UnknownTerminal {
  serialNumber ip model firmware protocol firstSeenAt lastSeenAt requestCount
}`;

export const webhookEndpointFields = `fragment WebhookEndpointFields on WebhookEndpoint {
  id url description eventTypes enabled disabledReason secret createdAt updatedAt
}`;

export const webhookDeliveryFields = `fragment WebhookDeliveryFields on WebhookDelivery {
  id endpointId eventId eventType status attemptCount nextAttemptAt createdAt completedAt
  attempts { id attemptedAt statusCode durationMs responseExcerpt error succeeded }
}`;

export const shiftFields = `fragment ShiftFields on Shift {
  id companyId name startTime endTime timeZone workdays breakMinutes breakAfterMinutes graceInMinutes graceOutMinutes
  checkInBeforeMinutes checkOutAfterMinutes pairing isDefault roundingMinutes roundingMode recordedBreak flexible coreStart coreEnd requiredMinutes
  payPolicy { earlyOvertime overtimeMinMinutes dailyOvertimeAfterMinutes doubleTimeAfterMinutes nightStart nightEnd holidayWork restDayWork }
  createdAt updatedAt }`;

export const holidayFields = `fragment HolidayFields on Holiday { id companyId date name holidayType createdAt updatedAt }`;

export const rosterFields = `fragment RosterFields on Roster { id companyId name startDate days createdAt updatedAt }`;
export const scheduleOverrideFields = `fragment ScheduleOverrideFields on ScheduleOverride { id employeeId date shiftId createdAt updatedAt }`;
export const shiftAssignmentFields = `fragment ShiftAssignmentFields on ShiftAssignment { id shiftId rosterId employeeId areaId startDate endDate createdAt updatedAt }`;

export const payPeriodFields = `fragment PayPeriodFields on PayPeriod { id companyId startDate endDate lockedAt createdAt updatedAt }`;

export const doorEventFields = `fragment DoorEventFields on DoorEvent {
  id companyId deviceId deviceSerial door eventCode eventClass reason opened pin employeeId time localTime timeZone inOutStatus verifyType verifyCode cardNo deviceRecordIndex receivedAt }`;

export const lockdownFields = `fragment LockdownFields on Lockdown {
  id companyId scope areaId mode reason status createdAt releasedAt doorsPending doorsConfirmed doorsFailed overrideAccessLevelId
  doors { doorId deviceId door state detail returnCode confirmedAt updatedAt } }`;

export const linkageRuleFields = `fragment LinkageRuleFields on LinkageRule {
  id companyId name trigger deviceId doorId refusalCount refusalWindowMinutes lockdownMode lockdownAreaId lockdownDoorIds auxOutput auxOutputSeconds lastTriggeredAt createdAt }`;

export const quarantinedPunchFields = `fragment QuarantinedPunchFields on QuarantinedPunch {
  id companyId deviceId deviceSerial pin localTime timeZone punchTime reason clockSkewSeconds punchState verifyType verifyCode workCode deviceRecordIndex receivedAt
}`;
