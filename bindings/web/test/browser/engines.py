"""One small driver layer over the three protocols the web tests speak, so that the scenarios,
the in-page vectors and the benchmarks are written once for every engine:

  chromium  Debian's chromium, headless, through chromedriver (WebDriver classic, python3-selenium)
  webkit    WebKitGTK's MiniBrowser (the engine of Safari and of every iOS browser) through
            WebKitWebDriver (webkit2gtk-driver), in an Xvfb of its own (its --headless hung)
  firefox   Debian's firefox-esr, headless, through WebDriver BiDi, the protocol Firefox speaks
            itself (no geckodriver is packaged): a WebSocket (python3-websockets) to
            --remote-debugging-port

Everything a test does goes through Browser: run() executes an async function body in the page
and brings back its JSON value (JSON text both ways, so no protocol's value serialisation can
make one engine's answer differ from another's), navigation waits the same way everywhere (the
document must change and finish loading, whether it came from the network or from the
back/forward cache), clicks are the protocol's own pointer clicks.

Only processes started here are stopped here (the browser, its driver, the Xvfb).
"""
import asyncio
import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import uuid

ENGINES = ('chromium', 'webkit', 'firefox')
WAIT = 20
LIVE = []  # browsers started and not yet quit (stop_all() quits them)


def _die_with_parent():
    """In a child before exec: SIGTERM when this Python process dies, however it dies, so no
    Xvfb or browser outlives a killed run."""
    import ctypes
    ctypes.CDLL('libc.so.6', use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def stop_all():
    """Quits every browser still running (a run stopped by a signal)."""
    for browser in list(LIVE):
        try:
            browser.quit()
        except Exception:
            pass


class ScriptError(Exception):
    """The page's script threw or rejected (the page's own error text)."""


class Browser:
    """What every engine offers the tests. Subclasses implement the protocol verbs (_exec,
    _navigate, _history, _click, screenshot, tabs) and quit."""

    name = ''
    version = ''

    # ---- scripts ----------------------------------------------------------------------------

    def run(self, body, *args):
        """Runs `body` as an async function of `args` (JSON values) in the page; returns what it
        returns (a JSON value; undefined is None). Raises ScriptError when it throws."""
        text = self._exec(body, json.dumps(list(args)))
        answer = json.loads(text)
        if 'error' in answer:
            raise ScriptError(answer['error'])
        return answer['ok']

    @staticmethod
    def _function(body):
        """The async function the protocols call with one argument, the arguments' JSON text:
        it answers JSON text {ok} or {error}. Written out as source (no eval in the page: the
        pages run under a CSP without 'unsafe-eval')."""
        return ('async function (argsJson) {\n'
                '  try {\n'
                f'    const value = await (async function () {{\n{body}\n}}).apply(null, JSON.parse(argsJson));\n'
                '    return JSON.stringify({ ok: value === undefined ? null : value });\n'
                '  } catch (error) {\n'
                '    return JSON.stringify({ error: String(error && error.stack ? `${error}\\n${error.stack}` : error) });\n'
                '  }\n'
                '}')

    # ---- navigation -------------------------------------------------------------------------

    def get(self, url):
        """Opens `url` and waits until it has loaded."""
        self._navigate(url)
        self.wait(lambda: self.run('return document.readyState') == 'complete', f'{url} to load')

    @property
    def url(self):
        return self.run('return location.href')

    def back(self):
        self._history(-1)

    def forward(self):
        self._history(1)

    def refresh(self):
        self._history(0)

    def _history(self, delta):
        """Back, forward or reload, then waits for another document (marked before, so a page
        restored from the back/forward cache counts as well as a fresh load) to be complete."""
        mark = uuid.uuid4().hex
        self.run('window.__engineMark = arguments[0]', mark)
        self._traverse(delta)
        self.wait(lambda: self.run('return window.__engineMark !== arguments[0] && document.readyState === "complete"', mark),
                  f'the page after {"reload" if delta == 0 else "back" if delta < 0 else "forward"}')

    # ---- elements ---------------------------------------------------------------------------

    def click(self, css):
        """A pointer click on the first element matching `css` (scrolled into view first)."""
        found = self.run('const e = document.querySelector(arguments[0]); if (e) e.scrollIntoView({block: "center"}); return !!e', css)
        if not found:
            raise AssertionError(f'no element {css} at {self.url}')
        self._click(css)

    def exists(self, css):
        return self.run('return document.querySelector(arguments[0]) !== null', css)

    def text(self, css):
        return self.run('const e = document.querySelector(arguments[0]); return e ? e.textContent : null', css)

    def attribute(self, css, name):
        return self.run('const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null', css, name)

    def select(self, css, value):
        """Chooses an option of a <select> the way its change event reports it."""
        self.run('const e = document.querySelector(arguments[0]); e.value = arguments[1];'
                 'e.dispatchEvent(new Event("change", {bubbles: true})); return e.value', css, value)

    # ---- waiting ----------------------------------------------------------------------------

    def wait(self, condition, what, timeout=WAIT):
        """Polls `condition` until it returns something true (which is returned). A script or
        protocol error while a page is being replaced is retried; at the deadline the last one
        is reported with what was awaited."""
        deadline = time.monotonic() + timeout
        last = None
        while True:
            try:
                value = condition()
                if value:
                    return value
                last = None
            except (ScriptError, EngineError) as error:
                last = error
            except Exception as error:  # a protocol's own exception type (Selenium's)
                last = error
            if time.monotonic() > deadline:
                where = ''
                try:
                    where = f' (at {self.url})'
                except Exception:
                    pass
                raise AssertionError(f'{self.name}: timed out waiting for {what}{where}'
                                     + (f': {last}' if last else ''))
            time.sleep(0.1)


class EngineError(Exception):
    """The protocol refused a command."""


# ---- WebDriver classic through Selenium (chromium, webkit) -------------------------------------

def _selenium_timeouts():
    """A driver that stops answering fails the command after two minutes instead of hanging
    the run (Selenium waits forever by default)."""
    from selenium.webdriver.remote.remote_connection import RemoteConnection
    RemoteConnection.set_timeout(120)


class SeleniumBrowser(Browser):
    def __init__(self, name, driver, cleanup=(), new_tab_type='tab'):
        self.name = name
        self.driver = driver
        self.cleanup = list(cleanup)
        self.new_tab_type = new_tab_type
        self.version = driver.capabilities.get('browserVersion', '')
        driver.set_script_timeout(300)
        driver.set_page_load_timeout(WAIT)

    def _exec(self, body, args_json):
        script = ('const done = arguments[arguments.length - 1];\n'
                  f'({self._function(body)})(arguments[0]).then(done, (e) => done(JSON.stringify({{ error: String(e) }})));')
        return self.driver.execute_async_script(script, args_json)

    def _navigate(self, url):
        self.driver.get(url)

    def _traverse(self, delta):
        if delta < 0:
            self.driver.back()
        elif delta > 0:
            self.driver.forward()
        else:
            self.driver.refresh()

    def _click(self, css):
        from selenium.webdriver.common.by import By
        self.driver.find_element(By.CSS_SELECTOR, css).click()

    def screenshot(self, path):
        self.driver.save_screenshot(path)

    def new_tab(self):
        self.driver.switch_to.new_window(self.new_tab_type)
        return self.driver.current_window_handle

    def tab(self):
        return self.driver.current_window_handle

    def switch_to(self, tab):
        self.driver.switch_to.window(tab)

    def close_tab(self):
        self.driver.close()

    def quit(self):
        if self in LIVE:
            LIVE.remove(self)
        try:
            self.driver.quit()
        finally:
            for stop in self.cleanup:
                stop()


def start_chromium(options):
    _selenium_timeouts()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    chrome = webdriver.ChromeOptions()
    chrome.binary_location = options.get('chromium', '/usr/bin/chromium')
    for argument in ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu',
                     '--window-size=900,1000', '--no-first-run', '--disable-background-networking',
                     '--disable-sync', '--disable-default-apps', '--disable-component-update',
                     *options.get('chromium_arguments', ())]:
        chrome.add_argument(argument)
    if options.get('spki'):
        # Trust the mock gateway's own key and nothing else.
        chrome.add_argument(f"--ignore-certificate-errors-spki-list={options['spki']}")
    driver = webdriver.Chrome(service=Service(options.get('chromedriver', '/usr/bin/chromedriver')), options=chrome)
    return SeleniumBrowser('chromium', driver)


