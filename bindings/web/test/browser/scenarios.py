#!/usr/bin/python3
"""The web package end to end in three browser engines — Chromium, WebKitGTK (Safari's engine)
and Firefox ESR — through one driver layer (engines.py), for each module of dist/web: the
scenarios are written once and run unchanged in every engine.

For each engine and module, against the demo PWA (bindings/web/demo) and the mock gateway,
both started here on loopback by demo/server.mjs and stopped at the end:

  vectors   the shared vectors (Tests/Vectors, one test per file) run in the page, through the
            package and the runner the Node tests use, the module loaded from the package's
            default URL (loadPayHandoff(), or { pos: true } for payhandoff.wasm); on the checkout
            module POS calls must be refused `unsupported` and scripts end at their first pos.*
            event (test/browser/module_vectors.cjs): one line per engine and module with the
            passed / ended at unsupported / failed / skipped counts

The demo PWA is a checkout page: the scenarios below run on the module it loads, the first of
--modules (payhandoff-checkout.wasm, what loadPayHandoff() loads); the other modules run the
vectors only (--scenarios-on names another module).

  flows     a card registration that completes; one that fails with a reason; reloads and a
            back-navigation while the checkout page is open (the flow resumes from
            sessionStorage); a forged return URL (refused, nothing changes); the same return URL
            twice (duplicate); the relayed webhook that confirms (a payment); bad input
  web       what a real mobile-web integration meets: the strict Content-Security-Policy (and a
            page without 'wasm-unsafe-eval', where the module must be refused); the static host's
            rewrite rule and the page's router for the /ph_<nonce> segment; the service worker
            (app shell and .wasm cached: a return and a reload while the server is gone resume
            from sessionStorage), a second tab that neither sees nor answers the first tab's
            flow; storage full (the start refused before the tab leaves) and refused
            (storage_unavailable); a return page and an app page restored from the back/forward
            cache (answered once, showing what the storage says)

Screenshots of each step go to OUT/<engine>/screenshots/. Ends each engine and module with
"web-test: <engine>: N passed, M failed (<module>: vectors [and scenarios], T s)".
  /usr/bin/python3 scenarios.py --dist dist/web --out .build/web/browser \\
      [--engines chromium,webkit,firefox] [--modules payhandoff-checkout.wasm,payhandoff.wasm]
      [--scenarios-on payhandoff-checkout.wasm]
"""
import argparse
import faulthandler
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import time
import unittest
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import engines  # noqa: E402

SERVER = os.path.join(HERE, '..', '..', 'demo', 'server.mjs')
VECTORS = os.path.join(HERE, '..', '..', '..', '..', 'Tests', 'Vectors')
STORAGE_KEY = 'payhandoff.coordinator'
CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'"
WAIT = engines.WAIT
ARGS = None
LOG = None  # the full unittest output (--log); stdout gets the summary


def say(text):
    """A line for both the summary (stdout) and the full log."""
    print(text, flush=True)
    if LOG is not None:
        LOG.write(text + '\n')
        LOG.flush()


def vector_files():
    """(folder, file) of every shared vector file, as the runners list them."""
    files = []
    for folder in sorted(os.listdir(VECTORS)):
        if folder == 'tools' or not os.path.isdir(os.path.join(VECTORS, folder)):
            continue
        files += [(folder, name) for name in sorted(os.listdir(os.path.join(VECTORS, folder))) if name.endswith('.json')]
    return files


def nonce_span(registered, handed_out):
    """Where the core put the nonce: the text it added to the registered return URL (found by
    comparing the two, whatever the placement: a query parameter or a path segment) ends with
    the nonce. Returns (start, end) of the nonce in handed_out."""
    prefix = 0
    while prefix < min(len(registered), len(handed_out)) and registered[prefix] == handed_out[prefix]:
        prefix += 1
    suffix = 0
    while (suffix < min(len(registered), len(handed_out)) - prefix
           and registered[-1 - suffix] == handed_out[-1 - suffix]):
        suffix += 1
    end = len(handed_out) - suffix
    added = handed_out[prefix:end]
    # The nonce follows the marker of its carrier: "ph_" (a path segment) or "=" (a parameter).
    token = re.search(r'(?:ph_|=)([A-Za-z0-9._~-]+)$', added)
    if token is None:
        raise AssertionError(f'no nonce in what the core added to the return URL: {added!r}')
    return prefix + token.start(1), end


def altered(nonce):
    """The same nonce with its last character changed: still well formed, just wrong."""
    return nonce[:-1] + ('1' if nonce[-1] == '0' else '0')


