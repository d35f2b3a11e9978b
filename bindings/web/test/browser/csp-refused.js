// Served with "default-src 'self'; script-src 'self'" (no 'wasm-unsafe-eval'): the browser
// must refuse to compile the module, and loadPayHandoff must say so as load_failed. This is the
// check that the demo's policy is really enforced by the engine, so its 'wasm-unsafe-eval' is
// what lets the module run (demo/server.mjs; the README says why it is needed).
import { loadPayHandoff } from '/payhandoff/lib/web/src/index.js';

const violations = [];
document.addEventListener('securitypolicyviolation', (event) => violations.push({ directive: event.effectiveDirective, blocked: event.blockedURI }));

loadPayHandoff({ wasm: new URL(location.href).searchParams.get('wasm') || '/payhandoff/payhandoff-checkout.wasm' })
  .then(() => ({ loaded: true }))
  .catch((error) => ({ loaded: false, name: error && error.name, code: error && error.code, message: String(error && error.message) }))
  .then(async (result) => {
    await new Promise((resolve) => setTimeout(resolve, 100)); // the violation event is queued
    window.cspRefused = { ...result, violations };
    document.getElementById('result').textContent = JSON.stringify(window.cspRefused);
  });
