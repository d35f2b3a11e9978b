"""The Clip terminal (PinPad SDK) oracle (issue 39): requests and answers as Clip's SDK writes them.

Imported by pos_apps_vectors.py (which writes the files); Python 3.11, standard library only,
nothing here runs or imports PayHandoff. Written from these sources (cited in each vector's
`source`), all in ClipMX/mobile.android.blaze.pinpad.sdk:

- request: `pinpad-sdk/src/main/java/com/payclip/blaze/pinpad/sdk/ui/intent/system/SystemClipIntentProvider.kt`
  (commit 036ed4fc4817): `Intent(ACTION_MAIN)` with the component `com.payclip.blaze.pinpad` /
  `com.payclip.blaze.pinpad.shared.ui.MainActivity` (that commit's package is `….qa`; an older one
  named `….views.MainActivity`: the component is overridable), extras `PAYMENT_REFERENCE`,
  `PAYMENT_AMOUNT` (String, `Double.toString()`), `PAYMENT_TIP_AMOUNT`, `PAYMENT_AUTO_RETURN`,
  `PAYMENT_RETRY`, `PAYMENT_SHARE` (Boolean); `…/domain/usecases/payment/CreatePaymentUseCase.kt`
  (commit f38e601a31a7): a blank reference and an amount of exactly 0.0 are refused. `CLIP_LOGIN_CREDENTIALS` is a Parcelable: PayHandoff
  never takes it (the host adds it to the intent itself).
- answer: `…/ui/activity/result/ActivityClipResultManager.kt` (commit 0dc7cef10acc): always
  `RESULT_OK`; extra `PAYMENT_RESPONSE` = JSON of `PaymentResult` (`reference`, `status`, `amount`,
  `tipAmount`, `receiptNumber`, `wasSessionReplaced`), status `approved` or `error`; on error the
  extra `PAYMENT_ERROR` (default `UNKNOWN_ERROR`). Success is status exactly `approved`.

Amounts: sent as the core's decimal text (`100.00`, never exponent form), at most 15 significant
digits counted to the cent (999,999,999,999,999 minor units: what a Java double carries exactly to
the cent). Read back from Clip's answer in the forms `Double.toString()` writes (`100.0`, `1.0E7`)
and plain decimal text, exactly (integer arithmetic); a value that is not a whole number of cents
(`0.30000000000000004`) is unreadable, and an approval without a readable amount is `unrecognized`.

Decisions where the documents and the spec are silent (docs/rules.md, note h39vec): the booleans
are sent only when the request gives them; `identifier` must not be blank (Clip's reference must
be non-blank); a `PAYMENT_ERROR` without `PAYMENT_RESPONSE`, or a response without `reference`
beside a `PAYMENT_ERROR`, is `error` without an identifier (never approved); status `error` with
`UNKNOWN_ERROR` or no code, and any other status word, are `unrecognized` (reconcile); JSON members
that are not strings are invalid_json naming `PAYMENT_RESPONSE.<member>`.
"""

from __future__ import annotations

import json
import re

from vectorlib import (
    ANY_FIELD, DROP, FRESH_POS_TOKEN, Fail, PosRequest, Suite, answer_options, amount_from_json, check_currency, check_pos_app,
    check_result_code, check_transaction_id, json_text, public_extra, format_amount, make_with, no_data_answer, sent_pos_identifier, string_extras,
    utf16_units,
)

SDK = "ClipMX/mobile.android.blaze.pinpad.sdk pinpad-sdk/src/main/java/com/payclip/blaze/pinpad/sdk/"
SRC_REQUEST = SDK + "ui/intent/system/SystemClipIntentProvider.kt@036ed4fc48177e6db694a7f960c0768e3f14fd14"
SRC_ANSWER = SDK + "ui/activity/result/ActivityClipResultManager.kt@0dc7cef10acc1b399c7ea8391ef9d95a03dcc864"
SRC_SPEC = "PayHandoff issue 39 spec (/work/notes/39-spec.md): shapes and decisions"
SRC_CREATE = SDK + "domain/usecases/payment/CreatePaymentUseCase.kt@f38e601a31a7702d3cbc3dc0ffdbca0ede47795f"
SRC_DOUBLE = "java.lang.Double.toString (JDK API documentation): 10^7 and above are written as 1.0E7"