class DemoServer:
    """demo/server.mjs on loopback, with its stdin commands (offline / online). It exits when
    its stdin closes, so it ends with this process however this process ends."""

    def __init__(self, state, module):
        os.makedirs(state, exist_ok=True)
        self.process = subprocess.Popen(
            ['node', SERVER, '--dist', ARGS.dist, '--state', state, '--wasm', module, '--json'],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = self.process.stdout.readline()
        try:
            self.info = json.loads(line)
        except ValueError:
            self.process.kill()
            raise RuntimeError(f'the demo server did not start: {line}{self.process.stdout.read()}')

    def command(self, word):
        self.process.stdin.write(word + '\n')
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if answer.get('app') != word:
            raise RuntimeError(f'the demo server answered {answer} to {word}')

    def stop(self):
        try:
            self.process.stdin.close()  # the server exits when its stdin ends
            self.process.wait(timeout=5)
        except (subprocess.TimeoutExpired, BrokenPipeError):
            engines.stop_process(self.process)
        self.process.stdout.close()


class Scenarios(unittest.TestCase):
    """Every scenario, for the engine and module of a subclass (see suite())."""
    engine = module = None
    server = browser = None
    app = gateway = cert = None
    vector_results = None

    @classmethod
    def setUpClass(cls):
        cls.out = os.path.join(ARGS.out, cls.engine, os.path.splitext(cls.module)[0])
        os.makedirs(cls.out, exist_ok=True)
        cls.server = DemoServer(os.path.join(cls.out, 'server'), cls.module)
        info = cls.server.info
        cls.app, cls.gateway, cls.cert = info['app'], info['gateway'], info['cert']
        try:
            cls.browser = engines.start(cls.engine, spki=info['spki'], log=os.path.join(cls.out, f'{cls.engine}.log'))
        except Exception:
            cls.server.stop()
            raise
        say(f'{cls.engine}: {cls.browser.version}; {cls.module}; app {cls.app}, gateway {cls.gateway}')

    @classmethod
    def tearDownClass(cls):
        if cls.browser is not None:
            cls.browser.quit()
        if cls.server is not None:
            cls.server.stop()

    # ---- helpers --------------------------------------------------------------------------

    def setUp(self):
        self.step = 0
        self.tabs = [self.browser.tab()]
        self.open_app('/')
        self.browser.run('sessionStorage.clear()')
        self.open_app('/')

    def tearDown(self):
        # Back to the one tab the next scenario starts from.
        for tab in self.tabs[1:]:
            try:
                self.browser.switch_to(tab)
                self.browser.close_tab()
            except Exception:
                pass
        self.browser.switch_to(self.tabs[0])

    def shot(self, name):
        self.step += 1
        folder = os.path.join(self.out, 'screenshots')
        os.makedirs(folder, exist_ok=True)
        test = self._testMethodName.replace('test_', '')
        self.browser.screenshot(os.path.join(folder, f'{test}-{self.step}-{name}.png'))

    def wait(self, condition, what, timeout=WAIT):
        return self.browser.wait(condition, what, timeout)

    def settled(self):
        """Waits until the demo page has loaded the module and handled its URL (or failed)."""
        return self.wait(lambda: self.browser.run(
            'const d = window.payhandoffDemo;'
            'return !!d && (d.ready || d.errors.length > 0) ? JSON.parse(JSON.stringify({...d, coordinator: undefined})) : null'),
            'the demo page')

    def open_app(self, path):
        self.browser.get(self.app + path)
        return self.settled()

    def page_answer(self):
        """The answer to the URL this page was opened with."""
        return self.settled()['answers'][0]

    def stored_text(self):
        return self.browser.run('return sessionStorage.getItem(arguments[0])', STORAGE_KEY)

    def flows(self):
        text = self.stored_text()
        return json.loads(text)['flows'] if text else []

    def flow(self, flow_id):
        return next(f for f in self.flows() if f['id'] == flow_id)

    def row_state(self, flow_id):
        return self.browser.attribute(f'#flows tr[data-flow-id="{flow_id}"]', 'data-state')

    def rows(self):
        """{flow id: state} as the page shows them."""
        return self.browser.run('return Object.fromEntries([...document.querySelectorAll("#flows tbody tr")]'
                                '.map((row) => [row.dataset.flowId, row.dataset.state]))')

    def assert_page_shows_storage(self):
        self.assertEqual(self.rows(), {f['id']: f['state'] for f in self.flows()}, 'the page shows what the storage holds')

    def at_checkout(self):
        self.wait(lambda: self.browser.url.startswith(self.gateway + '/checkout/'), 'the checkout page')
        self.wait(lambda: self.browser.exists('#approve'), 'the checkout page buttons')

    def start(self, button):
        """Starts a flow on the demo page; returns (session id, handed-out return URL) from the
        gateway's checkout page, where the tab now is."""
        self.browser.click(f'#{button}')
        self.at_checkout()
        return self.browser.text('#session'), self.browser.text('#return-url')

    def back_to_app(self):
        # handleReturnPage replaces the return URL once handled: the page's own record says
        # what it was opened with.
        self.wait(lambda: self.browser.url.startswith(self.app + '/'), 'the return page')
        demo = self.settled()
        self.assertTrue(demo['opened'].startswith(self.app + '/checkout-callback'), demo['opened'])
        return demo

    def genuine_callback(self, session, outcome):
        """The URL the gateway redirects to, read without following it."""
        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None
        opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPSHandler(
            context=ssl.create_default_context(cafile=self.cert)))
        request = urllib.request.Request(f'{self.gateway}/checkout/{session}/finish',
                                         data=f'outcome={outcome}'.encode(), method='POST')
        try:
            opener.open(request, timeout=WAIT)
        except urllib.error.HTTPError as answer:
            self.assertEqual(answer.code, 303)
            return answer.headers['Location']
        raise AssertionError('the gateway did not redirect')

    def fill_storage(self):
        """Fills sessionStorage to the engine's quota with other keys; returns the bytes stored."""
        return self.browser.run("""
            let size = 1 << 22, n = 0, stored = 0;
            while (size >= 1) {
              try { sessionStorage.setItem(`filler-${n}`, 'x'.repeat(size)); n++; stored += size; }
              catch (error) { if (size === 1) break; size = Math.floor(size / 2); }
            }
            return stored;""")

    def controlled(self):
        return self.browser.run('return navigator.serviceWorker ? navigator.serviceWorker.controller !== null : null')

    def service_worker(self):
        """Waits until the service worker is active and controls this page. A page that loaded
        while the worker was still installing is controlled from its next load (clients.claim()
        took it over in Chromium and Firefox, not always in WebKit): one reload then, as a user
        returning to the app would make."""
        def state():
            return self.browser.run('return payhandoffDemo.serviceWorker || null')
        timeout = 25
        for attempt in range(2):
            try:
                self.wait(state, 'the service worker registration', timeout=timeout if attempt == 0 else 40)
                self.wait(self.controlled, 'the service worker to control the page', timeout=5 if attempt == 0 else WAIT)
                break
            except AssertionError as error:
                registration = self.browser.run(
                    'const r = await navigator.serviceWorker.getRegistration();'
                    'return [payhandoffDemo.serviceWorkerStep, r ? [r.installing, r.waiting, r.active].map((w) => w && w.state) : null]')
                if attempt == 1:
                    raise AssertionError(f'{error}; the page was at step {registration[0]}, the registration {registration[1]}') from None
                say(f'  {self.engine}: the service worker after {timeout} s: step {registration[0]}, registration {registration[1]}; reloading')
                self.browser.refresh()
                self.settled()
        self.assertEqual(state(), 'ready', f'{self.engine}: the service worker did not install')

    # ---- vectors in the page ------------------------------------------------------------------

    @classmethod
    def vectors_in_page(cls):
        """Runs every vector file once in the page (the first test asks); the results by file."""
        if cls.vector_results is None:
            browser = cls.browser
            browser.get(f'{cls.app}/test/vectors.html?module={cls.module}')
            results = browser.wait(lambda: browser.run('return window.vectorResults || null'), 'the vectors in the page', timeout=300)
            if 'error' in results:
                raise AssertionError(f'the vector page failed: {results["error"]}')
            cls.vector_results = results
            files = results['files']
            count = lambda key: sum(len(f[key]) if isinstance(f[key], list) else f[key] for f in files)  # noqa: E731
            pos_refused = count('expectedUnsupported')
            say(f'web-test: {cls.engine}: vectors in the page ({cls.module}, loaded from {results["loaded"][0]}): '
                f'{count("passed")} passed'
                + (f' ({pos_refused} of them POS calls refused as unsupported)' if pos_refused else '')
                + f', {count("unsupported")} ended at unsupported'
                + (f' ({count("restoresRefused")} final snapshots of the full module refused on restore)' if count('unsupported') else '')
                + f', {count("failures")} failed, {count("skipped")} skipped'
                + f' ({sum(f["ms"] for f in files) / 1000:.1f} s)')
        return {(f['folder'], f['file']): f for f in cls.vector_results['files']}

    def check_vector_file(self, folder, file):
        entry = self.vectors_in_page()[(folder, file)]
        self.assertEqual(entry['failures'], [])
        self.assertGreater(entry['passed'] + entry['unsupported'], 0, 'nothing ran')
        for skip in entry['skipped']:
            self.assertEqual(skip['reason'], 'a C string cannot carry U+0000 (the URL would end there)')

    # ---- the flows ------------------------------------------------------------------------

    def test_1_card_registration_completes(self):
        self.shot('start')
        session, handed_out = self.start('register-card')
        self.assertNotEqual(handed_out, self.app + '/checkout-callback', 'the core added its nonce')
        self.shot('checkout')
        self.browser.click('#approve')
        self.back_to_app()
        answer = self.page_answer()
        self.assertEqual((answer['outcome'], answer['state']), ('accepted', 'awaiting_confirmation'))
        flow = self.flow('cards-1')
        self.assertTrue(flow['callback']['verified'])
        self.assertEqual(flow['callback']['status'], 'completed')
        self.assertIn(f"card_id={flow['callback']['card_id']}", self.settled()['opened'])
        # Handled and saved: the return URL, with its nonce, left the address bar (replaceState).
        self.assertEqual(self.browser.url, self.app + '/')
        self.shot('returned')

    def test_2_card_registration_fails_with_reason(self):
        self.start('register-card')
        self.browser.select('#reason', '3ds_failed')
        self.shot('checkout')
        self.browser.click('#decline')
        self.back_to_app()
        self.assertIn('status=failed', self.settled()['opened'])
        answer = self.page_answer()
        self.assertEqual((answer['outcome'], answer['state']), ('accepted', 'failed'))
        self.assertEqual(self.flow('cards-1')['callback']['reason'], '3ds_failed')
        self.assertEqual(self.row_state('cards-1'), 'failed')
        self.assertEqual(self.browser.text('#flows tr[data-flow-id="cards-1"] td.detail'), '3ds_failed')
        self.shot('failed')

    def test_3_reload_while_checkout_open_resumes(self):
        self.start('register-card')
        self.browser.refresh()  # the checkout page reloads
        self.wait(lambda: self.browser.exists('#approve'), 'the checkout page after a reload')
        self.browser.back()  # back to the app while its checkout is open
        self.settled()
        self.assertEqual(self.page_answer()['outcome'], 'not_ours')
        self.assertEqual(self.flow('cards-1')['state'], 'in_browser')
        # WebKit brings this page back from its back/forward cache, as it was when the tab left
        # (its table said ready): the page must show what the storage says now.
        self.assertEqual(self.row_state('cards-1'), 'in_browser')
        saved = self.stored_text()
        self.shot('back-in-app')
        self.browser.refresh()  # the app page reloads: a new coordinator from sessionStorage
        self.settled()
        self.assertEqual(self.row_state('cards-1'), 'in_browser')
        self.assertEqual(self.browser.run('return payhandoffDemo.coordinator.snapshotJson()'), saved)
        self.shot('app-reloaded')
        self.browser.forward()
        self.wait(lambda: self.browser.exists('#approve'), 'the checkout page again')
        self.browser.click('#approve')
        self.back_to_app()
        answer = self.page_answer()
        self.assertEqual((answer['outcome'], answer['state']), ('accepted', 'awaiting_confirmation'))
        self.shot('completed')

    def test_4_forged_nonce_refused(self):
        session, handed_out = self.start('register-card')
        start, end = nonce_span(self.app + '/checkout-callback', handed_out)
        nonce = handed_out[start:end]
        genuine = self.genuine_callback(session, 'completed')
        self.assertEqual(genuine[start:end], nonce, 'the gateway kept the return URL as the core handed it out')
        forged = genuine[:start] + altered(nonce) + genuine[end:]
        self.browser.back()
        self.settled()
        before = self.stored_text()
        self.assertEqual(self.flow('cards-1')['nonce'], nonce, 'the text found by comparison is the nonce')

        self.browser.get(forged)
        answer = self.page_answer()
        self.assertEqual(answer['outcome'], 'rejected')
        self.assertEqual(answer['error']['code'], 'callback_mismatch')
        self.assertEqual(self.stored_text(), before, 'nothing changed')
        self.assertEqual(self.row_state('cards-1'), 'in_browser')
        self.assertEqual(self.browser.attribute('#error', 'data-code'), 'callback_mismatch')
        self.shot('forged-refused')

        self.browser.get(genuine)
        self.assertEqual(self.page_answer()['outcome'], 'accepted')
        self.shot('genuine-accepted')

    def test_5_same_return_url_twice_duplicate(self):
        self.start('register-card')
        self.browser.click('#approve')
        url = self.back_to_app()['opened']
        self.assertEqual(self.page_answer()['outcome'], 'accepted')
        self.wait(lambda: self.row_state('cards-1') == 'confirmed', 'the webhook relay')
        saved = self.stored_text()
        self.browser.get(url)
        self.assertEqual(self.page_answer()['outcome'], 'duplicate')
        self.assertEqual(self.stored_text(), saved)
        self.shot('opened-again')
        # The return URL was replaced once handled: a reload is an ordinary visit.
        self.assertEqual(self.browser.url, self.app + '/')
        self.browser.refresh()
        self.assertEqual(self.page_answer()['outcome'], 'not_ours')
        self.assertEqual(self.stored_text(), saved)
        self.assertEqual(self.row_state('cards-1'), 'confirmed')

    def test_6_relayed_webhook_confirms(self):
        self.start('pay')
        self.shot('checkout')
        self.browser.click('#approve')
        demo = self.back_to_app()
        answer = demo['answers'][0]
        self.assertEqual((answer['outcome'], answer['state']), ('accepted', 'awaiting_confirmation'),
                         'a completed return URL alone does not confirm')
        self.wait(lambda: self.row_state('payments-1') == 'confirmed', 'the relayed webhook')
        relayed = self.settled()['answers'][-1]
        self.assertEqual((relayed['what'], relayed['state']), ('webhook relayed', 'confirmed'))
        flow = self.flow('payments-1')
        self.assertEqual(flow['confirmation']['type'], 'payment.confirmed')
        self.assertEqual(flow['confirmation']['data']['payment_id'], flow['callback']['payment_id'])
        self.shot('confirmed')

    def test_7_bad_input_in_browser(self):
        self.browser.get(f'{self.app}/test/bad-input.html?wasm=/payhandoff/{self.module}')
        self.wait(lambda: self.browser.run('return document.body.dataset.done === "true"'), 'the bad-input page')
        results = self.browser.run('return window.badInput')
        self.shot('checks')
        failed = [f"{r['name']}: {r['detail']}" for r in results if not r['ok']]
        self.assertEqual(failed, [])
        self.assertGreaterEqual(len(results), 15)

        # The demo page with a damaged, then a newer snapshot in its storage: the page says so.
        for text, code in [('{"version":1,"flows":[', 'invalid_json'),
                           ('{"version":99,"config":{},"flows":[],"refunded":{}}', 'unsupported_version')]:
            self.browser.run('sessionStorage.setItem(arguments[0], arguments[1])', STORAGE_KEY, text)
            demo = self.open_app('/')
            self.assertEqual([e['code'] for e in demo['errors']], [code])
            self.assertEqual(demo['unhandled'], [])
            self.assertEqual(self.stored_text(), text, 'the snapshot is left for the page to decide')
            self.shot(code)
        self.browser.click('#start-over')
        self.wait(lambda: self.browser.run('return sessionStorage.getItem(arguments[0]) === null && '
                                           '!!window.payhandoffDemo && payhandoffDemo.ready', STORAGE_KEY), 'a new start')
        demo = self.settled()
        self.assertEqual(demo['errors'], [])
        self.assertIsNone(self.stored_text())

    # ---- what a real mobile-web integration meets ---------------------------------------------

    def test_8_strict_csp(self):
        # Every app response carries the policy, and the whole flow runs under it.
        headers = self.browser.run("""
            const paths = ['/', '/checkout-callback/ph_x', '/app.js', '/payhandoff/lib/web/src/index.js', '/payhandoff/' + arguments[0]];
            const found = {};
            for (const path of paths) found[path] = (await fetch(path, { cache: 'no-store' })).headers.get('content-security-policy');
            return found;""", self.module)
        self.assertEqual(set(headers.values()), {CSP}, headers)
        self.start('register-card')
        self.browser.click('#approve')
        demo = self.back_to_app()
        self.assertEqual(demo['answers'][0]['outcome'], 'accepted')
        self.assertEqual(demo['violations'], [], 'nothing of the page was blocked')
        self.assertEqual(demo['errors'], [])
        # Without 'wasm-unsafe-eval' the engine refuses to compile the module: the demo's policy
        # is enforced, and loadPayHandoff says so as load_failed.
        self.browser.get(f'{self.app}/test/csp-refused.html?wasm=/payhandoff/{self.module}')
        refused = self.wait(lambda: self.browser.run('return window.cspRefused || null'), 'the page without wasm-unsafe-eval')
        self.shot('csp-refused')
        self.assertFalse(refused['loaded'], refused)
        self.assertEqual((refused['name'], refused['code']), ('PayHandoffError', 'load_failed'), refused)
        say(f"  {self.engine}: without 'wasm-unsafe-eval': {refused['message'][:160]}"
              f" (securitypolicyviolation events: {[v['directive'] for v in refused['violations']]})")

    def test_9_spa_rewrite_of_the_nonce_segment(self):
        # The static host's rule (demo/_redirects) answers the return path and everything below
        # it with the app's page, and nothing else.
        served = self.browser.run("""
            const out = {};
            for (const path of ['/checkout-callback/ph_0123?status=completed', '/checkout-callback', '/checkout-callbackx/ph_1',
                                '/shop/checkout-callback/ph_1', '/payhandoff/missing.wasm']) {
              const response = await fetch(path, { cache: 'no-store' });
              const text = await response.text();
              out[path] = `${response.status} ${text.includes('PayHandoff web demo') ? 'app' : 'other'}`;
            }
            return out;""")
        self.assertEqual(served, {'/checkout-callback/ph_0123?status=completed': '200 app', '/checkout-callback': '200 app',
                                  '/checkout-callbackx/ph_1': '404 other', '/shop/checkout-callback/ph_1': '404 other',
                                  '/payhandoff/missing.wasm': '404 other'})
        # A return URL with a query of the app's own: the core puts its segment before the
        # query, the gateway appends its parameters, the rule serves the page, the router sees
        # the return route and the core reads the whole URL.
        registered = f'{self.app}/checkout-callback?order=42'
        self.browser.run('document.getElementById("return-url").value = arguments[0]', registered)
        _, handed_out = self.start('pay')
        self.assertRegex(handed_out, r'^' + re.escape(self.app) + r'/checkout-callback/ph_[A-Za-z0-9._~-]+\?order=42$')
        self.browser.click('#approve')
        demo = self.back_to_app()
        self.assertRegex(demo['opened'], r'/checkout-callback/ph_[^/?]+\?order=42&status=completed&payment_id=pay_')
        self.assertEqual(demo['route'], 'return')
        self.assertEqual((demo['answers'][0]['outcome'], demo['answers'][0]['state']), ('accepted', 'awaiting_confirmation'))
        self.shot('returned-through-rewrite')

    def test_10_service_worker_offline_return_and_second_tab(self):
        # A first visit that installs the app, in a browser of its own: WebKit sometimes never
        # installed a worker whose page was left at once (as every scenario's setUp does), and
        # then had none for the rest of its session (README, engine findings).
        shared = self.browser
        self.browser = engines.start(self.engine, spki=self.server.info['spki'],
                                     log=os.path.join(self.out, f'{self.engine}-pwa.log'))
        try:
            self.tabs = [self.browser.tab()]
            self.open_app('/')
            self.installed_pwa()
        finally:
            self.browser.quit()
            self.browser = shared
            self.tabs = [shared.tab()]

    def installed_pwa(self):
        self.service_worker()
        session, _ = self.start('register-card')
        genuine = self.genuine_callback(session, 'completed')
        self.browser.back()
        self.settled()
        saved = self.stored_text()
        self.assertEqual(self.flow('cards-1')['state'], 'in_browser')

        # The app's server is gone: a return to the app and a reload come from the service
        # worker's cache (shell, package, .wasm) and resume from sessionStorage.
        self.server.command('offline')
        try:
            demo = self.open_app('/')
            self.assertEqual(demo['errors'], [], demo['errors'])
            self.assertTrue(demo['controlled'], 'served by the service worker')
            self.assertEqual(self.row_state('cards-1'), 'in_browser')
            self.shot('offline-return')
            self.browser.refresh()
            demo = self.settled()
            self.assertEqual(demo['errors'], [])
            self.assertEqual(demo['answers'][0]['outcome'], 'not_ours')
            self.assertEqual(self.row_state('cards-1'), 'in_browser')
            self.assertEqual(self.browser.run('return payhandoffDemo.coordinator.snapshotJson()'), saved)
            self.assertIsNone(self.browser.run('return fetch("/backend/confirmations?id=x").then(() => "reached", () => null)'),
                              'the server really is gone')
            self.shot('offline-reload')
        finally:
            self.server.command('online')

        # A second tab of the same origin: same service worker, its own sessionStorage. It does
        # not see the first tab's flow, and the first tab's callback opened there is not its own
        # (refused, nothing saved), so the first tab still answers it.
        self.tabs.append(self.browser.new_tab())
        demo = self.open_app('/')
        self.assertEqual(demo['errors'], [])
        self.assertEqual(self.flows(), [])
        self.assertEqual(self.rows(), {})
        self.browser.get(genuine)
        answer = self.page_answer()
        self.assertEqual(answer['outcome'], 'not_ours', 'no flow of this tab registered it')
        self.assertEqual(self.flows(), [], 'the second tab keeps no flow')
        self.shot('second-tab')
        self.browser.close_tab()
        self.tabs.pop()
        self.browser.switch_to(self.tabs[0])
        self.assertEqual(self.stored_text(), saved, "the first tab's flow is untouched")
        self.browser.get(genuine)
        answer = self.page_answer()
        self.assertEqual((answer['outcome'], answer['state']), ('accepted', 'awaiting_confirmation'))
        self.shot('first-tab-answers')

    def test_11_storage_full_refuses_the_start(self):
        stored = self.fill_storage()
        self.assertGreater(stored, 1 << 20, 'the quota is at least 1 MiB')
        self.browser.click('#register-card')
        demo = self.wait(lambda: (lambda d: d if d['errors'] else None)(self.settled()), 'the refused start')
        self.assertEqual([(e['code'], e['field']) for e in demo['errors']], [('storage_unavailable', 'storage')])
        time.sleep(0.5)  # a page that went on would be on its way to the gateway by now
        self.assertTrue(self.browser.url.startswith(self.app + '/'), 'the tab did not leave for the gateway')
        self.assertIsNone(self.stored_text())
        self.assertEqual(self.rows(), {})
        self.assertEqual([a['what'] for a in demo['answers']], ['this page'], 'no session was asked for')
        say(f"  {self.engine}: sessionStorage full at {stored:,} characters: {demo['errors'][0]['message'][:150]}")
        self.shot('refused')
        # With room again, the same start goes through.
        self.browser.run('for (const key of Object.keys(sessionStorage)) if (key.startsWith("filler-")) sessionStorage.removeItem(key)')
        self.start('register-card')
        self.browser.back()
        self.settled()
        self.assertEqual(self.flow('cards-1')['state'], 'in_browser')

    def test_12_storage_refused(self):
        self.browser.get(f'{self.app}/test/storage-refused.html?wasm=/payhandoff/{self.module}')
        report = self.wait(lambda: self.browser.run('return window.storageRefused || null'), 'the sandboxed frame')
        self.shot('refused')
        self.assertNotIn('failed', report, report)
        self.assertEqual(report['origin'], 'null', 'an opaque origin')
        self.assertTrue(report['loaded'], 'the module loads there')
        self.assertFalse(report['opened'], report)
        error = report['error']
        self.assertEqual((error['name'], error['code'], error['field'], error['status']),
                         ('PayHandoffError', 'storage_unavailable', 'storage', -5))
        say(f"  {self.engine}: sessionStorage in an opaque origin: {report['sessionStorage']}")

    def test_14_return_url_leaves_the_address_bar_and_history(self):
        # Issue 36: once handled and saved, the return URL (which carries the nonce) is replaced;
        # going back to the gateway's page, which sends the tab to the return URL again, is a
        # duplicate, never an error.
        self.server.command('revisit-redirects')
        try:
            _, handed_out = self.start('register-card')
            start, end = nonce_span(self.app + '/checkout-callback', handed_out)
            nonce = handed_out[start:end]
            self.browser.click('#approve')
            demo = self.back_to_app()
            self.assertIn(nonce, demo['opened'])
            self.assertEqual((demo['answers'][0]['outcome'], demo['answers'][0]['state']), ('accepted', 'awaiting_confirmation'))
            self.assertEqual(self.browser.url, self.app + '/')
            self.assertNotIn(nonce, self.browser.run('return location.href'))
            self.shot('replaced')
            self.browser.run('window.payhandoffLeft = true')  # a mark only this page has
            self.browser.back()  # the gateway's page: it redirects to the return URL again
            self.wait(lambda: self.browser.run('return window.payhandoffLeft === undefined && !!window.payhandoffDemo'
                                               ' && (payhandoffDemo.ready || payhandoffDemo.errors.length > 0)'), 'the return page again')
            demo = self.settled()
            self.assertIn(nonce, demo['opened'])
            self.assertEqual(demo['answers'][0]['outcome'], 'duplicate')
            self.assertEqual(demo['errors'], [])
            self.assertEqual(self.browser.url, self.app + '/')
            self.assertNotIn(nonce, self.browser.run('return location.href'))
            self.assertEqual(self.flow('cards-1')['state'] in ('awaiting_confirmation', 'confirmed'), True)
            self.shot('back-again-duplicate')
        finally:
            self.server.command('revisit-shows')

    def test_13_back_forward_cache_answers_once(self):
        self.start('register-card')
        self.browser.click('#approve')
        self.back_to_app()
        self.assertEqual(self.page_answer()['outcome'], 'accepted')
        self.wait(lambda: self.row_state('cards-1') == 'confirmed', 'the webhook relay')
        # Leave the return page and come back to it. Restored from the back/forward cache, it
        # is the page that answered, as it was (its URL answered once, at load); loaded again,
        # it is the URL handleReturnPage put in place of the return URL: an ordinary visit.
        # Either way the flow stays answered.
        self.browser.get(self.gateway + '/')
        self.browser.back()
        demo = self.settled()
        return_restored = len(demo['pageshows']) > 0
        outcomes = [a['outcome'] for a in demo['answers'] if a['what'] == 'this page']
        self.assertEqual(outcomes, ['accepted'] if return_restored else ['not_ours'])
        self.assert_page_shows_storage()
        self.assertEqual(self.flow('cards-1')['state'], 'confirmed')
        self.shot('return-page-again')

        # Further back: the app page the tab left for the gateway while its flow was in the
        # browser. It must show (and act on) what the storage says now, not what it had; and
        # the storage must still say so afterwards (restoring it must not put it back).
        self.browser.back()  # the checkout page
        self.at_checkout()
        self.browser.back()  # the app page
        demo = self.settled()
        app_restored = len(demo['pageshows']) > 0
        self.assertEqual(self.rows(), {'cards-1': 'confirmed'}, 'the app page shows the confirmed flow')
        self.browser.click('#register-card')
        self.at_checkout()
        self.browser.back()
        self.settled()
        self.assertEqual({f['id']: f['state'] for f in self.flows()}, {'cards-1': 'confirmed', 'cards-2': 'in_browser'},
                         'the new flow was saved next to the answered one, not over it')
        self.open_app('/')
        self.assertEqual(self.rows(), {'cards-1': 'confirmed', 'cards-2': 'in_browser'}, 'a new page reads the same')
        what = lambda restored: 'restored from the back/forward cache' if restored else 'loaded again'  # noqa: E731
        say(f'  {self.engine}: back/forward: the return page {what(return_restored)}, the app page {what(app_restored)}')


