// The app's client of the service: GraphQL `me` and the `…My…` mutations over fetch, signed in with
// the self-service session's cookie (HttpOnly: the script never sees it) plus its CSRF token, which
// the script sends as a header with every request, as the console's session does.
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
    readonly facts: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The service could not be reached (no network): the caller may keep the request for later. */
export class Offline extends Error {}

let csrfToken = '';
export const setCsrfToken = (token: string) => {
  csrfToken = token;
};

export async function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
      body: JSON.stringify({ query, variables }),
    });
  } catch {
    throw new Offline('No connection to the service.');
  }
  const body = (await response.json().catch(() => ({}))) as { data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] };
  if (body.errors?.length) {
    const { message, extensions = {} } = body.errors[0]!;
    throw new ApiError(message, typeof extensions.code === 'string' ? extensions.code : null, extensions);
  }
  if (!response.ok || !body.data) throw new ApiError(`The service answered ${response.status}.`, null);
  return body.data;
}

export interface SessionAnswer {
  signedIn: boolean;
  singleSignOn?: boolean;
  name?: string;
  lastname?: string;
  csrfToken?: string;
}

export async function readSession(): Promise<SessionAnswer> {
  const response = await fetch('/auth/me/session', { credentials: 'same-origin' });
  if (!response.ok) throw new ApiError(`The sign-in state could not be read (${response.status}).`, null);
  return (await response.json()) as SessionAnswer;
}

/** Opens a session with an invitation link's secret (the part of the link after `#`). */
export async function redeemInvitation(secret: string): Promise<SessionAnswer> {
  const response = await fetch('/auth/me/invitation', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ secret }),
  });
  const body = (await response.json()) as SessionAnswer & { error?: { message: string; code: string } };
  if (!response.ok) throw new ApiError(body.error?.message ?? 'The link did not work.', body.error?.code ?? null);
  return body;
}

export async function signOut(): Promise<void> {
  await fetch('/auth/me/logout', { method: 'POST', credentials: 'same-origin', headers: { 'x-csrf-token': csrfToken } });
}

export const ME = `query { me { employee { id name lastname code } company { id name mobilePunch mobilePunchAccuracyM managerApprovals }
  geofences { id name } verificationStates { value name } absenceTypes { id name unit } approver } }`;

export const DAYS = `query ($s: String!, $e: String!) { me { timesheet(startDate: $s, endDate: $e, first: 62) { nodes {
  date status firstIn lastOut workedMinutes scheduledMinutes exceptions absenceCode } } } }`;

export const PUNCHES = `query ($s: String!, $e: String!) { me { punches(startDate: $s, endDate: $e, first: 50) { nodes {
  id punchTime localTime punchState source geofenceId offlineQueued voidedAt } } } }`;

export const BALANCES = `query { me { absenceTypes { id name unit } absenceBalances { absenceTypeId year unit allowance taken pending remaining } } }`;

export const REQUESTS = `query { me {
  absenceRequests(first: 50) { nodes { id absenceTypeId startDate endDate state note } }
  punchCorrections(first: 50) { nodes { id reason firstDate state punches { punchTime punchState } voidPunchId } } } }`;

export const TEAM = `query { me { reports { id name lastname }
  reportAbsenceRequests(first: 50) { nodes { id employeeId absenceTypeId startDate endDate note } }
  reportPunchCorrections(first: 50) { nodes { id employeeId reason firstDate punches { punchTime punchState } } } } }`;

export const PUNCH = `mutation ($input: MyPunchInput!) { createMyPunch(input: $input) { created punch { id punchTime source geofenceId offlineQueued } } }`;
