// Scenarios through the typed API, the Node-API addon and the C++ bridge against the real
// core: one per flow, duplicate deep-link delivery (Linking's initial URL and its url event),
// the in-app browser's dismiss/cancel, snapshot/restore across process death, and the
// binding's own error paths.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, host, payhandoff, addon, T0 } = require('./support');

const NONCE = '0123456789abcdef0123';
const RETURN_URL = 'fixapp://checkout-callback';
const CARD_REQUEST = {
  kind: 'cards',
  api_key: 'sk_test_1',
  return_url: RETURN_URL,
  provider: 'dinelco',
  customer_id: 'cus_1',
  target_origin: ['https://fix.example.com'],
  customer: { name: 'Juan', lastname: 'Pérez', email: 'juan@example.com', phone: '+595981234567' },
};
const SALE = { transaction: 'venta', usertoken: 'tok_secret_1', identifier: 'ord-1', amount: '100.00', urlScheme: 'myapp' };
/** The per-flow token the scenarios pass in pos.start (a start without one gets a fresh one). */
const TOKEN = '9f86d081884c7d659a2feaa0c55ad015';
/** The POS app's answer: it echoes the identifier it was sent, the app's reference and the token. */
const SALE_ANSWER =
  `myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1~${TOKEN}&creditcard=4242&bp_version=4.3.24`;
/** The gateway's redirect: the return URL PayHandoff handed out (the nonce rides in it) plus the gateway's query. */
const callbackUrl = (sent, status, extra = '&card_id=card_xyz') => `${sent}?status=${status}${extra}`;

/** The return URL a checkout.start answer hands out (send_request's body or create_session's). */
function returnUrlSent(answer) {
  const effect = answer.transitions[0].effects[0];
  const sent = effect.type === 'send_request' ? effect.request.body.return_url : effect.return_url;
  assert.ok(sent.startsWith(RETURN_URL) && sent.includes(NONCE), `the return URL sent carries the nonce: ${sent}`);
  return sent;
}

/** [flow_id, state, effect types] of every transition. */
const steps = (answer) => answer.transitions.map((t) => [t.flow_id, t.state, t.effects.map((e) => e.type)]);

/** A coordinator that is disposed when the test ends. */
function coordinator(t, config) {
  const c = payhandoff.createCoordinator(config);
  t.after(() => c.dispose());
  return c;
}

test('checkout (card registration): request, session, browser, deep link, confirmation', (t) => {
  const c = coordinator(t);
  let a = c.send({ type: 'checkout.start', flow_id: 'c1', now: T0, nonce: NONCE, request: CARD_REQUEST });
  assert.equal(a.outcome, 'accepted');
  assert.deepEqual(steps(a), [['c1', 'awaiting_session', ['send_request', 'persist']]]);
  const send = a.transitions[0].effects[0];
  assert.equal(send.type, 'send_request');
  assert.equal(send.request.url, 'https://api.pay.ingalca.com/v1/cards');
  const sent = returnUrlSent(a);
  assert.equal(a.persist, true);

  a = c.send({
    type: 'checkout.session', flow_id: 'c1', now: T0 + 1000,
    session: { kind: 'cards', status: 201, body: { data: { registration: { checkout_url: 'https://checkout.pay.ingalca.com/r/9f8e' } } } },
  });
  assert.deepEqual(steps(a), [['c1', 'ready', ['open_browser', 'persist']]]);
  assert.deepEqual(a.transitions[0].effects[0], { type: 'open_browser', url: 'https://checkout.pay.ingalca.com/r/9f8e', return_to: { scheme: 'fixapp' } });

  a = c.send({ type: 'checkout.browser_opened', flow_id: 'c1', now: T0 + 2000 });
  assert.deepEqual(steps(a), [['c1', 'in_browser', ['persist']]]);

  a = c.handleUrl(callbackUrl(sent, 'completed'), T0 + 60000);
  assert.equal(a.outcome, 'accepted');
  assert.deepEqual(steps(a), [['c1', 'awaiting_confirmation', ['close_browser', 'show_pending', 'persist']]]);
  assert.equal(a.transitions[0].details.callback.verified, true);

  // The webhook, relayed by the backend, is the only thing that confirms.
  a = c.send({
    type: 'checkout.confirmation', flow_id: 'c1', now: T0 + 70000,
    event: { type: 'card.registered', data: { card_id: 'card_xyz', brand: 'visa', last_four: '4242', token: 'tok_abc' } },
  });
  assert.deepEqual(steps(a), [['c1', 'confirmed', ['persist']]]);
});

