// Run by the browser scenarios (scenarios.py, in each engine): every kind of bad input a page can meet, each
// answered by a PayHandoffError from a call or from a promise the page awaits, never by an
// unhandled rejection. Results go to window.badInput and the list on the page.
import { ABI_VERSION, PayHandoffError, handleReturnPage, loadPayHandoff } from '/payhandoff/lib/web/src/index.js';

// The module under test (scenarios.py opens this page with ?wasm=/payhandoff/<module>).
const wasm = new URL(location.href).searchParams.get('wasm') || '/payhandoff/payhandoff-checkout.wasm';
const results = [];
const unhandled = [];
window.addEventListener('unhandledrejection', (event) => unhandled.push(String(event.reason)));

function record(name, ok, detail) {
  results.push({ name, ok, detail });
  const item = document.createElement('li');
  item.textContent = `${ok ? 'ok' : 'FAIL'} ${name}: ${detail}`;
  document.getElementById('results').append(item);
}

/** Runs `body`, which must throw (or reject with) a PayHandoffError of `code` (and `field`). */
async function expectError(name, code, field, body) {
  try {
    await body();
    record(name, false, 'no error');
  } catch (error) {
    const ok = error instanceof PayHandoffError && error.code === code && (field === undefined || error.field === field);
    record(name, ok, `${error && error.name} ${error && error.code} [${error && error.field}] ${error && error.message}`);
  }
}

async function run() {
  await expectError('a wasm URL that answers 404', 'load_failed', null, () => loadPayHandoff({ wasm: '/payhandoff/missing.wasm' }));
  await expectError('a wasm URL that answers something else', 'load_failed', null, () => loadPayHandoff({ wasm: '/payhandoff/package.json' }));
  await expectError('a wasm URL on a closed port', 'load_failed', null, () => loadPayHandoff({ wasm: 'http://127.0.0.1:9/payhandoff.wasm' }));
  // A rejection nobody awaits would be an unhandled rejection: loadPayHandoff must not leave one behind.
  loadPayHandoff({ wasm: '/payhandoff/missing.wasm' }).catch(() => {});

  const payhandoff = await loadPayHandoff({ wasm });
  record(`${wasm} loads`, payhandoff.abiVersion() === ABI_VERSION, `ABI ${payhandoff.abiVersion()}, ${payhandoff.version()}`);

  const coordinator = payhandoff.createCoordinator();
  for (const url of [42, null, undefined, { href: location.href }, new URL(location.href)]) {
    await expectError(`handleUrl(${Object.prototype.toString.call(url)})`, 'invalid_argument', 'url', () => coordinator.handleUrl(url));
  }
  await expectError('parseCheckoutCallback(a number)', 'invalid_argument', 'url', () => payhandoff.parseCheckoutCallback(7, { kind: 'cards', return_url: location.origin }));
  await expectError('handleUrl with a time that is not an integer', 'invalid_argument', 'now_ms', () => coordinator.handleUrl(location.href, 1.5));
  await expectError('an event that JSON cannot write', 'invalid_json', 'event_json', () => coordinator.send({ type: 'tick', now: 1n }));
  record('this page is not a return URL', handleReturnPage(coordinator).outcome === 'not_ours', handleReturnPage(coordinator).outcome);

  // What the checkout module lacks, on a page that loaded it: a typed error naming it, status -6.
  if (!payhandoff.pos) {
    const full = 'needs the full module: loadPayHandoff({ pos: true })';
    const unsupported = async (name, field, body) => {
      await expectError(name, 'unsupported', field, body);
      const last = results[results.length - 1];
      if (last.ok && !last.detail.endsWith(full)) Object.assign(last, { ok: false, detail: `${last.detail} (expected: ${full})` });
    };
    await unsupported('buildPosUrl on the checkout module', 'posBuildUrl', () => payhandoff.buildPosUrl({ transaction: 'venta' }));
    await expectError('a pos.* event on the checkout module (its core refuses it)', 'unsupported', 'type', () => coordinator.send({ type: 'pos.start', flow_id: 'p1', now: 1 }));
    await expectError('loadPayHandoff({ pos: true }) of the checkout module', 'load_failed', null, () => loadPayHandoff({ pos: true, wasm }));
  }

  const key = 'payhandoff.bad-input';
  const snapshot = coordinator.snapshot();
  const stored = [
    ['a damaged snapshot', '{"version":1,"flows":[', 'invalid_json'],
    ['a snapshot from a newer version', JSON.stringify({ ...snapshot, version: snapshot.version + 1 }), 'unsupported_version'],
  ];
  for (const [name, text, code] of stored) {
    sessionStorage.setItem(key, text);
    await expectError(`${name} in sessionStorage`, code, undefined, () => payhandoff.openCoordinator({ key }));
    record(`${name} is left in sessionStorage`, sessionStorage.getItem(key) === text, 'unchanged');
  }
  sessionStorage.removeItem(key);
  coordinator.dispose();
  await expectError('a disposed coordinator', 'invalid_argument', 'coordinator', () => coordinator.snapshot());

  await new Promise((resolve) => setTimeout(resolve, 200));
  record('no unhandled rejection', unhandled.length === 0, unhandled.join('; ') || 'none');
}

run()
  .catch((error) => record('the run itself', false, String(error && error.stack)))
  .finally(() => {
    window.badInput = results;
    document.body.dataset.done = 'true';
  });
