// In a sandboxed frame (an opaque origin: no storage): the module loads, but openCoordinator()
// must refuse with storage_unavailable, since no flow started here would survive the trip to
// the gateway. Reports to the parent page.
import { loadPayHandoff } from '/payhandoff/lib/web/src/index.js';

async function run() {
  const report = { origin: self.origin };
  try {
    report.sessionStorage = `readable: ${typeof sessionStorage}`;
  } catch (error) {
    report.sessionStorage = `throws ${error && error.name}`;
  }
  const payhandoff = await loadPayHandoff({ wasm: new URL(location.href).searchParams.get('wasm') || '/payhandoff/payhandoff-checkout.wasm' });
  report.loaded = payhandoff.version();
  try {
    payhandoff.openCoordinator();
    report.opened = true;
  } catch (error) {
    report.opened = false;
    report.error = { name: error.name, code: error.code, field: error.field, status: error.status, message: error.message };
  }
  return report;
}

run()
  .catch((error) => ({ failed: String(error && error.stack ? error.stack : error) }))
  .then((report) => parent.postMessage(report, '*'));