test('checkout (payment, backend session): tab dismissed first, the deep link still resolves it', (t) => {
  const c = coordinator(t);
  let a = c.send({ type: 'checkout.start', flow_id: 'pay1', now: T0, nonce: NONCE, kind: 'payments', return_url: RETURN_URL });
  assert.deepEqual(steps(a), [['pay1', 'awaiting_session', ['create_session', 'persist']]]);
  const sent = returnUrlSent(a);
  assert.deepEqual(a.transitions[0].effects[0], { type: 'create_session', kind: 'payments', return_url: sent });
  a = c.send({
    type: 'checkout.session', flow_id: 'pay1', now: T0 + 500,
    session: { kind: 'payments', checkout_url: 'https://checkout.pay.ingalca.com/p/1', payment_id: 'pay_1' },
  });
  assert.deepEqual(steps(a), [['pay1', 'ready', ['open_browser', 'persist']]]);
  c.send({ type: 'checkout.browser_opened', flow_id: 'pay1', now: T0 + 1000 });

  // InAppBrowser.open resolved {type: 'cancel'} (iOS) / {type: 'dismiss'} before any deep link.
  const closed = host.browserClosedEvent('pay1', { type: 'cancel' }, T0 + 20000);
  assert.deepEqual(closed, { type: 'checkout.browser_dismissed', flow_id: 'pay1', now: T0 + 20000 });
  a = c.send(closed);
  assert.deepEqual(steps(a), [['pay1', 'returned_without_result', ['persist']]]);

  a = c.handleUrl(callbackUrl(sent, 'completed', '&payment_id=pay_1'), T0 + 25000);
  assert.deepEqual(steps(a), [['pay1', 'awaiting_confirmation', ['close_browser', 'show_pending', 'persist']]]);
  // The tab closing after the deep link (the usual order) changes nothing.
  a = c.send(host.browserClosedEvent('pay1', { type: 'dismiss' }, T0 + 26000));
  assert.equal(a.outcome, 'ignored');
  a = c.send({
    type: 'checkout.confirmation', flow_id: 'pay1', now: T0 + 30000,
    event: { type: 'payment.confirmed', data: { payment_id: 'pay_1', amount: '150.00' } },
  });
  assert.deepEqual(steps(a), [['pay1', 'confirmed', ['persist']]]);
});

test('checkout: spoofed callbacks are rejected, a foreign URL is not ours, failed/cancelled are outcomes', (t) => {
  const c = coordinator(t);
  const sent = returnUrlSent(c.send({ type: 'checkout.start', flow_id: 'c1', now: T0, nonce: NONCE, kind: 'cards', return_url: RETURN_URL }));
  // Another nonce, or none at all (the registered URL, which anyone can send): refused, nothing changes.
  for (const spoof of [callbackUrl(sent.replace(NONCE, 'zzzzzzzzzzzzzzzzzzzz'), 'completed'), callbackUrl(RETURN_URL, 'completed')]) {
    const a = c.handleUrl(spoof, T0 + 1000);
    assert.equal(a.outcome, 'rejected');
    assert.deepEqual([a.error.code, a.error.field], ['callback_mismatch', 'nonce']);
    assert.equal(c.snapshot().flows[0].state, 'awaiting_session');
  }
  assert.equal(c.handleUrl('otherapp://somewhere?x=1', T0 + 1000).outcome, 'not_ours');
  const a = c.handleUrl(callbackUrl(sent, 'failed', '&reason=card_declined'), T0 + 2000);
  assert.deepEqual(steps(a)[0].slice(0, 2), ['c1', 'failed']);
  assert.equal(c.handleUrl(callbackUrl(sent, 'cancelled'), T0 + 3000).outcome, 'ignored');
});

test('checkout: with accept_unverified_callbacks a callback without the nonce is only a claim', (t) => {
  const c = coordinator(t, { accept_unverified_callbacks: true });
  assert.equal(c.snapshot().config.accept_unverified_callbacks, true);
  c.send({ type: 'checkout.start', flow_id: 'c1', now: T0, nonce: NONCE, kind: 'payments', return_url: RETURN_URL });
  let a = c.handleUrl(callbackUrl(RETURN_URL, 'completed', '&payment_id=pay_1'), T0 + 1000);
  // Anyone can send this URL: the claim is kept and may show "confirming…", but it never moves
  // the flow, so the genuine session still opens the browser.
  assert.deepEqual(steps(a), [['c1', 'awaiting_session', ['show_pending', 'persist']]]);
  assert.equal(a.transitions[0].details.callback.verified, false);
  a = c.send({
    type: 'checkout.session', flow_id: 'c1', now: T0 + 1500,
    session: { kind: 'payments', checkout_url: 'https://checkout.pay.ingalca.com/p/1', payment_id: 'pay_1' },
  });
  assert.deepEqual(steps(a), [['c1', 'ready', ['open_browser', 'persist']]]);
  // A flow still waiting is removed only when the app gives it up.
  a = c.send({ type: 'flow.remove', flow_id: 'c1', now: T0 + 2000 });
  assert.deepEqual([a.outcome, a.error && a.error.code], ['rejected', 'invalid_state']);
  a = c.send({ type: 'flow.remove', flow_id: 'c1', now: T0 + 2000, give_up: true });
  assert.equal(a.outcome, 'accepted');
  assert.deepEqual(c.snapshot().flows, []);
});

