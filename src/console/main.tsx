// Timegate's operations console: a client of the service's own GraphQL API and subscriptions.
import { render } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { Provider, useQuery } from '@urql/preact';
import { createApiClient, errorCode, errorMessage } from './client';
import { SessionContext } from './app-context';
import { ErrorNote } from './components';
import { SessionDocument, WorkspaceNameDocument } from './gql';
import { href, useRoute } from './router';
import { forgetKey, rememberKey, storedKey } from './session';
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
import { DoorBoardPage } from './pages/doors';
import { Refused } from './pages/refused';
import { allows } from './session';
import './styles.css';

function SignIn({ notice, onKey }: { notice: string | null; onKey: (key: string) => void }) {
  const [key, setKey] = useState('');
  return (
    <main class="signin">
      <h1>Timegate</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim()) onKey(key.trim());
        }}
      >
        <label for="api-key">API key</label>
        <input id="api-key" name="api-key" type="password" autocomplete="off" value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} required />
        <button type="submit">Sign in</button>
        <ErrorNote message={notice} />
        <p class="hint">The key is kept in this browser tab only, until you sign out or close it.</p>
      </form>
    </main>
  );
}

/** Pages and the scope each needs (webhooks and keys are the admin's). */
const PAGES: Array<[string, string, 'read' | 'admin']> = [
  ['', 'Overview', 'read'],
  ['devices', 'Devices', 'read'],
  ['employees', 'Employees', 'read'],
  ['punches', 'Punches', 'read'],
  ['timesheets', 'Timesheets', 'read'],
  ['report', 'Attendance report', 'read'],
  ['shifts', 'Shifts', 'read'],
  ['holidays', 'Holidays', 'read'],
  ['pay-periods', 'Pay periods', 'read'],
  ['doors', 'Door board', 'read'],
  ['refused', 'Refused today', 'read'],
  ['access', 'Access', 'read'],
  ['webhooks', 'Webhooks', 'admin'],
  ['keys', 'API keys', 'admin'],
];

function Shell({ onSignOut }: { onSignOut: (notice: string | null) => void }) {
  const [session] = useQuery({ query: SessionDocument });
  const [workspace] = useQuery({ query: WorkspaceNameDocument });
  const route = useRoute();
  const code = errorCode(session.error);
  if (code === 'unauthenticated' || code === 'forbidden') {
    queueMicrotask(() => onSignOut(code === 'unauthenticated' ? 'This API key is unknown or was revoked.' : 'This API key has no access to the console.'));
    return null;
  }
  if (!session.data) return <main class="loading">{session.error ? <ErrorNote message={errorMessage(session.error)} /> : 'Loading…'}</main>;
  const key = session.data.currentApiKey;
  const value = { keyId: key.id, keyName: key.name, scopes: key.scopes, workspace: workspace.data?.workspace.name ?? null };
  const [page = '', id] = route;
  const view =
    page === 'devices' && id ? <DevicePage id={Number(id)} /> :
    page === 'devices' ? <DeviceList /> :
    page === 'employees' && id ? <EmployeePage id={Number(id)} /> :
    page === 'employees' ? <EmployeeList /> :
    page === 'punches' ? <PunchList /> :
    page === 'timesheets' ? <Timesheets month={id} /> :
    page === 'report' ? <AttendanceReport /> :
    page === 'shifts' ? <Shifts /> :
    page === 'holidays' ? <Holidays /> :
    page === 'pay-periods' ? <PayPeriods /> :
    page === 'doors' ? <DoorBoardPage /> :
    page === 'refused' ? <Refused /> :
    page === 'access' ? <Access /> :
    page === 'webhooks' && allows(key.scopes, 'admin') ? <Webhooks /> :
    page === 'keys' && allows(key.scopes, 'admin') ? <ApiKeys /> :
    <Overview />;
  return (
    <SessionContext.Provider value={value}>
      <header class="top">
        <div class="brand">
          <strong>Timegate</strong>
          <span class="workspace">{value.workspace ?? ''}</span>
        </div>
        <nav aria-label="Pages">
          {PAGES.filter(([, , scope]) => allows(key.scopes, scope)).map(([path, label]) => (
            <a href={href(path)} aria-current={page === path ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <div class="who">
          <span class="key" title="The key's scopes">
            {key.name} · {key.scopes.join(', ')}
          </span>
          <button type="button" class="link" onClick={() => onSignOut(null)}>
            Sign out
          </button>
        </div>
      </header>
      <main id="content">{view}</main>
    </SessionContext.Provider>
  );
}

function App() {
  const [key, setKey] = useState(storedKey());
  const [notice, setNotice] = useState<string | null>(null);
  const signOut = (message: string | null) => {
    forgetKey();
    setNotice(message);
    setKey(null);
  };
  const client = useMemo(() => (key ? createApiClient(key, () => signOut('This API key was revoked.')) : null), [key]);
  if (!key || !client) {
    return (
      <SignIn
        notice={notice}
        onKey={(k) => {
          rememberKey(k);
          setNotice(null);
          setKey(k);
        }}
      />
    );
  }
  return (
    <Provider value={client}>
      <Shell onSignOut={signOut} />
    </Provider>
  );
}

render(<App />, document.getElementById('app')!);
