// What real Billpocket integrations send and expect (issue 30), through the typed JavaScript API:
// onActivityResult with no data (pos.result without extras), the result words (declinada, an
// unknown word), an echoed PIN, and the intent's two actions and package. One set of scenarios,
// registered by the React Native tests (Node-API addon, test/billpocket.test.js) and the web
// tests (WebAssembly, bindings/web/test/billpocket.test.mjs): both packages have the same API.
'use strict';
const assert = require('node:assert/strict');

const TOKEN = '9f86d081884c7d659a2feaa0c55ad015';
const SALE = { transaction: 'venta', usertoken: 'tok_secret_1', identifier: 'ord-1', amount: '100.00', urlScheme: 'myapp' };
const APPROVAL = `myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1~${TOKEN}&creditcard=4242`;

/** [flow_id, state, effect types] of every transition. */
const steps = (answer) => answer.transitions.map((t) => [t.flow_id, t.state, t.effects.map((e) => e.type)]);

const stateOf = (coordinator, id) => coordinator.snapshot().flows.find((f) => f.id === id).state;

/**
 * Registers the scenarios with `test` (node:test) for `payhandoff` (the package's PayHandoff),
 * `T0` (epoch ms) and `PayHandoffError` (the package's error class), each test name prefixed
 * with `label`.
 */