test('authSessionEvent: expo-web-browser openAuthSessionAsync results as the events the core reads (issue 38)', (t) => {
  const url = `${RETURN_URL}/ph_${NONCE}?status=completed&card_id=card_xyz`;
  assert.deepEqual(host.authSessionEvent('c1', { type: 'success', url }, 'ios', T0),
    { type: 'checkout.browser_result', flow_id: 'c1', now: T0, channel: 'web_authentication_session', code: 'ok', url });
  assert.deepEqual(host.authSessionEvent('c1', { type: 'success', url }, 'android', T0), { type: 'url', url, now: T0 });
  for (const type of ['cancel', 'dismiss', 'locked']) {
    assert.equal(host.authSessionEvent('c1', { type }, 'ios', T0).code, 'canceled', type);
  }
  assert.deepEqual(host.authSessionEvent('c1', { type: 'dismiss' }, 'android', T0),
    { type: 'checkout.browser_result', flow_id: 'c1', now: T0, channel: 'custom_tab', code: 'canceled' });
  assert.equal(host.authSessionEvent('c1', { type: 'locked' }, 'android', T0), null);
  assert.equal(host.authSessionEvent('c1', { type: 'opened' }, 'ios', T0), null);
  // The core reads them: the session's result moves the flow once, the deep link after it is a duplicate.
  const c = coordinator(t);
  let a = c.send({ type: 'checkout.start', flow_id: 'c1', now: T0, nonce: NONCE, kind: 'cards', return_url: RETURN_URL,
    session: { kind: 'cards', checkout_url: 'https://checkout.pay.ingalca.com/r/1' } });
  assert.deepEqual(a.transitions[0].effects[0].return_to, { scheme: 'fixapp' });
  a = c.send(host.authSessionEvent('c1', { type: 'success', url }, 'ios', T0 + 1000));
  assert.deepEqual(steps(a), [['c1', 'awaiting_confirmation', ['close_browser', 'show_pending', 'persist']]]);
  assert.equal(c.handleUrl(url, T0 + 2000).outcome, 'duplicate');
});

test('browserClosedEvent: success carries the redirect URL; other results send nothing', () => {
  assert.deepEqual(host.browserClosedEvent('c1', { type: 'success', url: 'fixapp://x' }, T0), { type: 'url', url: 'fixapp://x', now: T0 });
  assert.equal(host.browserClosedEvent('c1', { type: 'opened' }, T0), null);
});

test('POS sale: launched, came back without an answer (unknown, reconcile), late answer approves; refund', (t) => {
  const c = coordinator(t);
  let a = c.send({ type: 'pos.start', flow_id: 'p1', now: T0, token: TOKEN, request: SALE });
  assert.deepEqual(steps(a), [['p1', 'ready', ['open_pos_app', 'persist']]]);
  // The URL the stateless call builds with the same token: the identifier sent is ord-1~TOKEN.
  const built = payhandoff.buildPosUrl({ ...SALE, token: TOKEN });
  assert.equal(a.transitions[0].effects[0].url, built.url);
  assert.deepEqual([built.identifier, built.token], [`ord-1~${TOKEN}`, TOKEN]);
  // Details may be logged: the app's identifier, never the token (it is in the snapshot only).
  assert.equal(a.transitions[0].details.identifier, 'ord-1');
  assert.ok(!JSON.stringify(a.transitions[0].details).includes(TOKEN));
  assert.equal(c.snapshot().flows[0].token, TOKEN);
  c.send({ type: 'pos.launched', flow_id: 'p1', now: T0 + 1000 });
  c.send({ type: 'app.foregrounded', now: T0 + 30000 });
  a = c.send({ type: 'tick', now: T0 + 34000 });
  assert.deepEqual(steps(a), [['p1', 'returned_without_response', ['reconcile', 'persist']]]);

  a = c.handleUrl(SALE_ANSWER, T0 + 40000);
  assert.equal(a.outcome, 'accepted');
  assert.deepEqual(steps(a), [['p1', 'approved', ['persist']]]);
  const response = a.transitions[0].details.response;
  assert.equal(response.result, 'approved');
  assert.equal(response.transactionid, '720371');
  assert.equal(response.identifier, 'ord-1', 'the answer echoed ord-1~TOKEN; details show the app\'s identifier');

  const refund = (flowId, now) => c.send({
    type: 'pos.start', flow_id: flowId, now, sale_flow_id: 'p1', token: TOKEN,
    request: { transaction: 'devolucion', usertoken: 'tok_secret_1', identifier: 'ref-1', urlScheme: 'myapp', transactionId: '720371', amount: '40.00' },
  });
  a = refund('r1', T0 + 120000);
  assert.deepEqual(steps(a), [['r1', 'ready', ['open_pos_app', 'persist']]]);
  a = c.send({ type: 'pos.launch_failed', flow_id: 'r1', now: T0 + 121000, reason: 'Billpocket is not installed' });
  assert.deepEqual(steps(a), [['r1', 'launch_failed', ['show_hint', 'persist']]]);
  // Android: the POS app answers through onActivityResult; its extras are the answer.
  a = c.send({
    type: 'pos.result', flow_id: 'r1', now: T0 + 130000,
    extras: { result: 'aprobada', amount: '40.00', transactionid: '990001', identifier: `ref-1~${TOKEN}` },
  });
  assert.deepEqual(steps(a), [['r1', 'approved', ['persist']]]);
  // The ledger to the centavo: the sale and what its refunds paid back, the refund.
  const ledger = c.snapshot().ledger;
  assert.deepEqual(ledger, {
    pruned_through: 0,
    sales: [['720371', 10000, 4000, T0 + 40000]],
    refunds: [['990001', 4000, T0 + 130000]],
    unknown: [],
  });
  // The same transactionid is never booked twice; a second refund of the rest opens the POS app with 60.00.
  a = c.send({ type: 'flow.remove', flow_id: 'r1', now: T0 + 131000 });
  assert.equal(a.outcome, 'accepted');
  a = c.send({
    type: 'pos.start', flow_id: 'r2', now: T0 + 140000, sale_flow_id: 'p1', token: TOKEN,
    request: { transaction: 'devolucion', usertoken: 'tok_secret_1', identifier: 'ref-2', urlScheme: 'myapp', transactionId: '720371' },
  });
  assert.match(a.transitions[0].effects[0].url, /&amount=60\.00(&|$)/);
});

