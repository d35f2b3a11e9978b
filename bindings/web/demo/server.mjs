// The demo PWA and a mock payment gateway, on loopback only (make demo-web; the Chromium
// scenarios start and stop it the same way).
//
//   app      http://127.0.0.1:<port>       the demo page (demo/index.html, app.js, sw.js), the
//                                          package (dist/web under /payhandoff/), and the merchant
//                                          backend the page talks to (/backend/…): it holds the
//                                          API key, creates sessions and receives webhooks.
//                                          Served as a static host serves a PWA: the rewrite
//                                          rules of demo/_redirects (the return URL's /ph_<nonce>
//                                          segment is the app's page), a strict
//                                          Content-Security-Policy on every response, files
//                                          revalidated on every use
//   gateway  https://127.0.0.1:<port>      POST /v1/cards, POST /v1/payments answered like the
//                                          guide (data.registration.checkout_url,
//                                          data.checkout.checkout_url); GET /checkout/<id>, the
//                                          page standing in for 3-D Secure; its buttons redirect
//                                          to the return_url exactly as the app registered it,
//                                          with ?status=… (&status=… when it already has a query)
//                                          and card_id / payment_id / reason, after sending the
//                                          webhook to the backend
//
// The gateway is https because the core refuses a checkout_url that is not: its certificate is
// made here with openssl (self-signed, for 127.0.0.1 only) and its SPKI hash printed, which
// the scenarios pass to Chromium (--ignore-certificate-errors-spki-list) to trust that key only.
//
//   node server.mjs --dist dist/web --state .build/web/demo [--port 0] [--gateway-port 0] [--json]
//                   [--wasm payhandoff-checkout.wasm] [--app DIR]
// --app DIR: serve DIR as the app instead of the demo page (make consumer-check: a fresh folder
// where the package is installed and the guide's first example is the page's module), with the
// same backend, gateway and rewrite of the return path to DIR/index.html, without a CSP (the
// page is the integrator's; the demo shows the strict one).
// --json prints one line {"app", "gateway", "spki", "cert"} (for the tests); otherwise the URL to
// open. --wasm: which module of dist/web the demo page loads (the checkout module by default, what
// loadPayHandoff() loads: the demo is a checkout page). For the tests
// the server also serves test/browser/ under /test/ (with the shared vectors, their runner and
// the C header) and reads commands on stdin, one per line, answering each with a JSON line:
// "offline" closes the app's port (every connection too: a PWA whose server is gone) and
// "online" listens on it again; the gateway stays up. "revisit-redirects" makes the gateway send
// a tab that comes back to a finished session's page (the back button) to its return URL again,
// as some gateways do; "revisit-shows" shows the page again (the default).
import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const HOST = '127.0.0.1';
const API_KEY = 'sk_test_demo_backend_only';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}
const repo = path.join(here, '..', '..', '..');
const dist = path.resolve(option('dist', path.join(repo, 'dist', 'web')));
const state = path.resolve(option('state', path.join(repo, '.build', 'web', 'demo')));
const DEFAULT_WASM = 'payhandoff-checkout.wasm';
const wasm = option('wasm', DEFAULT_WASM);
const json = process.argv.includes('--json');
const appDir = option('app', null) && path.resolve(option('app', null));
if (!/^[\w.-]+\.wasm$/.test(wasm) || !fs.existsSync(path.join(dist, wasm))) {
  console.error(`demo: no module ${wasm} in ${dist} (make web)`);
  process.exit(1);
}

// ---- the gateway's certificate ---------------------------------------------------------------

function certificate() {
  fs.mkdirSync(state, { recursive: true });
  const cert = path.join(state, 'gateway-cert.pem');
  const key = path.join(state, 'gateway-key.pem');
  if (!fs.existsSync(cert) || !fs.existsSync(key)) {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '30',
      '-subj', `/CN=${HOST}`, '-addext', `subjectAltName=IP:${HOST}`, '-keyout', key, '-out', cert,
    ], { stdio: 'ignore' });
  }
  const pem = fs.readFileSync(cert);
  const spki = createHash('sha256').update(createPublicKey(pem).export({ type: 'spki', format: 'der' })).digest('base64');
  return { cert: pem, key: fs.readFileSync(key), spki, certPath: cert };
}

