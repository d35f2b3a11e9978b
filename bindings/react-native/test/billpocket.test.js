// What real Billpocket integrations send and expect (issue 30) through the typed API, the
// Node-API addon and the C++ bridge against the real core: the scenarios of test/billpocket.cjs
// (the web package runs the same ones over WebAssembly).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, payhandoff, addon, T0 } = require('./support');
const { register } = require('./billpocket.cjs');

register(test, { payhandoff, T0, PayHandoffError: api.PayHandoffError, label: 'Billpocket (React Native)' });

test('every coordinator of these scenarios was disposed', async () => {
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(addon.openCoordinators(), 0);
});
