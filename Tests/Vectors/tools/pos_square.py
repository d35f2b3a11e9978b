"""The Square Point of Sale API oracle (issue 39): requests and answers as Square documents them.

Imported by pos_apps_vectors.py (which writes the files); Python 3.11, standard library only,
nothing here runs or imports PayHandoff. Written from these documents (cited in each vector's
`source`):

- iOS request: square/SquarePointOfSaleSDK-iOS `Sources/SCCAPIRequest.m` (commit fcb44143c9b1):
  `square-commerce-v1://payment/create?data=<percent-encoded JSON>`, keys `sdk_version`,
  `version` ("1.3"), `client_id`, `amount_money` {`amount`, `currency_code`}, `callback_url`,
  `state`, `location_id`, `notes`, `customer_id`, `options` {`supported_tender_types`
  (`CREDIT_CARD`, `CASH`, `OTHER`, `CARD_ON_FILE`), `auto_return`, `skip_receipt`}.
- iOS answer: `Sources/SCCAPIResponse.m` (commit 19b95f2049a0): `<callback>?data=<JSON>` with
  `status` `ok`|`error`, `transaction_id`, `client_transaction_id`, `error_code`, `state`;
  error codes `Sources/NSError+SCCAPIAdditions.m` (`payment_canceled`, …).
- Android request and answer: square/point-of-sale-android-sdk
  `point-of-sale-sdk/src/main/java/com/squareup/sdk/pos/PosApi.java` (commit bd10641ea593:
  action, extras, result extras, error codes, auto-return 0 or 3,200…10,000 ms, note ≤ 500) and
  `RealPosClient.java` (commit c2a2f174bfca: the order extras are put in, API version `v2.0`,
  package `com.squareup`, chosen at run time as the highest-version installed `com.squareup*`).
  `TOTAL_AMOUNT` is a Java `int`: at most 2,147,483,647 minor units.

Decisions where the documents and the issue 39 spec are silent (docs/rules.md, note h39vec):
`sdk_version` "3.5.0" (what Square's newest iOS SDK sends); Android carries no `SDK_VERSION` (the
web API's intent omits it: developer.squareup.com/docs/pos-api/web-technical-reference); extras in
RealPosClient's order, absent ones left out; `tender_types` absent sends none (Square's default);
`auto_return_ms` 0 sends nothing; the answer's address must be the request's `callback_url` exactly
(PayHandoff sends it without the SDK's `square_request` rewrite).
"""

from __future__ import annotations

import json

from vectorlib import (
    ANY_FIELD, DROP, FRESH_POS_TOKEN, Fail, PosRequest, Suite, answer_options, answer_query, check_callback_url,
    check_currency, check_pos_app, check_transaction_id, decode_query, format_amount, make_with,
    json_text, no_data_answer, public_extra, percent_encode, sent_pos_identifier, string_extras, utf16_units, check_result_code,
)

SRC_IOS_REQUEST = "square/SquarePointOfSaleSDK-iOS Sources/SCCAPIRequest.m@fcb44143c9b199f62f9feb61e98a51516e0c28a3"
SRC_IOS_RESPONSE = "square/SquarePointOfSaleSDK-iOS Sources/SCCAPIResponse.m@19b95f2049a0772865bda70af07438de7680ca1e"
SRC_IOS_ERRORS = "square/SquarePointOfSaleSDK-iOS Sources/NSError+SCCAPIAdditions.m (payment_canceled, could_not_perform, …)"
SRC_ANDROID = ("square/point-of-sale-android-sdk point-of-sale-sdk/src/main/java/com/squareup/sdk/pos/PosApi.java"
               "@bd10641ea5934960fcde9f7b806e53b72beeeac1")
SRC_ANDROID_CLIENT = ("square/point-of-sale-android-sdk point-of-sale-sdk/src/main/java/com/squareup/sdk/pos/"
                      "RealPosClient.java@c2a2f174bfcac5045546c940a322c6c4550918b3")
SRC_SPEC = "PayHandoff issue 39 spec (/work/notes/39-spec.md): shapes and decisions"

IOS_SCHEME_URL = "square-commerce-v1://payment/create?data="
IOS_API_VERSION = "1.3"
IOS_SDK_VERSION = "3.5.0"
NS = "com.squareup.pos."
ACTION = NS + "action.CHARGE"
PACKAGE = "com.squareup"
ANDROID_API_VERSION = "v2.0"
MAX_INT = 2_147_483_647
MAX_IDENTIFIER_UNITS = 256
MAX_NOTE_UNITS = 500
TENDERS = {  # request word: (iOS supported_tender_types word, Android TENDER_TYPES value)
    "card": ("CREDIT_CARD", NS + "TENDER_CARD"),
    "cash": ("CASH", NS + "TENDER_CASH"),
    "other": ("OTHER", NS + "TENDER_OTHER"),
    "card_on_file": ("CARD_ON_FILE", NS + "TENDER_CARD_ON_FILE"),
}
REQUEST_KEYS = ("pos_app", "client_id", "identifier", "amount", "currency", "callback_url", "notes", "location_id",
                "customer_id", "tender_types", "auto_return_ms", "skip_receipt", "token")

