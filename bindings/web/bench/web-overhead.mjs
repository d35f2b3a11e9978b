// Cost of the web package (bindings/web over a module of dist/web) from JavaScript: starting
// it (compile, instantiate, the first call) and each call, next to URLSearchParams reading the
// same checkout callback — what a page does by hand today. The same cases run in Node (this
// file run by node) and in each browser engine (imported by the page that
// bindings/web/bench/web-overhead-browsers.py opens). Figures only, no goal is judged here.
//   node bindings/web/bench/web-overhead.mjs --dist dist/web [--module payhandoff.wasm] [--quick]
//
// The callback is built from the return URL the core hands out (buildCheckoutRequest), plus the
// gateway's parameters, so it stays valid wherever the core puts its nonce.

const NONCE = '4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99';
const RETURN_URL = 'https://shop.example/checkout-callback';
const T0 = 1796054400000;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Times each case: warm-up, then `samples` batches of `batch` calls; µs per call. */
export function measure(payhandoff, { quick = false } = {}) {
  const built = payhandoff.buildCheckoutRequest({
    kind: 'cards', api_key: 'sk_test_bench', return_url: RETURN_URL, provider: 'dinelco', customer_id: 'cus_1',
    target_origin: ['https://shop.example'], customer: { name: 'Juan', lastname: 'Pérez', email: 'juan@example.com' }, nonce: NONCE,
  });
  const handedOut = built.return_url;
  const callback = `${handedOut}${handedOut.includes('?') ? '&' : '?'}status=completed&card_id=card_xyz789&order=A%2B1+2`;
  const options = { kind: 'cards', return_url: RETURN_URL, nonce: NONCE };
  if (payhandoff.parseCheckoutCallback(callback, options).card_id !== 'card_xyz789') throw new Error('the callback does not parse');

  const coordinator = payhandoff.createCoordinator();
  coordinator.send({ type: 'checkout.start', flow_id: 'c1', now: T0, nonce: NONCE, kind: 'cards', return_url: RETURN_URL });
  if (coordinator.handleUrl(callback, T0 + 1000).outcome !== 'accepted') throw new Error('the callback is not accepted');

  const cases = [
    ['URLSearchParams: new URL(callback).searchParams, get status, card_id, reason', () => {
      const params = new URL(callback).searchParams;
      return params.get('status').length + params.get('card_id').length + (params.get('reason') ?? '').length;
    }],
    ['parseCheckoutCallback (typed API over wasm: checks URL, nonce, id; JSON result)', () => payhandoff.parseCheckoutCallback(callback, options).card_id.length],
    ['coordinator.handleUrl, the same callback again (answer: duplicate)', () => coordinator.handleUrl(callback, T0 + 2000).outcome.length],
    ['abiVersion (a wasm call with no strings)', () => payhandoff.abiVersion()],
  ];
  const batch = quick ? 300 : 2000;
  const samples = quick ? 5 : 15;
  const results = [];
  let sink = 0;
  for (const [name, fn] of cases) {
    for (let i = 0; i < batch * 2; i++) sink += fn();
    const perCall = [];
    for (let s = 0; s < samples; s++) {
      const start = performance.now();
      for (let i = 0; i < batch; i++) sink += fn();
      perCall.push(((performance.now() - start) * 1000) / batch);
    }
    results.push({ name, median_us: median(perCall), min_us: Math.min(...perCall), max_us: Math.max(...perCall) });
  }
  coordinator.dispose();
  const baseline = results[0].median_us;
  for (const r of results) r.vs_urlsearchparams = r.median_us / baseline;
  return { callback, results, sink };
}

/** The smallest step of performance.now() here (browsers coarsen it; cross-origin isolated
 *  pages get the finest the engine gives), in µs. */
function timerStep() {
  let step = Infinity;
  for (let i = 0; i < 50; i++) {
    const a = performance.now();
    let b = performance.now();
    while (b === a) b = performance.now();
    step = Math.min(step, b - a);
  }
  return step * 1000;
}

