// The demo PWA: a card registration or a payment in the hosted checkout, in this same tab.
// The page starts a flow, asks its backend for the session (the API key lives there), sends
// the tab to the gateway's checkout_url and, when the gateway sends the tab back to
// /checkout-callback/ph_<nonce>?status=… (the static host's rewrite rule serves this page
// there), hands that URL to the coordinator. The coordinator lives in sessionStorage, so the
// page that comes back (a new page load) finds the flow where it was.
//
// What an installed PWA meets, handled here: a service worker (sw.js) keeps the shell and the
// module for a return while offline; a page restored from the back/forward cache (pageshow
// with persisted) shows what the storage says now and answers nothing twice; a storage that
// is full or refused stops a start before the tab leaves (storage_unavailable).
import { DEFAULT_STORAGE_KEY, handleReturnPage, loadPayHandoff } from '/payhandoff/lib/web/src/index.js';

const RETURN_URL = `${location.origin}/checkout-callback`;
const WASM = document.querySelector('meta[name="payhandoff-wasm"]').content;
const $ = (id) => document.getElementById(id);

// What the browser scenarios read (they also read sessionStorage directly).
// opened: the URL this page was loaded with (handleReturnPage replaces a return URL once handled).
const demo = { answers: [], errors: [], unhandled: [], violations: [], pageshows: [], ready: false, wasm: WASM, opened: location.href };
// How this page was loaded: navigate, reload or back_forward (history, from the network; a page
// restored from the back/forward cache keeps its first load's type and records a pageshow).
demo.navigation = performance.getEntriesByType('navigation')[0]?.type ?? null;
Object.defineProperty(demo, 'heldCaches', { enumerable: false, writable: true, value: [] });
window.payhandoffDemo = demo;
window.addEventListener('unhandledrejection', (event) => demo.unhandled.push(String(event.reason)));
// The page runs under a strict CSP (demo/server.mjs): anything it blocks is a bug of the page.
document.addEventListener('securitypolicyviolation', (event) => demo.violations.push(`${event.violatedDirective}: ${event.blockedURI}`));

function log(text) {
  const item = document.createElement('li');
  item.textContent = text;
  $('log').append(item);
}

function showError(error) {
  const code = error && error.code ? error.code : error && error.name ? error.name : 'error';
  demo.errors.push({ code, field: error && 'field' in error ? error.field : null, message: String(error && error.message) });
  const box = $('error');
  box.hidden = false;
  box.dataset.code = code;
  box.textContent = `${code}: ${error && error.message ? error.message : error}`;
}

function show(answer, what) {
  const transition = answer.transitions[0];
  demo.answers.push({ what, outcome: answer.outcome, state: transition ? transition.state : null, error: answer.error || null });
  $('outcome').textContent = answer.outcome;
  $('outcome').dataset.outcome = answer.outcome;
  $('last-state').textContent = transition ? `→ ${transition.flow_id}: ${transition.state}` : '';
  $('last-state').dataset.state = transition ? transition.state : '';
  log(`${what}: ${answer.outcome}${transition ? ` (${transition.flow_id} ${transition.state})` : ''}${answer.error ? ` ${answer.error.code}` : ''}`);
  if (answer.outcome === 'rejected') showError(answer.error);
}

function render(coordinator) {
  const body = $('flows').tBodies[0];
  body.replaceChildren();
  const flows = coordinator.snapshot().flows;
  for (const flow of flows) {
    const row = body.insertRow();
    row.dataset.flowId = flow.id;
    row.dataset.state = flow.state;
    const callback = flow.callback || {};
    const confirmation = flow.confirmation ? flow.confirmation.data : null;
    const detail = flow.failure_reason || callback.reason
      || (confirmation && confirmation.last_four ? `${confirmation.brand} ····${confirmation.last_four}` : '')
      || (confirmation && confirmation.amount ? `paid ${confirmation.amount}` : '');
    for (const [name, text] of [['id', flow.id], ['kind', flow.kind], ['state', flow.state],
      ['object', callback.card_id || callback.payment_id || ''], ['detail', detail]]) {
      const cell = row.insertCell();
      cell.className = name;
      cell.textContent = text;
    }
    if (flow.state === 'in_browser' && flow.session) {
      // Came back (the back button) while the checkout is open: let the user go on with it.
      const link = document.createElement('a');
      link.href = flow.session.checkout_url;
      link.textContent = 'continue the checkout';
      row.cells[4].append(link);
    }
  }
  $('start-over').hidden = flows.length === 0;
}

/** Performs an answer's effects: the session from the backend, then the gateway in this tab. */
async function perform(coordinator, answer) {
  for (const transition of answer.transitions) {
    for (const effect of transition.effects) {
      if (effect.type === 'create_session') {
        // The return URL is the one the core handed out (it carries the nonce): send it as is.
        const reply = await fetch('/backend/sessions', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ kind: effect.kind, return_url: effect.return_url }),
        });
        const gateway = await reply.json();
        const next = coordinator.send({
          type: 'checkout.session', flow_id: transition.flow_id, now: Date.now(),
          session: { kind: effect.kind, status: gateway.status, body: gateway.body },
        });
        show(next, 'session');
        render(coordinator);
        await perform(coordinator, next);
      } else if (effect.type === 'open_browser') {
        // Saved (persist) before the tab leaves: the page that comes back restores it.
        show(coordinator.send({ type: 'checkout.browser_opened', flow_id: transition.flow_id, now: Date.now() }), 'browser opened');
        location.assign(effect.url);
        return;
      } else if (effect.type !== 'persist') {
        log(`effect: ${effect.type}${effect.reason ? ` (${effect.reason})` : ''}`);
      }
    }
  }
}

