#!/usr/bin/python3
"""The web package end to end in headless Chromium (Debian's chromium and chromedriver, driven
by Debian's python3-selenium): the demo PWA (bindings/web/demo) against the mock gateway, both
started here on loopback by demo/server.mjs and stopped at the end.

Scenarios: a card registration that completes; one that fails with a reason; a reload (and a
back-navigation) while the checkout page is open, after which the flow resumes from
sessionStorage; a forged return URL with a wrong nonce (refused, nothing changes); the same
return URL opened twice (duplicate); the relayed webhook that confirms (a payment); bad input
in the browser (wasm that fails to load, non-string URLs, damaged and newer snapshots in
storage: typed errors, no unhandled rejection).

Screenshots of each step go to OUT/screenshots/. Ends with "web-test: chromium: N passed, N failed".
  /usr/bin/python3 scenarios.py --dist dist/web --out .build/web/browser
"""
import argparse
import json
import os
import re
import shutil
import ssl
import subprocess
import sys
import time
import unittest
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, '..', '..', 'demo', 'server.mjs')
STORAGE_KEY = 'payhandoff.coordinator'
WAIT = 15
ARGS = None


def headless_chromium(chromium, chromedriver, arguments=()):
    """Debian's chromium, headless, through Debian's chromedriver (no download, no network)."""
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu',
                     '--window-size=900,1000', '--no-first-run', '--disable-background-networking',
                     '--disable-sync', '--disable-default-apps', '--disable-component-update', *arguments]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(chromedriver), options=options)


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


