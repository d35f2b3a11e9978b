// Hostile input through every method of the spec (the Node-API addon over the C++ bridge):
// whatever the strings hold — NULs, lone surrogates, control bytes, oversized text, bad ids —
// the answer is a well-formed envelope, errors are error documents, and nothing crashes or
// leaks a coordinator. Deterministic: a fixed-seed generator.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { addon, api, payhandoff, T0 } = require('./support');
const { generator, mutate } = require('../../../Tests/Vectors/tools/vector_runner.cjs');

const CODES = new Set([
  'invalid_argument', 'invalid_json', 'validation', 'malformed_url', 'callback_mismatch', 'unknown_flow',
  'duplicate', 'invalid_state', 'unsupported_version', 'limit_exceeded', 'gateway_error', 'conflict', 'not_eligible',
]);

/** version: the document's format (1; a coordinator snapshot's is 3). */
function checkEnvelope(reply, what, version = 1) {
  assert.equal(typeof reply, 'string', what);
  const envelope = JSON.parse(reply);
  assert.ok(Number.isInteger(envelope.status), what);
  if (envelope.status === 0) {
    assert.equal(typeof envelope.body, 'object', what);
    assert.equal(envelope.body.version, version, what);
  } else {
    assert.ok(CODES.has(envelope.body.code), `${what}: code ${envelope.body.code}`);
    assert.ok(envelope.body.field === null || typeof envelope.body.field === 'string', what);
    assert.equal(typeof envelope.body.message, 'string', what);
    assert.ok(!('coordinator' in envelope), what);
  }
  return envelope;
}

const SEEDS = [
  '{"transaction":"venta","usertoken":"t","identifier":"o","amount":"100.00","urlScheme":"myapp"}',
  'myapp://result=aprobada&amount=100.00&transactionid=7&identifier=o',
  'fixapp://checkout-callback/ph_0123456789abcdef0123?status=completed&card_id=card_1',
  '{"kind":"cards","return_url":"fixapp://checkout-callback","nonce":"0123456789abcdef0123"}',
  `{"type":"checkout.start","flow_id":"c1","now":${T0},"kind":"cards","return_url":"fixapp://checkout-callback"}`,
  '{"version":2,"config":{},"flows":[],"ledger":[]}',
  '{"version":3,"config":{},"flows":[],"ledger":{"pruned_through":0,"sales":[["7203710000",10000,0,1796054400000]],"refunds":[],"unknown":[]}}',
  '{"result":"aprobada","identifier":"o~0123456789abcdef","amount":"1.00","transactionid":"7"}',
  '{"identifier":"o","token":"0123456789abcdef"}',
  `{"type":"pos.result","flow_id":"p1","now":${T0},"extras":{"result":"rechazada","identifier":"o~0123456789abcdef"}}`,
];
/** The addon's spec methods (its enumerable ones), each recording its name in `called`. */
function tracked(module, called) {
  const wrapped = {};
  for (const name of Object.keys(module)) {
    wrapped[name] = (...args) => (called.add(name), module[name](...args));
  }
  return wrapped;
}

