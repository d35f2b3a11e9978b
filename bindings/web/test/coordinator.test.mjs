// The page's coordinator (openCoordinator) over a Web Storage stand-in: a card registration
// across a "reload" (the coordinator dropped and opened again from storage), a forged return
// URL, the same return URL twice, the relayed webhook; then everything a page can get wrong
// with storage, the location and arguments — each a PayHandoffError, nothing changed.
import test from 'node:test';
import assert from 'node:assert/strict';
import { api, payhandoff, MemoryStorage, T0 } from './support.mjs';

const RETURN_URL = 'https://shop.example/checkout-callback';
const KEY = api.DEFAULT_STORAGE_KEY;

/** The return URL the core handed out (create_session), the nonce it holds, and where. */
function handedOut(answer, coordinator, flowId) {
  const effect = answer.transitions[0].effects.find((e) => e.type === 'create_session');
  const { nonce } = coordinator.snapshot().flows.find((f) => f.id === flowId);
  const at = effect.return_url.indexOf(nonce);
  assert.ok(at >= 0 && effect.return_url.indexOf(nonce, at + 1) < 0, 'the nonce appears once in the return URL');
  assert.notEqual(effect.return_url, RETURN_URL);
  return { url: effect.return_url, nonce, at };
}

/** What the gateway redirects to: the handed-out URL plus its own query parameters. */
const callback = (returnUrl, query) => `${returnUrl}${returnUrl.includes('?') ? '&' : '?'}${query}`;

/** The same URL with the nonce's last character changed (still a well-formed nonce). */
function forge(url, { nonce, at }) {
  const last = nonce.at(-1) === '0' ? '1' : '0';
  return url.slice(0, at) + nonce.slice(0, -1) + last + url.slice(at + nonce.length);
}

const state = (coordinator, id) => coordinator.snapshot().flows.find((f) => f.id === id)?.state;

test('a card registration survives a reload: start, session, browser, reload, callback, webhook', (t) => {
  const storage = new MemoryStorage();
  let coordinator = payhandoff.openCoordinator({ storage });
  t.after(() => coordinator.dispose());
  let a = coordinator.send({ type: 'checkout.start', flow_id: 'c1', now: T0, kind: 'cards', return_url: RETURN_URL });
  assert.equal(a.outcome, 'accepted');
  const out = handedOut(a, coordinator, 'c1');
  assert.equal(storage.writes, 1, 'persisted on persist');
  assert.equal(storage.getItem(KEY), coordinator.snapshotJson());

  a = coordinator.send({
    type: 'checkout.session', flow_id: 'c1', now: T0 + 1000,
    session: { kind: 'cards', status: 201, body: { data: { registration: { checkout_url: 'https://gateway.example/r/1' } } } },
  });
  // return_to: the https host and the path the gateway is sent, nonce segment included (issue 38).
  assert.deepEqual(a.transitions[0].effects[0], { type: 'open_browser', url: 'https://gateway.example/r/1',
    return_to: { https_host: 'shop.example', https_path: `/checkout-callback/ph_${out.nonce}` } });
  assert.equal(out.url, `https://shop.example/checkout-callback/ph_${out.nonce}`);
  coordinator.send({ type: 'checkout.browser_opened', flow_id: 'c1', now: T0 + 2000 });
  const saved = storage.getItem(KEY);

  // The tab navigates to the gateway and comes back: a new page, a new coordinator.
  coordinator.dispose();
  coordinator = payhandoff.openCoordinator({ storage });
  assert.equal(coordinator.snapshotJson(), saved);
  assert.equal(state(coordinator, 'c1'), 'in_browser');

  const genuine = callback(out.url, 'status=completed&card_id=card_9f8e');
  const forged = forge(genuine, out);
  const writes = storage.writes;
  a = api.handleReturnPage(coordinator, { location: { href: forged }, now: T0 + 60000 });
  assert.equal(a.outcome, 'rejected');
  assert.equal(a.error.code, 'callback_mismatch');
  assert.equal(state(coordinator, 'c1'), 'in_browser');
  assert.equal(storage.writes, writes, 'a refused URL saves nothing');
  assert.equal(storage.getItem(KEY), saved);

  a = api.handleReturnPage(coordinator, { location: { href: genuine }, now: T0 + 61000 });
  assert.equal(a.outcome, 'accepted');
  assert.equal(a.transitions[0].state, 'awaiting_confirmation');
  assert.equal(a.transitions[0].details.callback.verified, true);
  const afterCallback = storage.getItem(KEY);
  assert.notEqual(afterCallback, saved);

  // The return page reloaded, or the link opened again.
  coordinator.dispose();
  coordinator = payhandoff.openCoordinator({ storage });
  a = coordinator.handleUrl(genuine, T0 + 62000);
  assert.equal(a.outcome, 'duplicate');
  assert.equal(a.persist, false);
  assert.equal(storage.getItem(KEY), afterCallback);

  a = coordinator.send({
    type: 'checkout.confirmation', flow_id: 'c1', now: T0 + 70000,
    event: { type: 'card.registered', data: { card_id: 'card_9f8e', brand: 'visa', last_four: '4242', created_at: '2026-11-30T16:00:00Z' } },
  });
  assert.equal(a.outcome, 'accepted');
  assert.equal(state(coordinator, 'c1'), 'confirmed');
  assert.equal(JSON.parse(storage.getItem(KEY)).flows[0].state, 'confirmed');
});

