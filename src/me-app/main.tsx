// Timegate self-service (/me): an employee's own app, mobile first and installable. A client of
// GraphQL `me` like the console is of the workspace fields: today's state and a big punch button
// (the phone's position, inside a geofence), the week and the month, balances, requests and
// corrections; a manager also decides their reports' requests. Punches made offline wait on the
// phone (queue.ts) and are sent with the time they were made.
import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, BALANCES, DAYS, graphql, ME, Offline, PUNCH, PUNCHES, readSession, redeemInvitation, REQUESTS, setCsrfToken, signOut, TEAM } from './api';
import { dropQueued, queuedPunches, queuePunch, type QueuedPunch } from './queue';
import './styles.css';

interface Me {
  employee: { id: number; name: string; lastname: string; code: string };
  company: { id: number; name: string; mobilePunch: boolean; mobilePunchAccuracyM: number; managerApprovals: boolean };
  geofences: { id: number; name: string }[];
  verificationStates: { value: string; name: string }[];
  absenceTypes: { id: number; name: string; unit: string }[];
  approver: boolean;
}
interface Day {
  date: string;
  status: string;
  firstIn: string | null;
  lastOut: string | null;
  workedMinutes: number;
  scheduledMinutes: number;
  exceptions: string[];
  absenceCode: string | null;
}
interface Punch {
  id: number;
  punchTime: string;
  localTime: string;
  punchState: string;
  source: string;
  geofenceId: number | null;
  offlineQueued: boolean | null;
  voidedAt: string | null;
}

type Tab = 'today' | 'week' | 'month' | 'balances' | 'requests' | 'team';
const TABS: { id: Tab; label: string }[] = [
  { id: 'today', label: 'Today' },
  { id: 'week', label: 'Week' },
  { id: 'month', label: 'Month' },
  { id: 'balances', label: 'Balances' },
  { id: 'requests', label: 'Requests' },
];

const pad = (n: number) => String(n).padStart(2, '0');
/** A date of the phone's calendar as `YYYY-MM-DD`. */
const isoDay = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
const addDays = (date: Date, days: number) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
const hours = (minutes: number) => `${Math.floor(minutes / 60)} h ${pad(minutes % 60)} min`;
const clock = (localTime: string | null) => (localTime ? localTime.slice(11, 16) : '–');
const STATUS: Record<string, string> = {
  present: 'Present',
  absent: 'Absent',
  incomplete: 'Incomplete',
  rest: 'Rest day',
  holiday: 'Holiday',
  leave: 'On leave',
  scheduled: 'Scheduled',
};
const SOURCE: Record<string, string> = { terminal: 'terminal', manual: 'entered by HR', correction: 'correction', mobile: 'phone' };

function Notice({ text, kind }: { text: string | null; kind: 'info' | 'error' }) {
  // One live region per notice: a screen reader reads what changed.
  return (
    <p class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'} aria-live={kind === 'error' ? 'assertive' : 'polite'}>
      {text ?? ''}
    </p>
  );
}

function useLoad<T>(query: string, variables: Record<string, unknown>, key: string): { data: T | null; error: string | null; reload: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    graphql<T>(query, variables)
      .then((answer) => live && (setData(answer), setError(null)))
      .catch((e: Error) => live && setError(e instanceof Offline ? 'You are offline: this shows again when you are back online.' : e.message));
    return () => {
      live = false;
    };
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for the variables
  }, [query, key, round]);
  return { data, error, reload: () => setRound((n) => n + 1) };
}

/** The phone's position, asked for once per punch (high accuracy, at most 20 s). */
function position(): Promise<GeolocationPosition> {
  return new Promise((resolve, reject) => {
    if (!('geolocation' in navigator)) reject(new Error('This browser cannot tell where you are.'));
    else navigator.geolocation.getCurrentPosition(resolve, reject, { enableHighAccuracy: true, timeout: 20_000, maximumAge: 0 });
  });
}

