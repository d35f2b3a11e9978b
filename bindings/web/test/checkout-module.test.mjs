// The two modules of one package: loadPayHandoff() loads the checkout module
// (payhandoff-checkout.wasm: no POS functions, POS flows, refunds or ledger), loadPayHandoff({ pos:
// true }) the full one (payhandoff.wasm); the same API over both. What the checkout module lacks is
// refused with PayHandoffError `unsupported` (status -6), never dropped: a POS method (by the
// missing export, before its arguments are looked at), a pos.* event (the core, field `type`,
// nothing changed), a snapshot holding a POS flow (flows[i]) or a ledger entry (ledger.…) in a
// restore, a salvage and a page's openCoordinator. The shared vectors run on both modules in
// vectors.test.mjs; this file checks the loading and each refusal by name.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { api, checkout, checkoutPath, dist, payhandoff, repo, MemoryStorage, T0, wasmPath } from './support.mjs';

const RETURN_URL = 'https://shop.example/checkout-callback';
const POS_SALE = { transaction: 'venta', usertoken: 'tok-pos-secret-1', identifier: 'ord-1', amount: '100.00', urlScheme: 'myapp' };

/** `unsupported` naming `field`, with the glue's and the checkout core's status. */
const unsupported = (field) => (error) => {
  assert.ok(error instanceof api.PayHandoffError, String(error));
  assert.equal(error.code, 'unsupported');
  assert.equal(error.field, field);
  assert.equal(error.status, -6);
  return true;
};

test('loadPayHandoff() loads payhandoff-checkout.wasm next to the package, { pos: true } payhandoff.wasm', async () => {
  // The default URLs are file: URLs next to lib/ (read with fs in Node, fetched in a page).
  const defaultCheckout = await api.loadPayHandoff();
  const defaultFull = await api.loadPayHandoff({ pos: true });
  assert.equal(defaultCheckout.pos, false);
  assert.equal(defaultFull.pos, true);
  assert.equal(checkout.pos, false);
  assert.equal(payhandoff.pos, true);
  const library = await import(pathToFileURL(path.join(dist, 'lib', 'web', 'src', 'library.js')).href);
  assert.equal(library.defaultWasmUrl().href, pathToFileURL(checkoutPath).href);
  assert.equal(library.defaultWasmUrl(true).href, pathToFileURL(wasmPath).href);
  // One API: the same methods on both.
  const methods = (o) => Object.getOwnPropertyNames(Object.getPrototypeOf(o)).sort();
  assert.deepEqual(methods(defaultCheckout), methods(defaultFull));
  assert.equal(defaultCheckout.abiVersion(), defaultFull.abiVersion());
  assert.equal(defaultCheckout.version(), defaultFull.version());
  // options.wasm still says where the module is: the full module without { pos: true } is the full module.
  const overridden = await api.loadPayHandoff({ wasm: pathToFileURL(wasmPath) });
  assert.equal(overridden.pos, true);
});

test('{ pos: true } with a module that has no POS functions: load_failed at load, naming what is missing', async () => {
  await assert.rejects(api.loadPayHandoff({ pos: true, wasm: fs.readFileSync(checkoutPath) }), (error) => {
    assert.ok(error instanceof api.PayHandoffError);
    assert.equal(error.code, 'load_failed');
    assert.equal(error.status, -3);
    assert.match(error.message, /payhandoff_pos_build_url/);
    return true;
  });
});

test('the checkout module exports abi/symbols.txt but payhandoff_pos_*: the POS code is not in it', () => {
  const symbols = fs.readFileSync(path.join(repo, 'abi', 'symbols.txt'), 'utf8').split('\n').filter(Boolean);
  const exported = WebAssembly.Module.exports(new WebAssembly.Module(fs.readFileSync(checkoutPath))).map((e) => e.name).sort();
  assert.deepEqual(exported, [...symbols.filter((s) => !s.startsWith('payhandoff_pos_')), '_initialize', 'free', 'malloc', 'memory'].sort());
  assert.ok(fs.statSync(checkoutPath).size < fs.statSync(wasmPath).size, 'smaller than the full module');
});

test('a POS method on the checkout module: unsupported naming the function, whatever its arguments', () => {
  const calls = [
    ['posBuildUrl', () => checkout.buildPosUrl(POS_SALE)],
    ['posBuildUrl', () => checkout.buildPosUrl({ amount: 1n })],                     // JSON.stringify would refuse it
    ['posParseResponse', () => checkout.parsePosResponse('myapp://result=aprobada&amount=100.00', { urlScheme: 'myapp' })],
    ['posParseResponse', () => checkout.parsePosResponse('myapp://x\ud800', { urlScheme: 'myapp' })], // a lone surrogate
    ['posParseResult', () => checkout.parsePosResult({ result: 'aprobada' })],
    ['posRefundCheck', () => checkout.checkRefund({})],
  ];
  for (const [field, call] of calls) {
    assert.throws(call, unsupported(field));
    assert.throws(call, { message: `${field}: needs the full module: loadPayHandoff({ pos: true })` });
  }
  // The C function called by name (the vector runner's generic suites): the same error.
  assert.throws(() => checkout.library.call('payhandoff_pos_refund_check', [{ name: 'input_json', text: '{}' }]), unsupported('posRefundCheck'));
  // The same calls on the full module work (or fail by the core's rules, not as unsupported).
  assert.equal(payhandoff.buildPosUrl(POS_SALE).fields.find((f) => f.key === 'amount').value, '100.00');
  assert.throws(() => payhandoff.checkRefund({}), (error) => error.code !== 'unsupported');
});

