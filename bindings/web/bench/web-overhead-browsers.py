#!/usr/bin/python3
"""Cost of the web package in each browser engine — Chromium, WebKitGTK, Firefox ESR, through the
same driver layer as the tests (test/browser/engines.py): the cases of bench/web-overhead.mjs
(compile and instantiate the module, the first call, then each call next to new URL(...)
.searchParams on the same callback) run in a page served from loopback, for each module.
Prints the same table as the Node run, per engine. Figures only (make bench-web).
  /usr/bin/python3 bindings/web/bench/web-overhead-browsers.py --dist dist/web \\
      [--engines chromium,webkit,firefox] [--modules payhandoff.wasm] [--quick]
The page is cross-origin isolated (COOP + COEP), so each engine gives performance.now() its
finest step; the step is printed next to the first-call figure, which is a single call.
"""
import argparse
import functools
import http.server
import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'test', 'browser'))
import engines  # noqa: E402  (the same browsers as the tests)

PAGE = """<!doctype html><meta charset="utf-8"><title>web-overhead</title>
<script type="module">
import { loadPayHandoff } from '/payhandoff/lib/web/src/index.js';
import { measure, startup, table } from '/bench/web-overhead.mjs';
try {
  const url = '/payhandoff/MODULE';
  let start = performance.now();
  const payhandoff = await loadPayHandoff({ wasm: url });
  const cold = performance.now() - start;
  const bytes = await (await fetch(url)).arrayBuffer();
  const started = await startup(loadPayHandoff, bytes, { quick: QUICK });
  const where = `${navigator.userAgent.match(/(Chrome|Firefox|Version)\\/[\\d.]+/)[0].replace('Version', 'WebKit Safari')}, MODULE` +
    `, cross-origin isolated: ${self.crossOriginIsolated}; first loadPayHandoff (fetch, compile, instantiate) ${cold.toFixed(1)} ms`;
  window.benchResult = table(where, measure(payhandoff, { quick: QUICK }), started);
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

    def end_headers(self):
        self.send_header('Cross-Origin-Opener-Policy', 'same-origin')
        self.send_header('Cross-Origin-Embedder-Policy', 'require-corp')
        self.send_header('Cache-Control', 'no-store')
        super().end_headers()

    def translate_path(self, path):
        path = path.split('?', 1)[0]
        if path.startswith('/payhandoff/'):
            return os.path.join(self.dist, os.path.normpath(path[len('/payhandoff/'):]).lstrip('./'))
        if path == '/bench/web-overhead.mjs':
            return os.path.join(HERE, 'web-overhead.mjs')
        return os.path.join(HERE, 'does-not-exist')

    def do_GET(self):
        if self.path.startswith('/page/'):
            module = os.path.basename(self.path[len('/page/'):])
            body = PAGE.replace('MODULE', module).replace('QUICK', 'true' if self.quick else 'false').encode()
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
    parser.add_argument('--engines', default=','.join(engines.ENGINES))
    parser.add_argument('--modules', default='payhandoff.wasm')
    parser.add_argument('--quick', action='store_true')
    parser.add_argument('--only')  # make bench's BENCH_ARGS may carry it: every case runs here anyway
    args = parser.parse_args()
    handler = functools.partial(Files, dist=os.path.abspath(args.dist), quick=args.quick)
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    status = 0
    try:
        for engine in [e for e in args.engines.replace(' ', ',').split(',') if e]:
            browser = engines.start(engine)
            try:
                for module in [os.path.basename(m) for m in args.modules.replace(' ', ',').split(',') if m]:
                    started = time.time()
                    browser.get(f'http://127.0.0.1:{server.server_address[1]}/page/{module}')
                    result = browser.wait(lambda: browser.run('return window.benchResult || null'), 'the benchmark', timeout=600)
                    print(f'{engine} ({browser.version}): {result}\n  ({time.time() - started:.0f} s)', flush=True)
                    status = status or (1 if result.startswith('failed') else 0)
            finally:
                browser.quit()
    finally:
        server.shutdown()
    return status


if __name__ == '__main__':
    sys.exit(main())