/**
 * What starting the module costs: `bytes` compiled (WebAssembly.compile), the compiled module
 * instantiated and checked by loadPayHandoff (constructors run, ABI version read), and the first
 * parseCheckoutCallback on a fresh instance next to the tenth. Medians of `samples` fresh
 * instances; ms, and µs for the calls.
 */
export async function startup(loadPayHandoff, bytes, { quick = false } = {}) {
  const samples = quick ? 5 : 15;
  const compile = [];
  const instantiate = [];
  const first = [];
  const tenth = [];
  for (let i = 0; i < samples; i++) {
    let start = performance.now();
    const module = await WebAssembly.compile(bytes);
    compile.push(performance.now() - start);
    start = performance.now();
    const payhandoff = await loadPayHandoff({ wasm: module });
    instantiate.push(performance.now() - start);
    const built = payhandoff.buildCheckoutRequest({ kind: 'cards', api_key: 'sk_test_bench', return_url: RETURN_URL, provider: 'dinelco',
      customer_id: 'cus_1', target_origin: ['https://shop.example'], customer: { name: 'Juan', lastname: 'Pérez', email: 'juan@example.com' }, nonce: NONCE });
    const callback = `${built.return_url}?status=completed&card_id=card_xyz789`;
    const options = { kind: 'cards', return_url: RETURN_URL, nonce: NONCE };
    for (let call = 1; call <= 10; call++) {
      start = performance.now();
      payhandoff.parseCheckoutCallback(callback, options);
      const us = (performance.now() - start) * 1000;
      if (call === 1) first.push(us);
      if (call === 10) tenth.push(us);
    }
  }
  return {
    bytes: bytes.byteLength, compile_ms: median(compile), instantiate_ms: median(instantiate),
    first_call_us: median(first), tenth_call_us: median(tenth), timer_step_us: timerStep(),
  };
}

/** The table both runners print. */
export function table(where, measured, started = null) {
  const lines = [`web cost from JavaScript, ${where}`];
  if (started) {
    lines.push(`  start (median of fresh instances): compile ${started.compile_ms.toFixed(2)} ms (${started.bytes} bytes), ` +
      `instantiate + ABI check ${started.instantiate_ms.toFixed(2)} ms; parseCheckoutCallback first call ` +
      `${started.first_call_us.toFixed(1)} µs, tenth ${started.tenth_call_us.toFixed(1)} µs (timer step ${started.timer_step_us.toFixed(1)} µs)`);
  }
  lines.push(`  callback: ${measured.callback}`,
    `  ${'call'.padEnd(84)} ${'median µs'.padStart(10)} ${'min–max µs'.padStart(14)} ${'× URLSearchParams'.padStart(18)}`);
  for (const r of measured.results) {
    lines.push(`  ${r.name.padEnd(84)} ${r.median_us.toFixed(2).padStart(10)} ${`${r.min_us.toFixed(2)}–${r.max_us.toFixed(2)}`.padStart(14)} ${r.vs_urlsearchparams.toFixed(1).padStart(18)}`);
  }
  return lines.join('\n');
}

const isMain = typeof process !== 'undefined' && process.argv && process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  const path = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const fs = await import('node:fs');
  const option = (name, fallback) => (process.argv.indexOf(name) > 0 ? process.argv[process.argv.indexOf(name) + 1] : fallback);
  const dist = path.resolve(option('--dist', 'dist/web'));
  const module = option('--module', 'payhandoff.wasm');
  const quick = process.argv.includes('--quick');
  const api = await import(pathToFileURL(path.join(dist, 'lib', 'web', 'src', 'index.js')).href);
  const started = await startup(api.loadPayHandoff, fs.readFileSync(path.join(dist, module)), { quick });
  const payhandoff = await api.loadPayHandoff({ wasm: pathToFileURL(path.join(dist, module)) });
  console.log(table(`Node ${process.version} (V8), ${module}`, measure(payhandoff, { quick }), started));
}
