// Every page of the console in one table: its address, its name in the navigation, the area whose
// scopes reach it (session.ts, `reaches`) and the section it is listed under. A new page is one row.
import type { JSX } from 'preact';
import type { Area } from './session';
import { Overview } from './pages/overview';
import { DeviceList, DevicePage } from './pages/devices';
import { EmployeeList, EmployeePage } from './pages/employees';
import { PunchList } from './pages/punches';
import { Timesheets } from './pages/timesheets';
import { Webhooks } from './pages/webhooks';
import { ApiKeys } from './pages/api-keys';
import { Access } from './pages/access';
import { AttendanceReport } from './pages/attendance-report';
import { Shifts } from './pages/shifts';
import { Holidays } from './pages/holidays';
import { PayPeriods } from './pages/pay-periods';
import { PayPolicy } from './pages/pay-policy';
import { DoorBoardPage } from './pages/doors';
import { Refused } from './pages/refused';
import { Rosters } from './pages/rosters';
import { Requests } from './pages/requests';
import { LeaveBalances } from './pages/balances';
import { Lockdowns } from './pages/lockdowns';
import { VisitorPasses } from './pages/visitor-passes';
import { LinkageRules } from './pages/linkage-rules';
import { DirectorySync } from './pages/directory-sync';

/** The navigation's sections, in the order they are listed. */
export const SECTIONS = ['Operations', 'People and time', 'Doors and access', 'Administration'] as const;
export type Section = (typeof SECTIONS)[number];

export interface ConsolePage {
  path: string;
  label: string;
  area: Area;
  section: Section;
  /** The view, given the rest of the address (`#/devices/7`: `7`). */
  view: (id: string | undefined) => JSX.Element;
}

export const PAGES: ConsolePage[] = [
  { path: '', label: 'Overview', area: 'all', section: 'Operations', view: () => <Overview /> },
  { path: 'devices', label: 'Devices', area: 'all', section: 'Operations', view: (id) => (id ? <DevicePage id={Number(id)} /> : <DeviceList />) },
  {
    path: 'employees',
    label: 'Employees',
    area: 'people',
    section: 'People and time',
    view: (id) => (id ? <EmployeePage id={Number(id)} /> : <EmployeeList />),
  },
  { path: 'punches', label: 'Punches', area: 'people', section: 'People and time', view: () => <PunchList /> },
  { path: 'timesheets', label: 'Timesheets', area: 'people', section: 'People and time', view: (month) => <Timesheets month={month} /> },
  { path: 'report', label: 'Attendance report', area: 'people', section: 'People and time', view: () => <AttendanceReport /> },
  { path: 'shifts', label: 'Shifts', area: 'people', section: 'People and time', view: () => <Shifts /> },
  { path: 'rosters', label: 'Rosters and overrides', area: 'people', section: 'People and time', view: () => <Rosters /> },
  { path: 'requests', label: 'Requests', area: 'requests', section: 'People and time', view: () => <Requests /> },
  { path: 'balances', label: 'Leave balances', area: 'people', section: 'People and time', view: () => <LeaveBalances /> },
  { path: 'holidays', label: 'Holidays', area: 'people', section: 'People and time', view: () => <Holidays /> },
  { path: 'pay-periods', label: 'Pay periods', area: 'people', section: 'People and time', view: () => <PayPeriods /> },
  {
    path: 'pay-policy',
    label: 'Pay policy',
    area: 'people',
    section: 'People and time',
    view: (companyId) => <PayPolicy companyId={companyId ? Number(companyId) : undefined} />,
  },
  { path: 'doors', label: 'Door board', area: 'doors', section: 'Doors and access', view: () => <DoorBoardPage /> },
  { path: 'refused', label: 'Refused today', area: 'doors', section: 'Doors and access', view: () => <Refused /> },
  { path: 'lockdowns', label: 'Lockdowns', area: 'doors', section: 'Doors and access', view: () => <Lockdowns /> },
  { path: 'visitors', label: 'Visitor passes', area: 'doors', section: 'Doors and access', view: () => <VisitorPasses /> },
  { path: 'linkage', label: 'Linkage rules', area: 'doors', section: 'Doors and access', view: () => <LinkageRules /> },
  { path: 'access', label: 'Access', area: 'doors', section: 'Doors and access', view: () => <Access /> },
  { path: 'webhooks', label: 'Webhooks', area: 'admin', section: 'Administration', view: () => <Webhooks /> },
  { path: 'keys', label: 'API keys', area: 'admin', section: 'Administration', view: () => <ApiKeys /> },
  { path: 'directory-sync', label: 'Directory sync', area: 'admin', section: 'Administration', view: () => <DirectorySync /> },
];