test('a pos.* event on the checkout module: unsupported (field type), nothing changed; checkout flows go on', () => {
  const storage = new MemoryStorage();
  const coordinator = checkout.openCoordinator({ storage });
  try {
    const started = coordinator.send({ type: 'checkout.start', flow_id: 'c1', now: T0, kind: 'cards', return_url: RETURN_URL });
    assert.equal(started.outcome, 'accepted');
    const before = coordinator.snapshotJson();
    const writes = storage.writes;
    for (const event of [
      { type: 'pos.start', flow_id: 'p1', request: POS_SALE, now: T0 + 1 },
      { type: 'pos.start', flow_id: 'p1', now: T0 + 1 },               // its members are not read
      { type: 'pos.launched', flow_id: 'p1', now: T0 + 2 },
      { type: 'pos.launch_failed', flow_id: 'p1', now: T0 + 2 },
      { type: 'pos.result', flow_id: 'p1', extras: { result: 'aprobada' }, now: T0 + 3 },
    ]) {
      assert.throws(() => coordinator.send(event), unsupported('type'), event.type);
      assert.equal(coordinator.snapshotJson(), before, `${event.type}: nothing changed`);
      assert.equal(storage.writes, writes, `${event.type}: nothing saved`);
    }
    // A POS app's answer URL: what the full module answers with no POS flow open.
    const url = `myapp://result=aprobada&amount=100.00&identifier=ord-1`;
    assert.equal(coordinator.handleUrl(url, T0 + 4).outcome, 'not_ours');
    const full = payhandoff.createCoordinator();
    try {
      assert.equal(full.handleUrl(url, T0 + 4).outcome, 'not_ours');
    } finally {
      full.dispose();
    }
    // The checkout flow is where it was and goes on.
    const answer = coordinator.send({ type: 'checkout.session_failed', flow_id: 'c1', now: T0 + 5, reason: 'gateway down' });
    assert.equal(answer.outcome, 'accepted');
  } finally {
    coordinator.dispose();
  }
});

/** A snapshot of the full module: a checkout flow, then a POS sale approved (a POS flow and the
 *  ledger's sale entry). */
function fullSnapshot() {
  const coordinator = payhandoff.createCoordinator();
  try {
    coordinator.send({ type: 'checkout.start', flow_id: 'c1', now: T0, kind: 'cards', return_url: RETURN_URL });
    const token = '6b124a196dac0e3bec33ef28bb5cc2fd';
    coordinator.send({ type: 'pos.start', flow_id: 'p1', request: POS_SALE, token, now: T0 + 1000 });
    const answer = coordinator.send({ type: 'pos.result', flow_id: 'p1', now: T0 + 2000,
      extras: { result: 'aprobada', amount: '100.00', identifier: `ord-1~${token}`, transactionid: '720371' } });
    assert.equal(answer.outcome, 'accepted', JSON.stringify(answer));
    return coordinator.snapshot();
  } finally {
    coordinator.dispose();
  }
}

test('a snapshot holding a POS flow or a ledger entry: the checkout module refuses it by name (restore, salvage, openCoordinator)', () => {
  const snapshot = fullSnapshot();
  assert.deepEqual(snapshot.flows.map((f) => f.type), ['checkout', 'pos']);
  assert.equal(snapshot.ledger.sales.length, 1, 'the approved sale is booked');
  const text = JSON.stringify(snapshot);
  assert.throws(() => checkout.restoreCoordinator(text), unsupported('flows[1]'));
  assert.throws(() => checkout.restoreCoordinator(snapshot), unsupported('flows[1]'));
  // Salvage refuses it too (it does not drop the POS flow quietly); it reads the ledger first.
  assert.throws(() => checkout.restoreCoordinatorSalvage(text), (error) => unsupported(error.field)(error) && ['flows[1]', 'ledger.sales[0]'].includes(error.field));
  // The ledger alone (its POS flow gone) is refused as well, naming the entry.
  const ledgerOnly = JSON.stringify({ ...snapshot, flows: snapshot.flows.filter((f) => f.type !== 'pos') });
  assert.throws(() => checkout.restoreCoordinator(ledgerOnly), unsupported('ledger.sales[0]'));
  assert.throws(() => checkout.restoreCoordinatorSalvage(ledgerOnly), unsupported('ledger.sales[0]'));
  // Without either, the checkout module restores it.
  const checkoutOnly = { ...snapshot, flows: snapshot.flows.filter((f) => f.type !== 'pos'), ledger: { ...snapshot.ledger, sales: [] } };
  const restored = checkout.restoreCoordinator(checkoutOnly);
  assert.deepEqual(restored.snapshot().flows.map((f) => f.id), ['c1']);
  restored.dispose();
  // A page whose storage holds the full module's snapshot: openCoordinator throws and leaves it.
  const storage = new MemoryStorage([[api.DEFAULT_STORAGE_KEY, text]]);
  assert.throws(() => checkout.openCoordinator({ storage }), unsupported('flows[1]'));
  assert.equal(storage.getItem(api.DEFAULT_STORAGE_KEY), text);
  assert.equal(storage.writes, 0);
  // The full module restores it, as before.
  const full = payhandoff.restoreCoordinator(text);
  assert.deepEqual(full.snapshot().flows.map((f) => f.type), ['checkout', 'pos']);
  full.dispose();
});