test('POS: a declined answer, and answers for another request or without the token', (t) => {
  const c = coordinator(t);
  c.send({ type: 'pos.start', flow_id: 'p1', now: T0, token: TOKEN, request: SALE });
  // Our scheme, but no hand-off with that identifier, or the app's reference without the flow's
  // token (a forged approval): a claim this app cannot match.
  for (const identifier of ['ord-999', 'ord-1', `ord-1~${'0'.repeat(32)}`]) {
    const a = c.handleUrl(`myapp://result=aprobada&amount=100.00&transactionid=1&identifier=${identifier}`, T0 + 1000);
    assert.equal(a.outcome, 'rejected');
    assert.deepEqual([a.error.code, a.error.field], ['callback_mismatch', 'identifier']);
    assert.equal(c.snapshot().flows[0].state, 'ready');
  }
  // A second sale for the same order with the same token: one answer could fit both.
  const twin = c.send({ type: 'pos.start', flow_id: 'p2', now: T0 + 1500, token: TOKEN, request: SALE });
  assert.deepEqual([twin.outcome, twin.error.code, twin.error.field], ['rejected', 'conflict', 'token']);
  // With its own token it is another hand-off: each answer names exactly one of them.
  assert.equal(c.send({ type: 'pos.start', flow_id: 'p3', now: T0 + 1600, request: SALE }).outcome, 'accepted');
  // A token may not hold '~' (the identifier sent splits at its last '~').
  assert.throws(() => c.send({ type: 'pos.start', flow_id: 'p4', now: T0 + 1700, token: 'abcdefgh~ijklmnop', request: SALE }),
    { code: 'validation', field: 'token' });
  let a = c.handleUrl(`myapp://result=rechazada&amount=100.00&identifier=ord-1~${TOKEN}&statusinfo=Fondos%20insuficientes`, T0 + 2000);
  assert.deepEqual(steps(a), [['p1', 'declined', ['persist']]]);
  assert.equal(a.transitions[0].details.response.statusinfo, 'Fondos insuficientes');
});

test('deep links: Linking.getInitialURL and the url event deliver the same URL; the second is a duplicate', async (t) => {
  const c = coordinator(t);
  const sent = returnUrlSent(c.send({ type: 'checkout.start', flow_id: 'c1', now: T0, nonce: NONCE, kind: 'cards', return_url: RETURN_URL }));
  const url = callbackUrl(sent, 'completed');
  const listeners = [];
  const linking = {
    getInitialURL: async () => url, // the app was started by the deep link
    addEventListener(type, listener) {
      assert.equal(type, 'url');
      listeners.push(listener);
      return { remove: () => listeners.splice(listeners.indexOf(listener), 1) };
    },
  };
  const answers = [];
  const errors = [];
  let clock = T0 + 5000;
  const subscription = host.listenForDeepLinks(linking, c, {
    onAnswer: (answer, seen) => answers.push([answer.outcome, seen]),
    onError: (error, seen) => errors.push([error, seen]),
    now: () => (clock += 1000),
  });
  listeners.forEach((l) => l({ url })); // ...and the OS also sent it as an event
  await new Promise((resolve) => setImmediate(resolve));
  listeners.forEach((l) => l({ url: callbackUrl(sent, 'cancelled') })); // verified, after the hand-off was consumed
  listeners.forEach((l) => l({ url: `${RETURN_URL}?status=cancelled` })); // without the nonce: anyone could send it
  listeners.forEach((l) => l({ url: 'https://example.com/not-a-deep-link-of-ours' }));
  listeners.forEach((l) => l({ url: `${sent}?status=%zz` }));

  assert.deepEqual(answers.map((a) => a[0]), ['accepted', 'duplicate', 'ignored', 'rejected', 'not_ours', 'rejected']);
  assert.ok(answers.slice(0, 2).every((a) => a[1] === url));
  assert.deepEqual(errors, []);
  assert.equal(c.snapshot().flows[0].state, 'awaiting_confirmation');
  subscription.remove();
  assert.equal(listeners.length, 0);

  // Removed before getInitialURL resolved: that URL is not delivered.
  let resolveInitial;
  const late = { ...linking, getInitialURL: () => new Promise((resolve) => (resolveInitial = resolve)) };
  const before = answers.length;
  host.listenForDeepLinks(late, c, { onAnswer: (answer, seen) => answers.push([answer.outcome, seen]) }).remove();
  resolveInitial(url);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(answers.length, before);
});