MAIN = "android.intent.action.MAIN"
COMPONENT = "com.payclip.blaze.pinpad/com.payclip.blaze.pinpad.shared.ui.MainActivity"
COMPONENT_TEXT = re.compile(r"[A-Za-z0-9_.$]+/[A-Za-z0-9_.$]+")
MAX_UNITS = 999_999_999_999_999  # 15 significant digits to the cent
MAX_IDENTIFIER_UNITS = 256
REQUEST_KEYS = ("pos_app", "identifier", "amount", "tip", "auto_return", "retry", "share", "component", "currency", "token")
RESPONSE, ERROR = "PAYMENT_RESPONSE", "PAYMENT_ERROR"


def build_url(request) -> dict:
    r = PosRequest(request, REQUEST_KEYS)
    assert check_pos_app(r.get("pos_app")) == "clip"
    identifier = r.text("identifier", True, MAX_IDENTIFIER_UNITS)
    if identifier.isspace():
        raise Fail("validation", "identifier")  # Clip's reference must not be blank
    amount = r.amount("amount", True)
    if amount > MAX_UNITS:
        raise Fail("validation", "amount")
    tip = amount_from_json(r.get("tip"), "tip")
    if tip is not None and tip > MAX_UNITS:
        raise Fail("validation", "tip")
    if r.get("currency") is not None and check_currency(r.get("currency")) != "MXN":
        raise Fail("validation", "currency")  # Clip charges in MXN only
    flags = [(key, r.boolean(key)) for key in ("auto_return", "retry", "share")]
    component = r.string("component", False)
    if component is not None and not COMPONENT_TEXT.fullmatch(component):
        raise Fail("validation", "component")
    token = r.token()
    sent = sent_pos_identifier(identifier, token)
    if utf16_units(sent) > MAX_IDENTIFIER_UNITS:
        raise Fail("validation", "identifier")
    assert token is not FRESH_POS_TOKEN, "an ok vector cannot know a fresh token"
    extras = [{"key": "PAYMENT_REFERENCE", "value": sent}, {"key": "PAYMENT_AMOUNT", "value": format_amount(amount)}]
    if tip is not None:
        extras.append({"key": "PAYMENT_TIP_AMOUNT", "value": format_amount(tip)})
    for key, value in flags:
        if value is not None:
            extras.append({"key": "PAYMENT_" + key.upper(), "type": "bool", "value": value})
    result = {"version": 1, "pos_app": "clip", "intent": {"action": MAIN, "component": component or COMPONENT, "extras": extras}}
    if token is not None:
        result["identifier"] = sent
        result["token"] = token
    return result


CLIP_AMOUNT = re.compile(r"([0-9]+)(?:\.([0-9]+))?(?:E(-?[0-9]{1,3}))?")


def read_amount(text: str | None) -> int | None:
    """Minor units of an amount Clip wrote (`100.0`, `1.0E7`, `100.00`), exactly; None when absent,
    not in these forms, not a whole number of cents, or above 15 significant digits."""
    if text is None:
        return None
    match = CLIP_AMOUNT.fullmatch(text)
    if not match:
        return None
    whole, fraction, exponent = match.group(1), match.group(2) or "", int(match.group(3) or 0)
    mantissa = int(whole + fraction)
    shift = exponent - len(fraction) + 2  # minor units = mantissa * 10^shift
    if shift >= 0:
        units = mantissa * 10 ** shift
    elif mantissa % 10 ** -shift == 0:
        units = mantissa // 10 ** -shift
    else:
        return None
    return units if units <= MAX_UNITS else None