# Android error codes (PosApi.java): cancelled, the one without an echo, and the others (error).
ERROR_CANCELED = NS + "ERROR_TRANSACTION_CANCELED"
ERROR_NO_RESULT = NS + "ERROR_NO_RESULT"
ANDROID_ERRORS = tuple(NS + c for c in (
    "ERROR_NO_EMPLOYEE_LOGGED_IN", "ERROR_GIFT_CARDS_NOT_SUPPORTED", "ERROR_INVALID_REQUEST", "ERROR_DISABLED",
    "ERROR_ILLEGAL_LOCATION_ID", "ERROR_INSUFFICIENT_CARD_BALANCE", "ERROR_NO_RESULT", "ERROR_NO_NETWORK",
    "ERROR_TRANSACTION_CANCELED", "ERROR_TRANSACTION_ALREADY_IN_PROGRESS", "ERROR_UNAUTHORIZED_CLIENT_ID",
    "ERROR_UNEXPECTED", "UNSUPPORTED_API_VERSION", "ERROR_USER_NOT_LOGGED_IN", "ERROR_USER_NOT_ACTIVATED",
    "ERROR_CUSTOMER_MANAGEMENT_NOT_SUPPORTED", "ERROR_INVALID_CUSTOMER_ID"))
IOS_CANCELED = "payment_canceled"
R_METADATA = NS + "REQUEST_METADATA"
R_CLIENT_ID = NS + "CLIENT_TRANSACTION_ID"
R_SERVER_ID = NS + "SERVER_TRANSACTION_ID"
R_ERROR_CODE = NS + "ERROR_CODE"
R_ERROR_DESCRIPTION = NS + "ERROR_DESCRIPTION"


# ---------------------------------------------------------------------------------------
# pos.build_url

def build_url(request) -> dict:
    r = PosRequest(request, REQUEST_KEYS)
    assert check_pos_app(r.get("pos_app")) == "square"
    client_id = r.text("client_id", True)
    identifier = r.text("identifier", True, MAX_IDENTIFIER_UNITS)
    amount = r.amount("amount", True)
    if amount > MAX_INT:
        raise Fail("validation", "amount")  # Android's TOTAL_AMOUNT is an int
    if r.get("currency") is None:
        raise Fail("validation", "currency")
    currency = check_currency(r.get("currency"))
    callback_url = check_callback_url(r.get("callback_url"))
    notes = r.text("notes", False, MAX_NOTE_UNITS)
    location_id = r.text("location_id", False)
    customer_id = r.text("customer_id", False)
    tenders = r.get("tender_types")
    if tenders is not None:
        if not isinstance(tenders, list) or not all(isinstance(t, str) for t in tenders):
            raise Fail("invalid_json", "tender_types")
        if not tenders or any(t not in TENDERS for t in tenders) or len(set(tenders)) != len(tenders):
            raise Fail("validation", "tender_types")
    auto_return = r.integer("auto_return_ms")
    if auto_return is not None and auto_return != 0 and not 3200 <= auto_return <= 10000:
        raise Fail("validation", "auto_return_ms")
    skip_receipt = r.boolean("skip_receipt")
    token = r.token()
    sent = sent_pos_identifier(identifier, token)
    if utf16_units(sent) > MAX_IDENTIFIER_UNITS:
        raise Fail("validation", "identifier")
    assert token is not FRESH_POS_TOKEN, "an ok vector cannot know a fresh token"

    data: dict = {"amount_money": {"amount": amount, "currency_code": currency}, "callback_url": callback_url,
                  "client_id": client_id, "version": IOS_API_VERSION, "sdk_version": IOS_SDK_VERSION, "state": sent}
    for key, value in (("notes", notes), ("location_id", location_id), ("customer_id", customer_id)):
        if value is not None:
            data[key] = value
    options: dict = {}
    if tenders is not None:
        options["supported_tender_types"] = [TENDERS[t][0] for t in tenders]
    if auto_return:
        options["auto_return"] = True
    if skip_receipt is not None:
        options["skip_receipt"] = skip_receipt
    if options:
        data["options"] = options
    url = IOS_SCHEME_URL + percent_encode(json.dumps(data, separators=(",", ":"), ensure_ascii=False))

    extras = [{"key": NS + "CLIENT_ID", "value": client_id},
              {"key": NS + "TOTAL_AMOUNT", "type": "int", "value": amount}]
    if notes is not None:
        extras.append({"key": NS + "NOTE", "value": notes})
    extras += [{"key": NS + "API_VERSION", "value": ANDROID_API_VERSION},
               {"key": NS + "CURRENCY_CODE", "value": currency},
               {"key": R_METADATA, "value": sent}]
    if customer_id is not None:
        extras.append({"key": NS + "CUSTOMER_ID", "value": customer_id})
    if tenders is not None:
        extras.append({"key": NS + "TENDER_TYPES", "type": "string_array", "value": [TENDERS[t][1] for t in tenders]})
    if location_id is not None:
        extras.append({"key": NS + "LOCATION_ID", "value": location_id})
    if auto_return:
        extras.append({"key": NS + "AUTO_RETURN_TIMEOUT_MS", "type": "long", "value": auto_return})
    result = {"version": 1, "pos_app": "square", "url": url,
              "intent": {"action": ACTION, "package": PACKAGE, "extras": extras}}
    if token is not None:
        result["identifier"] = sent
        result["token"] = token
    return result