test('a payment fails with a reason; the reason is kept', (t) => {
  const coordinator = payhandoff.openCoordinator({ storage: new MemoryStorage(), key: 'checkout' });
  t.after(() => coordinator.dispose());
  const a = coordinator.send({ type: 'checkout.start', flow_id: 'p1', now: T0, kind: 'payments', return_url: RETURN_URL });
  const out = handedOut(a, coordinator, 'p1');
  const answer = coordinator.handleUrl(callback(out.url, 'status=failed&payment_id=pay_1&reason=insufficient_funds'), T0 + 5000);
  assert.equal(answer.outcome, 'accepted');
  assert.equal(answer.transitions[0].state, 'failed');
  assert.equal(answer.transitions[0].details.callback.reason, 'insufficient_funds');
});

test('a damaged or newer snapshot in storage: the core\'s error, and the snapshot is left in place', () => {
  const good = payhandoff.createCoordinator();
  const snapshot = good.snapshot();
  good.dispose();
  const cases = [
    ['{"version":1,"config":', 'invalid_json'],
    ['not json at all', 'invalid_json'],
    [JSON.stringify({ ...snapshot, version: 999 }), 'unsupported_version'],
    [JSON.stringify({ ...snapshot, flows: [{ id: 'c1', type: 'checkout', state: 'teleported' }] }), null],
  ];
  for (const [text, code] of cases) {
    const storage = new MemoryStorage([[KEY, text]]);
    assert.throws(() => payhandoff.openCoordinator({ storage }), (error) => {
      assert.ok(error instanceof api.PayHandoffError, String(error));
      if (code) assert.equal(error.code, code, text);
      assert.ok(error.status > 0, 'a C ABI status');
      return true;
    });
    assert.equal(storage.getItem(KEY), text);
    assert.equal(storage.writes, 0);
  }
});

test('a damaged snapshot: restoreCoordinatorSalvage keeps what is intact; saved back, the page opens it', () => {
  const storage = new MemoryStorage();
  const first = payhandoff.openCoordinator({ storage });
  first.send({ type: 'checkout.start', flow_id: 'c1', now: T0, kind: 'cards', return_url: RETURN_URL });
  first.send({ type: 'checkout.start', flow_id: 'c2', now: T0 + 1, kind: 'payments', return_url: RETURN_URL });
  first.dispose();
  const damaged = JSON.parse(storage.getItem(KEY));
  damaged.flows[1].deadline = 'soon';
  storage.setItem(KEY, JSON.stringify(damaged));
  assert.throws(() => payhandoff.openCoordinator({ storage }), { code: 'invalid_json', field: 'flows[1].deadline' });
  const salvage = payhandoff.restoreCoordinatorSalvage(storage.getItem(KEY));
  assert.deepEqual(salvage.dropped.map((d) => [d.member, d.code, d.field]), [['flows[1]', 'invalid_json', 'flows[1].deadline']]);
  assert.deepEqual(salvage.snapshot.flows.map((f) => f.id), ['c1']);
  assert.deepEqual(salvage.coordinator.snapshot(), salvage.snapshot);
  storage.setItem(KEY, salvage.coordinator.snapshotJson());
  salvage.coordinator.dispose();
  const reopened = payhandoff.openCoordinator({ storage });
  assert.equal(state(reopened, 'c1'), 'awaiting_session');
  reopened.dispose();
  // A torn write salvages nothing.
  assert.throws(() => payhandoff.restoreCoordinatorSalvage('{"version":3,"flows":['), { code: 'invalid_json' });
});