class Scenarios(unittest.TestCase):
    server = None
    driver = None
    app = gateway = cert = None

    @classmethod
    def setUpClass(cls):
        state = os.path.join(ARGS.out, 'server')
        os.makedirs(state, exist_ok=True)
        cls.server = subprocess.Popen(
            ['node', SERVER, '--dist', ARGS.dist, '--state', state, '--json'],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = cls.server.stdout.readline()
        try:
            info = json.loads(line)
        except ValueError:
            cls.server.kill()
            raise RuntimeError(f'the demo server did not start: {line}{cls.server.stdout.read()}')
        cls.app, cls.gateway, cls.cert = info['app'], info['gateway'], info['cert']
        try:
            # Trust the mock gateway's own key and nothing else.
            cls.driver = headless_chromium(ARGS.chromium, ARGS.chromedriver,
                                           [f"--ignore-certificate-errors-spki-list={info['spki']}"])
        except Exception:
            cls.stop_server()
            raise
        cls.driver.set_page_load_timeout(WAIT)
        print(f"chromium: {cls.driver.capabilities.get('browserVersion')} headless; "
              f'app {cls.app}, gateway {cls.gateway}', flush=True)

    @classmethod
    def stop_server(cls):
        if cls.server is not None:
            cls.server.terminate()
            try:
                cls.server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                cls.server.kill()
                cls.server.wait()
            cls.server.stdout.close()

    @classmethod
    def tearDownClass(cls):
        if cls.driver is not None:
            cls.driver.quit()
        cls.stop_server()

    # ---- helpers --------------------------------------------------------------------------

    def setUp(self):
        self.step = 0
        self.open_app('/')
        self.driver.execute_script('sessionStorage.clear()')
        self.open_app('/')

    def shot(self, name):
        self.step += 1
        folder = os.path.join(ARGS.out, 'screenshots')
        os.makedirs(folder, exist_ok=True)
        test = self._testMethodName.replace('test_', '')
        self.driver.save_screenshot(os.path.join(folder, f'{test}-{self.step}-{name}.png'))

    def wait(self, condition, what):
        try:
            return WebDriverWait(self.driver, WAIT).until(lambda d: condition())
        except Exception as error:
            raise AssertionError(f'timed out waiting for {what} (at {self.driver.current_url})') from error

    def settled(self):
        """Waits until the demo page has loaded the module and handled its URL (or failed)."""
        return self.wait(lambda: self.driver.execute_script(
            'const d = window.payhandoffDemo; return !!d && (d.ready || d.errors.length > 0) ? d : null'),
            'the demo page')

    def open_app(self, path):
        self.driver.get(self.app + path)
        return self.settled()

    def page_answer(self):
        """The answer to the URL this page was opened with."""
        return self.settled()['answers'][0]

    def stored_text(self):
        return self.driver.execute_script(f'return sessionStorage.getItem({json.dumps(STORAGE_KEY)})')

    def flow(self, flow_id):
        snapshot = json.loads(self.stored_text())
        return next(f for f in snapshot['flows'] if f['id'] == flow_id)

    def row_state(self, flow_id):
        return self.driver.find_element(By.CSS_SELECTOR, f'#flows tr[data-flow-id="{flow_id}"]').get_attribute('data-state')

    def start(self, button):
        """Starts a flow on the demo page; returns (session id, handed-out return URL) from the
        gateway's checkout page, where the tab now is."""
        self.driver.find_element(By.ID, button).click()
        self.wait(lambda: self.driver.current_url.startswith(self.gateway + '/checkout/'), 'the checkout page')
        self.wait(lambda: self.driver.find_elements(By.ID, 'approve'), 'the checkout page buttons')
        return (self.driver.find_element(By.ID, 'session').text, self.driver.find_element(By.ID, 'return-url').text)

    def back_to_app(self):
        self.wait(lambda: self.driver.current_url.startswith(self.app + '/checkout-callback'), 'the return page')
        return self.settled()

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

    # ---- scenarios ------------------------------------------------------------------------

    def test_1_card_registration_completes(self):
        self.shot('start')
        session, handed_out = self.start('register-card')
        self.assertNotEqual(handed_out, self.app + '/checkout-callback', 'the core added its nonce')
        self.shot('checkout')
        self.driver.find_element(By.ID, 'approve').click()
        self.back_to_app()
        answer = self.page_answer()
        self.assertEqual((answer['outcome'], answer['state']), ('accepted', 'awaiting_confirmation'))
        flow = self.flow('cards-1')
        self.assertTrue(flow['callback']['verified'])
        self.assertEqual(flow['callback']['status'], 'completed')
        self.assertIn(f"card_id={flow['callback']['card_id']}", self.driver.current_url)
        self.shot('returned')

    def test_2_card_registration_fails_with_reason(self):
        self.start('register-card')
        Select(self.driver.find_element(By.ID, 'reason')).select_by_visible_text('3ds_failed')
        self.shot('checkout')
        self.driver.find_element(By.ID, 'decline').click()
        self.back_to_app()
        self.assertIn('status=failed', self.driver.current_url)
        answer = self.page_answer()
        self.assertEqual((answer['outcome'], answer['state']), ('accepted', 'failed'))
        self.assertEqual(self.flow('cards-1')['callback']['reason'], '3ds_failed')
        self.assertEqual(self.row_state('cards-1'), 'failed')
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, '#flows tr[data-flow-id="cards-1"] td.detail').text, '3ds_failed')
        self.shot('failed')

    def test_3_reload_while_checkout_open_resumes(self):
        self.start('register-card')
        self.driver.refresh()  # the checkout page reloads
        self.wait(lambda: self.driver.find_elements(By.ID, 'approve'), 'the checkout page after a reload')
        self.driver.back()  # back to the app while its checkout is open
        self.settled()
        self.assertEqual(self.page_answer()['outcome'], 'not_ours')
        self.assertEqual(self.flow('cards-1')['state'], 'in_browser')
        self.assertEqual(self.row_state('cards-1'), 'in_browser')
        saved = self.stored_text()
        self.shot('back-in-app')
        self.driver.refresh()  # the app page reloads: a new coordinator from sessionStorage
        self.settled()
        self.assertEqual(self.row_state('cards-1'), 'in_browser')
        self.assertEqual(self.driver.execute_script('return payhandoffDemo.coordinator.snapshotJson()'), saved)
        self.shot('app-reloaded')
        self.driver.forward()
        self.wait(lambda: self.driver.find_elements(By.ID, 'approve'), 'the checkout page again')
        self.driver.find_element(By.ID, 'approve').click()
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
        self.driver.back()
        self.settled()
        before = self.stored_text()
        self.assertEqual(self.flow('cards-1')['nonce'], nonce, 'the text found by comparison is the nonce')

        self.driver.get(forged)
        answer = self.page_answer()
        self.assertEqual(answer['outcome'], 'rejected')
        self.assertEqual(answer['error']['code'], 'callback_mismatch')
        self.assertEqual(self.stored_text(), before, 'nothing changed')
        self.assertEqual(self.row_state('cards-1'), 'in_browser')
        self.assertEqual(self.driver.find_element(By.ID, 'error').get_attribute('data-code'), 'callback_mismatch')
        self.shot('forged-refused')

        self.driver.get(genuine)
        self.assertEqual(self.page_answer()['outcome'], 'accepted')
        self.shot('genuine-accepted')

    def test_5_same_return_url_twice_duplicate(self):
        self.start('register-card')
        self.driver.find_element(By.ID, 'approve').click()
        self.back_to_app()
        url = self.driver.current_url
        self.assertEqual(self.page_answer()['outcome'], 'accepted')
        self.wait(lambda: self.row_state('cards-1') == 'confirmed', 'the webhook relay')
        saved = self.stored_text()
        self.driver.get(url)
        self.assertEqual(self.page_answer()['outcome'], 'duplicate')
        self.assertEqual(self.stored_text(), saved)
        self.shot('opened-again')
        self.driver.refresh()
        self.assertEqual(self.page_answer()['outcome'], 'duplicate')
        self.assertEqual(self.stored_text(), saved)
        self.assertEqual(self.row_state('cards-1'), 'confirmed')

    def test_6_relayed_webhook_confirms(self):
        self.start('pay')
        self.shot('checkout')
        self.driver.find_element(By.ID, 'approve').click()
        demo = self.back_to_app()
        answer = demo['answers'][0]
        self.assertEqual((answer['outcome'], answer['state']), ('accepted', 'awaiting_confirmation'),
                         'a completed return URL alone does not confirm')
        self.wait(lambda: self.row_state('payments-1') == 'confirmed', 'the relayed webhook')
        relayed = self.driver.execute_script('return payhandoffDemo.answers')[-1]
        self.assertEqual((relayed['what'], relayed['state']), ('webhook relayed', 'confirmed'))
        flow = self.flow('payments-1')
        self.assertEqual(flow['confirmation']['type'], 'payment.confirmed')
        self.assertEqual(flow['confirmation']['data']['payment_id'], flow['callback']['payment_id'])
        self.shot('confirmed')

    def test_7_bad_input_in_browser(self):
        self.driver.get(self.app + '/test/bad-input.html')
        self.wait(lambda: self.driver.execute_script('return document.body.dataset.done === "true"'), 'the bad-input page')
        results = self.driver.execute_script('return window.badInput')
        self.shot('checks')
        failed = [f"{r['name']}: {r['detail']}" for r in results if not r['ok']]
        self.assertEqual(failed, [])
        self.assertGreaterEqual(len(results), 15)

        # The demo page with a damaged, then a newer snapshot in its storage: the page says so.
        for text, code in [('{"version":1,"flows":[', 'invalid_json'),
                           ('{"version":99,"config":{},"flows":[],"refunded":{}}', 'unsupported_version')]:
            self.driver.execute_script(f'sessionStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(text)})')
            demo = self.open_app('/')
            self.assertEqual([e['code'] for e in demo['errors']], [code])
            self.assertEqual(demo['unhandled'], [])
            self.assertEqual(self.stored_text(), text, 'the snapshot is left for the page to decide')
            self.shot(code)
        self.driver.find_element(By.ID, 'start-over').click()
        demo = self.settled()
        self.assertEqual(demo['errors'], [])
        self.assertIsNone(self.stored_text())


def main():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--dist', required=True, help='the built package (make web: dist/web)')
    parser.add_argument('--out', required=True, help='screenshots and the server state go here')
    parser.add_argument('--chromium', default='/usr/bin/chromium')
    parser.add_argument('--chromedriver', default='/usr/bin/chromedriver')
    ARGS = parser.parse_args()
    ARGS.dist = os.path.abspath(ARGS.dist)
    ARGS.out = os.path.abspath(ARGS.out)
    shutil.rmtree(os.path.join(ARGS.out, 'screenshots'), ignore_errors=True)
    started = time.time()
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(Scenarios)
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
    failed = len(result.failures) + len(result.errors)
    passed = result.testsRun - failed - len(result.skipped)
    print(f'web-test: chromium screenshots: {os.path.join(ARGS.out, "screenshots")} ({time.time() - started:.1f} s)')
    print(f'web-test: chromium: {passed} passed, {failed} failed')
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == '__main__':
    sys.exit(main())
