// Timegate's operations console: a client of the service's own GraphQL API and subscriptions.
import { render } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useState } from 'preact/hooks';
import { Provider, useQuery } from '@urql/preact';
import { createApiClient, errorCode, errorMessage, type Credential } from './client';
import { SessionContext } from './app-context';
import { ErrorNote, PageTitle } from './components';
import { SessionDocument, WorkspaceNameDocument } from './gql';
import { href, useRoute } from './router';
import { endSession, fetchSession, forgetKey, reaches, rememberKey, SIGN_IN_NOTICES, storedKey, type PersonSession } from './session';
import { PAGES, SECTIONS } from './page-table';
import { Overview } from './pages/overview';
import './styles.css';

function SignIn({ notice, singleSignOn, onKey }: { notice: string | null; singleSignOn: boolean; onKey: (key: string) => void }) {
  const [key, setKey] = useState('');
  return (
    <main class="signin">
      <h1>Timegate</h1>
      {singleSignOn && (
        <div class="sso">
          <a class="button" href="/auth/oidc/login">
            Sign in with your organisation
          </a>
          <p class="hint">Or, for installs and machines, with an API key:</p>
        </div>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim()) onKey(key.trim());
        }}
      >
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="off"
          value={key}
          onInput={(e) => setKey((e.target as HTMLInputElement).value)}
          required
        />
        <button type="submit">Sign in</button>
        <ErrorNote message={notice} />
        <p class="hint">The key is kept in this browser tab only, until you sign out or close it.</p>
      </form>
    </main>
  );
}

/** Who is signed in, as the header shows it. */
interface Signer {
  keyId: number | null;
  label: string;
  detail: string;
  scopes: string[];
}

/** Signed in with a key: the key is asked for its name and scopes. */
function KeyShell({ onSignOut }: { onSignOut: (notice: string | null) => void }) {
  const [session] = useQuery({ query: SessionDocument });
  const code = errorCode(session.error);
  if (code === 'unauthenticated' || code === 'forbidden') {
    queueMicrotask(() => onSignOut(code === 'unauthenticated' ? 'This API key is unknown or was revoked.' : 'This API key has no access to the console.'));
    return null;
  }
  if (!session.data) return <main class="loading">{session.error ? <ErrorNote message={errorMessage(session.error)} /> : 'Loading…'}</main>;
  const key = session.data.currentApiKey;
  return <Shell signer={{ keyId: key.id, label: key.name, detail: key.scopes.join(', '), scopes: key.scopes }} onSignOut={onSignOut} />;
}

