// The demo PWA: a card registration or a payment in the hosted checkout, in this same tab.
// The page starts a flow, asks its backend for the session (the API key lives there), sends
// the tab to the gateway's checkout_url and, when the gateway sends the tab back to
// /checkout-callback?status=…, hands that URL to the coordinator. The coordinator lives in
// sessionStorage, so the page that comes back (a new page load) finds the flow where it was.
import { DEFAULT_STORAGE_KEY, handleReturnPage, loadPayHandoff } from '/payhandoff/lib/web/src/index.js';

const RETURN_URL = `${location.origin}/checkout-callback`;
const $ = (id) => document.getElementById(id);

// What the Chromium scenarios read (they also read sessionStorage directly).
const demo = { answers: [], errors: [], unhandled: [], ready: false };
window.payhandoffDemo = demo;
window.addEventListener('unhandledrejection', (event) => demo.unhandled.push(String(event.reason)));

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
    const reply = await fetch(`/backend/confirmations?id=${encodeURIComponent(id)}`);
    if (!reply.ok) continue;
    show(coordinator.send({ type: 'checkout.confirmation', flow_id: flow.id, now: Date.now(), event: await reply.json() }), 'webhook relayed');
    render(coordinator);
  }
  return waiting;
}

async function main() {
  let payhandoff;
  try {
    payhandoff = await loadPayHandoff();
  } catch (error) {
    $('outcome').textContent = 'unavailable';
    showError(error);
    return;
  }
  let coordinator;
  try {
    coordinator = payhandoff.openCoordinator();
  } catch (error) {
    // A damaged snapshot, or one saved by a newer version of this page: say so, keep it.
    $('outcome').textContent = 'snapshot unreadable';
    showError(error);
    $('start-over').hidden = false;
    $('start-over').onclick = () => {
      sessionStorage.removeItem(DEFAULT_STORAGE_KEY);
      location.replace('/');
    };
    return;
  }
  demo.coordinator = coordinator;
  show(handleReturnPage(coordinator), 'this page');
  render(coordinator);

  let started = coordinator.snapshot().flows.length;
  const start = (kind) => async () => {
    try {
      started += 1;
      const answer = coordinator.send({ type: 'checkout.start', flow_id: `${kind}-${started}`, now: Date.now(), kind, return_url: RETURN_URL });
      show(answer, 'start');
      render(coordinator);
      await perform(coordinator, answer);
    } catch (error) {
      showError(error);
    }
  };
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

  // Poll the backend while a flow waits for its webhook (a few seconds here; longer in an app).
  for (let i = 0; i < 20 && (await relayConfirmations(coordinator)); i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

main().catch(showError);
