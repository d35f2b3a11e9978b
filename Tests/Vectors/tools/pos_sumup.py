"""The SumUp URL-scheme oracle (issue 39): requests and answers as SumUp documents them.

Imported by pos_apps_vectors.py (which writes the files); Python 3.11, standard library only,
nothing here runs or imports PayHandoff. Written from these documents (cited in each vector's
`source`):

- iOS: sumup/sumup-ios-url-scheme `README.md` (commit 2aad01c2e0c1): `sumupmerchant://pay/1.0`
  with `amount` (`.` as decimal separator), `currency` (ISO 4217, the logged-in merchant's),
  `affiliate-key`, optional `title`, `callbacksuccess`, `callbackfail`, `receipt-email`,
  `receipt-mobilephone`, `foreign-tx-id` (unique per merchant, at most 128 printable ASCII
  characters); the answer appends `smp-status` (`success`|`failed`|`invalidstate`),
  `smp-tx-code` and `foreign-tx-id` to the callback.
- Android: sumup/sumup-android-api `README.md` (commit 4ad14b02a28f): the same URI with `app-id`
  and one `callback`, started as `ACTION_VIEW`; answers `smp-status`, `smp-failure-cause`
  (`transaction-failed`|`geolocation-required`|`invalid-param`|`invalid-token`), `smp-message`,
  `smp-receipt-sent`, `smp-tx-code`, `foreign-tx-id`. The issue 39 spec fixes `total` on Android
  (the app's name for the amount since 1.88.0; the research file cites SumUp's changelog).

Decisions where the documents and the spec are silent (docs/rules.md, note h39vec): parameters in
the spec's order, optional ones only when given (`skip-screen-success=true` only when true); values
percent-encoded to RFC 3986 unreserved characters (so `+` is always `%2B`: an unencoded `+` is read
as a space on Android); the answer's keys are case-sensitive, `+` in it is a literal `+`, empty
values are absent, unknown keys go to `extra` as written; `success` without `smp-tx-code`, and
`failed` without a known `smp-failure-cause`, are `unrecognized` (reconcile).
"""

from __future__ import annotations

import json
import re

from vectorlib import (
    DROP, FRESH_POS_TOKEN, Fail, PosRequest, Suite, answer_options, ascii_lower, answer_query, check_callback_url,
    check_currency, check_pos_app, check_transaction_id, decode_query, format_amount, make_with, percent_encode,
    public_extra, sent_pos_identifier,
)

SRC_IOS = "sumup/sumup-ios-url-scheme README.md@2aad01c2e0c19f7986d6e8740ce211128bd03795"
SRC_ANDROID = "sumup/sumup-android-api README.md@4ad14b02a28fbcd774afe61b618d77c8e5d5d759"
SRC_SPEC = "PayHandoff issue 39 spec (/work/notes/39-spec.md): shapes and decisions"
SRC_ISSUE_DUPLICATE = "sumup/sumup-android-url-scheme #2, sumup/sumup-android-sdk #47 (a timed-out foreign-tx-id can never be reused)"

BASE = "sumupmerchant://pay/1.0"
VIEW = "android.intent.action.VIEW"
MAX_FOREIGN_TX_ID_BYTES = 128
REQUEST_KEYS = ("pos_app", "affiliate_key", "app_id", "identifier", "amount", "currency", "callback_url", "title",
                "receipt_email", "receipt_phone", "skip_success_screen", "token")
APP_ID = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)+")  # an Android application id
FAILURE_DECLINED = ("transaction-failed",)
FAILURE_ERROR = ("invalid-param", "invalid-token", "geolocation-required")
STATUS, TX_CODE, FOREIGN, CAUSE = "smp-status", "smp-tx-code", "foreign-tx-id", "smp-failure-cause"