def suite(engine, module, scenarios):
    """The tests for one engine and module: one test per vector file first, then (when
    `scenarios`) the demo PWA's scenarios."""
    name = f'{engine}_{os.path.splitext(module)[0].replace("-", "_")}'
    members = {'engine': engine, 'module': module, 'vector_results': None}
    for index, (folder, file) in enumerate(vector_files()):
        test = f'test_0_vectors_{index:02d}_{folder}_{os.path.splitext(file)[0]}'
        members[test] = (lambda f, n: lambda self: self.check_vector_file(f, n))(folder, file)
    cls = type(name, (Scenarios,), members)
    loader = unittest.TestLoader()
    loader.sortTestMethodsUsing = lambda a, b: (key(a) > key(b)) - (key(a) < key(b))
    tests = loader.loadTestsFromTestCase(cls)
    if not scenarios:
        tests = unittest.TestSuite(t for t in tests if t._testMethodName.startswith('test_0_vectors_'))
    return tests


def key(name):
    """test_<n>_…: by the number, so test_10 runs after test_9."""
    parts = name.split('_')
    return (int(parts[1]), name) if len(parts) > 1 and parts[1].isdigit() else (0, name)


def main():
    global ARGS, LOG
    # kill -USR1 <pid> prints where every thread is (a hung browser command, say).
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    # Stopped (make interrupted, a timeout): quit the browsers on the way out.
    def stop(signum, frame):
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, stop)
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--dist', required=True, help='the built package (make web: dist/web)')
    parser.add_argument('--out', required=True, help='screenshots, logs and the server state go here')
    parser.add_argument('--engines', default=','.join(engines.ENGINES))
    parser.add_argument('--modules', default='payhandoff-checkout.wasm,payhandoff.wasm', help='modules of --dist, comma or space separated')
    parser.add_argument('--scenarios-on', help="the module the demo PWA's scenarios run on (default: the first of --modules); "
                        'the others run the vectors only')
    parser.add_argument('--log', help='the full unittest output goes here (default: stdout)')
    parser.add_argument('-k', dest='only', help='run only the tests whose id matches this regular expression')
    ARGS = parser.parse_args()
    ARGS.dist = os.path.abspath(ARGS.dist)
    ARGS.out = os.path.abspath(ARGS.out)
    if ARGS.log:
        os.makedirs(os.path.dirname(os.path.abspath(ARGS.log)), exist_ok=True)
        LOG = open(ARGS.log, 'w')
    modules = [os.path.basename(m) for m in ARGS.modules.replace(' ', ',').split(',') if m]
    scenarios_on = os.path.basename(ARGS.scenarios_on) if ARGS.scenarios_on else modules[0]
    failed_any = False
    lines = []
    for module in modules:
        for engine in [e for e in ARGS.engines.replace(' ', ',').split(',') if e]:
            shutil.rmtree(os.path.join(ARGS.out, engine, os.path.splitext(module)[0]), ignore_errors=True)
            started = time.time()
            tests = suite(engine, module, module == scenarios_on)
            if ARGS.only:
                tests = unittest.TestSuite(t for t in tests if re.search(ARGS.only, t.id()))
            result = unittest.TextTestRunner(stream=LOG or sys.stdout, verbosity=2).run(tests)
            if LOG is not None:
                for test, trace in result.failures + result.errors:
                    lines = [line for line in trace.strip().split('\n') if line.strip()]
                    last = next((line for line in lines if re.match(r'^\w*(Error|Exception)\b', line)), lines[-1])
                    say(f'  {engine}: FAILED {test.id().split(".")[-1]}: {last[:400]}')
            failed = len(result.failures) + len(result.errors)
            passed = max(0, result.testsRun - failed - len(result.skipped))
            what = 'vectors and scenarios' if module == scenarios_on else 'vectors'
            line = (f'web-test: {engine}: {passed} passed, {failed} failed'
                    f'{f", {len(result.skipped)} skipped" if result.skipped else ""} ({module}: {what}, {time.time() - started:.0f} s)')
            say(line)
            lines.append(line)
            failed_any = failed_any or failed > 0 or passed == 0
    say(f'web-test: screenshots and browser logs: {ARGS.out}/<engine>/<module>/' + (f'; full log: {ARGS.log}' if ARGS.log else ''))
    return 1 if failed_any else 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    finally:
        engines.stop_all()