// ---- small HTTP helpers ----------------------------------------------------------------------

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json',
  '.webmanifest': 'application/manifest+json', '.css': 'text/css', '.ts': 'text/plain', '.h': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png' };

// The app's policy: scripts only from its own origin, and WebAssembly compiled from its own
// bytes ('wasm-unsafe-eval' allows WebAssembly.compile/instantiate and nothing else of eval);
// everything else (fetch, styles, images, workers, frames) from its own origin only.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";
// The same without 'wasm-unsafe-eval': the page the tests use to see that the browser enforces it.
const CSP_WITHOUT_WASM = "default-src 'self'; script-src 'self'";

function send(response, status, body, type = 'application/json', headers = {}) {
  const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
  response.end(text);
}

/** A file of `root`: 404 outside it or when missing. Revalidated on every use (no-cache), and
 *  readable from any origin (a sandboxed frame is one). */
function sendFile(response, root, relative, headers = {}) {
  const file = path.resolve(root, `.${relative}`);
  if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    send(response, 404, { error: 'not found' }, 'application/json', headers);
    return;
  }
  let body = fs.readFileSync(file);
  if (file === path.join(here, 'index.html') && wasm !== DEFAULT_WASM) {
    body = body.toString('utf8').replace(`/payhandoff/${DEFAULT_WASM}`, `/payhandoff/${wasm}`);
  }
  send(response, 200, body, TYPES[path.extname(file)] ?? 'application/octet-stream',
    { 'Cache-Control': 'no-cache', 'Access-Control-Allow-Origin': '*', ...headers });
}

/** demo/_redirects: [{from, splat, to}], in order. `/a/*` matches /a/ and below; no other
 *  wildcard or placeholder is used here. */
