// The shared vectors (Tests/Vectors, every folder) in the page, through the package as a page
// loads it and the runner the Node tests use: each suite by its typed method, or by the C
// function of its name. Run by scenarios.py in each engine, for each module of dist/web
// (?wasm=/payhandoff/<module>): a suite whose C function the module does not export is listed
// as not in this module, not counted. Results go to window.vectorResults.
import { PayHandoffError, loadPayHandoff } from '/payhandoff/lib/web/src/index.js';

const runner = globalThis.PayHandoffVectorRunner;
const wasm = new URL(location.href).searchParams.get('wasm') || '/payhandoff/payhandoff.wasm';

async function json(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

async function run() {
  const payhandoff = await loadPayHandoff({ wasm });
  const library = payhandoff.library;
  const header = runner.headerFunctions(await (await fetch('/test/payhandoff.h')).text());
  const typed = runner.typedSuites(payhandoff, PayHandoffError);
  const call = (name, args) => library.call(name, args);
  const exported = (name) => typeof library.exports[name] === 'function';
  const files = [];
  for (const { folder, file } of await json('/test/vectors/index.json')) {
    const vectors = await json(`/test/vectors/${folder}/${file}`);
    const entry = { folder, file, suite: vectors.suite, passed: 0, failures: [], skipped: [], inModule: true, ms: 0 };
    files.push(entry);
    if (!exported(runner.suiteFunction(vectors.suite))) {
      entry.inModule = false;
      continue;
    }
    const suite = typed[vectors.suite] ?? runner.genericSuite(header, vectors.suite, call, PayHandoffError);
    if (!suite) {
      entry.failures.push(`unknown suite ${vectors.suite}: no typed method and no C function of its name taking strings`);
      continue;
    }
    const started = performance.now();
    try {
      const { passed, failures, skipped } = runner.runDocument(suite, vectors, PayHandoffError);
      Object.assign(entry, { passed, failures, skipped });
    } catch (error) {
      entry.failures.push(`the run threw: ${error && error.stack ? error.stack : error}`);
    }
    entry.ms = performance.now() - started;
    const line = document.createElement('li');
    line.textContent = `${folder}/${file} (${entry.suite}): ${entry.passed} passed, ${entry.failures.length} failed, ${entry.skipped.length} skipped`;
    document.getElementById('files').append(line);
  }
  return { userAgent: navigator.userAgent, wasm, version: payhandoff.version(), files };
}

run()
  .then((result) => {
    window.vectorResults = result;
    const total = (key) => result.files.reduce((n, f) => n + (key === 'passed' ? f.passed : f[key].length), 0);
    document.getElementById('summary').textContent = `${total('passed')} passed, ${total('failures')} failed, ${total('skipped')} skipped`;
  })
  .catch((error) => {
    window.vectorResults = { error: String(error && error.stack ? error.stack : error) };
    document.getElementById('summary').textContent = window.vectorResults.error;
  });