test('every method answers a well-formed envelope for 3000 rounds of mutated inputs', () => {
  const random = generator(0x5eed);
  const open = addon.openCoordinators();
  const called = new Set();
  const m = tracked(addon, called);
  assert.equal(m.abiVersion(), api.ABI_VERSION);
  assert.equal(typeof m.version(), 'string');
  const created = checkEnvelope(m.coordinatorCreate(null), 'create', 4);
  const id = created.coordinator;
  let calls = 0;
  for (let i = 0; i < 3000; i++) {
    const a = mutate(SEEDS[Math.floor(random() * SEEDS.length)], random);
    const b = mutate(SEEDS[Math.floor(random() * SEEDS.length)], random);
    const replies = [
      m.posBuildUrl(a), m.posParseResponse(a, b), m.posParseResult(a, b), m.posRefundCheck(a),
      m.checkoutBuildRequest(a), m.checkoutParseSession(a), m.checkoutParseCallback(a, b),
      m.checkoutParseConfirmation(a), m.coordinatorSend(id, a), m.coordinatorHandleUrl(id, a, T0 + i),
    ];
    for (const reply of replies) checkEnvelope(reply, `input ${JSON.stringify(a)} / ${JSON.stringify(b)}`);
    const restored = checkEnvelope(m.coordinatorRestore(a), `restore ${JSON.stringify(a)}`, 4);
    if (restored.status === 0) assert.equal(m.coordinatorDispose(restored.coordinator), true);
    // A salvage answers {"version": 1, "snapshot", "dropped"} and registers a coordinator, or refuses.
    const salvaged = checkEnvelope(m.coordinatorRestoreSalvage(a), `salvage ${JSON.stringify(a)}`, 1);
    if (salvaged.status === 0) {
      assert.equal(salvaged.body.snapshot.version, 4);
      assert.ok(Array.isArray(salvaged.body.dropped));
      assert.equal(m.coordinatorDispose(salvaged.coordinator), true);
    }
    calls += replies.length + 2;
  }
  checkEnvelope(m.coordinatorSnapshot(id), 'snapshot', 4);
  assert.equal(m.coordinatorDispose(id), true);
  assert.equal(addon.openCoordinators(), open);
  assert.ok(calls >= 30000, `${calls} calls`);
  // Every method of the module (the TurboModule's, as the addon exposes them) was exercised.
  assert.deepEqual(Object.keys(addon).filter((name) => !called.has(name)), []);
});

test('every function of the C ABI (abi/symbols.txt) has its TurboModule method', () => {
  const symbols = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'abi', 'symbols.txt'), 'utf8').split('\n').filter(Boolean);
  // Named after the C function (payhandoff_pos_parse_result -> posParseResult), except these;
  // payhandoff_string_free is the bridge's own business (every answer is copied, then freed).
  const renamed = { coordinatorNew: 'coordinatorCreate', coordinatorFree: 'coordinatorDispose', stringFree: null };
  const methods = symbols.map((symbol) => {
    const camel = symbol.replace(/^payhandoff_/, '').replace(/_([a-z])/g, (_, c) => c.toUpperCase());
    return camel in renamed ? renamed[camel] : camel;
  }).filter((name) => name !== null);
  assert.ok(methods.length >= symbols.length - 1);
  assert.deepEqual(methods.filter((name) => typeof addon[name] !== 'function'), []);
  assert.deepEqual(Object.keys(addon).filter((name) => !methods.includes(name)).sort(), [], 'no method without a C function');
});

test('limits: oversized JSON and URLs are limit_exceeded, not read', () => {
  const big = `{"a":"${'x'.repeat(65536)}"}`;
  assert.throws(() => payhandoff.parseConfirmation(JSON.parse(big)), { code: 'limit_exceeded' });
  const url = `myapp://result=aprobada&reference=${'x'.repeat(8192)}`;
  assert.throws(() => payhandoff.parsePosResponse(url, { urlScheme: 'myapp' }), { code: 'limit_exceeded' });
  const c = payhandoff.createCoordinator();
  try {
    assert.throws(() => c.handleUrl(url, T0), { code: 'limit_exceeded' });
  } finally {
    c.dispose();
  }
});

test('ids: only open integer ids name a coordinator', () => {
  for (const bad of [0, -1, 1.5, NaN, Infinity, 2 ** 53, 1e300]) {
    const envelope = checkEnvelope(addon.coordinatorSnapshot(bad), `id ${bad}`);
    assert.deepEqual([envelope.status, envelope.body.code, envelope.body.field], [1, 'invalid_argument', 'coordinator']);
    assert.equal(addon.coordinatorDispose(bad), false);
  }
  assert.throws(() => addon.coordinatorSnapshot('1'), TypeError);
  assert.throws(() => addon.posBuildUrl(), TypeError);
  assert.throws(() => addon.posBuildUrl(42), TypeError);
  assert.ok(api.PayHandoffError);
});