function rewriteRules() {
  const rules = [];
  for (const line of fs.readFileSync(path.join(here, '_redirects'), 'utf8').split('\n')) {
    const text = line.replace(/#.*/, '').trim();
    if (text === '') continue;
    const [from, to, status] = text.split(/\s+/);
    if (status !== '200' || !to.startsWith('/')) throw new Error(`_redirects: only rewrites (200) are served here: ${line}`);
    rules.push({ from: from.endsWith('/*') ? from.slice(0, -1) : from, splat: from.endsWith('/*'), to });
  }
  return rules;
}
const REWRITES = rewriteRules();

/** The file a static host serves for a path: a file that exists is served as it is; otherwise
 *  the first rule whose `from` matches rewrites it (the URL the browser shows is unchanged). */
function rewritten(pathname) {
  if (pathname === '/') return '/index.html';
  const file = path.resolve(here, `.${pathname}`);
  if (file.startsWith(here + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()) return pathname;
  const rule = REWRITES.find((r) => (r.splat ? pathname.startsWith(r.from) : pathname === r.from));
  return rule ? rule.to : pathname;
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size > 1 << 20) reject(new Error('body too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// ---- the gateway ------------------------------------------------------------------------------

const sessions = new Map(); // id -> {kind, return_url, object_id, finished, params}
let revisitRedirects = false; // the tests' "revisit-redirects" / "revisit-shows" commands
let gatewayOrigin = '';
let appOrigin = '';

/** The return URL with the gateway's parameters: ?… or &… when it has a query, before any #. */
function callbackUrl(returnUrl, params) {
  const hash = returnUrl.indexOf('#');
  const base = hash < 0 ? returnUrl : returnUrl.slice(0, hash);
  const query = Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${base}${base.includes('?') ? '&' : '?'}${query}${hash < 0 ? '' : returnUrl.slice(hash)}`;
}

function postJson(url, body) {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const target = new URL(url);
    const request = (target.protocol === 'https:' ? https : http).request(target, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data), Authorization: `Bearer ${API_KEY}` },
      ca: gatewayCert.cert,
    }, async (response) => {
      const text = await readBody(response);
      resolve({ status: response.statusCode, body: text ? JSON.parse(text) : null });
    });
    request.on('error', reject);
    request.end(data);
  });
}

function checkoutPage(id, session) {
  const kindName = session.kind === 'cards' ? 'Card registration' : 'Payment';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mock gateway · 3-D Secure</title>
<style>body{font:16px system-ui,sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem;color:#222}
.card{border:1px solid #ccc;border-radius:12px;padding:1.25rem;box-shadow:0 2px 8px #0001}
button{font:inherit;padding:.6rem 1rem;margin:.3rem .3rem 0 0;border-radius:8px;border:1px solid #888;cursor:pointer}
#approve{background:#1d7a46;color:#fff;border-color:#1d7a46} code{word-break:break-all;font-size:.8rem}</style></head>
<body><div class="card">
<p><strong>Mock gateway</strong> — stands in for the bank's 3-D Secure challenge.</p>
<h1 id="title">${escapeHtml(kindName)}</h1>
<p>Session <code id="session">${escapeHtml(id)}</code></p>
<p>Returns to <code id="return-url">${escapeHtml(session.return_url)}</code></p>
<form method="post" action="/checkout/${escapeHtml(id)}/finish">
<button id="approve" name="outcome" value="completed">Approve</button>
<button id="cancel" name="outcome" value="cancelled">Cancel</button><br>
<label>Decline with reason <select id="reason" name="reason">
<option>insufficient_funds</option><option>card_declined</option><option>3ds_failed</option></select></label>
<button id="decline" name="outcome" value="failed">Decline</button>
</form></div></body></html>`;
}

async function gateway(request, response) {
  const url = new URL(request.url, gatewayOrigin);
  if (url.pathname === '/favicon.ico') return send(response, 204, '');
  if (url.pathname === '/' && request.method === 'GET') {
    return send(response, 200, `<!doctype html><meta charset="utf-8"><title>Mock gateway</title><p>Mock gateway: this
      browser now accepts its certificate. <a href="${appOrigin}/">Back to the demo</a>.`, 'text/html; charset=utf-8');
  }
  const create = /^\/v1\/(cards|payments)$/.exec(url.pathname);
  if (request.method === 'POST' && create) {
    if (request.headers.authorization !== `Bearer ${API_KEY}`) return send(response, 401, { error: { code: 'unauthorized' } });
    let body;
    try {
      body = JSON.parse(await readBody(request));
    } catch {
      return send(response, 400, { error: { code: 'invalid_json' } });
    }
    if (typeof body.return_url !== 'string') return send(response, 422, { error: { code: 'validation', message: 'return_url is required' } });
    const kind = create[1];
    const id = `${kind === 'cards' ? 'reg' : 'chk'}_${randomBytes(6).toString('hex')}`;
    const objectId = `${kind === 'cards' ? 'card' : 'pay'}_${randomBytes(6).toString('hex')}`;
    sessions.set(id, { kind, return_url: body.return_url, object_id: objectId, amount: body.amount, finished: null });
    const checkout = { id, checkout_url: `${gatewayOrigin}/checkout/${id}` };
    return send(response, 201, { data: kind === 'cards' ? { registration: checkout } : { checkout } });
  }
  const page = /^\/checkout\/([\w-]+)$/.exec(url.pathname);
  if (request.method === 'GET' && page && sessions.has(page[1])) {
    const session = sessions.get(page[1]);
    if (revisitRedirects && session.params) {
      return send(response, 303, '', 'text/plain', { Location: callbackUrl(session.return_url, session.params) });
    }
    return send(response, 200, checkoutPage(page[1], session), 'text/html; charset=utf-8');
  }
  const finish = /^\/checkout\/([\w-]+)\/finish$/.exec(url.pathname);
  if (request.method === 'POST' && finish && sessions.has(finish[1])) {
    const session = sessions.get(finish[1]);
    const form = new URLSearchParams(await readBody(request));
    const outcome = form.get('outcome');
    if (!['completed', 'failed', 'cancelled'].includes(outcome)) return send(response, 400, { error: 'outcome?' });
    const idKey = session.kind === 'cards' ? 'card_id' : 'payment_id';
    const params = { status: outcome };
    if (outcome !== 'cancelled') params[idKey] = session.object_id;
    if (outcome === 'failed') params.reason = form.get('reason') || 'card_declined';
    if (outcome === 'completed' && session.finished !== 'completed') {
      // The webhook goes to the merchant backend, which relays it to the app.
      const type = session.kind === 'cards' ? 'card.registered' : 'payment.confirmed';
      const data = session.kind === 'cards'
        ? { card_id: session.object_id, brand: 'visa', last_four: '4242', token: `tok_${randomBytes(4).toString('hex')}`, created_at: new Date().toISOString() }
        : { payment_id: session.object_id, amount: session.amount ?? '100.00', created_at: new Date().toISOString() };
      await postJson(`${appOrigin}/backend/webhooks`, { type, data });
    }
    session.finished = outcome;
    session.params = params;
    return send(response, 303, '', 'text/plain', { Location: callbackUrl(session.return_url, params) });
  }
  return send(response, 404, { error: 'not found' });
}

// ---- the app and its backend ------------------------------------------------------------------

const webhooks = []; // events as received: {type, data}

async function app(request, response) {
  const url = new URL(request.url, appOrigin);
  if (request.method === 'POST' && url.pathname === '/backend/sessions') {
    // The merchant backend: the API key lives here, never in the page.
    const { kind, return_url: returnUrl } = JSON.parse(await readBody(request));
    if (kind !== 'cards' && kind !== 'payments') return send(response, 400, { error: 'kind?' });
    const body = kind === 'cards'
      ? { provider: 'dinelco', customer_id: 'cus_demo', target_origin: [appOrigin], return_url: returnUrl,
          customer: { name: 'Juan', lastname: 'Pérez', email: 'juan@example.com', phone: '+595981234567' } }
      : { return_url: returnUrl, amount: '100.00', currency: 'PYG', description: 'Demo order 42' };
    const answer = await postJson(`${gatewayOrigin}/v1/${kind}`, body);
    return send(response, 200, answer);
  }
  if (request.method === 'POST' && url.pathname === '/backend/webhooks') {
    webhooks.push(JSON.parse(await readBody(request)));
    return send(response, 204, '');
  }
  if (request.method === 'GET' && url.pathname === '/backend/confirmations') {
    const id = url.searchParams.get('id');
    const event = webhooks.find((e) => e.data.card_id === id || e.data.payment_id === id);
    return event ? send(response, 200, event) : send(response, 404, { error: 'no webhook yet' });
  }
  if (request.method !== 'GET') return send(response, 405, { error: 'method' });
  if (url.pathname === '/favicon.ico') return sendFile(response, here, '/icon.svg');
  if (url.pathname.startsWith('/payhandoff/')) return sendFile(response, dist, url.pathname.slice('/payhandoff'.length));
  if (url.pathname.startsWith('/test/')) return testFiles(response, url.pathname.slice('/test'.length));
  if (appDir) {
    const returnPath = url.pathname === '/checkout-callback' || url.pathname.startsWith('/checkout-callback/');
    return sendFile(response, appDir, url.pathname === '/' || returnPath ? '/index.html' : url.pathname);
  }
  return sendFile(response, here, rewritten(url.pathname));
}

// ---- what the browser tests load ------------------------------------------------------------

const testRoot = path.join(here, '..', 'test', 'browser');
const vectorsRoot = path.join(repo, 'Tests', 'Vectors');

function testFiles(response, relative) {
  if (relative === '/vector_runner.cjs') return sendFile(response, path.join(vectorsRoot, 'tools'), relative);
  if (relative === '/payhandoff.h') return sendFile(response, path.join(repo, 'include'), relative);
  if (relative === '/vectors/index.json') {
    // The vector files as the Node runner lists them (every folder but tools/, sorted).
    const listing = [];
    for (const folder of fs.readdirSync(vectorsRoot, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'tools')) {
      for (const file of fs.readdirSync(path.join(vectorsRoot, folder.name)).filter((f) => f.endsWith('.json'))) {
        listing.push({ folder: folder.name, file });
      }
    }
    listing.sort((a, b) => (a.folder + '/' + a.file < b.folder + '/' + b.file ? -1 : 1));
    return send(response, 200, listing);
  }
  if (relative.startsWith('/vectors/')) return sendFile(response, vectorsRoot, relative.slice('/vectors'.length));
  if (relative === '/csp-refused.html') return sendFile(response, testRoot, relative, { 'Content-Security-Policy': CSP_WITHOUT_WASM });
  if (relative === '/storage-frame.html') {
    // A sandboxed frame has an opaque origin, and what 'self' matches there differs: the URL's
    // origin in Chromium and Firefox, nothing in WebKit (its module script was blocked). The
    // same policy with the origin spelled out behaves alike in all three.
    return sendFile(response, testRoot, relative, { 'Content-Security-Policy': CSP.replaceAll("'self'", `'self' ${appOrigin}`) });
  }
  return sendFile(response, testRoot, relative);
}

function serve(handler) {
  return async (request, response) => {
    try {
      await handler(request, response);
    } catch (error) {
      send(response, 500, { error: String(error) });
    }
  };
}

/** Every app response carries the CSP (a test page may set a stricter one itself); not --app's. */
function withPolicy(handler) {
  return (request, response) => {
    if (!appDir) response.setHeader('Content-Security-Policy', CSP);
    return handler(request, response);
  };
}

const gatewayCert = certificate();
const gatewayServer = https.createServer({ cert: gatewayCert.cert, key: gatewayCert.key }, serve(gateway));
const appServer = http.createServer(withPolicy(serve(app)));

function listen(server, port) {
  return new Promise((resolve) => {
    server.once('error', (error) => {
      console.error(`demo: cannot listen on ${HOST}:${port} (${error.code}); choose other ports (--port, --gateway-port)`);
      process.exit(1);
    });
    server.listen(port, HOST, () => resolve(server.address().port));
  });
}

const gatewayPort = await listen(gatewayServer, Number(option('gateway-port', '0')));
let appPort = await listen(appServer, Number(option('port', '0')));
gatewayOrigin = `https://${HOST}:${gatewayPort}`;
appOrigin = `http://${HOST}:${appPort}`;

if (json) {
  console.log(JSON.stringify({ app: appOrigin, gateway: gatewayOrigin, spki: gatewayCert.spki, cert: gatewayCert.certPath, wasm }));
  // The tests' commands: take the app offline (as if its server were gone) and back.
  let lines = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', async (chunk) => {
    lines += chunk;
    let at;
    while ((at = lines.indexOf('\n')) >= 0) {
      const command = lines.slice(0, at).trim();
      lines = lines.slice(at + 1);
      if (command === 'offline') {
        await new Promise((resolve) => {
          appServer.close(resolve);
          appServer.closeAllConnections();
        });
        console.log(JSON.stringify({ app: 'offline' }));
      } else if (command === 'online') {
        appPort = await listen(appServer, appPort);
        console.log(JSON.stringify({ app: 'online' }));
      } else if (command === 'revisit-redirects' || command === 'revisit-shows') {
        revisitRedirects = command === 'revisit-redirects';
        console.log(JSON.stringify({ app: command }));
      } else {
        console.log(JSON.stringify({ error: `unknown command ${command}` }));
      }
    }
  });
  process.stdin.on('end', () => process.exit(0));
} else {
  console.log(`PayHandoff web demo: open ${appOrigin}/ (Ctrl-C stops it)`);
  console.log(`  The mock gateway ${gatewayOrigin}/ has a self-signed certificate for ${HOST} (${gatewayCert.certPath}),`);
  console.log('  since the core accepts only https checkout URLs: the browser asks once whether to proceed to it.');
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    appServer.close();
    gatewayServer.close();
    process.exit(0);
  });
}