function Shell({ signer, onSignOut }: { signer: Signer; onSignOut: (notice: string | null) => void }) {
  const [workspace] = useQuery({ query: WorkspaceNameDocument });
  const route = useRoute();
  const value = { keyId: signer.keyId, keyName: signer.label, scopes: signer.scopes, workspace: workspace.data?.workspace.name ?? null };
  const [page = '', id] = route;
  // A page the signer's scopes do not reach is not shown even by its address.
  const pages = PAGES.filter((p) => reaches(signer.scopes, p.area));
  const current = pages.find((p) => p.path === page);
  const view = current ? current.view(id) : <Overview />;
  const title = current?.label ?? 'Overview';
  // On a narrow screen the navigation is folded behind "Menu" (it was 22 links above every page);
  // choosing a page folds it again, before the new page is painted (never a frame with the new
  // page under a list still open).
  const [menuOpen, setMenuOpen] = useState(false);
  useLayoutEffect(() => setMenuOpen(false), [page, id]);
  return (
    <SessionContext.Provider value={value}>
      <a class="skip" href="#content" onClick={(e) => (e.preventDefault(), document.getElementById('content')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <div class="brand">
          <strong>Timegate</strong>
          <span class="workspace">{value.workspace ?? ''}</span>
        </div>
        <div class="who">
          <span class="key" title={signer.keyId === null ? 'Your roles' : "The key's scopes"}>
            {signer.label} · {signer.detail}
          </span>
          <button type="button" class="link" onClick={() => onSignOut(null)}>
            Sign out
          </button>
        </div>
      </header>
      <div class="frame">
        <nav aria-label="Pages">
          <button type="button" class="menu-toggle secondary" aria-expanded={menuOpen} aria-controls="nav-pages" onClick={() => setMenuOpen(!menuOpen)}>
            Menu<span class="menu-current"> · {title}</span>
          </button>
          <div id="nav-pages" class={menuOpen ? 'nav-pages open' : 'nav-pages'}>
            {SECTIONS.map((section) => {
              const listed = pages.filter((p) => p.section === section);
              return (
                listed.length > 0 && (
                  <div class="nav-section">
                    <h2>{section}</h2>
                    <ul>
                      {listed.map((p) => (
                        <li>
                          <a href={href(p.path)} aria-current={page === p.path ? 'page' : undefined}>
                            {p.label}
                          </a>
                        </li>
                      ))}
                    </ul>
                  </div>
                )
              );
            })}
          </div>
        </nav>
        <main id="content" tabIndex={-1}>
          <h1 class="page-title">{title}</h1>
          <PageTitle.Provider value={title}>{view}</PageTitle.Provider>
        </main>
      </div>
    </SessionContext.Provider>
  );
}

/** The sign-in state: a key, a single sign-on session, or nobody (with what the sign-in page offers). */
type SignedIn = { kind: 'key'; key: string } | { kind: 'session'; session: PersonSession } | { kind: 'nobody'; singleSignOn: boolean } | { kind: 'loading' };

/** A `?signin=<reason>` left by a refused single sign-on, read once and taken out of the address. */
function signInNotice(): string | null {
  const reason = new URLSearchParams(location.search).get('signin');
  if (reason === null) return null;
  history.replaceState(null, '', `${location.pathname}${location.hash}`);
  return SIGN_IN_NOTICES[reason] ?? SIGN_IN_NOTICES.failed!;
}

function App() {
  const key = storedKey();
  // The page says whether a session cookie came with it: only then is there a session to wait for.
  const maybeSession = document.getElementById('app')?.dataset.session !== undefined;
  const [state, setState] = useState<SignedIn>(key ? { kind: 'key', key } : maybeSession ? { kind: 'loading' } : { kind: 'nobody', singleSignOn: false });
  const [notice, setNotice] = useState<string | null>(signInNotice);
  const [singleSignOn, setSingleSignOn] = useState(false);
  // Asked once at start: whether a single sign-on session is open (the cookie is invisible to
  // scripts) and whether the sign-in page offers single sign-on.
  useEffect(() => {
    fetchSession().then(
      (answer) => {
        setSingleSignOn(answer.signedIn || answer.singleSignOn);
        setState((current) => {
          if (current.kind === 'key' || current.kind === 'session') return current;
          return answer.signedIn ? { kind: 'session', session: answer } : { kind: 'nobody', singleSignOn: answer.singleSignOn };
        });
      },
      (error: Error) => {
        setNotice(error.message);
        setState((current) => (current.kind === 'loading' ? { kind: 'nobody', singleSignOn: false } : current));
      },
    );
  }, []);
  const signOut = (message: string | null) => {
    forgetKey();
    if (state.kind === 'session') void endSession(state.session.csrfToken);
    setNotice(message);
    setState({ kind: 'nobody', singleSignOn: singleSignOn || state.kind === 'session' });
  };
  const credential: Credential | null =
    state.kind === 'key' ? { kind: 'key', key: state.key } : state.kind === 'session' ? { kind: 'session', csrfToken: state.session.csrfToken } : null;
  const api = useMemo(
    () =>
      credential
        ? createApiClient(credential, () =>
            signOut(
              credential.kind === 'key'
                ? 'This API key is unknown or was revoked.'
                : 'Your session has ended (it expired, or you signed out elsewhere). Sign in again.',
            ),
          )
        : null,
    [state],
  );
  useEffect(() => () => api?.close(), [api]);
  const client = api?.client ?? null;
  if (state.kind === 'loading') return <main class="loading">Loading…</main>;
  if (!client || state.kind === 'nobody') {
    return (
      <SignIn
        notice={notice}
        singleSignOn={singleSignOn || (state.kind === 'nobody' && state.singleSignOn)}
        onKey={(k) => {
          rememberKey(k);
          setNotice(null);
          setState({ kind: 'key', key: k });
        }}
      />
    );
  }
  return (
    <Provider value={client}>
      {state.kind === 'key' ? (
        <KeyShell onSignOut={signOut} />
      ) : (
        <Shell
          signer={{
            keyId: null,
            label: state.session.name ?? state.session.email ?? state.session.subject,
            detail: state.session.roles.join(', '),
            scopes: state.session.scopes,
          }}
          onSignOut={signOut}
        />
      )}
    </Provider>
  );
}

render(<App />, document.getElementById('app')!);
