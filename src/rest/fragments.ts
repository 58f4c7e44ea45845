/** The fields each REST resource returns, as GraphQL fragments shared by its routes. */
export const companyFields = `fragment CompanyFields on Company { id name code createdAt updatedAt }`;

export const employeeFields = `fragment EmployeeFields on Employee {
  id companyId name lastname code pin email isActive createdAt updatedAt
}`;

export const deviceFields = `fragment DeviceFields on Device {
  id companyId name serialNumber status modeType timeZone lastSeenAt firmware ip model protocol
  userCount fingerprintCount faceCount attlogCount createdAt updatedAt
}`;

export const doorActionFields = `fragment DoorActionFields on DoorAction {
  actionId status timestamp deviceId deviceSerial deviceStatus door duration returnCode createdAt sentAt completedAt expiresAt
}`;

export const unknownTerminalFields = `fragment UnknownTerminalFields on UnknownTerminal {
  serialNumber ip model firmware protocol firstSeenAt lastSeenAt requestCount
}`;