/** The gateway's webhook reached the backend; relaying it is what confirms a checkout. */
async function relayConfirmations(coordinator) {
  let waiting = false;
  for (const flow of coordinator.snapshot().flows) {
    if (flow.type !== 'checkout' || flow.state !== 'awaiting_confirmation' || !flow.callback) continue;
    waiting = true;
    const id = flow.callback.card_id || flow.callback.payment_id;
    let reply;
    try {
      reply = await fetch(`/backend/confirmations?id=${encodeURIComponent(id)}`);
    } catch {
      continue; // offline: the flow waits, and the next poll (or page) asks again
    }
    if (!reply.ok) continue;
    show(coordinator.send({ type: 'checkout.confirmation', flow_id: flow.id, now: Date.now(), event: await reply.json() }), 'webhook relayed');
    render(coordinator);
  }
  return waiting;
}

/** Polls the backend while a flow waits for its webhook (a few seconds here; longer in an app). */
let polling = false;
async function pollConfirmations(coordinator) {
  if (polling) return;
  polling = true;
  try {
    for (let i = 0; i < 20 && (await relayConfirmations(coordinator)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    polling = false;
  }
}

/** The installed-PWA shape: a service worker that keeps the shell and the module (sw.js). It
 *  needs a secure context (https, or http://127.0.0.1 and localhost); without one, or in a
 *  browser without service workers, the page works as before, online only. */
async function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) {
    $('offline').textContent = 'no service worker here';
    demo.serviceWorker = 'unsupported';
    return;
  }
  try {
    demo.serviceWorkerStep = 'register';
    await navigator.serviceWorker.register(`/sw.js?wasm=${encodeURIComponent(WASM)}`);
    demo.serviceWorkerStep = 'ready';
    await navigator.serviceWorker.ready;
    demo.serviceWorkerStep = 'caches';
    // WebKit, in WebKitGTK's automation session (an ephemeral data store), dropped the entries
    // of a Cache that no page had open: the worker, restarted after the trip to the gateway,
    // found its shell cache empty and the offline return failed. A page that holds the caches
    // open keeps them (README, engine findings).
    demo.heldCaches = await Promise.all((await caches.keys()).map((name) => caches.open(name)));
    demo.serviceWorker = 'ready';
    $('offline').textContent = 'ready';
  } catch (error) {
    demo.serviceWorker = `failed: ${error}`;
    $('offline').textContent = `unavailable (${error && error.name})`;
  }
}

async function main() {
  // A small router, as an SPA has: every URL of the app is this page; the return URL's path
  // (and its /ph_<nonce> segment) is the return route, and the coordinator reads it whole.
  demo.route = location.pathname === '/checkout-callback' || location.pathname.startsWith('/checkout-callback/') ? 'return' : 'home';
  $('route').textContent = demo.route;
  demo.controlled = navigator.serviceWorker ? navigator.serviceWorker.controller !== null : false;
  let payhandoff;
  try {
    payhandoff = await loadPayHandoff({ wasm: WASM });
  } catch (error) {
    $('outcome').textContent = 'unavailable';
    showError(error);
    return;
  }
  let coordinator;
  try {
    coordinator = payhandoff.openCoordinator();
  } catch (error) {
    // A damaged snapshot, or one saved by a newer version of this page: say so, keep it. Or a
    // browser that refuses this page any storage: no flow can start, since none would survive
    // the trip to the gateway.
    $('outcome').textContent = error && error.code === 'storage_unavailable' ? 'storage unavailable' : 'snapshot unreadable';
    showError(error);
    $('start-over').hidden = false;
    $('start-over').onclick = () => {
      sessionStorage.removeItem(DEFAULT_STORAGE_KEY);
      location.replace('/');
    };
    return;
  }
  demo.coordinator = coordinator;
  try {
    show(handleReturnPage(coordinator), 'this page');
  } catch (error) {
    showError(error); // storage_unavailable: the answer could not be saved, so nothing changed
  }
  render(coordinator);

  // Back from the back/forward cache (WebKit restores this page; openCoordinator keeps it out
  // of Chromium's and Firefox's, which put sessionStorage back when they restored it): the page
  // is as it was when the tab left, while later pages may have moved the flows on. The
  // coordinator reads its storage on every call, so showing the flows again is all it takes;
  // the URL of this page was answered when it loaded and is not answered again.
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    demo.pageshows.push(Date.now());
    try {
      render(coordinator);
      pollConfirmations(coordinator).catch(showError);
    } catch (error) {
      showError(error);
    }
  });

  const start = (kind) => async () => {
    try {
      // Numbered after the flows the storage holds now (another page of the tab may have added some).
      const number = coordinator.snapshot().flows.length + 1;
      const answer = coordinator.send({ type: 'checkout.start', flow_id: `${kind}-${number}`, now: Date.now(), kind, return_url: $('return-url').value });
      show(answer, 'start');
      render(coordinator);
      await perform(coordinator, answer);
    } catch (error) {
      showError(error);
    }
  };
  $('return-url').value = RETURN_URL;
  $('register-card').onclick = start('cards');
  $('pay').onclick = start('payments');
  $('start-over').onclick = () => {
    sessionStorage.removeItem(DEFAULT_STORAGE_KEY);
    location.replace('/');
  };
  $('register-card').disabled = false;
  $('pay').disabled = false;
  demo.ready = true;
  document.body.dataset.ready = 'true';

  registerServiceWorker();
  await pollConfirmations(coordinator);
}

main().catch(showError);