def build_url(request) -> dict:
    r = PosRequest(request, REQUEST_KEYS)
    assert check_pos_app(r.get("pos_app")) == "sumup"
    affiliate_key = r.text("affiliate_key", True)
    app_id = r.text("app_id", True)
    if not APP_ID.fullmatch(app_id):
        raise Fail("validation", "app_id")
    identifier = r.text("identifier", True)
    amount = r.amount("amount", True)
    if r.get("currency") is None:
        raise Fail("validation", "currency")
    currency = check_currency(r.get("currency"))
    callback = check_callback_url(r.get("callback_url"))
    title = r.text("title", False, 256)
    email = r.text("receipt_email", False, 150)
    phone = r.text("receipt_phone", False, 32)
    skip = r.boolean("skip_success_screen")
    token = r.token()
    sent = sent_pos_identifier(identifier, token)
    raw = sent.encode("utf-8")
    if len(raw) > MAX_FOREIGN_TX_ID_BYTES or not all(0x21 <= b <= 0x7E for b in raw):
        raise Fail("validation", "identifier")  # foreign-tx-id: at most 128 printable ASCII characters
    assert token is not FRESH_POS_TOKEN, "an ok vector cannot know a fresh token"

    optional = [("title", title), ("receipt-email", email), ("receipt-mobilephone", phone),
                ("skip-screen-success", "true" if skip else None)]
    ios = [("amount", format_amount(amount)), ("currency", currency), ("affiliate-key", affiliate_key),
           ("foreign-tx-id", sent), ("callbacksuccess", callback), ("callbackfail", callback)] + optional
    android = [("total", format_amount(amount)), ("currency", currency), ("affiliate-key", affiliate_key),
               ("app-id", app_id), ("foreign-tx-id", sent), ("callback", callback)] + optional

    def uri(pairs):
        return BASE + "?" + "&".join(k + "=" + percent_encode(v) for k, v in pairs if v is not None)

    result = {"version": 1, "pos_app": "sumup", "url": uri(ios), "intent": {"action": VIEW, "data": uri(android), "extras": []}}
    if token is not None:
        result["identifier"] = sent
        result["token"] = token
    return result


def parse_response(url: str, options) -> dict:
    options, expected = answer_options(options, ("pos_app", "callback_url", "identifier", "token"),
                                       then=lambda o: check_callback_url(o.get("callback_url")))
    assert check_pos_app(options.get("pos_app")) == "sumup"
    callback = check_callback_url(options.get("callback_url"))
    pairs = decode_query(answer_query(url, callback), plus_is_space=False, case_insensitive=False)
    fields = {k: v for k, v in pairs if k in (STATUS, TX_CODE, FOREIGN, CAUSE) and v != ""}
    # An echoed affiliate key (any case) is a secret, dropped as Billpocket's echoed usertoken is.
    extra = public_extra((k, v) for k, v in pairs if k not in (STATUS, TX_CODE, FOREIGN))
    if FOREIGN not in fields:
        raise Fail("validation", FOREIGN)
    if expected is not None and fields[FOREIGN] != expected:
        raise Fail("callback_mismatch", "identifier")
    if STATUS not in fields:
        raise Fail("validation", STATUS)
    status, cause = fields[STATUS], fields.get(CAUSE)
    doc: dict = {"version": 1, "pos_app": "sumup"}
    if status == "success":
        result = "approved" if TX_CODE in fields else "unrecognized"  # no transaction code: reconcile
    elif status == "failed":
        result = "declined" if cause in FAILURE_DECLINED else "error" if cause in FAILURE_ERROR else "unrecognized"
    elif status == "invalidstate":
        result = "error"
    else:
        result = "unrecognized"
    doc["result"] = result
    doc["identifier"] = fields[FOREIGN]
    if result == "unrecognized":
        doc["result_word"] = status
    if TX_CODE in fields:
        doc["transactionid"] = check_transaction_id(fields[TX_CODE], TX_CODE)
    if extra:
        doc["extra"] = extra
    return doc


# ---------------------------------------------------------------------------------------
# Case tables

with_ = make_with(deep_copy=True)
TOKEN = "9f86d081884c7d659a2feaa0c55ad015"
CALLBACK = "myapp://sumup-result"
AFFILIATE_KEY = "7ca84f17-84a5-4140-8df6-6ebeed8540fc"
SALE = {"pos_app": "sumup", "affiliate_key": AFFILIATE_KEY, "app_id": "com.example.myapp", "identifier": "ord-1",
        "amount": "10.00", "currency": "EUR", "callback_url": CALLBACK}
V, J, M, C = "validation", "invalid_json", "malformed_url", "callback_mismatch"