test('snapshots over 64 KiB: through the module\'s memory both ways and kept in storage', (t) => {
  assert.deepEqual([api.MAX_JSON_BYTES, api.MAX_SNAPSHOT_BYTES], [65536, 262144]);
  // 3000 sales of one day in the ledger: about 111 KB.
  const sales = Array.from({ length: 3000 }, (_, i) => [String(7200000000 + i), 10000, 0, T0 + i]);
  const text = JSON.stringify({ version: 3, config: {}, flows: [], ledger: { pruned_through: 0, sales, refunds: [], unknown: [] } });
  assert.ok(text.length > api.MAX_JSON_BYTES);
  const storage = new MemoryStorage([[KEY, text]]);
  const coordinator = payhandoff.openCoordinator({ storage });
  t.after(() => coordinator.dispose());
  assert.equal(coordinator.snapshot().ledger.sales.length, 3000);
  const a = coordinator.send({ type: 'checkout.start', flow_id: 'c1', now: T0, kind: 'cards', return_url: RETURN_URL });
  assert.equal(a.outcome, 'accepted');
  const saved = storage.getItem(KEY);
  assert.ok(new TextEncoder().encode(saved).length > api.MAX_JSON_BYTES, 'the whole snapshot was saved');
  assert.equal(saved, coordinator.snapshotJson());
  const again = payhandoff.restoreCoordinator(saved);
  assert.equal(again.snapshotJson(), saved);
  again.dispose();
  assert.throws(() => payhandoff.restoreCoordinator(text.replace('"flows":[]', `"flows":[]${' '.repeat(api.MAX_SNAPSHOT_BYTES)}`)),
    { code: 'limit_exceeded', field: 'snapshot_json' });
});

test('storage refused: storage_unavailable from openCoordinator; a storage that holds something else, or none at all: invalid_argument', () => {
  const blocked = new MemoryStorage();
  blocked.failReads = true;
  assert.throws(() => payhandoff.openCoordinator({ storage: blocked }), { code: 'storage_unavailable', field: 'storage', status: -5 });
  assert.throws(() => payhandoff.openCoordinator({ storage: { getItem: () => 42, setItem() {} } }), { code: 'invalid_argument', field: 'storage' });
  // Node has no sessionStorage: the page must say which storage.
  assert.throws(() => payhandoff.openCoordinator(), { code: 'invalid_argument', field: 'storage' });
  // A browser whose sessionStorage is denied throws on reading it (an opaque origin) or has null
  // there (storage disabled): the browser scenarios meet the first for real.
  for (const descriptor of [{ get() { throw new Error('SecurityError: access is denied for this document'); } }, { value: null }]) {
    Object.defineProperty(globalThis, 'sessionStorage', { ...descriptor, configurable: true });
    try {
      assert.throws(() => payhandoff.openCoordinator(), { code: 'storage_unavailable', field: 'storage' });
    } finally {
      delete globalThis.sessionStorage;
    }
  }
});

