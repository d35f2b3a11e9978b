#!/usr/bin/python3
"""Per-call cost of the web package in headless Chromium: the cases of bindings/web/bench/web-overhead.mjs
(the package's calls next to URLSearchParams on the same callback) run in a page served from
loopback. Prints the same table as the Node run. Figures only (make bench-web).
  /usr/bin/python3 bindings/web/bench/web-overhead-chromium.py --dist dist/web [--quick]
"""
import argparse
import functools
import http.server
import os
import sys
import threading

from selenium.webdriver.support.ui import WebDriverWait

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'test', 'browser'))
from scenarios import headless_chromium  # noqa: E402  (the same browser setup as the tests)

PAGE = """<!doctype html><meta charset="utf-8"><title>web-overhead</title>
<script type="module">
import { loadPayHandoff } from '/payhandoff/lib/web/src/index.js';
import { measure, table } from '/bench/web-overhead.mjs';
try {
  const payhandoff = await loadPayHandoff();
  const version = navigator.userAgent.match(/(?:Headless)?Chrome\\/[\\d.]+/)[0];
  window.benchResult = table(version, measure(payhandoff, { quick: QUICK }));
} catch (error) {
  window.benchResult = 'failed: ' + (error && error.stack || error);
}
</script>"""


class Files(http.server.SimpleHTTPRequestHandler):
    """Serves /payhandoff/ from the package and /bench/ from this folder; the page from memory."""
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm'}

    def __init__(self, *args, dist, quick, **kwargs):
        self.dist, self.quick = dist, quick
        super().__init__(*args, directory=HERE, **kwargs)

    def translate_path(self, path):
        path = path.split('?', 1)[0]
        if path.startswith('/payhandoff/'):
            return os.path.join(self.dist, os.path.normpath(path[len('/payhandoff/'):]).lstrip('./'))
        if path == '/bench/web-overhead.mjs':
            return os.path.join(HERE, 'web-overhead.mjs')
        return os.path.join(HERE, 'does-not-exist')

    def do_GET(self):
        if self.path == '/':
            body = PAGE.replace('QUICK', 'true' if self.quick else 'false').encode()
            self.send_response(200)
            self.send_header('Content-Type', 'text/html; charset=utf-8')
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, *args):
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--dist', required=True)
    parser.add_argument('--quick', action='store_true')
    parser.add_argument('--only')  # make bench's BENCH_ARGS may carry it: every case runs here anyway
    parser.add_argument('--chromium', default='/usr/bin/chromium')
    parser.add_argument('--chromedriver', default='/usr/bin/chromedriver')
    args = parser.parse_args()
    handler = functools.partial(Files, dist=os.path.abspath(args.dist), quick=args.quick)
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    driver = headless_chromium(args.chromium, args.chromedriver)
    try:
        driver.set_script_timeout(300)
        driver.get(f'http://127.0.0.1:{server.server_address[1]}/')
        result = WebDriverWait(driver, 300).until(lambda d: d.execute_script('return window.benchResult'))
    finally:
        driver.quit()
        server.shutdown()
    print(result)
    return 1 if result.startswith('failed') else 0


if __name__ == '__main__':
    sys.exit(main())
