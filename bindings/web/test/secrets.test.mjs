// No ordinary way of printing shows a secret (issue 36), for the web package over payhandoff.wasm:
// the same check as the React Native package's test/secrets.test.js, through the same runner
// (Tests/Vectors/tools/vector_runner.cjs: produced, nodePrinted). In a browser, console.log shows
// the objects in the developer tools, where a secret member is an accessor shown as (...) until
// clicked (react-native/src/redaction.ts); that view is not automated here.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { api, payhandoff, vectorsRoot } from './support.mjs';

const runner = createRequire(import.meta.url)('../../../Tests/Vectors/tools/vector_runner.cjs');

test('no vector secret is printed, every way Node prints a value (payhandoff.wasm)', (t) => {
  const { values, looked, shown } = runner.printedSecrets(payhandoff, api.PayHandoffError, vectorsRoot);
  t.diagnostic(`secret-printing: ${values} values printed every way, ${looked} secrets looked for, ${shown.length} shown`);
  assert.deepEqual(shown.slice(0, 10), []);
  assert.ok(values > 1000, `only ${values} values`);
});