test('snapshot/restore across process death: same behaviour, no secrets, duplicates remembered', (t) => {
  let c = payhandoff.createCoordinator({ pos_grace_ms: 5000 });
  const sent = returnUrlSent(c.send({ type: 'checkout.start', flow_id: 'c1', now: T0, nonce: NONCE, request: CARD_REQUEST }));
  c.send({
    type: 'checkout.session', flow_id: 'c1', now: T0 + 1000,
    session: { kind: 'cards', checkout_url: 'https://checkout.pay.ingalca.com/r/1' },
  });
  c.send({ type: 'checkout.browser_opened', flow_id: 'c1', now: T0 + 2000 });
  c.send({ type: 'pos.start', flow_id: 'p1', now: T0 + 3000, token: TOKEN, request: SALE });
  c.send({ type: 'pos.launched', flow_id: 'p1', now: T0 + 4000 });
  assert.equal(c.handleUrl(SALE_ANSWER, T0 + 5000).outcome, 'accepted');

  const saved = c.snapshotJson(); // what the app writes to AsyncStorage
  assert.ok(!saved.includes('sk_test_1'), 'no API key in the snapshot');
  assert.ok(!saved.includes('tok_secret_1'), 'no POS user token in the snapshot');
  assert.equal(c.dispose(), true); // the process dies
  assert.equal(c.dispose(), false);
  assert.throws(() => c.snapshot(), (e) => e instanceof api.PayHandoffError && e.code === 'invalid_argument' && e.field === 'coordinator');

  c = payhandoff.restoreCoordinator(saved);
  t.after(() => c.dispose());
  const snapshot = c.snapshot();
  assert.equal(snapshot.version, 4);
  assert.equal(snapshot.config.pos_grace_ms, 5000);
  assert.deepEqual(snapshot.ledger.sales, [['720371', 10000, 0, T0 + 5000]]);
  assert.deepEqual(snapshot.flows.map((f) => [f.id, f.state]), [['c1', 'in_browser'], ['p1', 'approved']]);
  assert.deepEqual(JSON.parse(saved), snapshot);
  assert.equal(c.handleUrl(SALE_ANSWER, T0 + 6000).outcome, 'duplicate');
  const a = c.handleUrl(callbackUrl(sent, 'completed'), T0 + 7000);
  assert.deepEqual(steps(a), [['c1', 'awaiting_confirmation', ['close_browser', 'show_pending', 'persist']]]);

  // The document works as well as its text.
  const again = payhandoff.restoreCoordinator(c.snapshot());
  assert.deepEqual(again.snapshot(), c.snapshot());
  again.dispose();
});

test('restore refuses damaged and newer snapshots, all or nothing', () => {
  const open = addon.openCoordinators();
  const check = (snapshot, code, field) =>
    assert.throws(() => payhandoff.restoreCoordinator(snapshot), (e) => {
      assert.ok(e instanceof api.PayHandoffError);
      assert.equal(e.code, code);
      if (field !== undefined) assert.equal(e.field, field);
      return true;
    });
  const damaged = {
    version: 3, config: {}, ledger: { pruned_through: 0, sales: [], refunds: [], unknown: [] },
    flows: [{ id: 'p1', type: 'pos', state: 'no_such_state', operation: 'venta', identifier: 'o', token: TOKEN, answer_scheme: 'myapp', grace_ms: 0 }],
  };
  check(damaged, 'validation', 'flows[0].state');
  // PayHandoff 0.2's format 2 is read (converted), by the same rules.
  check({ ...damaged, version: 2, ledger: [] }, 'validation', 'flows[0].state');
  check({ version: 5, config: {}, flows: [], ledger: {} }, 'unsupported_version', 'version');
  // Format 1 (before the refund ledger) is not read either.
  check({ version: 1, config: {}, flows: [], refunded: {} }, 'unsupported_version', 'version');
  check('{"version": 1,', 'invalid_json');
  check('', 'invalid_json');
  assert.equal(addon.openCoordinators(), open, 'a refused restore registers nothing');
});

test('restoreCoordinatorSalvage keeps what is intact of a damaged snapshot and lists what it dropped', (t) => {
  const open = addon.openCoordinators();
  const first = payhandoff.createCoordinator();
  first.send({ type: 'pos.start', flow_id: 'p1', now: T0, token: TOKEN, request: SALE });
  first.send({ type: 'pos.launched', flow_id: 'p1', now: T0 + 1000 });
  first.send({ type: 'checkout.start', flow_id: 'c1', now: T0 + 2000, nonce: NONCE, kind: 'cards', return_url: RETURN_URL });
  const saved = first.snapshotJson();
  first.dispose();
  // A hand edit broke the checkout: restore refuses the whole snapshot, naming the member.
  const damaged = JSON.parse(saved);
  damaged.flows[1].state = 'no_such_state';
  assert.throws(() => payhandoff.restoreCoordinator(damaged), { code: 'validation', field: 'flows[1].state' });
  const salvage = payhandoff.restoreCoordinatorSalvage(JSON.stringify(damaged));
  t.after(() => salvage.coordinator.dispose());
  assert.ok(salvage.coordinator instanceof api.Coordinator);
  assert.deepEqual(salvage.dropped.map((d) => [d.member, d.code, d.field]), [['flows[1]', 'validation', 'flows[1].state']]);
  assert.equal(typeof salvage.dropped[0].message, 'string');
  assert.deepEqual(salvage.coordinator.snapshot(), salvage.snapshot);
  assert.deepEqual(salvage.snapshot.flows.map((f) => [f.id, f.state]), [['p1', 'launched']]);
  // The kept sale still takes its genuine answer.
  assert.deepEqual(steps(salvage.coordinator.handleUrl(SALE_ANSWER, T0 + 5000)), [['p1', 'approved', ['persist']]]);
  // An intact snapshot (text or document) drops nothing; a torn write or another format salvages nothing.
  const intact = payhandoff.restoreCoordinatorSalvage(JSON.parse(saved));
  assert.deepEqual(intact.dropped, []);
  intact.coordinator.dispose();
  assert.throws(() => payhandoff.restoreCoordinatorSalvage(saved.slice(0, saved.length / 2)), { code: 'invalid_json' });
  assert.throws(() => payhandoff.restoreCoordinatorSalvage('{"version": 9}'), { code: 'unsupported_version' });
  assert.equal(addon.openCoordinators(), open + 1, 'only the salvaged coordinator is open');
});