def ios_data(result: dict) -> dict:
    """The decoded `data` JSON of a built iOS URL (what the vectors compare)."""
    import urllib.parse
    assert result["url"].startswith(IOS_SCHEME_URL)
    return json.loads(urllib.parse.unquote(result["url"][len(IOS_SCHEME_URL):]))


# ---------------------------------------------------------------------------------------
# pos.parse_response (iOS: the callback URL)

def parse_response(url: str, options) -> dict:
    options, expected = answer_options(options, ("pos_app", "callback_url", "identifier", "token"),
                                       then=lambda o: check_callback_url(o.get("callback_url")))
    assert check_pos_app(options.get("pos_app")) == "square"
    callback = check_callback_url(options.get("callback_url"))
    pairs = dict(decode_query(answer_query(url, callback), plus_is_space=False, case_insensitive=False))
    if not pairs.get("data"):
        raise Fail("validation", "data")
    data = json_text(pairs["data"], "data")
    if not isinstance(data, dict):
        raise Fail("invalid_json", "data")

    def member(key: str) -> str | None:
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise Fail("invalid_json", key)
        return value or None

    state = member("state")
    if state is None:
        raise Fail("validation", "state")
    if expected is not None and state != expected:
        raise Fail("callback_mismatch", "identifier")
    status = member("status")
    if status is None:
        raise Fail("validation", "status")
    ids = [(k, member(k)) for k in ("transaction_id", "client_transaction_id")]
    code = member("error_code")
    doc: dict = {"version": 1, "pos_app": "square", "identifier": state}
    if status == "ok":
        found = [(k, v) for k, v in ids if v is not None]
        if found:
            doc["result"] = "approved"
            doc["transactionid"] = check_transaction_id(found[0][1], found[0][0])
        else:
            doc["result"] = "unrecognized"  # approved without any transaction id: reconcile
            doc["result_word"] = status
    elif status == "error":
        if code is None:
            doc["result"] = "unrecognized"  # an error without its code: unclear, reconcile
            doc["result_word"] = status
        else:
            doc["result"] = "cancelled" if code == IOS_CANCELED else "error"
    else:
        doc["result"] = "unrecognized"
        doc["result_word"] = status
    if code is not None:  # kept whatever the status (as on Android): what a reconciliation looks up
        doc["error_code"] = code
    return doc


# ---------------------------------------------------------------------------------------
# pos.parse_result (Android: the result extras)

def parse_result(extras, options) -> dict:
    options, expected = answer_options(options, ("pos_app", "identifier", "token", "result_code"), then=check_result_code)
    assert check_pos_app(options.get("pos_app")) == "square"
    check_result_code(options)
    if extras is None:
        no_data_answer("square")  # raises: a null document is no answer (a flow's pos.result reconciles it)
    extras = string_extras(extras)
    known = (R_METADATA, R_CLIENT_ID, R_SERVER_ID, R_ERROR_CODE)
    value = {k: extras.get(k) or None for k in known}
    metadata, code = value[R_METADATA], value[R_ERROR_CODE]
    doc: dict = {"version": 1, "pos_app": "square"}
    if metadata is None:
        # Nothing ties the answer to a sale, ERROR_NO_RESULT (documented without the echo, PosApi.java)
        # and an empty Bundle included: refused naming the echo's key, as Billpocket's answer without
        # `identifier`. For the flow the host names, ERROR_NO_RESULT without the echo or no data at all
        # is `returned_without_response` with reconcile (FlowModel.result).
        raise Fail("validation", R_METADATA)
    if expected is not None and metadata != expected:
        raise Fail("callback_mismatch", "identifier")
    doc["identifier"] = metadata
    if code == ERROR_NO_RESULT:
        doc["result"] = "unrecognized"  # Square could not tell: reconcile
        doc["error_code"] = code
    elif code is not None:
        doc["result"] = "cancelled" if code == ERROR_CANCELED else "error"
        doc["error_code"] = code
    else:
        tx = value[R_SERVER_ID] or value[R_CLIENT_ID]
        if tx is None:
            doc["result"] = "unrecognized"  # success without a transaction id (issue #69): reconcile
        else:
            doc["result"] = "approved"
            doc["transactionid"] = check_transaction_id(tx, R_SERVER_ID if value[R_SERVER_ID] else R_CLIENT_ID)
    extra = public_extra((k, v) for k, v in extras.items() if k not in known)
    if extra:
        doc["extra"] = extra
    return doc