test('storage full: the send that must persist throws storage_unavailable and nothing changed, the start included', (t) => {
  const storage = new MemoryStorage();
  const coordinator = payhandoff.openCoordinator({ storage });
  t.after(() => coordinator.dispose());
  const start = { type: 'checkout.start', flow_id: 'c1', now: T0, kind: 'cards', return_url: RETURN_URL };

  // Full before the start: refused, so the page never asks for a session nor leaves.
  storage.failWrites = true;
  assert.throws(() => coordinator.send(start), (error) => {
    assert.ok(error instanceof api.PayHandoffError);
    assert.equal(error.code, 'storage_unavailable');
    assert.equal(error.field, 'storage');
    assert.match(error.message, /QuotaExceededError/);
    return true;
  });
  assert.deepEqual(coordinator.snapshot().flows, []);
  assert.equal(storage.getItem(KEY), null);

  // Room again: the same start goes through.
  storage.failWrites = false;
  assert.equal(coordinator.send(start).outcome, 'accepted');
  coordinator.send({
    type: 'checkout.session', flow_id: 'c1', now: T0 + 1000,
    session: { kind: 'cards', status: 201, body: { data: { registration: { checkout_url: 'https://gateway.example/r/1' } } } },
  });
  const ready = storage.getItem(KEY);
  assert.equal(state(coordinator, 'c1'), 'ready');

  // Full just before the tab would leave: browser_opened is refused and the flow stays ready.
  storage.failWrites = true;
  assert.throws(() => coordinator.send({ type: 'checkout.browser_opened', flow_id: 'c1', now: T0 + 2000 }), { code: 'storage_unavailable' });
  assert.equal(state(coordinator, 'c1'), 'ready');
  assert.equal(coordinator.snapshotJson(), ready);
  storage.failWrites = false;
  coordinator.send({ type: 'checkout.browser_opened', flow_id: 'c1', now: T0 + 2000 });
  assert.equal(state(coordinator, 'c1'), 'in_browser');

  // Full when the tab comes back: the callback is refused, not lost; once saved it is accepted.
  const nonce = coordinator.snapshot().flows[0].nonce;
  const url = `${RETURN_URL}/ph_${nonce}?status=completed&card_id=card_1`;
  const waiting = storage.getItem(KEY);
  storage.failWrites = true;
  assert.throws(() => coordinator.handleUrl(url, T0 + 3000), { code: 'storage_unavailable' });
  assert.equal(state(coordinator, 'c1'), 'in_browser');
  assert.equal(storage.getItem(KEY), waiting);
  storage.failWrites = false;
  assert.equal(coordinator.handleUrl(url, T0 + 3000).outcome, 'accepted');
  assert.equal(JSON.parse(storage.getItem(KEY)).flows[0].state, 'awaiting_confirmation');
});

test('a coordinator follows its storage: a page back from the back/forward cache sees what later pages saved', (t) => {
  const storage = new MemoryStorage();
  // Page A starts a checkout and leaves for the gateway; the browser keeps A, coordinator and all.
  const pageA = payhandoff.openCoordinator({ storage });
  t.after(() => pageA.dispose());
  pageA.send({ type: 'checkout.start', flow_id: 'c1', now: T0, kind: 'cards', return_url: RETURN_URL });
  pageA.send({
    type: 'checkout.session', flow_id: 'c1', now: T0 + 1000,
    session: { kind: 'cards', status: 201, body: { data: { registration: { checkout_url: 'https://gateway.example/r/1' } } } },
  });
  pageA.send({ type: 'checkout.browser_opened', flow_id: 'c1', now: T0 + 2000 });
  // Page B, the return page, answers the callback.
  const pageB = payhandoff.openCoordinator({ storage });
  t.after(() => pageB.dispose());
  const nonce = pageB.snapshot().flows[0].nonce;
  const url = `${RETURN_URL}/ph_${nonce}?status=completed&card_id=card_1`;
  assert.equal(pageB.handleUrl(url, T0 + 3000).outcome, 'accepted');

  // Back to A: it reads what B saved before answering anything, so the same URL is a duplicate
  // (not accepted twice) and a new flow is saved next to the answered one (not over it).
  assert.equal(state(pageA, 'c1'), 'awaiting_confirmation');
  assert.equal(pageA.handleUrl(url, T0 + 4000).outcome, 'duplicate');
  pageA.send({ type: 'checkout.start', flow_id: 'c2', now: T0 + 5000, kind: 'cards', return_url: RETURN_URL });
  assert.deepEqual(JSON.parse(storage.getItem(KEY)).flows.map((f) => [f.id, f.state]), [['c1', 'awaiting_confirmation'], ['c2', 'awaiting_session']]);
  assert.equal(state(pageB, 'c2'), 'awaiting_session');

  // Something damaged there: the core's error, and A stays as it was.
  const good = storage.getItem(KEY);
  storage.setItem(KEY, '{"version":1,"flows":[');
  assert.throws(() => pageA.snapshot(), { code: 'invalid_json' });
  storage.setItem(KEY, good);
  assert.equal(state(pageA, 'c2'), 'awaiting_session');

  // Removed by another page ("start over"): a new, empty coordinator.
  storage.removeItem(KEY);
  assert.deepEqual(pageA.snapshot().flows, []);
});