def build_cases() -> Suite:
    s = Suite("pos.build_url", "sumup-build", lambda i: build_url(i["request"]), detach=True)

    def add(id_, note, request, error=None, check=None, source=SRC_IOS):
        s.add(id_, note, {"request": request}, error, check)
        s.vectors[-1]["source"] = source

    def url_is(expected_ios, expected_android=None):
        def check(result):
            assert result["url"] == expected_ios, (result["url"], expected_ios)
            if expected_android is not None:
                assert result["intent"]["data"] == expected_android, (result["intent"]["data"], expected_android)
        return check

    add("sumup-build-sale-minimal", "a documented sale: iOS amount/currency/affiliate-key/foreign-tx-id and both callbacks; "
        "Android ACTION_VIEW on the same URI with total, app-id and one callback; no package",
        SALE, check=url_is(f"{BASE}?amount=10.00&currency=EUR&affiliate-key={AFFILIATE_KEY}&foreign-tx-id=ord-1"
                           "&callbacksuccess=myapp%3A%2F%2Fsumup-result&callbackfail=myapp%3A%2F%2Fsumup-result",
                           f"{BASE}?total=10.00&currency=EUR&affiliate-key={AFFILIATE_KEY}&app-id=com.example.myapp"
                           "&foreign-tx-id=ord-1&callback=myapp%3A%2F%2Fsumup-result"))
    add("sumup-build-sale-token", "with a token foreign-tx-id is ord-1~<token> (a fresh token per start: a retry is a "
        "fresh foreign-tx-id)", with_(SALE, token=TOKEN), source=SRC_ISSUE_DUPLICATE)
    add("sumup-build-sale-every-member", "title, receipt e-mail and phone ('+' always %2B: unencoded it reads as a space on "
        "Android), skip-screen-success=true", with_(SALE, title="Taxi Ride", receipt_email="ana+pos@example.com",
                                                    receipt_phone="+3531234567890", skip_success_screen=True, token=TOKEN),
        check=lambda r: "%2B3531234567890" in r["url"] and "%2B3531234567890" in r["intent"]["data"], source=SRC_ANDROID)
    add("sumup-build-skip-false", "skip_success_screen false sends nothing", with_(SALE, skip_success_screen=False),
        check=lambda r: "skip-screen-success" not in r["url"])
    add("sumup-build-foreign-tx-id-128", "identifier and token composing exactly 128 printable ASCII bytes (95 + '~' + 32)",
        with_(SALE, identifier="i" * 95, token=TOKEN))
    add("sumup-build-foreign-tx-id-128-no-token", "an identifier of 128 printable ASCII bytes without a token",
        with_(SALE, identifier="o" * 128))
    add("sumup-build-amount-minor-units", "an integer amount is minor units: 1 is 0.01", with_(SALE, amount=1),
        check=lambda r: "amount=0.01&" in r["url"] and "total=0.01&" in r["intent"]["data"])
    add("sumup-build-amount-large", "2^53-1 minor units: decimal text, no float", with_(SALE, amount=9_007_199_254_740_991),
        check=lambda r: "amount=90071992547409.91&" in r["url"])
    add("sumup-build-currency-gbp", "another two-decimal currency", with_(SALE, currency="GBP"))
    add("sumup-build-callback-https", "a web callback", with_(SALE, callback_url="https://example.com/myapp/mycallback"),
        source=SRC_ANDROID)

    add("sumup-build-foreign-tx-id-129", "129 bytes composed (96 + '~' + 32): SumUp's foreign-tx-id holds 128",
        with_(SALE, identifier="i" * 96, token=TOKEN), (V, "identifier"))
    add("sumup-build-token-fresh-identifier-96", "token true (a fresh 32-character token) with 96 characters: 129 bytes",
        with_(SALE, identifier="i" * 96, token=True), (V, "identifier"), source=SRC_SPEC)
    add("sumup-build-foreign-tx-id-space", "foreign-tx-id holds 0x21-0x7E only (the spec's reading of SumUp's 'printable "
        "ASCII'): a space is refused", with_(SALE, identifier="ord 1"), (V, "identifier"), source=SRC_SPEC)
    add("sumup-build-foreign-tx-id-non-ascii", "non-ASCII text in foreign-tx-id", with_(SALE, identifier="pedido-ñ"),
        (V, "identifier"))
    add("sumup-build-identifier-missing", "identifier is required", with_(SALE, identifier=DROP), (V, "identifier"),
        source=SRC_SPEC)
    add("sumup-build-affiliate-key-missing", "affiliate_key is required", with_(SALE, affiliate_key=DROP), (V, "affiliate_key"))
    add("sumup-build-affiliate-key-empty", "an empty affiliate key (the error must not print a key)",
        with_(SALE, affiliate_key=""), (V, "affiliate_key"))
    add("sumup-build-affiliate-key-nul", "U+0000 in the affiliate key: refused, and the error never quotes the key",
        with_(SALE, affiliate_key=AFFILIATE_KEY + "\x00"), (V, "affiliate_key"))
    add("sumup-build-affiliate-key-number", "affiliate_key of the wrong JSON type", with_(SALE, affiliate_key=7),
        (J, "affiliate_key"))
    add("sumup-build-affiliate-key-then-bad-amount", "a bad amount beside a valid affiliate key: the error names amount "
        "and never quotes the key", with_(SALE, amount="1e3"), (V, "amount"))
    add("sumup-build-app-id-missing", "app_id (Android's app-id) is required", with_(SALE, app_id=DROP), (V, "app_id"),
        source=SRC_ANDROID)
    add("sumup-build-app-id-one-segment", "app-id must be an Android application id (two or more segments)",
        with_(SALE, app_id="myapp"), (V, "app_id"), source=SRC_ANDROID)
    add("sumup-build-currency-missing", "currency is required (it must match the merchant's)", with_(SALE, currency=DROP),
        (V, "currency"))
    for code, why in (("JPY", "0 decimals"), ("CLP", "0 decimals"), ("TND", "3 decimals"), ("UYW", "4 decimals")):
        add(f"sumup-build-currency-{code.lower()}", f"{code} has {why} (ISO 4217): refused",
            with_(SALE, currency=code), (V, "currency"), source=SRC_SPEC)
    add("sumup-build-currency-lowercase", "currency 'eur' is not three uppercase ASCII letters", with_(SALE, currency="eur"),
        (V, "currency"))
    add("sumup-build-amount-zero", "a sale of 0", with_(SALE, amount=0), (V, "amount"))
    add("sumup-build-amount-comma", "',' is not SumUp's decimal separator", with_(SALE, amount="10,00"), (V, "amount"))
    add("sumup-build-amount-over-max", "2^53 minor units: the number itself is refused", with_(SALE, amount=2 ** 53),
        (J, "amount"))
    add("sumup-build-callback-missing", "callback_url is required", with_(SALE, callback_url=DROP), (V, "callback_url"),
        source=SRC_SPEC)
    add("sumup-build-callback-query", "a callback with a query: SumUp appends its own", with_(SALE, callback_url=CALLBACK + "?a=1"),
        (V, "callback_url"))
    add("sumup-build-skip-text", "skip_success_screen must be a JSON boolean", with_(SALE, skip_success_screen="true"),
        (J, "skip_success_screen"))
    add("sumup-build-title-number", "title of the wrong JSON type", with_(SALE, title=1), (J, "title"))
    add("sumup-build-refund-request", "SumUp's URL scheme has no refund: a refund request is refused naming transaction",
        with_(SALE, transaction="devolucion"), (V, "transaction"), source=SRC_SPEC)
    add("sumup-build-usertoken", "a Billpocket member on a SumUp request", with_(SALE, usertoken="tok"), (V, "usertoken"))
    return s