# ---------------------------------------------------------------------------------------
# Case tables

with_ = make_with(deep_copy=True)
TOKEN = "9f86d081884c7d659a2feaa0c55ad015"
CALLBACK = "myapp://square-callback"
SALE = {"pos_app": "square", "client_id": "sq0idp-PayHandoffTest", "identifier": "ord-1", "amount": "100.00",
        "currency": "USD", "callback_url": CALLBACK}
V, J, M, C = "validation", "invalid_json", "malformed_url", "callback_mismatch"


def build_cases() -> Suite:
    s = Suite("pos.build_url", "square-build", lambda i: build_url(i["request"]), detach=True)

    def add(id_, note, request, error=None, check=None, source=SRC_ANDROID):
        s.add(id_, note, {"request": request}, error, check)
        s.vectors[-1]["source"] = source

    def data_is(expected: dict):
        def check(result):
            assert ios_data(result) == expected, (ios_data(result), expected)
        return check

    def extra_is(key, expected):
        def check(result):
            got = [e for e in result["intent"]["extras"] if e["key"] == key]
            assert got == [expected], (got, expected)
        return check

    def lacks_extra(key):
        def check(result):
            assert all(e["key"] != key for e in result["intent"]["extras"]), result["intent"]
        return check

    add("square-build-sale-minimal", "a documented sale: iOS data JSON (amount_money in cents, version 1.3, state) and "
        "the Android CHARGE intent with an int TOTAL_AMOUNT; no token: state and REQUEST_METADATA are the identifier",
        SALE, check=data_is({"amount_money": {"amount": 10000, "currency_code": "USD"}, "callback_url": CALLBACK,
                             "client_id": "sq0idp-PayHandoffTest", "version": "1.3", "sdk_version": IOS_SDK_VERSION,
                             "state": "ord-1"}), source=SRC_IOS_REQUEST)
    add("square-build-sale-token", "with a token the echoed field (iOS state, Android REQUEST_METADATA) is ord-1~<token>; "
        "the result names the sent identifier and the token", with_(SALE, token=TOKEN),
        check=extra_is(R_METADATA, {"key": R_METADATA, "value": "ord-1~" + TOKEN}))
    add("square-build-sale-every-member", "notes, location, customer, every tender type, auto-return and skip_receipt: "
        "iOS options, Android extras in RealPosClient's order with typed TENDER_TYPES (string list) and "
        "AUTO_RETURN_TIMEOUT_MS (long)",
        with_(SALE, notes="Mesa 4 & café", location_id="L1", customer_id="C1",
              tender_types=["card", "cash", "other", "card_on_file"], auto_return_ms=3200, skip_receipt=True, token=TOKEN),
        check=extra_is(NS + "AUTO_RETURN_TIMEOUT_MS", {"key": NS + "AUTO_RETURN_TIMEOUT_MS", "type": "long", "value": 3200}),
        source=SRC_ANDROID_CLIENT)
    add("square-build-tender-card-only", "tender_types [card]: iOS CREDIT_CARD, Android com.squareup.pos.TENDER_CARD",
        with_(SALE, tender_types=["card"]),
        check=extra_is(NS + "TENDER_TYPES", {"key": NS + "TENDER_TYPES", "type": "string_array", "value": [NS + "TENDER_CARD"]}))
    add("square-build-auto-return-zero", "auto_return_ms 0 is Square's 'no timeout': nothing is sent",
        with_(SALE, auto_return_ms=0), check=lacks_extra(NS + "AUTO_RETURN_TIMEOUT_MS"))
    add("square-build-auto-return-max", "auto_return_ms 10000 is Square's longest", with_(SALE, auto_return_ms=10000))
    add("square-build-skip-receipt-false", "skip_receipt false is sent as false (iOS only)", with_(SALE, skip_receipt=False),
        source=SRC_IOS_REQUEST)
    add("square-build-amount-minor-units", "an integer amount is minor units: 1 is one cent, TOTAL_AMOUNT 1",
        with_(SALE, amount=1), check=extra_is(NS + "TOTAL_AMOUNT", {"key": NS + "TOTAL_AMOUNT", "type": "int", "value": 1}))
    add("square-build-amount-int-max", "2,147,483,647 minor units (21474836.47) is the largest int TOTAL_AMOUNT",
        with_(SALE, amount="21474836.47"),
        check=extra_is(NS + "TOTAL_AMOUNT", {"key": NS + "TOTAL_AMOUNT", "type": "int", "value": MAX_INT}))
    add("square-build-amount-whole", "amount text without decimals: 100 is 10000 cents", with_(SALE, amount="100"))
    add("square-build-currency-mxn", "another two-decimal currency (MXN)", with_(SALE, currency="MXN"))
    add("square-build-notes-500-units", "notes of exactly 500 UTF-16 units (PosApi NOTE_MAX_LENGTH)",
        with_(SALE, notes="n" * 500))
    add("square-build-notes-250-emoji", "250 emoji are 500 UTF-16 units: accepted", with_(SALE, notes="🧾" * 250))
    add("square-build-callback-path", "a callback URL with a path", with_(SALE, callback_url="myapp://pos/square/result"))
    add("square-build-identifier-223-with-token", "with a 32-character token the app's part may be 256 - 1 - 32 = 223 units",
        with_(SALE, identifier="i" * 223, token=TOKEN))
    add("square-build-null-optionals", "JSON null counts as absent for optional members",
        with_(SALE, notes=None, location_id=None, customer_id=None, tender_types=None, auto_return_ms=None,
              skip_receipt=None, token=None))

    # -- errors
    add("square-build-amount-int-max-plus-one", "2,147,483,648 minor units does not fit Android's int TOTAL_AMOUNT",
        with_(SALE, amount="21474836.48"), (V, "amount"))
    add("square-build-amount-int-max-plus-one-integer", "the same as integer minor units", with_(SALE, amount=MAX_INT + 1),
        (V, "amount"))
    add("square-build-amount-zero", "a sale of 0: PayHandoff's amounts are above zero (Square's iOS SDK itself refuses "
        "only negative amounts)", with_(SALE, amount="0.00"), (V, "amount"), source=SRC_SPEC)
    add("square-build-amount-three-decimals", "amount text with three decimals is never rounded", with_(SALE, amount="1.005"),
        (V, "amount"))
    add("square-build-amount-missing", "amount is required", with_(SALE, amount=DROP), (V, "amount"))
    add("square-build-amount-boolean", "amount of the wrong JSON type", with_(SALE, amount=True), (J, "amount"))
    add("square-build-client-id-missing", "client_id (Square's application id) is required", with_(SALE, client_id=DROP),
        (V, "client_id"))
    add("square-build-client-id-empty", "client_id must not be empty", with_(SALE, client_id=""), (V, "client_id"))
    add("square-build-client-id-number", "client_id of the wrong JSON type", with_(SALE, client_id=7), (J, "client_id"))
    add("square-build-identifier-missing", "identifier is required", with_(SALE, identifier=DROP), (V, "identifier"))
    add("square-build-identifier-224-with-token", "with a 32-character token an app part of 224 units does not fit",
        with_(SALE, identifier="i" * 224, token=TOKEN), (V, "identifier"))
    add("square-build-identifier-257", "identifier over 256 UTF-16 units", with_(SALE, identifier="i" * 257), (V, "identifier"))
    add("square-build-identifier-nul", "U+0000 in the identifier", with_(SALE, identifier="ord\x001"), (V, "identifier"))
    add("square-build-currency-missing", "Square needs currency_code: currency is required", with_(SALE, currency=DROP),
        (V, "currency"), source=SRC_SPEC)
    for code, why in (("JPY", "0 decimals"), ("KRW", "0 decimals"), ("BHD", "3 decimals"), ("KWD", "3 decimals"),
                      ("CLF", "4 decimals"), ("XAU", "no minor unit")):
        add(f"square-build-currency-{code.lower()}", f"{code} has {why} (ISO 4217): PayHandoff's amounts are two-decimal "
            "minor units, refused", with_(SALE, currency=code), (V, "currency"), source=SRC_SPEC)
    for slug, bad in (("lowercase", "usd"), ("two-letters", "US"), ("four-letters", "USDX"), ("digits", "840")):
        add(f"square-build-currency-{slug}", f"currency '{bad}' is not three uppercase ASCII letters",
            with_(SALE, currency=bad), (V, "currency"), source=SRC_SPEC)
    add("square-build-currency-number", "currency of the wrong JSON type", with_(SALE, currency=840), (J, "currency"))
    add("square-build-callback-missing", "callback_url (the iOS answer URL) is required", with_(SALE, callback_url=DROP),
        (V, "callback_url"), source=SRC_IOS_REQUEST)
    for slug, bad, why in (("no-scheme", "square-callback", "no scheme"), ("query", CALLBACK + "?x=1", "a query (the answer "
                           "appends ?data=)"), ("fragment", CALLBACK + "#x", "a fragment"), ("space", "my app://x", "a space"),
                           ("empty-rest", "myapp:", "nothing after the scheme")):
        add(f"square-build-callback-{slug}", f"callback_url with {why}", with_(SALE, callback_url=bad), (V, "callback_url"))
    add("square-build-notes-501-units", "notes over 500 UTF-16 units (PosApi NOTE_MAX_LENGTH)", with_(SALE, notes="n" * 501),
        (V, "notes"))
    add("square-build-tender-unknown", "a tender type Square does not take", with_(SALE, tender_types=["gift_card"]),
        (V, "tender_types"))
    add("square-build-tender-empty", "an empty tender list leaves nothing to pay with", with_(SALE, tender_types=[]),
        (V, "tender_types"))
    add("square-build-tender-twice", "a tender type named twice", with_(SALE, tender_types=["card", "card"]), (V, "tender_types"))
    add("square-build-tender-not-list", "tender_types must be an array of strings", with_(SALE, tender_types="card"),
        (J, "tender_types"))
    add("square-build-tender-number-item", "tender_types items must be strings", with_(SALE, tender_types=["card", 1]),
        (J, "tender_types"))
    for ms in (1, 3199, 10001):
        add(f"square-build-auto-return-{ms}", f"auto_return_ms {ms}: 0 or 3,200 to 10,000 (PosApi.java)",
            with_(SALE, auto_return_ms=ms), (V, "auto_return_ms"))
    add("square-build-auto-return-text", "auto_return_ms must be a JSON integer", with_(SALE, auto_return_ms="3200"),
        (J, "auto_return_ms"))
    add("square-build-skip-receipt-text", "skip_receipt must be a JSON boolean", with_(SALE, skip_receipt="true"),
        (J, "skip_receipt"))
    add("square-build-refund-request", "Square has no app-to-app refund: a refund request (transaction devolucion) is refused "
        "naming transaction", with_(SALE, transaction="devolucion"), (V, "transaction"),
        source=SRC_SPEC)
    add("square-build-billpocket-member", "a Billpocket member (usertoken) on a Square request is refused",
        with_(SALE, usertoken="tok"), (V, "usertoken"))
    add("square-build-urlscheme", "Billpocket's urlScheme is not a Square member (Square answers to callback_url)",
        with_(SALE, urlScheme="myapp"), (V, "urlScheme"))
    add("square-build-token-fresh-identifier-224", "token true (a fresh 32-character token) leaves 223 units for the app's part",
        with_(SALE, identifier="i" * 224, token=True), (V, "identifier"), source=SRC_SPEC)
    add("square-build-token-tilde", "the token follows the POS token rule: no '~'", with_(SALE, token="Ab-9.x_Y~z012345"),
        (V, "token"))
    return s


