// The GraphQL explorer at /graphql (for a browser): GraphiQL from npm, bundled and served by the
// service, so it works without internet. The API key is asked for once per tab and sent as the
// Authorization header, and with subscriptions over graphql-ws.
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'graphiql/graphiql.css';
import './graphiql.css';

const KEY = 'timegate.apiKey';

function Explorer() {
  const [key, setKey] = useState(sessionStorage.getItem(KEY) ?? '');
  const [draft, setDraft] = useState('');
  if (!key) {
    return (
      <main className="key-form">
        <h1>Timegate GraphQL explorer</h1>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            sessionStorage.setItem(KEY, draft.trim());
            setKey(draft.trim());
          }}
        >
          <label htmlFor="api-key">API key</label>
          <input id="api-key" type="password" autoComplete="off" value={draft} onChange={(e) => setDraft(e.target.value)} required />
          <button type="submit">Open the explorer</button>
        </form>
      </main>
    );
  }
  const fetcher = createGraphiQLFetcher({
    url: `${location.origin}/graphql`,
    subscriptionUrl: `${location.origin.replace(/^http/, 'ws')}/graphql`,
    headers: { authorization: `Bearer ${key}` },
    wsConnectionParams: { authorization: `Bearer ${key}` },
  });
  // `/graphql#query=…` opens the explorer with that operation (a link can carry an example).
  const linked = new URLSearchParams(location.hash.slice(1)).get('query');
  // In a main landmark under a level-one heading (for screen readers), as every console page is.
  return (
    <main className="explorer">
      <h1 className="sr-only">Timegate GraphQL explorer</h1>
      <GraphiQL fetcher={fetcher} defaultQuery={'{\n  workspace {\n    name\n  }\n}\n'} query={linked ?? undefined} />
    </main>
  );
}

/**
 * GraphiQL's editors are CodeMirror text areas without an accessible name: name them (operation,
 * variables, headers, result) as they appear, so a screen reader says which editor has focus.
 */
function labelEditors(): void {
  for (const area of document.querySelectorAll<HTMLTextAreaElement>('textarea:not([aria-label])')) {
    const tools = area.closest('.graphiql-editor-tool');
    const editors = tools ? [...tools.querySelectorAll('.graphiql-editor')] : [];
    const index = editors.findIndex((editor) => editor.contains(area));
    const label = area.closest('.graphiql-query-editor')
      ? 'GraphQL operation'
      : area.closest('.result-window')
        ? 'Result'
        : tools
          ? (['Variables', 'Headers'][index] ?? 'Editor')
          : null;
    if (label) area.setAttribute('aria-label', label);
  }
}

new MutationObserver(labelEditors).observe(document.body, { childList: true, subtree: true });
createRoot(document.getElementById('graphiql')!).render(<Explorer />);