def _answer(params, callback=CALLBACK) -> str:
    return callback + "?" + "&".join(k + "=" + v for k, v in params)


def parse_cases() -> Suite:
    s = Suite("pos.parse_response", "sumup-parse", lambda i: parse_response(i["url"], i["options"]), detach=True)
    opts = {"pos_app": "sumup", "callback_url": CALLBACK, "identifier": "ord-1", "token": TOKEN}
    sent = "ord-1~" + TOKEN

    def add(id_, note, url, options=opts, error=None, source=SRC_ANDROID, check=None):
        s.add(id_, note, {"url": url, "options": options}, error, check)
        s.vectors[-1]["source"] = source

    ok = [("smp-status", "success"), ("smp-message", "Transaction%20successful."), ("smp-receipt-sent", "false"),
          ("smp-tx-code", "123ABC"), ("foreign-tx-id", sent)]

    def replace(params, **changes):
        out = []
        for k, v in params:
            key = k.replace("-", "_")
            if key in changes:
                if changes[key] is not DROP:
                    out.append((k, changes[key]))
            else:
                out.append((k, v))
        return out

    add("sumup-parse-success", "the documented success: approved, smp-tx-code is the transaction id, smp-message and "
        "smp-receipt-sent kept in extra", _answer(ok))
    add("sumup-parse-success-ios", "the iOS answer: smp-status, smp-tx-code, foreign-tx-id only",
        _answer([("smp-status", "success"), ("smp-tx-code", "TX9"), ("foreign-tx-id", sent)]), source=SRC_IOS)
    add("sumup-parse-failed-declined", "failed with transaction-failed: declined (failed answers carry a tx code too)",
        _answer([("smp-status", "failed"), ("smp-failure-cause", "transaction-failed"),
                 ("smp-message", "Transaction%20failed."), ("smp-receipt-sent", "false"), ("smp-tx-code", "123ABC"),
                 ("foreign-tx-id", sent)]))
    add("sumup-parse-failed-invalid-param", "failed with invalid-param: error",
        _answer([("smp-status", "failed"), ("smp-failure-cause", "invalid-param"), ("foreign-tx-id", sent)]))
    add("sumup-parse-failed-geolocation", "failed with geolocation-required: error",
        _answer([("smp-status", "failed"), ("smp-failure-cause", "geolocation-required"), ("foreign-tx-id", sent)]))
    add("sumup-parse-failed-no-cause", "failed without a failure cause (the iOS answer has none): unclear, unrecognized",
        _answer([("smp-status", "failed"), ("foreign-tx-id", sent)]), source=SRC_IOS)
    add("sumup-parse-failed-unknown-cause", "failed with a cause SumUp does not document: unrecognized, never declined",
        _answer([("smp-status", "failed"), ("smp-failure-cause", "duplicate-foreign-tx-id"), ("foreign-tx-id", sent)]),
        source=SRC_ISSUE_DUPLICATE)
    add("sumup-parse-invalidstate", "invalidstate (the SumUp app is not ready): error",
        _answer([("smp-status", "invalidstate"), ("foreign-tx-id", sent)]), source=SRC_IOS)
    add("sumup-parse-success-no-tx-code", "success without smp-tx-code: unrecognized (reconcile, check the Transactions API)",
        _answer(replace(ok, smp_tx_code=DROP)))
    add("sumup-parse-unknown-status", "a status word SumUp does not document is never an approval",
        _answer(replace(ok, smp_status="pending")))
    add("sumup-parse-status-case", "status is matched exactly: 'SUCCESS' is unrecognized", _answer(replace(ok, smp_status="SUCCESS")))
    add("sumup-parse-plus-literal", "'+' in the echo stays '+' (the POS answer rule)",
        _answer(replace(ok, foreign_tx_id="a+b~" + TOKEN)), {"pos_app": "sumup", "callback_url": CALLBACK, "identifier": "a+b",
                                                           "token": TOKEN})
    add("sumup-parse-https-callback", "an answer to a web callback", _answer(ok, "https://example.com/cb"),
        with_(opts, callback_url="https://example.com/cb"))

    add("sumup-parse-affiliate-key-echo-dropped", "an echoed affiliate key (any case) is a secret: dropped, never kept in "
        "extra", _answer(ok + [("Affiliate-Key", AFFILIATE_KEY)]), check=lambda r: AFFILIATE_KEY not in json.dumps(r),
        source=SRC_SPEC)
    add("sumup-parse-forged", "foreign-tx-id without the token (anyone can send it)", _answer(replace(ok, foreign_tx_id="ord-1")),
        error=(C, "identifier"))
    add("sumup-parse-no-foreign-tx-id", "no foreign-tx-id (SumUp before 1.53.2): cannot be tied to the sale",
        _answer(replace(ok, foreign_tx_id=DROP)), error=(V, "foreign-tx-id"))
    add("sumup-parse-no-status", "smp-status is required", _answer(replace(ok, smp_status=DROP)), error=(V, "smp-status"))
    add("sumup-parse-tx-code-space", "a transaction code with a space", _answer(replace(ok, smp_tx_code="123%20ABC")),
        error=(V, "smp-tx-code"))
    add("sumup-parse-duplicate-status", "smp-status twice", _answer(ok + [("smp-status", "failed")]), error=(M, "smp-status"))
    add("sumup-parse-raw-newline", "a raw newline in the answer", _answer(ok) + "%0A\n", error=(M, "url"))
    add("sumup-parse-other-callback", "an answer on the callback's scheme but another address: tied to the sale by "
        "foreign-tx-id (scheme rule, as Billpocket's)", _answer(ok, "myapp://other"))
    add("sumup-parse-other-scheme", "an answer on another scheme", _answer(ok, "otherapp://sumup-result"),
        error=(C, "scheme"))
    add("sumup-parse-bad-escape", "a bad percent escape", _answer(replace(ok, smp_message="%zz")), error=(M, "smp-message"))
    add("sumup-parse-options-urlscheme", "Billpocket's urlScheme is not a SumUp option", _answer(ok),
        with_(opts, urlScheme="myapp"), (V, "urlScheme"), SRC_SPEC)
    add("sumup-parse-options-callback-missing", "options.callback_url is required for SumUp", _answer(ok),
        with_(opts, callback_url=DROP), (V, "callback_url"), SRC_SPEC)
    return s
