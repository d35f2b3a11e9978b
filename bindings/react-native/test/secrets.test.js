// No ordinary way of printing shows a secret (issue 36): every value the shared vectors produce
// through the typed API — results, errors, every answer of a script, its snapshots and a salvage
// of the last — printed by console.log, util.inspect (also showHidden), util.format, String(),
// a template literal and React Native's native log (Tests/Vectors/tools/vector_runner.cjs,
// nodePrinted), must show none of the vector's secrets: user tokens, PINs, API keys, nonces and
// tokens of its input and of what the library made. JSON.stringify is not among them: it writes
// the data, secrets included (src/redaction.ts says why); the values themselves stay whole.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const runner = require('../../../Tests/Vectors/tools/vector_runner.cjs');
const { api, payhandoff, vectorsRoot } = require('./support');

test('no vector secret is printed, every way Node and React Native print a value', (t) => {
  const { values, looked, shown } = runner.printedSecrets(payhandoff, api.PayHandoffError, vectorsRoot);
  t.diagnostic(`secret-printing: ${values} values printed every way, ${looked} secrets looked for, ${shown.length} shown`);
  assert.deepEqual(shown.slice(0, 10), []);
  assert.ok(values > 1000, `only ${values} values`);
});

test('the values still hold their secrets as data: reads, spread, JSON.stringify', () => {
  const sale = payhandoff.buildPosUrl({ transaction: 'venta', usertoken: 'tok_SECRET', identifier: 'ord-1', amount: '1.00',
    urlScheme: 'myapp', token: 'tok0123456789abcdef' });
  assert.match(sale.url, /usertoken=tok_SECRET/);
  assert.equal(sale.token, 'tok0123456789abcdef');
  assert.match(JSON.stringify(sale), /tok_SECRET/);
  assert.equal({ ...sale }.token, 'tok0123456789abcdef');
  const printed = runner.nodePrinted(sale);
  assert.doesNotMatch(printed, /tok_SECRET|tok0123456789abcdef/);
  assert.match(require('node:util').inspect(sale), /url: 'billpocket:<redacted>'/);
  assert.match(runner.nativeLogInspect(sale), /url: \[Getter\/Setter\]/);
});