/** A format-3 snapshot whose ledger holds `sales` approved sales of 100.00 on one day. */
function ledgerSnapshot(sales) {
  const entries = Array.from({ length: sales }, (_, i) => [String(7200000000 + i), 10000, 0, T0 + i]);
  return JSON.stringify({ version: 3, config: {}, flows: [], ledger: { pruned_through: 0, sales: entries, refunds: [], unknown: [] } });
}

test('snapshots over 64 KiB cross the bridge both ways; other JSON stays within MAX_JSON_BYTES', () => {
  assert.deepEqual([api.MAX_JSON_BYTES, api.MAX_SNAPSHOT_BYTES, api.MAX_URL_BYTES, api.MAX_JSON_DEPTH], [65536, 262144, 8192, 64]);
  // 3000 sales of one day: about 111 KB of snapshot.
  const text = ledgerSnapshot(3000);
  assert.ok(text.length > api.MAX_JSON_BYTES && text.length < api.MAX_SNAPSHOT_BYTES, `${text.length}`);
  const c = payhandoff.restoreCoordinator(text);
  try {
    const saved = c.snapshotJson();
    assert.ok(Buffer.byteLength(saved) > api.MAX_JSON_BYTES);
    assert.equal(c.snapshot().ledger.sales.length, 3000);
    const again = payhandoff.restoreCoordinator(saved);
    assert.equal(again.snapshotJson(), saved);
    again.dispose();
    const refund = c.send({
      type: 'pos.start', flow_id: 'r1', now: T0 + 3600000, token: TOKEN,
      sale: { transactionid: '7200001234', amount: '100.00', approved_at: Math.floor((T0 + 1234) / 1000) },
      request: { transaction: 'devolucion', usertoken: 'tok_secret_1', identifier: 'ref-1', urlScheme: 'myapp', transactionId: '7200001234' },
    });
    assert.equal(refund.outcome, 'accepted');
  } finally {
    c.dispose();
  }
  assert.throws(() => payhandoff.restoreCoordinator(text.replace('"flows":[]', `"flows":[]${' '.repeat(api.MAX_SNAPSHOT_BYTES)}`)),
    { code: 'limit_exceeded', field: 'snapshot_json' });
  assert.throws(() => payhandoff.parseConfirmation({ type: 'card.registered', data: { card_id: 'x'.repeat(api.MAX_JSON_BYTES) } }),
    { code: 'limit_exceeded' });
});

test('a start forgets ended flows when the snapshot is full, and says which (forgotten)', (t) => {
  const c = coordinator(t);
  let forgotten;
  let started = 0;
  // Declined sales end at once; each start reserves room for everything its flow may still receive.
  for (; forgotten === undefined && started < 2000; started++) {
    const token = started.toString(16).padStart(32, '0');
    const a = c.send({ type: 'pos.start', flow_id: `p${started}`, now: T0 + started, token, request: { ...SALE, identifier: `ord-${started}` } });
    assert.equal(a.outcome, 'accepted', `start ${started}`);
    forgotten = a.forgotten;
    assert.equal(c.handleUrl(`myapp://result=rechazada&identifier=ord-${started}~${token}`, T0 + started).transitions[0].state, 'declined');
  }
  assert.deepEqual(forgotten, ['p0']);
  assert.equal(c.snapshot().flows[0].id, 'p1');
  assert.ok(Buffer.byteLength(c.snapshotJson()) <= api.MAX_SNAPSHOT_BYTES);
  payhandoff.restoreCoordinator(c.snapshotJson()).dispose();
});