function Today({ me, queued, onQueued }: { me: Me; queued: number; onQueued: () => void }) {
  const today = isoDay(new Date());
  const day = useLoad<{ me: { timesheet: { nodes: Day[] } } }>(DAYS, { s: today, e: today }, `day-${today}`);
  const punches = useLoad<{ me: { punches: { nodes: Punch[] } } }>(PUNCHES, { s: today, e: today }, `punches-${today}`);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ text: string; kind: 'info' | 'error' } | null>(null);
  const list = (punches.data?.me.punches.nodes ?? []).filter((p) => !p.voidedAt);
  const last = list[0];
  // In after out: the next punch is a check-in unless the last one of today was.
  const nextState = last?.punchState === '0' ? '1' : '0';
  const stateName = (value: string) => me.verificationStates.find((s) => s.value === value)?.name ?? (value === '0' ? 'Check in' : 'Check out');
  const current = day.data?.me.timesheet.nodes[0];

  const punch = useCallback(async () => {
    setBusy(true);
    setNotice({ text: 'Finding where you are…', kind: 'info' });
    try {
      const fix = await position();
      const item: QueuedPunch = {
        punchState: nextState,
        latitude: fix.coords.latitude,
        longitude: fix.coords.longitude,
        accuracyM: fix.coords.accuracy,
        punchTime: new Date().toISOString(),
      };
      try {
        if (!navigator.onLine) throw new Offline('offline');
        const answer = await graphql<{ createMyPunch: { punch: { punchTime: string } } }>(PUNCH, {
          input: { punchState: item.punchState, latitude: item.latitude, longitude: item.longitude, accuracyM: item.accuracyM },
        });
        setNotice({ text: `${stateName(nextState)} recorded at ${new Date(answer.createMyPunch.punch.punchTime).toLocaleTimeString()}.`, kind: 'info' });
        day.reload();
        punches.reload();
      } catch (error) {
        if (!(error instanceof Offline)) throw error;
        await queuePunch(item);
        onQueued();
        setNotice({ text: `You are offline. ${stateName(nextState)} saved on this phone; it is sent when you are back online.`, kind: 'info' });
      }
    } catch (error) {
      const e = error as GeolocationPositionError | ApiError | Error;
      const text =
        'code' in e && typeof e.code === 'number'
          ? 'Your position is needed to punch: allow location for this site and try again.'
          : e instanceof ApiError && e.code === 'outside_geofence'
            ? `${e.message}`
            : e.message;
      setNotice({ text, kind: 'error' });
    } finally {
      setBusy(false);
    }
  }, [nextState, me]);

  return (
    <section aria-labelledby="today-title">
      <h2 id="today-title">Today</h2>
      <div class="card" data-testid="today-state">
        <p class="big">{current ? (STATUS[current.status] ?? current.status) : '…'}</p>
        <p>
          In {clock(current?.firstIn ?? null)} · Out {clock(current?.lastOut ?? null)} · Worked {hours(current?.workedMinutes ?? 0)}
        </p>
      </div>
      {me.company.mobilePunch ? (
        // Waits for today's punches (they decide in or out), unless they cannot be read (offline).
        <button type="button" class={`punch ${nextState === '0' ? 'in' : 'out'}`} onClick={punch} disabled={busy || (!punches.data && !punches.error)}>
          {busy ? 'Punching…' : stateName(nextState)}
        </button>
      ) : (
        <p class="hint">Your company has not enabled punching from a phone: punch at a terminal.</p>
      )}
      {queued > 0 && (
        <p class="queued" data-testid="queued">
          {queued === 1 ? '1 punch waits' : `${queued} punches wait`} on this phone to be sent.
        </p>
      )}
      <Notice text={notice?.text ?? day.error ?? punches.error} kind={notice?.kind ?? 'error'} />
      <h3>Punches today</h3>
      <ul class="punches" data-testid="punches" aria-busy={punches.data ? 'false' : 'true'}>
        {punches.data && list.length === 0 && <li>None yet.</li>}
        {list.map((p) => (
          <li key={p.id}>
            <strong>{clock(p.localTime)}</strong> {stateName(p.punchState)}{' '}
            <span class="muted">
              ({SOURCE[p.source] ?? p.source}
              {p.offlineQueued ? ', sent later' : ''})
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Days({ title, start, end }: { title: string; start: string; end: string }) {
  const { data, error } = useLoad<{ me: { timesheet: { nodes: Day[] } } }>(DAYS, { s: start, e: end }, `${start}-${end}`);
  const days = data?.me.timesheet.nodes ?? [];
  const worked = days.reduce((sum, d) => sum + d.workedMinutes, 0);
  return (
    <section aria-labelledby="days-title">
      <h2 id="days-title">{title}</h2>
      <p>
        {start} to {end}: worked {hours(worked)}
      </p>
      <Notice text={error} kind="error" />
      <table>
        <caption class="sr-only">
          Your days from {start} to {end}
        </caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Status</th>
            <th scope="col">In–out</th>
            <th scope="col">Worked</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{new Date(`${d.date}T12:00:00`).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' })}</th>
              <td>{STATUS[d.status] ?? d.status}</td>
              <td>
                {clock(d.firstIn)}–{clock(d.lastOut)}
              </td>
              <td>{hours(d.workedMinutes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Balances() {
  const { data, error } = useLoad<{
    me: {
      absenceTypes: { id: number; name: string }[];
      absenceBalances: { absenceTypeId: number; unit: string; allowance: number | null; taken: number; pending: number; remaining: number | null }[];
    };
  }>(BALANCES, {}, 'balances');
  const name = (id: number) => data?.me.absenceTypes.find((t) => t.id === id)?.name ?? `Type ${id}`;
  return (
    <section aria-labelledby="balances-title">
      <h2 id="balances-title">Balances</h2>
      <Notice text={error} kind="error" />
      <table>
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Taken</th>
            <th scope="col">Pending</th>
            <th scope="col">Left</th>
          </tr>
        </thead>
        <tbody>
          {(data?.me.absenceBalances ?? []).map((b) => (
            <tr key={b.absenceTypeId}>
              <th scope="row">{name(b.absenceTypeId)}</th>
              <td>{b.taken}</td>
              <td>{b.pending}</td>
              <td>{b.remaining ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Requests({ me }: { me: Me }) {
  const { data, error, reload } = useLoad<{
    me: {
      absenceRequests: { nodes: { id: number; absenceTypeId: number; startDate: string; endDate: string; state: string; note: string | null }[] };
      punchCorrections: { nodes: { id: number; reason: string; firstDate: string; state: string }[] };
    };
  }>(REQUESTS, {}, 'requests');
  const [notice, setNotice] = useState<{ text: string; kind: 'info' | 'error' } | null>(null);
  const [form, setForm] = useState({
    type: String(me.absenceTypes[0]?.id ?? ''),
    start: isoDay(addDays(new Date(), 7)),
    end: isoDay(addDays(new Date(), 7)),
    note: '',
  });
  const [fix, setFix] = useState({ time: `${isoDay(new Date())}T09:00`, state: '0', reason: '' });
  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      setNotice({ text: done, kind: 'info' });
      reload();
    } catch (e) {
      setNotice({ text: (e as Error).message, kind: 'error' });
    }
  };
  const typeName = (id: number) => me.absenceTypes.find((t) => t.id === id)?.name ?? `Type ${id}`;
  return (
    <section aria-labelledby="requests-title">
      <h2 id="requests-title">Requests</h2>
      <Notice text={notice?.text ?? error} kind={notice?.kind ?? 'error'} />
      <form
        class="card"
        aria-labelledby="absence-form"
        onSubmit={(e) => {
          e.preventDefault();
          void act(
            () =>
              graphql(
                `
                  mutation ($input: MyAbsenceRequestInput!) {
                    createMyAbsenceRequest(input: $input) {
                      id
                    }
                  }
                `,
                {
                  input: { absenceTypeId: Number(form.type), startDate: form.start, endDate: form.end, note: form.note || null },
                },
              ),
            'Request sent.',
          );
        }}
      >
        <h3 id="absence-form">Ask for time off</h3>
        <label for="absence-type">Type</label>
        <select id="absence-type" value={form.type} onChange={(e) => setForm({ ...form, type: e.currentTarget.value })}>
          {me.absenceTypes.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
        <label for="absence-start">From</label>
        <input id="absence-start" type="date" value={form.start} onInput={(e) => setForm({ ...form, start: e.currentTarget.value })} required />
        <label for="absence-end">To</label>
        <input id="absence-end" type="date" value={form.end} onInput={(e) => setForm({ ...form, end: e.currentTarget.value })} required />
        <label for="absence-note">Note (optional)</label>
        <input id="absence-note" maxLength={1000} value={form.note} onInput={(e) => setForm({ ...form, note: e.currentTarget.value })} />
        <button type="submit">Send request</button>
      </form>
      <form
        class="card"
        aria-labelledby="correction-form"
        onSubmit={(e) => {
          e.preventDefault();
          void act(
            () =>
              graphql(
                `
                  mutation ($input: MyPunchCorrectionInput!) {
                    createMyPunchCorrection(input: $input) {
                      id
                    }
                  }
                `,
                {
                  input: { punchTime: `${fix.time}:00`, punchState: fix.state, reason: fix.reason },
                },
              ),
            'Correction sent.',
          );
        }}
      >
        <h3 id="correction-form">Forgot a punch?</h3>
        <label for="correction-time">When</label>
        <input id="correction-time" type="datetime-local" value={fix.time} onInput={(e) => setFix({ ...fix, time: e.currentTarget.value })} required />
        <label for="correction-state">Punch</label>
        <select id="correction-state" value={fix.state} onChange={(e) => setFix({ ...fix, state: e.currentTarget.value })}>
          {me.verificationStates.map((s) => (
            <option key={s.value} value={s.value}>
              {s.name}
            </option>
          ))}
        </select>
        <label for="correction-reason">Why</label>
        <input id="correction-reason" maxLength={500} value={fix.reason} onInput={(e) => setFix({ ...fix, reason: e.currentTarget.value })} required />
        <button type="submit">Send correction</button>
      </form>
      <h3>Your requests</h3>
      <ul class="requests">
        {(data?.me.absenceRequests.nodes ?? []).map((r) => (
          <li key={`a${r.id}`}>
            {typeName(r.absenceTypeId)}, {r.startDate} to {r.endDate}: <strong>{r.state}</strong>
            {r.state === 'pending' && (
              <CancelButton field="cancelMyAbsenceRequest" id={r.id} what={`the request from ${r.startDate}`} done="Request cancelled." act={act} />
            )}
          </li>
        ))}
        {(data?.me.punchCorrections.nodes ?? []).map((c) => (
          <li key={`c${c.id}`}>
            Correction of {c.firstDate} ({c.reason}): <strong>{c.state}</strong>
            {c.state === 'pending' && (
              <CancelButton field="cancelMyPunchCorrection" id={c.id} what={`the correction of ${c.firstDate}`} done="Correction cancelled." act={act} />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Team({ me }: { me: Me }) {
  const { data, error, reload } = useLoad<{
    me: {
      reports: { id: number; name: string; lastname: string }[];
      reportAbsenceRequests: { nodes: { id: number; employeeId: number; absenceTypeId: number; startDate: string; endDate: string; note: string | null }[] };
      reportPunchCorrections: { nodes: { id: number; employeeId: number; reason: string; firstDate: string }[] };
    };
  }>(TEAM, {}, 'team');
  const [notice, setNotice] = useState<string | null>(null);
  const who = (id: number) => {
    const r = data?.me.reports.find((p) => p.id === id);
    return r ? `${r.name} ${r.lastname}` : `Employee ${id}`;
  };
  const decide = async (field: string, id: number, done: string) => {
    try {
      await graphql(`mutation ($id: Int!) { ${field}(id: $id) { id } }`, { id });
      setNotice(done);
      reload();
    } catch (e) {
      setNotice((e as Error).message);
    }
  };
  const typeName = (id: number) => me.absenceTypes.find((t) => t.id === id)?.name ?? `Type ${id}`;
  return (
    <section aria-labelledby="team-title">
      <h2 id="team-title">Team requests</h2>
      <Notice text={notice ?? error} kind="info" />
      <ul class="requests">
        {(data?.me.reportAbsenceRequests.nodes ?? []).map((r) => (
          <li key={`a${r.id}`}>
            {who(r.employeeId)}: {typeName(r.absenceTypeId)}, {r.startDate} to {r.endDate}
            <button type="button" class="small" onClick={() => decide('approveReportAbsenceRequest', r.id, 'Approved.')}>
              Approve<span class="sr-only"> {who(r.employeeId)}'s request</span>
            </button>
            <button type="button" class="small secondary" onClick={() => decide('rejectReportAbsenceRequest', r.id, 'Rejected.')}>
              Reject<span class="sr-only"> {who(r.employeeId)}'s request</span>
            </button>
          </li>
        ))}
        {(data?.me.reportPunchCorrections.nodes ?? []).map((c) => (
          <li key={`c${c.id}`}>
            {who(c.employeeId)}: correction of {c.firstDate} ({c.reason})
            <button type="button" class="small" onClick={() => decide('approveReportPunchCorrection', c.id, 'Approved.')}>
              Approve<span class="sr-only"> {who(c.employeeId)}'s correction</span>
            </button>
            <button type="button" class="small secondary" onClick={() => decide('rejectReportPunchCorrection', c.id, 'Rejected.')}>
              Reject<span class="sr-only"> {who(c.employeeId)}'s correction</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Why a single sign-on came back without a session (`/me?signin=...`), in words. */
const SIGN_IN_REFUSALS: Record<string, string> = {
  no_employee: 'Your account is not linked to an employee here. Ask HR to record your work e-mail.',
  ambiguous: 'Your account matches more than one employee. Ask HR to correct the records.',
  expired: 'That sign-in took too long or was already used. Sign in again.',
  other_browser: 'That sign-in was not started in this browser. Sign in here.',
  failed: 'The identity provider did not confirm the sign-in. Try again.',
  unavailable: 'The identity provider could not be reached. Try again shortly.',
};

/** Sends the punches kept offline, oldest first; a refused one leaves the queue with its reason. */
async function flushQueue(): Promise<string[]> {
  const refused: string[] = [];
  for (const item of await queuedPunches()) {
    try {
      await graphql(PUNCH, {
        input: {
          punchState: item.punchState,
          latitude: item.latitude,
          longitude: item.longitude,
          accuracyM: item.accuracyM,
          offlineQueued: true,
          punchTime: item.punchTime,
        },
      });
      await dropQueued(item.id!);
    } catch (error) {
      if (error instanceof Offline) break;
      refused.push(`The punch of ${new Date(item.punchTime).toLocaleString()} was refused: ${(error as Error).message}`);
      await dropQueued(item.id!);
    }
  }
  return refused;
}

function App() {
  const [state, setState] = useState<'loading' | 'signedOut' | 'signedIn'>('loading');
  const [problem, setProblem] = useState<string | null>(null);
  const [me, setMe] = useState<Me | null>(null);
  const [tab, setTab] = useState<Tab>('today');
  const [queued, setQueued] = useState(0);
  const [round, setRound] = useState(0);
  const [singleSignOn, setSingleSignOn] = useState(false);

  const countQueue = () => queuedPunches().then((items) => setQueued(items.length));
  const flush = useCallback(async () => {
    if (!navigator.onLine) return;
    const refused = await flushQueue();
    await countQueue();
    if (refused.length > 0) setProblem(refused.join(' '));
    setRound((n) => n + 1);
  }, []);

  useEffect(() => {
    (async () => {
      try {
        let session;
        // An invitation link: its secret is in the fragment, which never reached a server.
        if (location.pathname === '/me/invitation' && location.hash.length > 1) {
          const secret = location.hash.slice(1);
          history.replaceState(null, '', '/me');
          session = await redeemInvitation(secret);
        } else {
          session = await readSession();
        }
        const refusal = new URLSearchParams(location.search).get('signin');
        if (refusal) setProblem(SIGN_IN_REFUSALS[refusal] ?? 'The sign-in did not work. Try again.');
        if (!session.signedIn || !session.csrfToken) {
          setSingleSignOn(session.singleSignOn === true);
          return setState('signedOut');
        }
        setCsrfToken(session.csrfToken);
        setMe((await graphql<{ me: Me }>(ME)).me);
        setState('signedIn');
        await countQueue();
        await flush();
      } catch (e) {
        setProblem((e as Error).message);
        setState('signedOut');
      }
    })();
    if ('serviceWorker' in navigator) void navigator.serviceWorker.register('/me/sw.js', { scope: '/me' }).catch(() => undefined);
    window.addEventListener('online', () => void flush());
  }, []);

  if (state === 'loading') return <p class="loading">Loading…</p>;
  if (state === 'signedOut' || !me) {
    return (
      <main class="signin">
        <h1>Timegate</h1>
        <Notice text={problem} kind="error" />
        {singleSignOn && (
          <p>
            <a class="button" href="/auth/oidc/login?app=me">
              Sign in with your organisation
            </a>
          </p>
        )}
        <p>Or open the link your company sent you to sign in on this phone.</p>
      </main>
    );
  }
  const now = new Date();
  const monday = addDays(now, -((now.getDay() + 6) % 7));
  const tabs = me.approver ? [...TABS, { id: 'team' as Tab, label: 'Team' }] : TABS;
  return (
    <>
      <header>
        <h1>
          {me.employee.name} {me.employee.lastname}
        </h1>
        <button
          type="button"
          class="link"
          onClick={async () => {
            await signOut();
            setState('signedOut');
          }}
        >
          Sign out
        </button>
      </header>
      <nav aria-label="Sections">
        {tabs.map((t) => (
          <button key={t.id} type="button" aria-current={tab === t.id ? 'page' : undefined} onClick={() => setTab(t.id)}>
            {t.label}
          </button>
        ))}
      </nav>
      <main key={round}>
        <Notice text={problem} kind="error" />
        {tab === 'today' && <Today me={me} queued={queued} onQueued={() => void countQueue()} />}
        {tab === 'week' && <Days title="This week" start={isoDay(monday)} end={isoDay(addDays(monday, 6))} />}
        {tab === 'month' && (
          <Days
            title="This month"
            start={isoDay(new Date(now.getFullYear(), now.getMonth(), 1))}
            end={isoDay(new Date(now.getFullYear(), now.getMonth() + 1, 0))}
          />
        )}
        {tab === 'balances' && <Balances />}
        {tab === 'requests' && <Requests me={me} />}
        {tab === 'team' && <Team me={me} />}
      </main>
    </>
  );
}

render(<App />, document.getElementById('me')!);

/** Withdraws one of the employee's own pending requests or corrections (named for a screen reader). */
function CancelButton(props: {
  field: 'cancelMyAbsenceRequest' | 'cancelMyPunchCorrection';
  id: number;
  /** What is cancelled, read after "Cancel" by a screen reader. */
  what: string;
  /** The notice once it is done. */
  done: string;
  act: (work: () => Promise<unknown>, done: string) => Promise<void>;
}) {
  const cancel = () => graphql(`mutation ($id: Int!) { ${props.field}(id: $id) { id } }`, { id: props.id });
  return (
    <button type="button" class="small" onClick={() => props.act(cancel, props.done)}>
      Cancel<span class="sr-only"> {props.what}</span>
    </button>
  );
}