test('handleReturnPage replaces a return URL it handled, only once its answer is saved (issue 36)', (t) => {
  const storage = new MemoryStorage();
  const coordinator = payhandoff.openCoordinator({ storage });
  t.after(() => coordinator.dispose());
  const history = { state: { app: 1 }, replaced: [], replaceState(data, unused, url) { this.replaced.push([data, url]); } };
  const page = (href, options = {}) => api.handleReturnPage(coordinator, { location: { href }, history, now: T0 + 60000, ...options });
  const start = coordinator.send({ type: 'checkout.start', flow_id: 'c1', now: T0, kind: 'cards', return_url: RETURN_URL });
  const out = handedOut(start, coordinator, 'c1');
  coordinator.send({ type: 'checkout.session', flow_id: 'c1', now: T0 + 1000,
    session: { kind: 'cards', status: 201, body: { data: { registration: { checkout_url: 'https://gateway.example/r/1' } } } } });
  coordinator.send({ type: 'checkout.browser_opened', flow_id: 'c1', now: T0 + 2000 });

  // An ordinary visit is left as it is.
  assert.equal(page('https://shop.example/products?id=7').outcome, 'not_ours');
  assert.deepEqual(history.replaced, []);
  // The answer cannot be saved: it throws, and the URL stays (a reload tries again).
  const genuine = callback(out.url, 'status=completed&card_id=card_9f8e');
  storage.failWrites = true;
  assert.throws(() => page(genuine), { code: 'storage_unavailable' });
  assert.deepEqual(history.replaced, []);
  storage.failWrites = false;
  // Saved: replaced by the return path's folder, the page's history state kept.
  assert.equal(page(genuine).outcome, 'accepted');
  assert.deepEqual(history.replaced, [[{ app: 1 }, 'https://shop.example/']]);
  // A reload of that URL is an ordinary visit; the return URL again (back from the gateway) a duplicate, replaced again.
  assert.equal(page('https://shop.example/').outcome, 'not_ours');
  assert.equal(page(genuine).outcome, 'duplicate');
  assert.deepEqual(history.replaced.map(([, url]) => url), ['https://shop.example/', 'https://shop.example/']);
  // The app's own target, or none.
  page(genuine, { replaceWith: '/orders/42' });
  page(genuine, { replaceWith: null });
  assert.deepEqual(history.replaced.map(([, url]) => url), ['https://shop.example/', 'https://shop.example/', '/orders/42']);
});

test('handleReturnPage: reads location.href; without a location it says so', (t) => {
  const coordinator = payhandoff.createCoordinator();
  t.after(() => coordinator.dispose());
  assert.equal(api.handleReturnPage(coordinator, { location: { href: 'https://elsewhere.example/' }, now: T0 }).outcome, 'not_ours');
  assert.throws(() => api.handleReturnPage(coordinator), { code: 'invalid_argument', field: 'location' });
});

test('arguments C cannot carry, and a disposed coordinator: invalid_argument / invalid_json naming the parameter', () => {
  const coordinator = payhandoff.createCoordinator();
  for (const url of [42, null, undefined, { href: 'x' }, ['a']]) {
    assert.throws(() => coordinator.handleUrl(url, T0), { code: 'invalid_argument', field: 'url' });
    assert.throws(() => payhandoff.parseCheckoutCallback(url, { kind: 'cards', return_url: RETURN_URL }), { code: 'invalid_argument', field: 'url' });
    assert.throws(() => payhandoff.parsePosResponse(url, { urlScheme: 'myapp' }), { code: 'invalid_argument', field: 'url' });
  }
  assert.throws(() => coordinator.handleUrl('https://a.example/\u0000', T0), { code: 'invalid_argument', field: 'url' });
  for (const now of [1.5, NaN, Infinity, '1796054400000', 2 ** 64]) {
    assert.throws(() => coordinator.handleUrl('https://a.example/', now), { code: 'invalid_argument', field: 'now_ms' });
  }
  assert.throws(() => coordinator.send({ type: 'tick', now: 10n }), { code: 'invalid_json', field: 'event_json' });
  const circular = { type: 'tick' };
  circular.self = circular;
  assert.throws(() => coordinator.send(circular), { code: 'invalid_json', field: 'event_json' });
  assert.throws(() => payhandoff.buildPosUrl({ amount: 1n }), { code: 'invalid_json', field: 'request_json' });
  assert.throws(() => payhandoff.restoreCoordinator('{"version":1}\u0000'), { code: 'invalid_argument', field: 'snapshot_json' });
  assert.equal(coordinator.dispose(), true);
  assert.equal(coordinator.dispose(), false);
  assert.throws(() => coordinator.snapshot(), { code: 'invalid_argument', field: 'coordinator' });
  assert.throws(() => coordinator.handleUrl('https://a.example/', T0), { code: 'invalid_argument', field: 'coordinator' });
});
