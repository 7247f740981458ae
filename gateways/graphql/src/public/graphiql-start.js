// Starts GraphiQL (UMD globals React, ReactDOM, GraphiQL, all served from this origin) on this
// server's GraphQL endpoint. Every request needs an API key, introspection included, and the key
// goes in the Headers tab, which opens first. Until it holds one, nothing is sent and GraphiQL shows
// what to do; once a key is there GraphiQL is given a new fetcher, which makes it fetch the schema
// (completion, docs) with the key. Headers are not persisted, so a key is not left in localStorage.
/* global React, ReactDOM, GraphiQL */
const container = document.getElementById('graphiql');
const endpoint = new URL(container.dataset.endpoint, window.location.href).href;
const root = ReactDOM.createRoot(container);

const NO_KEY = 'Put your API key in the Headers tab below: {"API-KEY": "rk_..."}. Create one in the console (/console/); npm start prints a development key.';

const defaultQuery = `# Put your API key in the Headers tab below, then run (Ctrl-Enter).
# One unit per field that calls the marketplace; introspection is free.
{
  retailProduct(asin: "B0FXTUS001", domain: US) {
    title
    price { value currency display }
    isPrime
  }
}
`;

/** The credentials in a headers object or the Headers tab's text: API-KEY or Authorization, any case. */
function credentialsIn(headers) {
  let parsed = headers;
  if (typeof headers === 'string') {
    try {
      parsed = JSON.parse(headers);
    } catch {
      return '';
    }
  }
  if (!parsed || typeof parsed !== 'object') return '';
  const entry = Object.entries(parsed).find(([name]) => ['api-key', 'authorization'].includes(name.toLowerCase()));
  return entry ? String(entry[1]).trim() : '';
}

function keyAwareFetcher() {
  const fetcher = GraphiQL.createFetcher({ url: endpoint });
  return (params, options) => (credentialsIn(options?.headers) ? fetcher(params, options) : Promise.resolve({ errors: [{ message: NO_KEY }] }));
}

let credentials = '';
let debounce;
function onEditHeaders(text) {
  clearTimeout(debounce);
  debounce = setTimeout(() => {
    const next = credentialsIn(text);
    if (!next || next === credentials) return;
    credentials = next;
    render();
  }, 400);
}

function render() {
  root.render(
    React.createElement(GraphiQL, {
      fetcher: keyAwareFetcher(),
      defaultQuery,
      defaultHeaders: JSON.stringify({ 'API-KEY': '' }, null, 2),
      defaultEditorToolsVisibility: 'headers',
      shouldPersistHeaders: false,
      onEditHeaders,
    }),
  );
}
render();