def _data_url(data: dict, callback: str = CALLBACK) -> str:
    return callback + "?data=" + percent_encode(json.dumps(data, separators=(",", ":")))


def parse_cases() -> Suite:
    s = Suite("pos.parse_response", "square-parse", lambda i: parse_response(i["url"], i["options"]), detach=True)
    opts = {"pos_app": "square", "callback_url": CALLBACK, "identifier": "ord-1", "token": TOKEN}
    sent = "ord-1~" + TOKEN

    def add(id_, note, url, options=opts, error=None, source=SRC_IOS_RESPONSE):
        s.add(id_, note, {"url": url, "options": options}, error)
        s.vectors[-1]["source"] = source

    ok = {"status": "ok", "transaction_id": "TX-SQ-1", "client_transaction_id": "CL-1", "state": sent}
    add("square-parse-ok", "the documented success: status ok, transaction_id is the transaction id, state echoes "
        "ord-1~<token>", _data_url(ok))
    add("square-parse-ok-client-id-only", "ok with only client_transaction_id (offline payments have no server id yet)",
        _data_url(with_(ok, transaction_id=DROP)))
    add("square-parse-ok-no-ids", "ok without any transaction id: unrecognized (reconcile), never approved",
        _data_url(with_(ok, transaction_id=DROP, client_transaction_id=DROP)))
    add("square-parse-cancelled", "error payment_canceled: the merchant cancelled in Square, nothing charged: cancelled",
        _data_url({"status": "error", "error_code": "payment_canceled", "state": sent}), source=SRC_IOS_ERRORS)
    add("square-parse-could-not-perform", "error could_not_perform (a previous transaction not completed): error",
        _data_url({"status": "error", "error_code": "could_not_perform", "state": sent}), source=SRC_IOS_ERRORS)
    add("square-parse-error-without-code", "error without error_code: unclear, unrecognized (reconcile)",
        _data_url({"status": "error", "state": sent}))
    add("square-parse-unknown-status", "a status word Square does not document is never an approval: unrecognized",
        _data_url(with_(ok, status="pending")))
    add("square-parse-status-case", "status is matched exactly: 'OK' is not 'ok' (unrecognized)", _data_url(with_(ok, status="OK")))
    add("square-parse-scheme-case", "the callback's scheme is compared ignoring case",
        _data_url(ok, "MyApp://square-callback"))
    add("square-parse-extra-members", "unknown data members are ignored", _data_url(with_(ok, tender_ids=["T1"], x=1)))
    add("square-parse-no-expected-identifier", "without options.identifier any state is accepted",
        _data_url(with_(ok, state="anything")), {"pos_app": "square", "callback_url": CALLBACK})

    add("square-parse-forged-no-token", "a forged answer: state is the app's reference without the token (anyone can "
        "send it)", _data_url(with_(ok, state="ord-1")), error=(C, "identifier"))
    add("square-parse-other-token", "state with another token", _data_url(with_(ok, state="ord-1~" + "0" * 32)),
        error=(C, "identifier"))
    add("square-parse-no-state", "an answer without state cannot be tied to a sale", _data_url(with_(ok, state=DROP)),
        error=(V, "state"))
    add("square-parse-state-number", "state of the wrong JSON type", _data_url(with_(ok, state=1)), error=(J, "state"))
    add("square-parse-no-status", "status is required", _data_url(with_(ok, status=DROP)), error=(V, "status"))
    add("square-parse-transaction-id-space", "a transaction id with a space breaks the ledger's id rule",
        _data_url(with_(ok, transaction_id="TX 1")), error=(V, "transaction_id"))
    add("square-parse-no-data", "the callback without data", CALLBACK + "?state=" + sent, error=(V, "data"))
    add("square-parse-data-not-json", "data that is not JSON", CALLBACK + "?data=%7Bstatus", error=(J, "data"))
    add("square-parse-data-array", "data that is a JSON array", CALLBACK + "?data=%5B%5D", error=(J, "data"))
    add("square-parse-other-callback", "an answer on the callback's scheme but another address: tied to the sale by the "
        "echoed state (scheme rule, as Billpocket's)", _data_url(ok, "myapp://other"))
    add("square-parse-other-scheme", "an answer on another scheme", _data_url(ok, "otherapp://square-callback"),
        error=(C, "scheme"))
    add("square-parse-square-request-segment", "the SDK's rewritten address (square_request as last segment) is read: "
        "the address is not what ties it to the sale", _data_url(ok, CALLBACK + "/square_request"),
        source="square/SquarePointOfSaleSDK-iOS Sources/SCAPIURLConversion.m@3adf7c66a768730a88a0465de0b83e49d77aa102")
    add("square-parse-duplicate-data", "data twice", _data_url(ok) + "&data=%7B%7D", error=(M, "data"))
    pad = CALLBACK + "?data=" + percent_encode(json.dumps(ok, separators=(",", ":"))) + "&pad="
    add("square-parse-url-8192-bytes", "an answer of exactly 8192 bytes (the POS answer limit) is read",
        pad + "x" * (8192 - len(pad)), source=SRC_SPEC)
    add("square-parse-url-8193-bytes", "an answer over 8192 bytes", pad + "x" * (8193 - len(pad)), error=("limit_exceeded", "url"),
        source=SRC_SPEC)
    add("square-parse-raw-space", "a raw space in the answer", _data_url(ok) + "&x=a b", error=(M, "url"))
    add("square-parse-fragment", "a raw '#' in the answer", _data_url(ok) + "#x", error=(M, "url"))
    add("square-parse-options-no-callback", "options.callback_url is required for Square",
        _data_url(ok), {"pos_app": "square", "identifier": "ord-1", "token": TOKEN}, (V, "callback_url"), SRC_SPEC)
    add("square-parse-options-urlscheme", "Billpocket's urlScheme is not a Square option",
        _data_url(ok), with_(opts, urlScheme="myapp"), (V, "urlScheme"), SRC_SPEC)
    return s