class Xvfb:
    """An X server of our own: -displayfd lets it choose a free display (other engineers may
    run one too), so no display number is guessed."""

    def __init__(self):
        read, write = os.pipe()
        self.process = subprocess.Popen(
            ['Xvfb', '-displayfd', str(write), '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            preexec_fn=_die_with_parent)
        os.close(write)
        text = b''
        deadline = time.monotonic() + WAIT
        with os.fdopen(read, 'rb', buffering=0) as pipe:
            while not text.endswith(b'\n') and time.monotonic() < deadline:
                chunk = pipe.read(16)
                if not chunk:
                    break
                text += chunk
        if not text.strip():
            self.stop()
            raise EngineError('Xvfb did not report a display')
        self.display = f':{text.decode().strip()}'

    def stop(self):
        if self.process.poll() is None:
            stop_process(self.process)


def stop_process(process, timeout=5):
    """Terminates `process`, killing it if it has not exited after `timeout` seconds."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'


def start_webkit(options):
    _selenium_timeouts()
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    xvfb = Xvfb()
    try:
        # WebKitWebDriver starts MiniBrowser with the environment it was given.
        os.environ['DISPLAY'] = xvfb.display
        webkit = Options()
        webkit.binary_location = options.get('minibrowser', MINIBROWSER)
        webkit.add_argument('--automation')
        # The mock gateway's self-signed certificate (WebKitWebDriver has no per-key trust).
        webkit.set_capability('acceptInsecureCerts', True)
        log = options.get('log')
        driver = webdriver.WebKitGTK(options=webkit, service_log_path=log or os.devnull)
    except Exception:
        xvfb.stop()
        raise
    # A second tab of MiniBrowser is never drawn while the first is shown, and WebKitWebDriver's
    # screenshot of it waits for a paint forever: a second top-level window instead (the same
    # for sessionStorage: a new top-level browsing context).
    browser = SeleniumBrowser('webkit', driver, cleanup=[xvfb.stop], new_tab_type='window')
    driver.set_window_size(900, 1000)
    return browser


# ---- WebDriver BiDi (firefox) --------------------------------------------------------------------

class Bidi:
    """A WebDriver BiDi connection: commands by id over one WebSocket, answered in order of
    arrival by a reader on an event loop thread (python3-websockets 10 has no sync client)."""

    def __init__(self, url):
        import websockets
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.next_id = 0
        self.pending = {}

        async def connect():
            return await websockets.connect(url, max_size=None, ping_interval=None)
        self.socket = self._run(connect(), WAIT)
        asyncio.run_coroutine_threadsafe(self._read(), self.loop)

    def _run(self, coroutine, timeout):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    async def _read(self):
        try:
            async for text in self.socket:
                message = json.loads(text)
                waiter = self.pending.pop(message.get('id'), None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(message)
        except Exception as error:  # the connection closed: every command still waiting fails
            for waiter in self.pending.values():
                if not waiter.done():
                    waiter.set_exception(EngineError(f'BiDi connection lost: {error}'))

    async def _command(self, method, params):
        self.next_id += 1
        waiter = self.loop.create_future()
        self.pending[self.next_id] = waiter
        await self.socket.send(json.dumps({'id': self.next_id, 'method': method, 'params': params}))
        return await waiter

    def send(self, method, params=None, timeout=300):
        message = self._run(self._command(method, params or {}), timeout)
        if message.get('type') == 'error':
            raise EngineError(f"{method}: {message.get('error')}: {message.get('message')}")
        return message['result']

    def close(self):
        async def close():
            await self.socket.close()
        try:
            self._run(close(), 5)
        except Exception:
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def free_port():
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


class FirefoxBrowser(Browser):
    name = 'firefox'

    def __init__(self, options):
        self.profile = tempfile.mkdtemp(prefix='payhandoff-firefox-')
        with open(os.path.join(self.profile, 'user.js'), 'w') as prefs:
            # A quiet browser: no first-run pages, no updates, no background traffic off loopback.
            for name, value in [('browser.shell.checkDefaultBrowser', False), ('app.update.disabledForTesting', True),
                                ('browser.startup.homepage_override.mstone', 'ignore'), ('datareporting.policy.dataSubmissionEnabled', False),
                                ('toolkit.telemetry.reportingpolicy.firstRun', False), ('network.captive-portal-service.enabled', False),
                                ('browser.safebrowsing.update.enabled', False), ('extensions.update.enabled', False)]:
                prefs.write(f'user_pref({json.dumps(name)}, {json.dumps(value)});\n')
        port = free_port()
        self.log_path = options.get('log') or os.path.join(self.profile, 'firefox.log')
        self.log = open(self.log_path, 'w')
        self.process = subprocess.Popen(
            [options.get('firefox', 'firefox-esr'), '--headless', '--no-remote', '--profile', self.profile,
             '--remote-debugging-port', str(port)],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_die_with_parent)
        self.bidi = None
        try:
            deadline = time.monotonic() + 60
            while 'WebDriver BiDi listening on' not in open(self.log_path).read():
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise EngineError(f'firefox did not start its WebDriver BiDi endpoint (log: {self.log_path})')
                time.sleep(0.1)
            self.bidi = Bidi(f'ws://127.0.0.1:{port}/session')
            session = self.bidi.send('session.new', {'capabilities': {'alwaysMatch': {
                # The mock gateway's self-signed certificate.
                'acceptInsecureCerts': True, 'unhandledPromptBehavior': {'default': 'dismiss'}}}})
            self.version = session['capabilities'].get('browserVersion', '')
            self.context = self.bidi.send('browsingContext.getTree', {'maxDepth': 0})['contexts'][0]['context']
            self._viewport()
        except Exception:
            self.quit()
            raise

    def _viewport(self):
        self.bidi.send('browsingContext.setViewport', {'context': self.context, 'viewport': {'width': 900, 'height': 1000}})

    def _exec(self, body, args_json):
        result = self.bidi.send('script.callFunction', {
            'functionDeclaration': self._function(body), 'arguments': [{'type': 'string', 'value': args_json}],
            'awaitPromise': True, 'target': {'context': self.context}, 'resultOwnership': 'none'})
        if result.get('type') == 'exception':
            raise ScriptError(result['exceptionDetails'].get('text', 'exception'))
        return result['result']['value']

    def _navigate(self, url):
        self.bidi.send('browsingContext.navigate', {'context': self.context, 'url': url, 'wait': 'complete'})

    def _traverse(self, delta):
        if delta == 0:
            self.bidi.send('browsingContext.reload', {'context': self.context, 'wait': 'complete'})
        else:
            self.bidi.send('browsingContext.traverseHistory', {'context': self.context, 'delta': delta})

    def _click(self, css):
        node = self.bidi.send('script.evaluate', {
            'expression': f'document.querySelector({json.dumps(css)})', 'awaitPromise': False,
            'target': {'context': self.context}, 'resultOwnership': 'root'})
        shared = node['result'].get('sharedId')
        if not shared:
            raise EngineError(f'{css} is not an element')
        self.bidi.send('input.performActions', {'context': self.context, 'actions': [{
            'type': 'pointer', 'id': 'mouse', 'parameters': {'pointerType': 'mouse'}, 'actions': [
                {'type': 'pointerMove', 'x': 0, 'y': 0, 'origin': {'type': 'element', 'element': {'sharedId': shared}}},
                {'type': 'pointerDown', 'button': 0}, {'type': 'pointerUp', 'button': 0}]}]})
        self.bidi.send('input.releaseActions', {'context': self.context})

    def screenshot(self, path):
        data = self.bidi.send('browsingContext.captureScreenshot', {'context': self.context})['data']
        with open(path, 'wb') as out:
            out.write(base64.b64decode(data))

    def new_tab(self):
        self.context = self.bidi.send('browsingContext.create', {'type': 'tab'})['context']
        self._viewport()
        return self.context

    def tab(self):
        return self.context

    def switch_to(self, tab):
        self.context = tab
        self.bidi.send('browsingContext.activate', {'context': tab})

    def close_tab(self):
        self.bidi.send('browsingContext.close', {'context': self.context})

    def quit(self):
        if self in LIVE:
            LIVE.remove(self)
        if self.bidi is not None:
            try:
                self.bidi.send('session.end', {}, timeout=5)
            except Exception:
                pass
            self.bidi.close()
            self.bidi = None
        if self.process.poll() is None:
            # Firefox runs child processes in the group it was started in (its own session).
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


def start(engine, **options):
    """A Browser for `engine` (one of ENGINES). Options: spki (chromium's trusted key), log
    (the driver's or browser's log file), and the binaries' paths."""
    starts = {'chromium': start_chromium, 'webkit': start_webkit, 'firefox': FirefoxBrowser}
    if engine not in starts:
        raise ValueError(f'unknown engine {engine} (one of {", ".join(ENGINES)})')
    browser = starts[engine](options)
    LIVE.append(browser)
    return browser