function register(test, { payhandoff, T0, PayHandoffError, label }) {
  /** A coordinator with sale p1 started (with TOKEN) and launched, disposed when the test ends. */
  function launched(t) {
    const c = payhandoff.createCoordinator();
    t.after(() => c.dispose());
    c.send({ type: 'pos.start', flow_id: 'p1', now: T0, token: TOKEN, request: SALE });
    assert.deepEqual(steps(c.send({ type: 'pos.launched', flow_id: 'p1', now: T0 + 1000 })), [['p1', 'launched', ['persist']]]);
    return c;
  }

  /** The same coordinator after process death: only its snapshot text survives. */
  function restored(t, c) {
    const r = payhandoff.restoreCoordinator(c.snapshotJson());
    t.after(() => r.dispose());
    return r;
  }

  test(`${label}: pos.result without extras (no data back) is returned_without_response at once; a late answer still resolves it`, (t) => {
    const c = launched(t);
    // onActivityResult(requestCode, resultCode, null): no app.foregrounded, no tick needed.
    let a = c.send({ type: 'pos.result', flow_id: 'p1', now: T0 + 5000 });
    assert.equal(a.outcome, 'accepted');
    assert.deepEqual(steps(a), [['p1', 'returned_without_response', ['reconcile', 'persist']]]);
    assert.match(a.transitions[0].effects[0].reason, /unknown/);
    assert.equal(a.transitions[0].details.response, undefined, 'no answer was stored');
    // The same empty result again (the Activity recreated), as null or {}: nothing new.
    assert.equal(c.send({ type: 'pos.result', flow_id: 'p1', now: T0 + 5100, extras: null }).outcome, 'duplicate');
    assert.equal(c.send({ type: 'pos.result', flow_id: 'p1', now: T0 + 5200, extras: {} }).outcome, 'duplicate');
    assert.deepEqual(c.snapshot().ledger.sales, []);
    const r = restored(t, c);
    assert.equal(stateOf(r, 'p1'), 'returned_without_response');
    // The POS app's genuine answer arrives late, by deep link: it resolves the flow and books the sale.
    a = r.handleUrl(APPROVAL, T0 + 60000);
    assert.deepEqual(steps(a), [['p1', 'approved', ['persist']]]);
    assert.deepEqual(r.snapshot().ledger.sales, [['720371', 10000, 0, T0 + 60000]]);
    assert.equal(r.send({ type: 'pos.result', flow_id: 'p1', now: T0 + 61000 }).outcome, 'ignored');
    assert.equal(stateOf(r, 'p1'), 'approved');
  });

  test(`${label}: no data before pos.launched too; extras with members are an answer, read as one`, (t) => {
    const c = payhandoff.createCoordinator();
    t.after(() => c.dispose());
    for (const [id, extras] of [['p1', undefined], ['p2', null], ['p3', {}]]) {
      c.send({ type: 'pos.start', flow_id: id, now: T0, request: { ...SALE, identifier: `ord-${id}` } });
      const event = { type: 'pos.result', flow_id: id, now: T0 + 2000 };
      if (extras !== undefined) event.extras = extras;
      assert.deepEqual(steps(c.send(event)), [[id, 'returned_without_response', ['reconcile', 'persist']]], id);
    }
    c.send({ type: 'pos.start', flow_id: 'p4', now: T0, token: TOKEN, request: { ...SALE, identifier: 'ord-p4' } });
    const a = c.send({ type: 'pos.result', flow_id: 'p4', now: T0 + 3000, extras: { identifier: `ord-p4~${TOKEN}` } });
    assert.deepEqual([a.outcome, a.error.code, a.error.field], ['rejected', 'validation', 'extras.result']);
    assert.equal(stateOf(c, 'p4'), 'ready');
  });

  test(`${label}: declinada is a decline, in any case, as rechazada`, (t) => {
    for (const word of ['declinada', 'Declinada', 'DECLINADA', 'rechazada', 'Rechazada']) {
      const url = `myapp://result=${word}&identifier=ord-1~${TOKEN}&statusinfo=Tarjeta%20declinada`;
      const parsed = payhandoff.parsePosResponse(url, { urlScheme: 'myapp', identifier: 'ord-1', token: TOKEN });
      assert.deepEqual(parsed, { version: 1, result: 'declined', identifier: `ord-1~${TOKEN}`, statusinfo: 'Tarjeta declinada' }, word);
      const extras = payhandoff.parsePosResult({ result: word, identifier: `ord-1~${TOKEN}` }, { identifier: 'ord-1', token: TOKEN });
      assert.deepEqual([extras.result, 'result_word' in extras], ['declined', false], word);
    }
    // Billpocket's own Cordova plugin compares the Android result with "declinada".
    const c = launched(t);
    const a = c.send({ type: 'pos.result', flow_id: 'p1', now: T0 + 5000,
      extras: { result: 'Declinada', identifier: `ord-1~${TOKEN}`, statusinfo: 'Fondos insuficientes' } });
    assert.deepEqual(steps(a), [['p1', 'declined', ['persist']]]);
    assert.deepEqual([a.transitions[0].details.response.result, a.transitions[0].details.response.statusinfo], ['declined', 'Fondos insuficientes']);
    assert.deepEqual(c.snapshot().ledger.sales, []);
  });

  test(`${label}: an unknown result word is unrecognized (with the word), never an approval`, (t) => {
    const parsed = payhandoff.parsePosResponse('myapp://result=Aprobado&amount=100.00&transactionid=720371&identifier=ord-1',
      { urlScheme: 'myapp', identifier: 'ord-1' });
    assert.deepEqual(parsed, { version: 1, result: 'unrecognized', result_word: 'Aprobado', identifier: 'ord-1', amount: '100.00', transactionid: '720371' });
    const fromExtras = payhandoff.parsePosResult({ result: 'pendiente', identifier: 'ord-1' }, { identifier: 'ord-1' });
    assert.deepEqual([fromExtras.result, fromExtras.result_word], ['unrecognized', 'pendiente']);

    const c = launched(t);
    const unknown = `myapp://result=Aprobado&amount=100.00&transactionid=720371&identifier=ord-1~${TOKEN}`;
    let a = c.handleUrl(unknown, T0 + 5000);
    assert.equal(a.outcome, 'accepted');
    assert.deepEqual(steps(a), [['p1', 'unrecognized_result', ['reconcile', 'persist']]]);
    assert.match(a.transitions[0].effects[0].reason, /"Aprobado"/);
    const response = a.transitions[0].details.response;
    assert.deepEqual([response.result, response.result_word, response.identifier], ['unrecognized', 'Aprobado', 'ord-1']);
    assert.deepEqual(c.snapshot().ledger.sales, [], 'nothing booked');
    assert.equal(c.handleUrl(unknown, T0 + 6000).outcome, 'duplicate');
    assert.equal(c.send({ type: 'pos.result', flow_id: 'p1', now: T0 + 7000, extras: { result: 'pendiente', identifier: `ord-1~${TOKEN}` } }).outcome,
      'ignored');
    const r = restored(t, c);
    assert.equal(stateOf(r, 'p1'), 'unrecognized_result');
    // A later genuine answer with a known word resolves it; only then is the sale booked.
    a = r.handleUrl(APPROVAL, T0 + 60000);
    assert.deepEqual(steps(a), [['p1', 'approved', ['persist']]]);
    assert.deepEqual(r.snapshot().ledger.sales.map((s) => s[0]), ['720371']);
  });

  test(`${label}: an echoed PIN (any case) appears in no answer, snapshot or error`, (t) => {
    const pin = 'PIN-8675309';
    const shown = [];
    for (const key of ['pin', 'PIN', 'Pin']) {
      const extras = { result: 'aprobada', amount: '100.00', transactionid: '720371', identifier: `ord-1~${TOKEN}`, [key]: pin };
      const parsed = payhandoff.parsePosResult(extras, { identifier: 'ord-1', token: TOKEN });
      assert.equal(parsed.result, 'approved');
      assert.equal(parsed.extra, undefined, key);
      shown.push([`parsePosResult ${key}`, JSON.stringify(parsed)]);
      const url = `myapp://result=aprobada&amount=100.00&identifier=ord-1~${TOKEN}&${key}=${pin}`;
      shown.push([`parsePosResponse ${key}`, JSON.stringify(payhandoff.parsePosResponse(url, { urlScheme: 'myapp', identifier: 'ord-1', token: TOKEN }))]);
      assert.throws(() => payhandoff.parsePosResult({ ...extras, amount: '1.001' }, { identifier: 'ord-1', token: TOKEN }), (e) => {
        assert.ok(e instanceof PayHandoffError);
        assert.equal(e.code, 'validation');
        shown.push([`error ${key}`, `${e.message} ${e.field} ${e.stack}`]);
        return true;
      });
    }
    const c = launched(t);
    const a = c.send({ type: 'pos.result', flow_id: 'p1', now: T0 + 5000,
      extras: { result: 'aprobada', amount: '100.00', transactionid: '720371', identifier: `ord-1~${TOKEN}`, Pin: pin } });
    assert.deepEqual(steps(a), [['p1', 'approved', ['persist']]]);
    shown.push(['answer', JSON.stringify(a)], ['snapshot', c.snapshotJson()]);
    const again = c.send({ type: 'pos.result', flow_id: 'p1', now: T0 + 6000, extras: { result: 'aprobada', identifier: `ord-1~${TOKEN}`, pin, amount: 'x' } });
    shown.push(['a second answer', JSON.stringify(again)]);
    for (const [what, text] of shown) assert.ok(!text.includes(pin), `${what} shows the PIN: ${text}`);
    assert.equal(shown.length, 12);
  });

  test(`${label}: the intent carries the action asked for (billpocket.payments.START by default) and the package`, (t) => {
    const byDefault = payhandoff.buildPosUrl({ ...SALE, token: TOKEN });
    assert.deepEqual([byDefault.intent.action, byDefault.intent.package], ['billpocket.payments.START', 'com.billpocket.billpocket']);
    const other = payhandoff.buildPosUrl({ ...SALE, token: TOKEN, android_action: 'com.billpocket.payments.START' });
    assert.deepEqual(other.intent, { ...byDefault.intent, action: 'com.billpocket.payments.START' });
    assert.equal(other.url, byDefault.url, 'the action is Android\'s, not a field sent in the URL');
    const refund = payhandoff.buildPosUrl({ transaction: 'devolucion', usertoken: 't', identifier: 'r', urlScheme: 'myapp', transactionId: '720371',
      android_action: 'com.billpocket.payments.START' });
    assert.equal(refund.intent.action, 'com.billpocket.payments.START');
    for (const action of ['com.billpocket.START', 'BILLPOCKET.PAYMENTS.START']) {
      assert.throws(() => payhandoff.buildPosUrl({ ...SALE, android_action: action }), { code: 'validation', field: 'android_action' }, action);
    }
    const c = payhandoff.createCoordinator();
    t.after(() => c.dispose());
    assert.equal(c.send({ type: 'pos.start', flow_id: 'p1', now: T0, request: { ...SALE, android_action: 'com.billpocket.payments.START' } }).outcome, 'accepted');
    assert.throws(() => c.send({ type: 'pos.start', flow_id: 'p2', now: T0, request: { ...SALE, identifier: 'ord-2', android_action: 'x' } }),
      { code: 'validation', field: 'request.android_action' });
  });
}

module.exports = { register };
