// The shared vectors (Tests/Vectors, every folder) in the page, through the package as a page
// loads it and the runner the Node tests use: each suite by its typed method, or by the C
// function of its name. Run by scenarios.py in each engine, for each module of dist/web
// (?module=payhandoff-checkout.wasm or payhandoff.wasm), loaded as a page loads it:
// loadPayHandoff() for the checkout module, loadPayHandoff({ pos: true }) for the full one, from
// the package's default URLs. On the checkout module what it lacks must be refused
// (module_vectors.cjs): POS calls `unsupported` naming the function, scripts end at their first
// pos.* event (`unsupported`, field type, nothing changed) and the full module's final snapshot
// of those scripts is refused on restore. Results go to window.vectorResults.
import { PayHandoffError, loadPayHandoff } from '/payhandoff/lib/web/src/index.js';

const runner = globalThis.PayHandoffVectorRunner;
const moduleVectors = globalThis.PayHandoffModuleVectors;
const FULL = 'payhandoff.wasm';
const module = new URL(location.href).searchParams.get('module') || 'payhandoff-checkout.wasm';

async function json(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

/** The .wasm files this page fetched, by name (what loadPayHandoff's default URLs resolved to). */
function fetchedModules() {
  return performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('.wasm'));
}

async function run() {
  const payhandoff = await loadPayHandoff(module === FULL ? { pos: true } : {});
  const loaded = fetchedModules();
  if (loaded.length !== 1 || loaded[0] !== `/payhandoff/${module}`) throw new Error(`the default URL loaded ${loaded.join(', ')}, not /payhandoff/${module}`);
  if (payhandoff.pos !== (module === FULL)) throw new Error(`payhandoff.pos is ${payhandoff.pos} for ${module}`);
  // The full module too, on the checkout module's page: its snapshots are restored there.
  const full = module === FULL ? payhandoff : await loadPayHandoff({ pos: true });
  const library = payhandoff.library;
  const header = runner.headerFunctions(await (await fetch('/test/payhandoff.h')).text());
  const call = (name, args) => library.call(name, args);
  const genericSuite = (suite) => runner.genericSuite(header, suite, call, PayHandoffError);
  const files = [];
  for (const { folder, file } of await json('/test/vectors/index.json')) {
    const vectors = await json(`/test/vectors/${folder}/${file}`);
    const entry = { folder, file, suite: vectors.suite, passed: 0, unsupported: 0, failures: [], skipped: [], expectedUnsupported: 0, restoresRefused: 0, ms: 0 };
    files.push(entry);
    const started = performance.now();
    try {
      Object.assign(entry, moduleVectors.runFile(runner, { payhandoff, full, PayHandoffError, genericSuite }, vectors));
    } catch (error) {
      entry.failures.push(`the run threw: ${error && error.stack ? error.stack : error}`);
    }
    entry.ms = performance.now() - started;
    const line = document.createElement('li');
    line.textContent = `${folder}/${file} (${entry.suite}): ${entry.passed} passed, ${entry.unsupported} ended at unsupported, `
      + `${entry.failures.length} failed, ${entry.skipped.length} skipped`;
    document.getElementById('files').append(line);
  }
  return { userAgent: navigator.userAgent, module, loaded, pos: payhandoff.pos, version: payhandoff.version(), files };
}

run()
  .then((result) => {
    window.vectorResults = result;
    const total = (key) => result.files.reduce((n, f) => n + (Array.isArray(f[key]) ? f[key].length : f[key]), 0);
    document.getElementById('summary').textContent = `${total('passed')} passed, ${total('unsupported')} ended at unsupported, `
      + `${total('failures')} failed, ${total('skipped')} skipped`;
  })
  .catch((error) => {
    window.vectorResults = { error: String(error && error.stack ? error.stack : error) };
    document.getElementById('summary').textContent = window.vectorResults.error;
  });