def result_cases() -> Suite:
    s = Suite("pos.parse_result", "square-result", lambda i: parse_result(i["extras"], i["options"]), detach=True)
    opts = {"pos_app": "square", "identifier": "ord-1", "token": TOKEN}
    sent = "ord-1~" + TOKEN
    ok = {R_CLIENT_ID: "CL-1", R_SERVER_ID: "TX-SQ-1", R_METADATA: sent}

    def add(id_, note, extras, options=opts, error=None, source=SRC_ANDROID):
        s.add(id_, note, {"extras": extras, "options": options}, error)
        s.vectors[-1]["source"] = source

    add("square-result-ok", "RESULT_OK extras: SERVER_TRANSACTION_ID is the transaction id, REQUEST_METADATA echoes "
        "ord-1~<token>", ok)
    add("square-result-secrets-dropped", "an echoed user token, PIN or affiliate key (any case) is a secret in every "
        "app's answer: dropped, never kept in extra; another extra is kept",
        with_(ok, **{"PIN": "0427", "userToken": "tok-secret", "Affiliate-Key": "k-secret", "com.example.NOTE": "kept"}),
        source="docs/security.md (secrets never printed or stored); Billpocket's result-android-pin-dropped")
    add("square-result-ok-client-id-only", "success with CLIENT_TRANSACTION_ID only", with_(ok, **{R_SERVER_ID: DROP}))
    add("square-result-ok-no-ids", "success without any transaction id (point-of-sale-android-sdk #69): unrecognized "
        "(reconcile)", with_(ok, **{R_SERVER_ID: DROP, R_CLIENT_ID: DROP}))
    add("square-result-cancelled", "ERROR_TRANSACTION_CANCELED: cancelled, nothing charged",
        {R_ERROR_CODE: ERROR_CANCELED, R_ERROR_DESCRIPTION: "The transaction was canceled.", R_METADATA: sent})
    add("square-result-no-employee", "ERROR_NO_EMPLOYEE_LOGGED_IN: error",
        {R_ERROR_CODE: NS + "ERROR_NO_EMPLOYEE_LOGGED_IN", R_METADATA: sent})
    add("square-result-unsupported-api-version", "com.squareup.pos.UNSUPPORTED_API_VERSION (the one code without ERROR_): error",
        {R_ERROR_CODE: NS + "UNSUPPORTED_API_VERSION", R_METADATA: sent})
    add("square-result-no-result", "ERROR_NO_RESULT comes without REQUEST_METADATA (documented): nothing ties it to a sale, "
        "refused naming the echo (a flow's pos.result makes it returned_without_response, reconcile)",
        {R_ERROR_CODE: ERROR_NO_RESULT}, error=(V, R_METADATA))
    add("square-result-no-data", "no data at all (extras null: Square crashed or was uninstalled): no answer to read, "
        "invalid_json as Billpocket's (a flow's pos.result reconciles it)", None, error=(J, ANY_FIELD))
    add("square-result-empty-extras", "an empty Bundle has no echo", {}, error=(V, R_METADATA))
    add("square-result-unknown-key-kept", "unknown extras are kept in extra", with_(ok, **{"com.squareup.pos.X": "1"}))
    add("square-result-ok-result-ok", "options.result_code -1 (RESULT_OK) beside the success extras", ok,
        with_(opts, result_code=-1))
    add("square-result-cancelled-result-canceled", "options.result_code 0 (RESULT_CANCELED) beside ERROR_TRANSACTION_CANCELED",
        {R_ERROR_CODE: ERROR_CANCELED, R_METADATA: sent}, with_(opts, result_code=0))
    add("square-result-no-data-result-canceled", "no data under RESULT_CANCELED (the user backed out, or Square crashed): "
        "invalid_json, result_code read first", None, with_(opts, result_code=0), error=(J, ANY_FIELD))
    add("square-result-result-code-text", "options.result_code must be a JSON integer", ok, with_(opts, result_code="-1"),
        error=(J, "result_code"), source=SRC_SPEC)
    add("square-result-forged", "REQUEST_METADATA without the token", with_(ok, **{R_METADATA: "ord-1"}), error=(C, "identifier"))
    add("square-result-cancelled-forged", "even a cancellation must echo the token", {R_ERROR_CODE: ERROR_CANCELED,
        R_METADATA: "ord-1"}, error=(C, "identifier"))
    add("square-result-no-metadata", "a success without REQUEST_METADATA", with_(ok, **{R_METADATA: DROP}),
        error=(V, R_METADATA))
    add("square-result-value-number", "extras values are strings", with_(ok, **{R_SERVER_ID: 12}), error=(J, R_SERVER_ID))
    add("square-result-extras-array", "extras must be an object", [sent], error=(J, None))
    add("square-result-nul", "U+0000 in a value", with_(ok, **{R_SERVER_ID: "TX\x00"}), error=(V, R_SERVER_ID))
    add("square-result-server-id-long", "a transaction id of 129 characters breaks the ledger's id rule",
        with_(ok, **{R_SERVER_ID: "T" * 129}), error=(V, R_SERVER_ID))
    add("square-result-options-unknown", "options.urlScheme is not a parse_result option", ok, with_(opts, urlScheme="x"),
        (V, "urlScheme"), SRC_SPEC)
    return s
