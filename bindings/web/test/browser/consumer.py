#!/usr/bin/python3
"""The web guide's first example as a page, in Chromium, WebKitGTK and Firefox (make
consumer-check, issue 36). APP is a fresh folder outside the repository where the packed
payhandoff-web is installed (npm install of the tarball), the README's first example is first.js as
written, index.html maps `payhandoff-web` to the installed package with an import map, and
harness.js loads first.js and records what happened. The demo server (demo/server.mjs --app APP)
serves it with the mock backend and gateway; engines.py drives each engine.

Per engine: the page loads with no error (an ordinary visit: its URL is left alone); the
example's registerCard() creates the session through the backend and sends the tab to the
gateway; approving there brings the tab back to the return URL, which the example's
handleReturnPage answers and replaces (the address bar shows the app's folder, not the nonce) and
the flow waits for its confirmation in sessionStorage.

  /usr/bin/python3 consumer.py --dist dist/web --app APP --out OUT [--engines "chromium webkit firefox"]
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import engines  # noqa: E402

SERVER = os.path.join(HERE, '..', '..', 'demo', 'server.mjs')


def page_state(browser):
    return browser.run('return window.consumer ? JSON.parse(JSON.stringify({...consumer, registerCard: undefined})) : null')


def settled(browser):
    return browser.wait(lambda: (lambda s: s if s and (s['ready'] or s['errors']) else None)(page_state(browser)), 'the first example')


def run(engine, args):
    started = time.time()
    out = os.path.join(args.out, engine)
    os.makedirs(out, exist_ok=True)
    server = subprocess.Popen(['node', SERVER, '--dist', args.dist, '--state', os.path.join(args.out, 'server'), '--app', args.app,
                               '--port', '0', '--gateway-port', '0', '--json'],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    browser = None
    try:
        info = json.loads(server.stdout.readline())
        app, gateway = info['app'], info['gateway']
        browser = engines.start(engine, spki=info['spki'], log=os.path.join(out, f'{engine}.log'))
        browser.get(app + '/')
        state = settled(browser)
        assert state['errors'] == [], f'the first example failed to load: {state["errors"]}'
        assert browser.url == app + '/', f'an ordinary visit was changed to {browser.url}'
        assert browser.run('return sessionStorage.length') == 0, 'an ordinary visit saved something'
        # The user's tap: the example's registerCard() (it leaves for the gateway).
        browser.run('consumer.registerCard().catch((e) => consumer.errors.push(String(e && e.stack || e))); return true')
        browser.wait(lambda: browser.url.startswith(gateway + '/checkout/') or (page_state(browser) or {}).get('errors'), 'the gateway')
        assert browser.url.startswith(gateway + '/checkout/'), f'registerCard did not reach the gateway: {page_state(browser)}'
        browser.wait(lambda: browser.exists('#approve'), 'the gateway page')
        handed_out = browser.text('#return-url')
        assert handed_out.startswith(app + '/checkout-callback/ph_'), handed_out
        browser.click('#approve')
        browser.wait(lambda: browser.url.startswith(app + '/'), 'the return page')
        state = settled(browser)
        assert state['errors'] == [], f'the return page failed: {state["errors"]}'
        assert state['opened'].startswith(handed_out + '?status=completed&card_id=card_'), state['opened']
        assert browser.url == app + '/', f'the return URL was not replaced: {browser.url}'
        assert 'ph_' not in browser.run('return location.href')
        saved = json.loads(browser.run('return sessionStorage.getItem("payhandoff.coordinator")'))
        flow = next(f for f in saved['flows'] if f['id'] == 'card-1')
        assert (flow['state'], flow['callback']['verified']) == ('awaiting_confirmation', True), flow
        return f'consumer-check: web: {engine} ({browser.version}): the first example loads, registers a card through the mock gateway ' \
               f'and comes back with the return URL handled and replaced ({time.time() - started:.1f} s)'
    finally:
        if browser is not None:
            browser.quit()
        try:
            server.stdin.close()
            server.wait(timeout=5)
        except (subprocess.TimeoutExpired, BrokenPipeError):
            engines.stop_process(server)
        server.stdout.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--dist', required=True)
    parser.add_argument('--app', required=True)
    parser.add_argument('--out', required=True)
    parser.add_argument('--engines', default=' '.join(engines.ENGINES))
    args = parser.parse_args()
    failed = 0
    for engine in args.engines.replace(',', ' ').split():
        try:
            print(run(engine, args), flush=True)
        except Exception as error:  # noqa: BLE001 (each engine reports for itself)
            failed += 1
            print(f'consumer-check: web: {engine}: FAILED: {error}', flush=True)
    engines.stop_all()
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
