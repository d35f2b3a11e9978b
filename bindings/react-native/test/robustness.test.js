// Hostile input through every method of the spec (the Node-API addon over the C++ bridge):
// whatever the strings hold — NULs, lone surrogates, control bytes, oversized text, bad ids —
// the answer is a well-formed envelope, errors are error documents, and nothing crashes or
// leaks a coordinator. Deterministic: a fixed-seed generator.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { addon, api, payhandoff, T0 } = require('./support');
const { generator, mutate } = require('../../../Tests/Vectors/tools/vector_runner.cjs');

const CODES = new Set([
  'invalid_argument', 'invalid_json', 'validation', 'malformed_url', 'callback_mismatch', 'unknown_flow',
  'duplicate', 'invalid_state', 'unsupported_version', 'limit_exceeded', 'gateway_error', 'conflict', 'not_eligible',
]);

function checkEnvelope(reply, what) {
  assert.equal(typeof reply, 'string', what);
  const envelope = JSON.parse(reply);
  assert.ok(Number.isInteger(envelope.status), what);
  if (envelope.status === 0) {
    assert.equal(typeof envelope.body, 'object', what);
    assert.equal(envelope.body.version, 1, what);
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
  'fixapp://checkout-callback?ph_nonce=0123456789abcdef0123&status=completed&card_id=card_1',
  '{"kind":"cards","return_url":"fixapp://checkout-callback","nonce":"0123456789abcdef0123"}',
  `{"type":"checkout.start","flow_id":"c1","now":${T0},"kind":"cards","return_url":"fixapp://checkout-callback"}`,
  '{"version":1,"config":{},"flows":[],"refunded":{}}',
];
test('every method answers a well-formed envelope for 3000 rounds of mutated inputs (30000 calls)', () => {
  const random = generator(0x5eed);
  const open = addon.openCoordinators();
  const created = checkEnvelope(addon.coordinatorCreate(null), 'create');
  const id = created.coordinator;
  let calls = 0;
  for (let i = 0; i < 3000; i++) {
    const a = mutate(SEEDS[Math.floor(random() * SEEDS.length)], random);
    const b = mutate(SEEDS[Math.floor(random() * SEEDS.length)], random);
    const replies = [
      addon.posBuildUrl(a), addon.posParseResponse(a, b), addon.posRefundCheck(a),
      addon.checkoutBuildRequest(a), addon.checkoutParseSession(a), addon.checkoutParseCallback(a, b),
      addon.checkoutParseConfirmation(a), addon.coordinatorSend(id, a), addon.coordinatorHandleUrl(id, a, T0 + i),
    ];
    for (const reply of replies) checkEnvelope(reply, `input ${JSON.stringify(a)} / ${JSON.stringify(b)}`);
    const restored = checkEnvelope(addon.coordinatorRestore(a), `restore ${JSON.stringify(a)}`);
    if (restored.status === 0) assert.equal(addon.coordinatorDispose(restored.coordinator), true);
    calls += replies.length + 1;
  }
  checkEnvelope(addon.coordinatorSnapshot(id), 'snapshot');
  assert.equal(addon.coordinatorDispose(id), true);
  assert.equal(addon.openCoordinators(), open);
  assert.equal(calls, 30000);
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