def parse_result(extras, options) -> dict:
    options, expected = answer_options(options, ("pos_app", "identifier", "token", "result_code"), then=check_result_code)
    assert check_pos_app(options.get("pos_app")) == "clip"
    check_result_code(options)
    if extras is None:
        no_data_answer("clip")  # raises: a null document is no answer (a flow's pos.result reconciles it)
    extras = string_extras(extras)
    code = extras.get(ERROR) or None
    text = extras.get(RESPONSE) or None
    extra = public_extra((k, v) for k, v in extras.items() if k not in (RESPONSE, ERROR))
    doc: dict = {"version": 1, "pos_app": "clip"}

    def finish(d):
        if extra:
            d["extra"] = extra
        return d

    # A PAYMENT_ERROR may come without the reference: nothing ties it to a sale, so it is refused
    # naming the missing echo (never approved, moves no flow); the flow the host started waits and
    # ends in reconcile (foreground + grace), as every answer without the echo does.
    if text is None:
        raise Fail("validation", RESPONSE)
    response = json_text(text, RESPONSE)
    if not isinstance(response, dict):
        raise Fail("invalid_json", RESPONSE)

    def member(key: str) -> str | None:
        value = response.get(key)
        if value is not None and not isinstance(value, str):
            raise Fail("invalid_json", RESPONSE + "." + key)
        return value or None

    reference, status = member("reference"), member("status")
    amount_text, tip_text, receipt = member("amount"), member("tipAmount"), member("receiptNumber")
    if reference is None:
        raise Fail("validation", RESPONSE + ".reference")
    if expected is not None and reference != expected:
        raise Fail("callback_mismatch", "identifier")
    if status is None:
        raise Fail("validation", RESPONSE + ".status")
    amount, tip = read_amount(amount_text), read_amount(tip_text)
    if status == "approved":
        result = "approved" if amount is not None else "unrecognized"  # no amount to match: reconcile
    elif status == "error":
        result = "cancelled" if code == "CANCELLED" else "unrecognized" if code in (None, "UNKNOWN_ERROR") else "error"
    else:
        result = "unrecognized"  # Clip's README words (APPROVED, REJECTED, …) are not what its SDK writes
    doc["result"] = result
    doc["identifier"] = reference
    if result == "unrecognized":
        doc["result_word"] = status
    if amount is not None:
        doc["amount"] = format_amount(amount)
    if tip is not None:
        doc["tip"] = format_amount(tip)
    if receipt is not None:
        doc["transactionid"] = check_transaction_id(receipt, RESPONSE + ".receiptNumber")
    if code is not None:
        doc["error_code"] = code
    return finish(doc)


# ---------------------------------------------------------------------------------------
# Case tables

with_ = make_with(deep_copy=True)
TOKEN = "9f86d081884c7d659a2feaa0c55ad015"
SALE = {"pos_app": "clip", "identifier": "ord-1", "amount": "100.00"}
V, J, C = "validation", "invalid_json", "callback_mismatch"


def build_cases() -> Suite:
    s = Suite("pos.build_url", "clip-build", lambda i: build_url(i["request"]), detach=True)

    def add(id_, note, request, error=None, check=None, source=SRC_REQUEST):
        s.add(id_, note, {"request": request}, error, check)
        s.vectors[-1]["source"] = source

    def amount_is(text):
        def check(result):
            assert result["intent"]["extras"][1] == {"key": "PAYMENT_AMOUNT", "value": text}, result["intent"]
        return check

    add("clip-build-sale-minimal", "a documented sale: ACTION_MAIN to Clip's component, PAYMENT_REFERENCE and PAYMENT_AMOUNT "
        "as text; no URL (Clip has no iOS and no URL answer)", SALE, check=amount_is("100.00"))
    add("clip-build-sale-token", "with a token PAYMENT_REFERENCE is ord-1~<token> (Clip echoes it as reference)",
        with_(SALE, token=TOKEN))
    add("clip-build-sale-every-member", "tip, the three booleans (typed bool extras) and MXN", with_(
        SALE, tip="15.00", auto_return=True, retry=False, share=True, currency="MXN", token=TOKEN))
    add("clip-build-component", "another component (Clip's package and activity have changed between SDK versions)",
        with_(SALE, component="com.payclip.blaze.pinpad/com.payclip.blaze.pinpad.views.MainActivity"))
    add("clip-build-amount-ten-million", "10,000,000.00: decimal text, never Java's 1.0E7", with_(SALE, amount="10000000"),
        check=amount_is("10000000.00"), source=SRC_DOUBLE)
    add("clip-build-amount-15-digits", "9999999999999.99 has 15 significant digits: the largest amount a double carries to the cent",
        with_(SALE, amount="9999999999999.99"), check=amount_is("9999999999999.99"), source=SRC_SPEC)
    add("clip-build-amount-one-cent", "0.01 (Clip refuses only exactly 0)", with_(SALE, amount=1), check=amount_is("0.01"))
    add("clip-build-tip-zero", "a tip of 0", with_(SALE, tip=0))

    add("clip-build-amount-16-digits", "10000000000000.00 is 16 significant digits to the cent: refused", with_(
        SALE, amount="10000000000000.00"), (V, "amount"), source=SRC_SPEC)
    add("clip-build-amount-16-digits-integer", "10^15 minor units", with_(SALE, amount=10 ** 15), (V, "amount"), source=SRC_SPEC)
    add("clip-build-tip-16-digits", "a tip of 16 significant digits", with_(SALE, tip=10 ** 15), (V, "tip"), source=SRC_SPEC)
    add("clip-build-amount-zero", "a sale of 0 (Clip's SDK refuses exactly 0.0)", with_(SALE, amount="0"), (V, "amount"),
        source=SRC_CREATE)
    add("clip-build-amount-exponent", "exponent text is refused (never sent, never read from a request)",
        with_(SALE, amount="1.0E7"), (V, "amount"))
    add("clip-build-tip-negative", "a negative tip", with_(SALE, tip="-1.00"), (V, "tip"))
    add("clip-build-identifier-blank", "Clip's reference must not be blank", with_(SALE, identifier="   "), (V, "identifier"),
        source=SRC_CREATE)
    add("clip-build-identifier-missing", "identifier is required", with_(SALE, identifier=DROP), (V, "identifier"))
    add("clip-build-identifier-224-with-token", "with a 32-character token the app's part may be 223 units",
        with_(SALE, identifier="i" * 224, token=TOKEN), (V, "identifier"), source=SRC_SPEC)
    add("clip-build-token-false", "token is a string or true; false is refused", with_(SALE, token=False), (V, "token"),
        source=SRC_SPEC)
    add("clip-build-currency-usd", "Clip charges in MXN only", with_(SALE, currency="USD"), (V, "currency"), source=SRC_SPEC)
    add("clip-build-currency-jpy", "a zero-decimal currency", with_(SALE, currency="JPY"), (V, "currency"), source=SRC_SPEC)
    add("clip-build-currency-lowercase", "'mxn' is not three uppercase letters", with_(SALE, currency="mxn"), (V, "currency"))
    add("clip-build-auto-return-text", "booleans are JSON booleans", with_(SALE, auto_return="true"), (J, "auto_return"))
    add("clip-build-component-no-slash", "component is package/class", with_(SALE, component="com.payclip.blaze.pinpad"),
        (V, "component"))
    add("clip-build-component-number", "component of the wrong JSON type", with_(SALE, component=1), (J, "component"))
    add("clip-build-login-credentials", "CLIP_LOGIN_CREDENTIALS is a Parcelable the host adds itself: not a request member",
        with_(SALE, login_credentials={"user": "a", "password": "b"}), (V, "login_credentials"), source=SRC_SPEC)
    add("clip-build-callback-url", "Clip answers by activity result only: callback_url is not a member",
        with_(SALE, callback_url="myapp://clip"), (V, "callback_url"), source=SRC_SPEC)
    add("clip-build-refund-request", "Clip's SDK has no refund: a refund request is refused naming transaction",
        with_(SALE, transaction="devolucion"), (V, "transaction"), source=SRC_SPEC)
    return s