test('lone UTF-16 surrogates are refused before the call, naming the parameter (as Kotlin and the web do)', (t) => {
  const lone = (field) => ({ name: 'PayHandoffError', code: 'invalid_argument', field, status: 1 });
  const answer = 'myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1';
  assert.throws(() => payhandoff.parsePosResponse(`${answer}&name=\ud800`, { urlScheme: 'myapp' }), lone('url'));
  assert.throws(() => payhandoff.parsePosResponse(`${answer}&name=\udc00\ud800`, { urlScheme: 'myapp' }), lone('url'));
  assert.throws(() => payhandoff.parsePosResponse(answer, { urlScheme: 'myapp', identifier: 'ord-1\udfff' }), lone('options_json'));
  assert.throws(() => payhandoff.parsePosResult({ result: 'aprobada', ['k\ud800']: 'v' }), lone('extras_json'));
  assert.throws(() => payhandoff.buildPosUrl({ ...SALE, reference: 'caf\u00e9 \ud83d' }), lone('request_json'));
  assert.throws(() => payhandoff.restoreCoordinator('{"version": 3}\udc00'), lone('snapshot_json'));
  assert.throws(() => payhandoff.restoreCoordinatorSalvage('\ud800'), lone('snapshot_json'));
  assert.throws(() => payhandoff.createCoordinator({ ['\ud800']: true }), lone('config_json'));
  const c = coordinator(t);
  assert.throws(() => c.send({ type: 'pos.start', flow_id: 'p1', now: T0, request: { ...SALE, identifier: 'ord\ud800' } }), lone('event_json'));
  assert.throws(() => c.handleUrl(`${SALE_ANSWER}\ud800`, T0), lone('url'));
  assert.deepEqual(c.snapshot().flows, []);
  // A surrogate pair is one character: it crosses as 4 UTF-8 bytes and comes back whole.
  const reference = 'caf\u00e9 \ud83d\udcb3';
  const built = payhandoff.buildPosUrl({ ...SALE, reference });
  assert.equal(built.fields.find((f) => f.key === 'reference').value, reference);
  assert.equal(payhandoff.parsePosResponse(`${answer}&reference=${encodeURIComponent(reference)}`, { urlScheme: 'myapp' }).reference, reference);
});

test('errors: one PayHandoffError with code, field, message and status', () => {
  assert.throws(() => payhandoff.buildPosUrl({ ...SALE, amount: '100.001' }), (e) => {
    assert.ok(e instanceof api.PayHandoffError);
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'PayHandoffError');
    assert.equal(e.code, 'validation');
    assert.equal(e.field, 'amount');
    assert.equal(e.status, 3);
    assert.match(e.message, /^amount: /);
    return true;
  });
  assert.throws(() => payhandoff.buildPosUrl({ ...SALE, amount: 100.5 }), { code: 'invalid_json' });
  assert.throws(() => payhandoff.createCoordinator({ pos_grace_ms: -1 }), { code: 'validation' });
  // Boundaries the bridge guards: U+0000 cannot cross a C string; ids and now_ms must be integers.
  assert.throws(() => payhandoff.parsePosResponse('myapp://result=aprobada\u0000', { urlScheme: 'myapp' }), {
    code: 'invalid_argument',
    field: 'url',
  });
  const c = payhandoff.createCoordinator();
  try {
    assert.throws(() => c.handleUrl('myapp://x', 1.5), { code: 'invalid_argument', field: 'now_ms' });
    assert.throws(() => c.handleUrl('myapp://x', 1e300), { code: 'validation', field: 'now_ms' });
    assert.throws(() => c.send({ type: 'tick' }), { code: 'validation', field: 'now' });
    assert.throws(() => c.send(undefined), { code: 'invalid_json', field: null }); // sent as JSON null: not an event object
  } finally {
    c.dispose();
  }
  assert.throws(() => addon.coordinatorSend('1', '{}'), TypeError);
});

