// Node per-call overhead of the React Native binding's Node-API test addon (the TurboModule's
// methods over the C++ bridge, linked to dist/embedded): the same inputs as the C ABI cases of
// the Swift benchmark, timed here, minus the C ABI round trip measured by that run
// (bench/results.json, dist/embedded). Appends a "node" section to bench/results.json.
//   node Benchmarks/node-overhead.js BUILD_DIR     (BUILD_DIR: .build/react-native, from make react-native-test)
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const build = process.argv[2];
const addonPath = path.join(build, 'payhandoff.node');
if (!fs.existsSync(addonPath)) {
  console.log(`Node per-call overhead: not measured (${addonPath} missing; make react-native-test builds it)`);
  process.exit(0);
}
const addon = require(path.resolve(addonPath));
const quick = process.argv.includes('--quick');

const posAnswer = 'myapp://result=aprobada&statusinfo=&amount=1250.00&tip=187.50'
  + '&reference=Pedido%2012345%20mesa%207%20(terraza)%20/%20cliente@frecuente%20a%203%20MSI'
  + '&transactionid=720371234&msi=3&authorization=A1B2C3&creditcard=************4242&cardtype=visa'
  + '&email=juan.perez@example.com&phone=5512345678&arqc=9F26A1B2C3D4E5F6&aid=A0000000031010'
  + '&applabel=VISA%20CREDITO&url=https://bp.mx/v/8f7e6d&identifier=ord-000042&bank=BBVA'
  + '&accountType=credit&name=JUAN%20PEREZ&bp_version=4.3.24';
const posOptions = '{"urlScheme":"myapp","identifier":"ord-000042"}';
// The same answer as Android result extras (decoded text).
const posExtras = '{"result":"aprobada","statusinfo":"","amount":"1250.00","tip":"187.50","reference":"Pedido 12345 mesa 7 (terraza) / cliente@frecuente a 3 MSI","transactionid":"720371234","msi":"3","authorization":"A1B2C3","creditcard":"************4242","cardtype":"visa","email":"juan.perez@example.com","phone":"5512345678","arqc":"9F26A1B2C3D4E5F6","aid":"A0000000031010","applabel":"VISA CREDITO","url":"https://bp.mx/v/8f7e6d","identifier":"ord-000042","bank":"BBVA","accountType":"credit","name":"JUAN PEREZ","bp_version":"4.3.24"}';
const posResultOptions = '{"identifier":"ord-000042"}';
// The gateway's redirect to the return URL PayHandoff handed out (the nonce is its last path segment).
const callbackURL = 'fixapp://checkout-callback/ph_4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99?status=completed&card_id=card_xyz789&order=A%2B1+2';
const callbackOptions = '{"kind":"cards","return_url":"fixapp://checkout-callback","nonce":"4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99"}';
const refund = '{"sale":{"transactionid":"T-1","amount":"100.00","approved_at":1773174600,"bp_version":"4.3.24"},"now":1773178200,"amount":"40.00"}';
const confirmation = '{"type":"card.registered","data":{"card_id":"card_xyz","brand":"visa","last_four":"4242","token":"tok_1Nv0abc","created_at":"2026-11-30T16:00:00Z"}}';

const cases = [
  ['posParseResponse', 'payhandoff_pos_parse_response', () => addon.posParseResponse(posAnswer, posOptions)],
  ['posParseResult', 'payhandoff_pos_parse_result', () => addon.posParseResult(posExtras, posResultOptions)],
  ['checkoutParseCallback', 'payhandoff_checkout_parse_callback', () => addon.checkoutParseCallback(callbackURL, callbackOptions)],
  ['posRefundCheck', 'payhandoff_pos_refund_check', () => addon.posRefundCheck(refund)],
  ['checkoutParseConfirmation', 'payhandoff_checkout_parse_confirmation', () => addon.checkoutParseConfirmation(confirmation)],
  ['abiVersion', null, () => addon.abiVersion()],
];

function measure(fn) {
  let sink = 0;
  const warmEnd = process.hrtime.bigint() + 50_000_000n;
  let warm = 0;
  while (process.hrtime.bigint() < warmEnd || warm < 100) { sink += fn().length || 1; warm++; }
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < 200; i++) sink += fn().length || 1;
  const perCall = Number(process.hrtime.bigint() - t0) / 200;
  const batch = Math.max(1, Math.round(50_000 / perCall));
  const samples = [];
  const end = process.hrtime.bigint() + BigInt(quick ? 60_000_000 : 400_000_000);
  while (process.hrtime.bigint() < end || samples.length < 50) {
    const s = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) sink += fn().length || 1;
    samples.push(Number(process.hrtime.bigint() - s) / batch);
  }
  samples.sort((a, b) => a - b);
  const at = (p) => samples[Math.min(samples.length - 1, Math.round((samples.length - 1) * p))];
  return { median: at(0.5), p10: at(0.1), p90: at(0.9), samples: samples.length, sink };
}

const resultsPath = path.join('bench', 'results.json');
const results = fs.existsSync(resultsPath) ? JSON.parse(fs.readFileSync(resultsPath, 'utf8')) : { cases: [] };
const cMedian = (name) => {
  const c = results.cases.find((r) => r.name === `${name} [dist/embedded]`);
  return c ? c.median_ns : null;
};
const fmt = (ns) => (ns >= 1000 ? `${(ns / 1000).toFixed(2)} µs` : `${ns.toFixed(0)} ns`);
console.log('');
console.log(`Node ${process.version}: React Native binding's Node-API addon (TurboModule methods over the C++ bridge, dist/embedded)`);
console.log(`${'method'.padEnd(30)}${'node median'.padStart(12)}${'p10'.padStart(10)}${'p90'.padStart(10)}${'C ABI'.padStart(10)}${'overhead'.padStart(10)}`);
const node = [];
for (const [method, cName, fn] of cases) {
  // Timing an error path would compare the wrong calls: every input must be answered with status 0.
  const reply = fn();
  if (typeof reply === 'string' && JSON.parse(reply).status !== 0) {
    console.log(`${method.padEnd(30)}not measured: ${reply.slice(0, 120)}`);
    continue;
  }
  const m = measure(fn);
  const c = cName ? cMedian(cName) : 0;
  const overhead = c === null ? null : m.median - c;
  node.push({ method, median_ns: m.median, p10_ns: m.p10, p90_ns: m.p90, samples: m.samples, c_abi_median_ns: c, overhead_ns: overhead });
  console.log(`${method.padEnd(30)}${fmt(m.median).padStart(12)}${fmt(m.p10).padStart(10)}${fmt(m.p90).padStart(10)}`
    + `${(c === null ? '?' : fmt(c)).padStart(10)}${(overhead === null ? '?' : fmt(overhead)).padStart(10)}`);
}
console.log('overhead = node median − C ABI round trip median of the same call in the Swift run (abiVersion: the bare call cost)');
results.node = { version: process.version, cases: node };
fs.mkdirSync('bench', { recursive: true });
fs.writeFileSync(resultsPath, JSON.stringify(results, null, 2));