def _response(**members) -> str:
    return json.dumps(members, separators=(",", ":"))


def result_cases() -> Suite:
    s = Suite("pos.parse_result", "clip-result", lambda i: parse_result(i["extras"], i["options"]), detach=True)
    opts = {"pos_app": "clip", "identifier": "ord-1", "token": TOKEN}
    sent = "ord-1~" + TOKEN
    approved = {RESPONSE: _response(reference=sent, status="approved", amount="100.0", receiptNumber="R-77",
                                    wasSessionReplaced=False)}

    def add(id_, note, extras, options=opts, error=None, source=SRC_ANSWER):
        s.add(id_, note, {"extras": extras, "options": options}, error)
        s.vectors[-1]["source"] = source

    def error_extras(code, **members):
        fields = {"reference": sent, "status": "error", "amount": "100.0", **members}
        out = {RESPONSE: _response(**fields)}
        if code is not None:
            out[ERROR] = code
        return out

    add("clip-result-approved", "the documented success: status approved, amount as Double.toString() writes it (100.0), "
        "receiptNumber is the transaction id", approved)
    add("clip-result-approved-ten-million", "an amount Clip writes as 1.0E7 reads exactly as 10000000.00",
        {RESPONSE: _response(reference=sent, status="approved", amount="1.0E7", receiptNumber="R-78")}, source=SRC_DOUBLE)
    add("clip-result-approved-tip", "tipAmount read as the tip", {RESPONSE: _response(
        reference=sent, status="approved", amount="100.0", tipAmount="15.5", receiptNumber="R-79")})
    add("clip-result-approved-float-noise", "0.30000000000000004 is not a whole number of cents: no readable amount, so "
        "unrecognized (reconcile), never approved", {RESPONSE: _response(reference=sent, status="approved",
                                                                          amount="0.30000000000000004")}, source=SRC_DOUBLE)
    add("clip-result-approved-no-amount", "approved without an amount: nothing to match, unrecognized",
        {RESPONSE: _response(reference=sent, status="approved", receiptNumber="R-80")}, source=SRC_SPEC)
    add("clip-result-cancelled", "RESULT_OK with status error and PAYMENT_ERROR CANCELLED: cancelled", error_extras("CANCELLED"),
        source=SRC_SPEC)
    add("clip-result-terminal-error", "PAYMENT_ERROR TERMINAL_ERROR under RESULT_OK: error, never approved",
        error_extras("TERMINAL_ERROR"))
    add("clip-result-no-connection", "PAYMENT_ERROR NO_CONNECTION: error", error_extras("NO_CONNECTION"))
    add("clip-result-unknown-error", "PAYMENT_ERROR UNKNOWN_ERROR: unclear, unrecognized (reconcile)", error_extras("UNKNOWN_ERROR"),
        source=SRC_SPEC)
    add("clip-result-error-no-code", "status error without PAYMENT_ERROR is the SDK's UNKNOWN_ERROR: unrecognized",
        error_extras(None))
    add("clip-result-status-uppercase", "APPROVED (the README's word) is not what the SDK writes: unrecognized, never approved",
        {RESPONSE: _response(reference=sent, status="APPROVED", amount="100.0")})
    add("clip-result-status-pending", "another status word: unrecognized", {RESPONSE: _response(
        reference=sent, status="PENDING", amount="100.0")})
    add("clip-result-error-without-response", "a PAYMENT_ERROR without PAYMENT_RESPONSE carries no reference: refused "
        "naming PAYMENT_RESPONSE (never approved, moves no flow)", {ERROR: "TERMINAL_ERROR"}, error=(V, RESPONSE),
        source=SRC_SPEC)
    add("clip-result-error-without-reference", "a PAYMENT_ERROR beside a response without reference: refused naming "
        "the reference", {RESPONSE: _response(status="error"), ERROR: "CANCELLED"}, error=(V, RESPONSE + ".reference"),
        source=SRC_SPEC)
    add("clip-result-no-data", "no data (extras null): no answer to read, invalid_json as Billpocket's (a flow's "
        "pos.result reconciles it)", None, error=(J, ANY_FIELD), source=SRC_SPEC)
    add("clip-result-empty-extras", "an empty Bundle has no PAYMENT_RESPONSE", {}, error=(V, RESPONSE), source=SRC_SPEC)
    add("clip-result-unknown-extra", "another extra is kept in extra", with_(approved, CLIP_SESSION="s1"))

    add("clip-result-approved-result-ok", "options.result_code -1 (RESULT_OK, what Clip always returns): the extras decide",
        approved, with_(opts, result_code=-1))
    add("clip-result-error-result-ok", "TERMINAL_ERROR under RESULT_OK is still an error (Clip returns errors as RESULT_OK)",
        error_extras("TERMINAL_ERROR"), with_(opts, result_code=-1))
    add("clip-result-result-code-bool", "options.result_code must be a JSON integer", approved, with_(opts, result_code=True),
        error=(J, "result_code"), source=SRC_SPEC)
    add("clip-result-forged", "reference without the token", {RESPONSE: _response(reference="ord-1", status="approved",
                                                                                  amount="100.0")}, error=(C, "identifier"))
    add("clip-result-approved-without-reference", "an approval without reference (and no PAYMENT_ERROR) cannot be tied to the sale",
        {RESPONSE: _response(status="approved", amount="100.0")}, error=(V, RESPONSE + ".reference"))
    add("clip-result-response-not-json", "PAYMENT_RESPONSE that is not JSON", {RESPONSE: "{reference"}, error=(J, RESPONSE))
    add("clip-result-response-array", "PAYMENT_RESPONSE that is a JSON array", {RESPONSE: "[]"}, error=(J, RESPONSE))
    add("clip-result-amount-number", "amount as a JSON number (Gson writes a String)", {RESPONSE: _response(
        reference=sent, status="approved", amount=100.0)}, error=(J, RESPONSE + ".amount"))
    add("clip-result-no-status", "status is required", {RESPONSE: _response(reference=sent, amount="100.0")},
        error=(V, RESPONSE + ".status"))
    add("clip-result-receipt-space", "a receipt number with a space breaks the ledger's id rule", {RESPONSE: _response(
        reference=sent, status="approved", amount="100.0", receiptNumber="R 1")}, error=(V, RESPONSE + ".receiptNumber"))
    add("clip-result-neither", "extras without PAYMENT_RESPONSE or PAYMENT_ERROR", {"OTHER": "x"}, error=(V, RESPONSE))
    add("clip-result-value-number", "extras values are strings", {RESPONSE: 1}, error=(J, RESPONSE))
    return s