test('stateless calls: POS URL and answer, refund check, checkout request, session, callback, confirmation', () => {
  const built = payhandoff.buildPosUrl({ ...SALE, tip: '15.00', msi: 3, reference: 'a&b=c %+' });
  assert.ok(built.url.startsWith('billpocket://transaction=venta&'));
  assert.ok(built.url.includes('&reference=a%26b%3Dc%20%25%2B'));
  assert.deepEqual([built.intent.action, built.intent.package], ['billpocket.payments.START', 'com.billpocket.billpocket']);
  assert.deepEqual(built.intent.extras[1], { key: 'userToken', value: 'tok_secret_1' });
  assert.ok(!('token' in built) && !('identifier' in built), 'no token asked, none given');
  const answer = 'myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1';
  const parsed = payhandoff.parsePosResponse(answer, { urlScheme: 'myapp', identifier: 'ord-1' });
  assert.equal(parsed.result, 'approved');
  assert.throws(() => payhandoff.parsePosResponse(answer, { urlScheme: 'myapp', identifier: 'ord-2' }), { code: 'callback_mismatch' });
  // A fresh token per call: only the answer echoing the identifier sent is this sale's.
  const tokened = payhandoff.buildPosUrl({ ...SALE, token: true });
  assert.notEqual(tokened.token, payhandoff.buildPosUrl({ ...SALE, token: true }).token);
  assert.equal(tokened.identifier, `ord-1~${tokened.token}`);
  const options = { urlScheme: 'myapp', identifier: 'ord-1', token: tokened.token };
  assert.equal(payhandoff.parsePosResponse(answer.replace('ord-1', tokened.identifier), options).identifier, tokened.identifier);
  assert.throws(() => payhandoff.parsePosResponse(answer, options), { code: 'callback_mismatch', field: 'identifier' });
  // The same answer as Android result extras: text as given (no percent-decoding), the user token dropped.
  const extras = { result: 'aprobada', amount: '100.00', transactionid: '720371', identifier: tokened.identifier, reference: 'a%26b', UserToken: 'tok_secret_1' };
  const result = payhandoff.parsePosResult(extras, { identifier: 'ord-1', token: tokened.token });
  assert.deepEqual(result, { version: 1, result: 'approved', identifier: tokened.identifier, amount: '100.00', transactionid: '720371', reference: 'a%26b' });
  assert.throws(() => payhandoff.parsePosResult({ ...extras, identifier: 'ord-1' }, { identifier: 'ord-1', token: tokened.token }), {
    code: 'callback_mismatch',
    field: 'identifier',
  });
  assert.throws(() => payhandoff.parsePosResult({ ...extras, amount: 100 }), { code: 'invalid_json', field: 'amount' });
  const verdict = payhandoff.checkRefund({
    sale: { transactionid: '720371', amount: '100.00', approved_at: 1764518400, bp_version: '4.3.24' },
    amount: '40.00',
    now: 1764518430,
  });
  assert.equal(verdict.eligible, false);
  assert.deepEqual(verdict.reasons.map((r) => r.code), ['too_soon']);
  assert.deepEqual(verdict.warnings, []);
  const unknownVersion = payhandoff.checkRefund({ sale: { transactionid: '720371', amount: '100.00', approved_at: 1764518400 }, now: 1764518530 });
  assert.equal(unknownVersion.eligible, true);
  assert.deepEqual(unknownVersion.warnings.map((w) => w.code), ['pos_app_version_unknown']);
  const request = payhandoff.buildCheckoutRequest({ ...CARD_REQUEST, nonce: NONCE });
  assert.ok(request.return_url.startsWith(RETURN_URL) && request.return_url.includes(NONCE), request.return_url);
  assert.equal(request.request.body.return_url, request.return_url);
  const fresh = payhandoff.buildCheckoutRequest(CARD_REQUEST);
  assert.notEqual(fresh.nonce, NONCE);
  const session = payhandoff.parseCheckoutSession({ kind: 'cards', status: 201, body: { data: { registration: { checkout_url: 'https://c.example/r/1' } } } });
  assert.equal(session.checkout_url, 'https://c.example/r/1');
  assert.throws(() => payhandoff.parseCheckoutSession({ kind: 'cards', status: 402, body: { error: { message: 'no' } } }), { code: 'gateway_error' });
  const callbackOptions = { kind: 'cards', return_url: RETURN_URL, nonce: NONCE };
  const callback = payhandoff.parseCheckoutCallback(callbackUrl(request.return_url, 'completed'), callbackOptions);
  assert.deepEqual(callback, { version: 1, kind: 'cards', status: 'completed', verified: true, card_id: 'card_xyz' });
  assert.throws(() => payhandoff.parseCheckoutCallback(callbackUrl(RETURN_URL, 'completed'), callbackOptions), {
    code: 'callback_mismatch',
    field: 'nonce',
  });
  assert.throws(() => payhandoff.parseCheckoutCallback(callbackUrl(request.return_url, 'completed'), { kind: 'cards', return_url: RETURN_URL }), {
    code: 'validation',
    field: 'nonce',
  });
  const claim = payhandoff.parseCheckoutCallback(callbackUrl(RETURN_URL, 'completed'), { kind: 'cards', return_url: RETURN_URL, accept_unverified: true });
  assert.equal(claim.verified, false);
  const confirmation = payhandoff.parseConfirmation({ type: 'card.registered', data: { card_id: 'card_xyz', brand: 'visa', last_four: '4242' } });
  assert.equal(confirmation.type, 'card.registered');
  assert.equal(confirmation.card_id, 'card_xyz');
});

test('ABI version: checked once, at first use; a mismatch is abi_mismatch', () => {
  let asked = 0;
  const counting = { ...addon, abiVersion: () => (asked++, addon.abiVersion()) };
  const checked = new api.PayHandoff(counting);
  assert.equal(asked, 0, 'constructing does not call native code');
  checked.version();
  checked.buildPosUrl(SALE);
  assert.equal(asked, 1);
  assert.equal(checked.abiVersion(), api.ABI_VERSION);

  const newer = new api.PayHandoff({ ...addon, abiVersion: () => api.ABI_VERSION + 1, posBuildUrl: () => assert.fail('must not be called') });
  assert.throws(() => newer.buildPosUrl(SALE), { name: 'PayHandoffError', code: 'abi_mismatch', status: -2 });
});

test('package index: payhandoff is bound to TurboModuleRegistry.getEnforcing("PayHandoff")', () => {
  const { build } = require('./support');
  const path = require('node:path');
  const index = require(path.join(build, 'lib', 'index.js'));
  const rn = require(path.join(build, 'node_modules', 'react-native'));
  assert.deepEqual(rn.requested, ['PayHandoff']);
  assert.ok(index.payhandoff instanceof index.PayHandoff);
  assert.equal(index.PayHandoffError, api.PayHandoffError);
  assert.equal(index.payhandoff.buildPosUrl(SALE).version, 1);
  assert.equal(typeof index.listenForDeepLinks, 'function');
});

test('every coordinator of these scenarios was disposed', async () => {
  await new Promise((resolve) => setImmediate(resolve));
  // t.after hooks of earlier tests have run by now; only this file's coordinators were opened.
  assert.equal(addon.openCoordinators(), 0);
});
