#!/usr/bin/env python3
"""Writes the shared Billpocket POS test vectors (Tests/Vectors/pos/*.json).

    python3 Tests/Vectors/tools/pos_vectors.py          # (re)write the four files
    python3 Tests/Vectors/tools/pos_vectors.py --check  # fail if the files on disk differ

Python 3.11, standard library only. The expected answers are computed here, from the
rules of the POS contract (docs/architecture.md, "Billpocket POS"), by a small independent oracle
(with the helpers the generators share, in vectorlib.py next to this file):

- outgoing percent-encoding is `urllib.parse.quote(value, safe="-._~")` (RFC 3986
  unreserved characters only, uppercase hex);
- incoming percent-decoding is a byte-level decoder written in vectorlib.py from the rules
  (`%` + two hex digits, `+` literal, keys ASCII case-insensitive) followed by Python's strict
  UTF-8 decoder (which refuses overlong forms, surrogates and code points above U+10FFFF);
- Android result extras (`pos.parse_result`) are read as the pairs a URL answer decodes to,
  with the same field rules in the same order (`answer_document`), but no percent-decoding;
- amounts are integer minor units, parsed and formatted with integer arithmetic only;
- refund windows use integer epoch arithmetic with the fixed Mexico City offset (UTC-6)
  and `datetime` only to print the ISO 8601 text.

Nothing here runs or imports PayHandoff. Every error case in the tables states the error
it expects; the generator checks that the oracle agrees, so a table typo or an oracle bug
stops the generator instead of producing a wrong vector. A handful of ok cases also state
literal expected values (URLs, decoded strings) as a second check of the oracle.

Output is deterministic: same tables, same bytes.
"""

from __future__ import annotations

import calendar
import datetime
import json
import re
import sys
import urllib.parse
from pathlib import Path

sys.dont_write_bytecode = True  # importing vectorlib leaves no __pycache__ folder in the tree
import vectorlib  # noqa: E402  (the helpers the generators share, next to this file)
from vectorlib import (  # noqa: E402
    ANY_FIELD, DROP, MAX_MINOR_UNITS, Fail, Suite, amount_from_json, amount_from_text, ascii_lower,
    check_nonce, check_token, decode_query, format_amount, make_with, percent_encode,
)

VECTORS_DIR = Path(__file__).resolve().parent.parent
POS_DIR = VECTORS_DIR / "pos"

MAX_EPOCH = 253_402_300_799  # 9999-12-31T23:59:59Z
MX_OFFSET = -6 * 3600  # Mexico City, UTC-6 all year since 2022-10-30
MAX_URL_BYTES = 8192

SEED_REFERENCE = "Pago & % # ( ) / @ con propina a 3 meses sin intereses"
SEED_REFERENCE_AS_SENT = (
    "Pago%20%26%20%25%20%23%20(%20)%20/%20@%20con%20propina%20a%203%20meses%20sin%20intereses"
)


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


# ---------------------------------------------------------------------------------------
# Oracle: pos.build_url

REQUEST_KEYS = [
    "transaction", "usertoken", "identifier", "amount", "urlScheme", "transactionId", "tip",
    "msi", "reference", "email", "phone", "showPhotoButton", "mandatoryPhoto", "comesFromQR",
]
# Issue 30: how Android starts the POS app, a member of the request (not a Billpocket field).
ANDROID_ACTIONS = ("billpocket.payments.START", "com.billpocket.payments.START")  # the first is the default
ANDROID_PACKAGE = "com.billpocket.billpocket"
SALE_ONLY_KEYS = [
    "tip", "msi", "reference", "email", "phone", "showPhotoButton", "mandatoryPhoto", "comesFromQR",
]
INSTALLMENTS = {0, 3, 6, 9, 12}
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+\-.]*")


def bare_scheme(url_scheme: str) -> str:
    return url_scheme[:-3] if url_scheme.endswith("://") and len(url_scheme) > 3 else url_scheme


INTENT_ACTION = ANDROID_ACTIONS[0]
MAX_IDENTIFIER_UNITS = 256  # Billpocket echoes at most 256 UTF-16 units of `identifier`
TOKEN_SEPARATOR = "~"


def sent_identifier(identifier: str, token: str | None) -> str:
    """The identifier sent to the POS app: the app's own reference, then `~` and the per-flow
    token (when there is one), so that only the genuine answer can echo it back."""
    return identifier if token is None else identifier + TOKEN_SEPARATOR + token


def request_token(value) -> str | None:
    """The request's optional `token`: a string (the nonce rule) or `true` (a fresh one from the
    system random source, which a vector cannot know: an ok vector never asks for one)."""
    if value is True:
        return FRESH_TOKEN
    if value is False:
        raise Fail("validation", "token")
    return check_token(value, "token")


FRESH_TOKEN = "f" * 32  # stands for a fresh token (32 lowercase hex digits) in length checks only


def build_url(request: dict) -> dict:
    for key in request:
        if key not in REQUEST_KEYS and key not in ("token", "android_action"):
            raise Fail("validation", key)

    def string(key: str, required: bool) -> str | None:
        value = request.get(key)
        if value is None:
            if required:
                raise Fail("validation", key)
            return None
        if not isinstance(value, str):
            raise Fail("invalid_json", key)
        return value

    def boolean(key: str) -> bool | None:
        value = request.get(key)
        if value is not None and not isinstance(value, bool):
            raise Fail("invalid_json", key)
        return value

    def integer(key: str) -> int | None:
        value = request.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise Fail("invalid_json", key)
        return value

    def text(key: str, required: bool, limit: int | None) -> str | None:
        value = string(key, required)
        if value is not None:
            if required and value == "":
                raise Fail("validation", key)
            if limit is not None and utf16_len(value) > limit:
                raise Fail("validation", key)
            if "\x00" in value:  # a NUL would come back as %00, which every answer parser refuses
                raise Fail("validation", key)
        return value

    transaction = string("transaction", True)
    if transaction not in ("venta", "devolucion"):
        raise Fail("validation", "transaction")
    action = string("android_action", False)
    if action is not None and action not in ANDROID_ACTIONS:
        raise Fail("validation", "android_action")
    usertoken = text("usertoken", True, None)
    identifier = text("identifier", True, 256)
    url_scheme = text("urlScheme", True, 50)
    if not SCHEME.fullmatch(bare_scheme(url_scheme)):
        raise Fail("validation", "urlScheme")
    amount = amount_from_json(request.get("amount"), "amount")

    values: dict[str, str] = {
        "transaction": transaction, "usertoken": usertoken, "identifier": identifier,
        "urlScheme": url_scheme,
    }
    if transaction == "venta":
        if request.get("transactionId") is not None:
            raise Fail("validation", "transactionId")
        if amount is None or amount == 0:
            raise Fail("validation", "amount")
        values["amount"] = format_amount(amount)
        tip = amount_from_json(request.get("tip"), "tip")
        if tip is not None:
            values["tip"] = format_amount(tip)
        msi = integer("msi")
        if msi is not None:
            if msi not in INSTALLMENTS:
                raise Fail("validation", "msi")
            values["msi"] = str(msi)
        for key, limit in (("reference", 256), ("email", 150), ("phone", 14)):
            value = text(key, False, limit)
            if value is not None:
                values[key] = value
        flags = {key: boolean(key) for key in ("showPhotoButton", "mandatoryPhoto", "comesFromQR")}
        if flags["mandatoryPhoto"] is True and flags["showPhotoButton"] is not True:
            raise Fail("validation", "mandatoryPhoto")
        for key, flag in flags.items():
            if flag is not None:
                values[key] = "true" if flag else "false"
    else:
        for key in SALE_ONLY_KEYS:
            if request.get(key) is not None:
                raise Fail("validation", key)
        if amount is not None:
            if amount == 0:
                raise Fail("validation", "amount")
            values["amount"] = format_amount(amount)
        values["transactionId"] = text("transactionId", True, None)

    token = request_token(request.get("token"))
    if token is not None:
        values["identifier"] = sent_identifier(identifier, token)
        if utf16_len(values["identifier"]) > MAX_IDENTIFIER_UNITS:
            raise Fail("validation", "identifier")  # the app's part may be 256 - 1 - len(token) units
        assert token is not FRESH_TOKEN, "an ok vector cannot know a fresh token"

    fields = [{"key": k, "value": values[k]} for k in REQUEST_KEYS if k in values]
    extras = [{"key": "userToken" if f["key"] == "usertoken" else f["key"], "value": f["value"]}
              for f in fields]
    url = "billpocket://" + "&".join(percent_encode(f["key"]) + "=" + percent_encode(f["value"]) for f in fields)
    result = {"version": 1, "pos_app": "billpocket", "url": url, "fields": fields,
              "intent": {"action": action or INTENT_ACTION, "package": ANDROID_PACKAGE, "extras": extras}}
    if token is not None:
        result["identifier"] = values["identifier"]
        result["token"] = token
    return result


# ---------------------------------------------------------------------------------------
# Oracle: pos.parse_response

RESPONSE_KEYS = [
    "result", "statusinfo", "amount", "tip", "reference", "transactionid", "msi",
    "authorization", "creditcard", "cardtype", "email", "phone", "arqc", "aid", "applabel",
    "url", "identifier", "bank", "accounttype", "name", "bp_version",
]
# Issue 30: `declinada` (Billpocket's own Cordova plugin compares with it) is a decline too; any
# other word is "unrecognized" (never an approval), its word kept in `result_word`.
RESULTS = {"aprobada": "approved", "rechazada": "declined", "declinada": "declined", "error": "error"}
SECRET_KEYS = ("usertoken", "pin")  # echoed secrets, dropped in any case
SCHEME_BYTES = re.compile(rb"[A-Za-z][A-Za-z0-9+\-.]*")


def expected_identifier(options: dict, allowed: tuple[str, ...]) -> str | None:
    """The options every answer reader shares: unknown keys refused; `identifier` (text) is the
    expected one, and with `token` (the nonce rule; it needs `identifier`) it is
    `<identifier>~<token>`."""
    for key in options:
        if key not in allowed:
            raise Fail("validation", key)
    identifier = options.get("identifier")
    if identifier is not None and not isinstance(identifier, str):
        raise Fail("invalid_json", "identifier")
    token = check_token(options.get("token"), "token")
    if token is not None and identifier is None:
        raise Fail("validation", "token")  # needs identifier
    return None if identifier is None else sent_identifier(identifier, token)


def url_answer_pairs(url: str, url_scheme: str) -> list[tuple[str, str]]:
    """The URL-level rules of an answer, in order: size, characters, scheme, `//`, raw `#`, then
    the query syntax and duplicate keys (ignoring case), all before any field is looked at."""
    raw = url.encode("utf-8")
    if len(raw) > MAX_URL_BYTES:
        raise Fail("limit_exceeded", "url")
    if any(b <= 0x20 or b == 0x7F for b in raw):
        raise Fail("malformed_url", "url")
    scheme, colon, rest = raw.partition(b":")
    if not colon or not SCHEME_BYTES.fullmatch(scheme):
        raise Fail("malformed_url", "url")
    if scheme.lower() != bare_scheme(url_scheme).encode("utf-8").lower():
        raise Fail("callback_mismatch", "scheme")
    if not rest.startswith(b"//"):
        raise Fail("malformed_url", "url")
    payload = rest[2:]
    if payload.startswith(b"?"):
        payload = payload[1:]
    if b"#" in payload:
        raise Fail("malformed_url", "url")
    return decode_query(payload, plus_is_space=False, case_insensitive=True)  # `+` is a literal `+`


def extras_answer_pairs(extras, prefix: str = "") -> list[tuple[str, str]]:
    """The same pairs from Android result extras (already decoded text: no percent-decoding):
    every value a string (else (invalid_json, key)); a value with U+0000 is (validation, key);
    two keys equal ignoring case are (validation, the second key as written). `prefix` is put
    before the key in error fields (`extras.` inside a coordinator event)."""
    if not isinstance(extras, dict):
        raise Fail("invalid_json", prefix.rstrip(".") or None)
    for key, value in extras.items():
        if not isinstance(value, str):
            raise Fail("invalid_json", prefix + key)
    seen: set[str] = set()
    for key, value in extras.items():
        if "\x00" in value:
            raise Fail("validation", prefix + key)
        if ascii_lower(key) in seen:
            raise Fail("validation", prefix + key)  # appears twice (keys are case-insensitive)
        seen.add(ascii_lower(key))
    return list(extras.items())


def answer_fields(pairs: list[tuple[str, str]]) -> tuple[dict[str, str], dict[str, str]]:
    """Known keys (any case) with a non-empty value, and the unknown ones (`extra`, as written);
    an echoed usertoken (any case) is dropped."""
    fields: dict[str, str] = {}
    extra: dict[str, str] = {}
    for key, value in pairs:
        lower = ascii_lower(key)
        if lower in SECRET_KEYS:
            continue
        if lower in RESPONSE_KEYS:
            if value != "":
                fields[lower] = value
        else:
            extra[key] = value
    return fields, extra


def answer_identifier(pairs: list[tuple[str, str]], prefix: str = "") -> str:
    """The answer's identifier: the first field rule, before any other."""
    fields, _ = answer_fields(pairs)
    if "identifier" not in fields:
        raise Fail("validation", prefix + "identifier")
    return fields["identifier"]


def answer_document(pairs: list[tuple[str, str]], expected: str | None, prefix: str = "") -> dict:
    """The field rules in order: identifier present, identifier equal to `expected` (when one is
    expected: "not for this sale" before anything else), result, amount, approved needs amount,
    tip, msi, creditcard, accountType, transactionid (1 to 128 printable ASCII bytes)."""
    fields, extra = answer_fields(pairs)
    identifier = answer_identifier(pairs, prefix)
    if expected is not None and identifier != expected:
        raise Fail("callback_mismatch", "identifier")
    if "result" not in fields:
        raise Fail("validation", prefix + "result")
    result = RESULTS.get(ascii_lower(fields["result"]), "unrecognized")
    doc: dict = {"version": 1, "result": result, "identifier": identifier}
    if result == "unrecognized":
        doc["result_word"] = fields["result"]
    amount = amount_from_text(fields["amount"], prefix + "amount") if "amount" in fields else None
    if result == "approved" and amount is None:
        raise Fail("validation", prefix + "amount")
    tip = amount_from_text(fields["tip"], prefix + "tip") if "tip" in fields else None
    msi = None
    if "msi" in fields:
        if not re.fullmatch(r"[0-9]{1,2}", fields["msi"]) or int(fields["msi"]) not in INSTALLMENTS:
            raise Fail("validation", prefix + "msi")
        msi = int(fields["msi"])
    last_four = None
    if "creditcard" in fields:
        tail = fields["creditcard"].encode("utf-8")[-4:]
        if len(tail) != 4 or not all(0x30 <= b <= 0x39 for b in tail):
            raise Fail("validation", prefix + "creditcard")
        last_four = tail.decode("ascii")
    account_type = None
    if "accounttype" in fields:
        account_type = ascii_lower(fields["accounttype"])
        if account_type not in ("credit", "debit"):
            raise Fail("validation", prefix + "accountType")
    if "transactionid" in fields:
        raw = fields["transactionid"].encode("utf-8")
        if len(raw) > MAX_TRANSACTION_ID_BYTES or not all(0x21 <= b <= 0x7E for b in raw):
            raise Fail("validation", prefix + "transactionid")

    for key in RESPONSE_KEYS:
        if key in ("result", "identifier") or key not in fields:
            continue
        value = {
            "amount": amount if amount is None else format_amount(amount),
            "tip": tip if tip is None else format_amount(tip),
            "msi": msi, "creditcard": last_four, "accounttype": account_type,
        }.get(key, fields[key])
        doc["accountType" if key == "accounttype" else key] = value
    if extra:
        doc["extra"] = extra
    return doc


MAX_TRANSACTION_ID_BYTES = 128  # a transactionid is kept in the refund ledger


def parse_response(url: str, options: dict) -> dict:
    """Options (unknown keys, urlScheme, identifier, token), then the URL, then the fields."""
    allowed = ("urlScheme", "identifier", "token")
    for key in options:
        if key not in allowed:
            raise Fail("validation", key)
    url_scheme = options.get("urlScheme")
    if url_scheme is None:
        raise Fail("validation", "urlScheme")
    if not isinstance(url_scheme, str):
        raise Fail("invalid_json", "urlScheme")
    expected = expected_identifier(options, allowed)
    return answer_document(url_answer_pairs(url, url_scheme), expected)


# ---------------------------------------------------------------------------------------
# Oracle: pos.parse_result (Android: the result extras of onActivityResult)

def parse_result(extras, options: dict) -> dict:
    expected = expected_identifier(options, ("identifier", "token"))
    return answer_document(extras_answer_pairs(extras), expected)


# ---------------------------------------------------------------------------------------
# Oracle: pos.refund_check

MIN_VERSION = [4, 3, 24]
VERSION_PREFIX = re.compile(r"[0-9]+(?:\.[0-9]+)*")
MESSAGES = {
    "too_soon": "the sale was approved less than a minute ago; a refund is possible from {eligible_from_local}",
    "past_deadline": "refunds close at 23:00 Mexico City time on the sale's day ({deadline_local})",
    "amount_exceeds_original": "the refund amount is greater than the sale's amount",
    "pos_app_too_old": "refunds need POS app 4.3.24 or newer on iOS",
}
# Not blocking (spec I): the sale's answer had no bp_version. The exact text is this oracle's
# proposal; the spec names only the code.
WARNINGS = {
    "pos_app_version_unknown": "the POS app's version (bp_version) is unknown: refunds on iOS need POS app 4.3.24 "
                               "or newer, and an older POS app refuses them",
}


def mx_local(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> int:
    """Epoch seconds of a Mexico City wall-clock time (fixed UTC-6)."""
    return calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0)) - MX_OFFSET


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> int:
    return calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0))


def mx_iso(epoch: int) -> str:
    local = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=epoch + MX_OFFSET)
    return local.isoformat(timespec="seconds") + "-06:00"


def expect_equal(key: str, value):
    """A check: the result document's `key` is `value`."""
    def check(doc):
        assert doc.get(key) == value, (key, value, doc)
    return check


def lacks(*texts: str):
    """A check: none of `texts` appears anywhere in the result document (keys or values)."""
    def check(doc):
        printed = json.dumps(doc, ensure_ascii=False)
        assert not any(t in printed for t in texts), (texts, doc)
    return check


def all_of(*checks):
    def check(doc):
        for c in checks:
            c(doc)
    return check


def valid_transaction_id(text: str) -> bool:
    """The ledger's one transactionid rule (issue 24): 1 to 128 printable ASCII characters, no space."""
    return 1 <= len(text) <= 128 and all(0x21 <= ord(c) <= 0x7E for c in text)


def mx_deadline(epoch: int) -> int:
    """23:00 Mexico City on the sale's local day."""
    local_day = (epoch + MX_OFFSET) // 86_400
    return local_day * 86_400 + 23 * 3600 - MX_OFFSET


def version_too_old(version: str) -> bool:
    match = VERSION_PREFIX.match(version)
    if not match:
        raise Fail("validation", "sale.bp_version")
    parts = [int(p) for p in match.group().split(".")]
    width = max(len(parts), len(MIN_VERSION))
    return parts + [0] * (width - len(parts)) < MIN_VERSION + [0] * (width - len(MIN_VERSION))


def refund_check(check: dict) -> dict:
    for key in check:
        if key not in ("sale", "amount", "now"):
            raise Fail("validation", key)
    sale = check.get("sale")
    if sale is not None and not isinstance(sale, dict):
        raise Fail("invalid_json", "sale")
    sale = sale or {}
    for key in sale:
        if key not in ("transactionid", "amount", "approved_at", "bp_version"):
            raise Fail("validation", "sale." + key)

    def epoch(value, field: str) -> int:
        if value is None:
            raise Fail("validation", field)
        if isinstance(value, bool) or not isinstance(value, int):
            raise Fail("invalid_json", field)
        if not 0 <= value <= MAX_EPOCH:
            raise Fail("validation", field)
        return value

    transaction_id = sale.get("transactionid")
    if transaction_id is None:
        raise Fail("validation", "sale.transactionid")
    if not isinstance(transaction_id, str):
        raise Fail("invalid_json", "sale.transactionid")
    if not valid_transaction_id(transaction_id):
        raise Fail("validation", "sale.transactionid")
    sale_amount = amount_from_json(sale.get("amount"), "sale.amount")
    if sale_amount is None:
        raise Fail("validation", "sale.amount")
    approved_at = epoch(sale.get("approved_at"), "sale.approved_at")
    version = sale.get("bp_version")
    if version is not None and not isinstance(version, str):
        raise Fail("invalid_json", "sale.bp_version")
    old = version_too_old(version) if version is not None else False
    refund_amount = amount_from_json(check.get("amount"), "amount")
    if refund_amount == 0:
        raise Fail("validation", "amount")
    if refund_amount is None:
        refund_amount = sale_amount
    now = epoch(check.get("now"), "now")

    eligible_from = approved_at + 60
    # Reported clamped to the last second the library accepts (what it computes it can store and
    # read back: issue 24); no whole second `now` reaches a deadline past it, so the comparison
    # below is the same either way.
    deadline = min(mx_deadline(approved_at), MAX_EPOCH)
    times = {"eligible_from_local": mx_iso(eligible_from), "deadline_local": mx_iso(deadline)}
    codes = []
    if now < eligible_from:
        codes.append("too_soon")
    if now >= mx_deadline(approved_at):
        codes.append("past_deadline")
    if refund_amount > sale_amount:
        codes.append("amount_exceeds_original")
    if old:
        codes.append("pos_app_too_old")
    return {
        "version": 1,
        "eligible": not codes,
        "refund_amount": format_amount(refund_amount),
        "eligible_from": eligible_from,
        "eligible_from_local": times["eligible_from_local"],
        "deadline": deadline,
        "deadline_local": times["deadline_local"],
        "reasons": [{"code": c, "message": MESSAGES[c].format(**times)} for c in codes],
        "warnings": [{"code": w, "message": WARNINGS[w]} for w in (["pos_app_version_unknown"] if version is None else [])],
    }


# ---------------------------------------------------------------------------------------
# Case tables

with_ = make_with(deep_copy=False)  # shallow: a changed document shares its untouched members with `base`


# ---- pos.build_url ----------------------------------------------------------------------

def build_cases() -> Suite:
    s = Suite("pos.build_url", "build", lambda i: build_url(i["request"]))

    def add(id_, note, request, error=None, check=None):
        s.add(id_, note, {"request": request}, error, check)

    sale = {"transaction": "venta", "usertoken": "tok_live_123", "identifier": "ord-1",
            "amount": "100.00", "urlScheme": "myapp"}
    refund = {"transaction": "devolucion", "usertoken": "tok_live_123", "identifier": "ref-1",
              "urlScheme": "myapp", "transactionId": "720371234"}
    V = "validation"
    J = "invalid_json"

    def url_is(expected):
        def check(result):
            assert result["url"] == expected, (result["url"], expected)
        return check

    def field_is(key, expected):
        def check(result):
            got = [f["value"] for f in result["fields"] if f["key"] == key]
            assert got == [expected], (key, got, expected)
        return check

    def all_checks(*checks):
        def check(result):
            for c in checks:
                c(result)
        return check

    # -- ok: sales
    add("build-sale-minimal", "a sale with only the required fields: fixed order, no '?', lowercase usertoken in the URL, userToken in intent extras",
        sale, check=url_is("billpocket://transaction=venta&usertoken=tok_live_123&identifier=ord-1&amount=100.00&urlScheme=myapp"))
    add("build-sale-amount-whole-number", "amount text without decimals is sent with exactly two",
        with_(sale, amount="100"), check=field_is("amount", "100.00"))
    add("build-sale-amount-one-decimal", "amount text with one decimal is padded to two",
        with_(sale, amount="100.5"), check=field_is("amount", "100.50"))
    add("build-sale-amount-leading-zeros", "leading zeros in amount text are accepted and dropped",
        with_(sale, amount="007.50"), check=field_is("amount", "7.50"))
    add("build-sale-amount-one-centavo", "the smallest positive amount", with_(sale, amount="0.01"))
    add("build-sale-amount-five-centavos", "cents below ten keep their leading zero",
        with_(sale, amount="0.05"), check=field_is("amount", "0.05"))
    add("build-sale-amount-minor-units", "a JSON integer amount is minor units: 10050 is 100.50",
        with_(sale, amount=10050), check=field_is("amount", "100.50"))
    add("build-sale-amount-minor-units-one", "integer amount 1 is one centavo",
        with_(sale, amount=1), check=field_is("amount", "0.01"))
    add("build-sale-amount-max-minor-units", "2^53-1 minor units is the largest amount",
        with_(sale, amount=MAX_MINOR_UNITS), check=field_is("amount", "90071992547409.91"))
    add("build-sale-amount-max-text", "the largest amount as text", with_(sale, amount="90071992547409.91"))
    add("build-sale-urlscheme-with-slashes", "urlScheme 'myapp://' is sent verbatim (and percent-encoded)",
        with_(sale, urlScheme="myapp://"), check=field_is("urlScheme", "myapp://"))
    add("build-sale-urlscheme-reverse-dns", "urlScheme may hold letters, digits, '+', '-' and '.' after the first letter",
        with_(sale, urlScheme="com.example.pos-app+v2"))
    add("build-sale-urlscheme-uppercase", "urlScheme case is kept as given", with_(sale, urlScheme="MyApp"))
    add("build-sale-urlscheme-50-units", "urlScheme of exactly 50 characters is accepted",
        with_(sale, urlScheme="a" * 50))
    add("build-sale-urlscheme-50-units-with-slashes", "the 50-character limit counts a trailing '://'",
        with_(sale, urlScheme="a" * 47 + "://"))
    add("build-sale-all-fields", "every sale field, in the table's order, with the seed's reference",
        with_(sale, tip="15.00", msi=3, reference=SEED_REFERENCE, email="ana.perez@example.com",
              phone="5512345678", showPhotoButton=True, mandatoryPhoto=True, comesFromQR=False),
        check=url_is("billpocket://transaction=venta&usertoken=tok_live_123&identifier=ord-1&amount=100.00"
                     "&urlScheme=myapp&tip=15.00&msi=3&reference=Pago%20%26%20%25%20%23%20%28%20%29%20%2F%20%40"
                     "%20con%20propina%20a%203%20meses%20sin%20intereses&email=ana.perez%40example.com"
                     "&phone=5512345678&showPhotoButton=true&mandatoryPhoto=true&comesFromQR=false"))
    add("build-sale-tip-zero-text", "a tip of 0 is allowed", with_(sale, tip="0"), check=field_is("tip", "0.00"))
    add("build-sale-tip-zero-integer", "a tip of 0 minor units is allowed", with_(sale, tip=0))
    add("build-sale-tip-minor-units", "tip as integer minor units", with_(sale, tip=1500), check=field_is("tip", "15.00"))
    add("build-sale-msi-zero", "msi 0 (one-time payment) is sent as '0'", with_(sale, msi=0), check=field_is("msi", "0"))
    add("build-sale-msi-twelve", "msi 12 is the largest allowed", with_(sale, msi=12))
    add("build-sale-reference-reserved-chars", "& = + % # / @ ? space in a value are all percent-encoded",
        with_(sale, reference="a&b=c+d%e#f/g@h i?j"),
        check=url_is("billpocket://transaction=venta&usertoken=tok_live_123&identifier=ord-1&amount=100.00"
                     "&urlScheme=myapp&reference=a%26b%3Dc%2Bd%25e%23f%2Fg%40h%20i%3Fj"))
    add("build-sale-reference-accents", "accents are percent-encoded as UTF-8 with uppercase hex",
        with_(sale, reference="Café para Peña, niño"),
        check=field_is("reference", "Café para Peña, niño"))
    add("build-sale-reference-emoji", "emoji (with a skin-tone modifier) are percent-encoded as UTF-8",
        with_(sale, reference="Pago 🎉 fiesta 👍🏽"))
    add("build-sale-reference-plus-space", "'+' is encoded %2B and space %20, never '+'",
        with_(sale, reference="1+1 = 2"))
    add("build-sale-reference-unreserved", "RFC 3986 unreserved characters - . _ ~ stay literal",
        with_(sale, reference="A-Z_a.z~0-9"))
    add("build-sale-reference-256-units", "reference of exactly 256 UTF-16 units is accepted",
        with_(sale, reference="r" * 256))
    add("build-sale-reference-128-emoji", "128 emoji are 256 UTF-16 units: accepted",
        with_(sale, reference="😀" * 128))
    add("build-sale-email-150-units", "email of exactly 150 units is accepted",
        with_(sale, email="e" * 138 + "@example.com"))
    add("build-sale-email-plus-address", "'+' and '@' in an email are encoded",
        with_(sale, email="ana+pos@example.com"))
    add("build-sale-phone-14-units", "phone of exactly 14 units, with '+' and spaces",
        with_(sale, phone="+52 55 1234 56"))
    add("build-sale-identifier-256-ascii", "identifier of exactly 256 units is accepted",
        with_(sale, identifier="i" * 256))
    add("build-sale-identifier-128-emoji", "identifier of 128 emoji (256 UTF-16 units) is accepted",
        with_(sale, identifier="🧾" * 128))
    add("build-sale-identifier-254-ascii-plus-emoji", "254 letters and one emoji are 256 units: accepted",
        with_(sale, identifier="i" * 254 + "🧾"))
    add("build-sale-identifier-reserved-chars", "':' '/' '@' '#' in the identifier are encoded",
        with_(sale, identifier="ord:2026/11@store#1"))
    add("build-sale-usertoken-reserved-chars", "the user token is encoded like any value",
        with_(sale, usertoken="tok/a+b=c&d%"))
    add("build-sale-show-photo-button", "showPhotoButton alone", with_(sale, showPhotoButton=True))
    add("build-sale-mandatory-photo-false-alone", "mandatoryPhoto=false needs no showPhotoButton",
        with_(sale, mandatoryPhoto=False))
    add("build-sale-all-flags-false", "false flags are sent as 'false'",
        with_(sale, showPhotoButton=False, mandatoryPhoto=False, comesFromQR=False))
    add("build-sale-comes-from-qr", "comesFromQR true", with_(sale, comesFromQR=True))
    add("build-sale-null-optionals", "JSON null counts as absent for optional fields",
        with_(sale, tip=None, msi=None, reference=None, email=None, phone=None,
              showPhotoButton=None, mandatoryPhoto=None, comesFromQR=None))
    add("build-sale-transactionid-null", "a null transactionId on a sale counts as absent (not refused)",
        with_(sale, transactionId=None))

    # -- ok: refunds
    add("build-refund-minimal", "a refund without amount: transaction, usertoken, identifier, urlScheme, transactionId",
        refund, check=url_is("billpocket://transaction=devolucion&usertoken=tok_live_123&identifier=ref-1"
                             "&urlScheme=myapp&transactionId=720371234"))
    add("build-refund-partial-amount", "a refund amount is optional; when given it sits before urlScheme",
        with_(refund, amount="40.00"))
    add("build-refund-amount-minor-units", "refund amount as integer minor units", with_(refund, amount=4000))
    add("build-refund-urlscheme-with-slashes", "refund with urlScheme 'myapp://'", with_(refund, urlScheme="myapp://"))
    add("build-refund-transactionid-reserved-chars", "the transactionId is percent-encoded",
        with_(refund, transactionId="T/1&2=3"))
    add("build-refund-null-sale-only-fields", "sale-only keys set to JSON null count as absent on a refund",
        with_(refund, tip=None, msi=None, reference=None, showPhotoButton=None, comesFromQR=None))

    # -- ok: the Android intent and the per-flow token
    def intent_is(extras_keys):
        def check(result):
            assert result["intent"]["action"] == INTENT_ACTION, result["intent"]
            assert [e["key"] for e in result["intent"]["extras"]] == extras_keys, result["intent"]
            assert "intent_extras" not in result and "token" not in result and "identifier" not in result, result
        return check

    add("build-sale-intent", "the result carries the intent to start on Android: action billpocket.payments.START (the "
        "default: Billpocket's own plugin's), package com.billpocket.billpocket, extras as the fields with userToken in camelCase",
        sale, check=intent_is(["transaction", "userToken", "identifier", "amount", "urlScheme"]))

    def action_is(action):
        def check(result):
            assert result["intent"]["action"] == action and result["intent"]["package"] == ANDROID_PACKAGE, result["intent"]
            assert "android_action" not in result["url"] and all(f["key"] != "android_action" for f in result["fields"]), result
        return check
    # Issue 30: both actions are in use; a request may name the one its POS app answers to.
    add("build-sale-android-action-com", "android_action com.billpocket.payments.START: the intent's action, never a "
        "field of the URL", with_(sale, android_action="com.billpocket.payments.START"),
        check=action_is("com.billpocket.payments.START"))
    add("build-refund-android-action-default", "android_action billpocket.payments.START on a refund (the default, named)",
        with_(refund, android_action="billpocket.payments.START"), check=action_is("billpocket.payments.START"))
    add("build-android-action-unknown", "any other action is refused", with_(sale, android_action="com.example.START"),
        (V, "android_action"))
    add("build-android-action-case", "actions are matched exactly (Android's intent matching is case-sensitive)",
        with_(sale, android_action="BILLPOCKET.PAYMENTS.START"), (V, "android_action"))
    add("build-android-action-number", "android_action of the wrong JSON type", with_(sale, android_action=1), (J, "android_action"))
    add("build-refund-intent", "a refund's intent carries transactionId", with_(refund, amount="40.00"),
        check=intent_is(["transaction", "userToken", "identifier", "amount", "urlScheme", "transactionId"]))
    tok = "9f86d081884c7d659a2feaa0c55ad015"

    def token_is(identifier, token=tok):
        def check(result):
            assert result["identifier"] == identifier and result["token"] == token, result
            assert field_value(result, "identifier") == identifier, result["fields"]
            assert [e["value"] for e in result["intent"]["extras"] if e["key"] == "identifier"] == [identifier]
        return check

    def field_value(result, key):
        return next(f["value"] for f in result["fields"] if f["key"] == key)

    add("build-sale-token", "with a token the identifier sent is ord-1~<token> (URL, fields and intent); the result "
        "names the sent identifier and the token",
        with_(sale, token=tok), check=all_checks(
            url_is("billpocket://transaction=venta&usertoken=tok_live_123&identifier=ord-1~" + tok
                   + "&amount=100.00&urlScheme=myapp"), token_is("ord-1~" + tok)))
    add("build-refund-token", "a refund with a token", with_(refund, token=tok), check=token_is("ref-1~" + tok))
    add("build-token-16-chars", "the shortest token", with_(sale, token="Ab-9.x_Y-z012345"), check=token_is("ord-1~Ab-9.x_Y-z012345", "Ab-9.x_Y-z012345"))
    add("build-token-128-chars", "the longest token", with_(sale, token="Zz9-" * 32))
    add("build-token-identifier-with-tilde", "an identifier may hold '~' itself: ord~1~<token>",
        with_(sale, identifier="ord~1", token=tok), check=token_is("ord~1~" + tok))
    add("build-token-identifier-reserved-chars", "the app's part is percent-encoded as always, '~' stays literal",
        with_(sale, identifier="ord 1/2", token=tok),
        check=field_is("identifier", "ord 1/2~" + tok))
    add("build-token-identifier-223-units", "with a 32-character token the app's part may be 256 - 1 - 32 = 223 units",
        with_(sale, identifier="i" * 223, token=tok))
    add("build-token-identifier-239-units", "with a 16-character token the app's part may be 239 units",
        with_(sale, identifier="i" * 239, token="0123456789abcdef"))
    add("build-token-identifier-emoji-222-units", "111 emoji are 222 UTF-16 units: with '~' and 32 characters, 255",
        with_(sale, identifier="🧾" * 111, token=tok))
    add("build-token-null", "a null token counts as absent: no identifier or token member in the result",
        with_(sale, token=None), check=intent_is(["transaction", "userToken", "identifier", "amount", "urlScheme"]))

    # -- errors: keys and required fields
    add("build-token-identifier-224-units", "with a 32-character token an app part of 224 units does not fit in 256",
        with_(sale, identifier="i" * 224, token=tok), (V, "identifier"))
    add("build-token-identifier-240-units", "with a 16-character token an app part of 240 units does not fit",
        with_(sale, identifier="i" * 240, token="0123456789abcdef"), (V, "identifier"))
    add("build-token-identifier-emoji-224-units", "112 emoji are 224 units: with the token, 257",
        with_(sale, identifier="🧾" * 112, token=tok), (V, "identifier"))
    add("build-token-fresh-identifier-224-units", "token true (a fresh 32-character token) leaves 223 units for the app's part",
        with_(sale, identifier="i" * 224, token=True), (V, "identifier"))
    add("build-token-false", "token is a string or true; false is refused", with_(sale, token=False), (V, "token"))
    add("build-token-number", "token of the wrong JSON type", with_(sale, token=12345678901234567), (J, "token"))
    add("build-token-object", "token as an object", with_(sale, token={"value": tok}), (J, "token"))
    for slug, bad, why in [("empty", "", "empty"), ("short", "short", "5 characters"), ("15-chars", "0123456789abcde", "15 characters"),
                           ("129-chars", "t" * 129, "129 characters"), ("ampersand", "0123456789abcdef&x=1", "'&'"),
                           ("percent", "0123456789abcdef%41", "'%'"), ("non-ascii", "0123456789abcdefñ", "a non-ASCII letter"),
                           ("tilde", "Ab-9.x_Y~z012345", "'~' (it separates the identifier from the token: issue 24)")]:
        add(f"build-token-{slug}", f"the token follows the nonce rule: {why} is refused", with_(sale, token=bad), (V, "token"))
    add("build-unknown-key-usertoken-camelcase", "'userToken' (camelCase) is not a request key; only 'usertoken'",
        with_(sale, userToken="tok"), (V, "userToken"))
    add("build-unknown-key-misspelt", "a misspelt optional key is refused, not dropped",
        with_(sale, refrence="x"), (V, "refrence"))
    add("build-transaction-missing", "transaction is required", with_(sale, transaction=DROP), (V, "transaction"))
    add("build-transaction-null", "transaction null counts as missing", with_(sale, transaction=None), (V, "transaction"))
    add("build-transaction-unknown", "transaction must be venta or devolucion", with_(sale, transaction="sale"), (V, "transaction"))
    add("build-transaction-uppercase", "transaction values are exact: 'VENTA' is refused",
        with_(sale, transaction="VENTA"), (V, "transaction"))
    add("build-transaction-number", "transaction of the wrong JSON type", with_(sale, transaction=1), (J, "transaction"))
    add("build-usertoken-missing", "usertoken is required", with_(sale, usertoken=DROP), (V, "usertoken"))
    add("build-usertoken-empty", "usertoken must not be empty", with_(sale, usertoken=""), (V, "usertoken"))
    add("build-usertoken-number", "usertoken as a JSON number", with_(sale, usertoken=12345), (J, "usertoken"))
    add("build-identifier-missing", "identifier is required", with_(sale, identifier=DROP), (V, "identifier"))
    add("build-identifier-empty", "identifier must not be empty", with_(sale, identifier=""), (V, "identifier"))
    add("build-identifier-257-ascii", "identifier over 256 units", with_(sale, identifier="i" * 257), (V, "identifier"))
    add("build-identifier-nul", "U+0000 in the identifier: the answer could never be matched (NUL is refused on the way back)",
        with_(sale, identifier="ord\x001"), (V, "identifier"))
    add("build-reference-nul", "U+0000 in an optional text field is refused too", with_(sale, reference="a\x00b"), (V, "reference"))
    add("build-usertoken-nul", "U+0000 in the user token", with_(sale, usertoken="tok\x00"), (V, "usertoken"))
    add("build-identifier-255-ascii-plus-emoji", "256 characters but 257 UTF-16 units: an emoji counts 2",
        with_(sale, identifier="i" * 255 + "🧾"), (V, "identifier"))
    add("build-identifier-array", "identifier as an array", with_(sale, identifier=["ord-1"]), (J, "identifier"))
    add("build-urlscheme-missing", "urlScheme is required", with_(sale, urlScheme=DROP), (V, "urlScheme"))
    add("build-urlscheme-empty", "urlScheme must not be empty", with_(sale, urlScheme=""), (V, "urlScheme"))
    add("build-urlscheme-51-units", "urlScheme over 50 characters", with_(sale, urlScheme="a" * 51), (V, "urlScheme"))
    add("build-urlscheme-51-units-with-slashes", "urlScheme over 50 characters counting '://'",
        with_(sale, urlScheme="a" * 48 + "://"), (V, "urlScheme"))
    add("build-urlscheme-underscore", "'_' is not allowed in a scheme", with_(sale, urlScheme="my_app"), (V, "urlScheme"))
    add("build-urlscheme-leading-digit", "a scheme starts with a letter", with_(sale, urlScheme="1app"), (V, "urlScheme"))
    add("build-urlscheme-trailing-colon", "'myapp:' is neither a bare scheme nor scheme://", with_(sale, urlScheme="myapp:"), (V, "urlScheme"))
    add("build-urlscheme-colon-slash", "'myapp:/' is neither a bare scheme nor scheme://", with_(sale, urlScheme="myapp:/"), (V, "urlScheme"))
    add("build-urlscheme-space", "a space is not allowed in a scheme", with_(sale, urlScheme="my app"), (V, "urlScheme"))
    add("build-urlscheme-object", "urlScheme as an object", with_(sale, urlScheme={"scheme": "myapp"}), (J, "urlScheme"))

    # -- errors: amounts
    add("build-sale-amount-missing", "a sale needs an amount", with_(sale, amount=DROP), (V, "amount"))
    add("build-sale-amount-null", "a null amount counts as missing", with_(sale, amount=None), (V, "amount"))
    add("build-sale-amount-zero-text", "a sale amount must be greater than 0", with_(sale, amount="0.00"), (V, "amount"))
    add("build-sale-amount-zero-integer", "0 minor units is not a sale amount", with_(sale, amount=0), (V, "amount"))
    add("build-sale-amount-negative-integer", "negative minor units", with_(sale, amount=-100), (V, "amount"))
    for slug, text, why in [
        ("exponent", "1e2", "an exponent"), ("negative", "-1", "a sign"), ("plus-sign", "+1", "a sign"),
        ("leading-space", " 1", "a space"), ("thousands-separator", "1,000.00", "a thousands separator"),
        ("leading-dot", ".5", "a leading dot"), ("trailing-dot", "5.", "a trailing dot"),
        ("three-decimals", "1.234", "three decimals (never rounded)"), ("empty", "", "empty text"),
        ("letters", "abc", "letters"), ("two-dots", "1.2.3", "two dots"),
    ]:
        add(f"build-sale-amount-{slug}", f"amount text with {why} is refused", with_(sale, amount=text), (V, "amount"))
    add("build-sale-amount-over-max-integer", "2^53 is beyond what JSON text carries exactly: the number itself is refused",
        with_(sale, amount=MAX_MINOR_UNITS + 1), (J, "amount"))
    add("build-sale-amount-over-max-text", "one centavo above the largest amount, as text",
        with_(sale, amount="90071992547409.92"), (V, "amount"))
    add("build-sale-amount-huge-text", "a 30-digit amount does not wrap around", with_(sale, amount="9" * 30), (V, "amount"))
    add("build-sale-amount-boolean", "amount as a boolean", with_(sale, amount=True), (J, "amount"))
    add("build-sale-amount-array", "amount as an array", with_(sale, amount=["100.00"]), (J, "amount"))

    # -- errors: operation-specific fields
    add("build-sale-transactionid", "transactionId is refused on a sale", with_(sale, transactionId="720371234"), (V, "transactionId"))
    add("build-sale-transactionid-empty", "even an empty transactionId is refused on a sale", with_(sale, transactionId=""), (V, "transactionId"))
    add("build-refund-transactionid-missing", "a refund needs the sale's transactionId", with_(refund, transactionId=DROP), (V, "transactionId"))
    add("build-refund-transactionid-empty", "an empty transactionId is refused", with_(refund, transactionId=""), (V, "transactionId"))
    add("build-refund-transactionid-number", "transactionId as a JSON number", with_(refund, transactionId=720371234), (J, "transactionId"))
    add("build-refund-amount-zero", "a refund amount, when given, must be greater than 0", with_(refund, amount="0"), (V, "amount"))
    add("build-refund-amount-negative", "a negative refund amount", with_(refund, amount="-40.00"), (V, "amount"))
    for key, value in [("tip", "5.00"), ("msi", 3), ("reference", "r"), ("email", "a@b.mx"), ("phone", "5512345678"),
                       ("showPhotoButton", False), ("mandatoryPhoto", False), ("comesFromQR", True)]:
        add(f"build-refund-with-{key.lower()}", f"sale-only key {key} is refused on a refund (even when false)",
            with_(refund, **{key: value}), (V, key))

    # -- errors: sale field rules
    add("build-sale-msi-four", "msi must be 0, 3, 6, 9 or 12", with_(sale, msi=4), (V, "msi"))
    add("build-sale-msi-twenty-four", "msi 24 is not offered", with_(sale, msi=24), (V, "msi"))
    add("build-sale-msi-negative", "negative msi", with_(sale, msi=-3), (V, "msi"))
    add("build-sale-msi-string", "msi must be a JSON integer, not text", with_(sale, msi="3"), (J, "msi"))
    add("build-sale-reference-257-units", "reference over 256 units", with_(sale, reference="r" * 257), (V, "reference"))
    add("build-sale-reference-128-emoji-plus-one", "128 emoji and one letter are 257 units",
        with_(sale, reference="😀" * 128 + "r"), (V, "reference"))
    add("build-sale-reference-number", "reference as a JSON number", with_(sale, reference=123), (J, "reference"))
    add("build-sale-email-151-units", "email over 150 units", with_(sale, email="e" * 139 + "@example.com"), (V, "email"))
    add("build-sale-phone-15-units", "phone over 14 units", with_(sale, phone="+52 55 1234 567"), (V, "phone"))
    add("build-sale-mandatory-photo-without-button", "mandatoryPhoto=true needs showPhotoButton=true",
        with_(sale, mandatoryPhoto=True), (V, "mandatoryPhoto"))
    add("build-sale-mandatory-photo-button-false", "mandatoryPhoto=true with showPhotoButton=false",
        with_(sale, showPhotoButton=False, mandatoryPhoto=True), (V, "mandatoryPhoto"))
    add("build-sale-tip-negative-text", "a negative tip", with_(sale, tip="-1"), (V, "tip"))
    add("build-sale-tip-negative-integer", "a negative tip in minor units", with_(sale, tip=-1), (V, "tip"))
    add("build-sale-tip-three-decimals", "a tip with three decimals", with_(sale, tip="1.234"), (V, "tip"))
    add("build-sale-show-photo-string", "booleans must be JSON booleans, not text",
        with_(sale, showPhotoButton="true"), (J, "showPhotoButton"))
    add("build-sale-comes-from-qr-number", "booleans must be JSON booleans, not numbers",
        with_(sale, comesFromQR=1), (J, "comesFromQR"))
    return s


# ---- pos.parse_response -----------------------------------------------------------------

def parse_cases() -> Suite:
    s = Suite("pos.parse_response", "parse", lambda i: parse_response(i["url"], i["options"]))
    opts = {"urlScheme": "myapp", "identifier": "ord-1"}
    bare_opts = {"urlScheme": "myapp"}

    def add(id_, note, url, options=opts, error=None, check=None):
        s.add(id_, note, {"url": url, "options": options}, error, check)

    def value_is(key, expected):
        def check(result):
            assert result.get(key) == expected, (key, result.get(key), expected)
        return check

    ok_tail = "result=aprobada&amount=100.00&identifier=ord-1"
    M, V, C = "malformed_url", "validation", "callback_mismatch"
    seed = ("result=aprobada&statusinfo=&amount=100.00&tip=15.00&reference=" + SEED_REFERENCE_AS_SENT
            + "&transactionid=720371234&identifier=ord-1")

    # -- ok
    add("parse-seed-example", "the seed's answer (completed with an identifier): reference decodes exactly, empty statusinfo is absent",
        "myapp://" + seed, check=value_is("reference", SEED_REFERENCE))
    add("parse-seed-example-question-mark", "a single '?' after scheme:// is tolerated",
        "myapp://?" + seed, check=value_is("reference", SEED_REFERENCE))
    # Issue 30: an answer seen in the wild (an iOS integration documents it): a sale cancelled in the
    # POS app answers result=error with a Spanish statusinfo; the POS app echoes the user token (64
    # hex digits, dropped) and the request's keys (transaction, urlScheme: kept in extra); the
    # urlScheme has a dot.
    wild_token = "a3f1" * 16
    wild = ("zorroios.reader://amount=10.00&usertoken=" + wild_token + "&reference=Venta%20-%20AB082CA8ECF4"
            "&transaction=venta&identifier=AB082CA8ECF4&urlScheme=zorroios.reader"
            "&statusinfo=La%20transacci%C3%B3n%20fue%20cancelada&result=error")
    add("parse-wild-cancelled-sale", "a real cancelled sale: error, statusinfo decoded, token dropped, echoed request "
        "keys in extra, a dotted scheme", wild, {"urlScheme": "zorroios.reader", "identifier": "AB082CA8ECF4"},
        check=all_of(expect_equal("result", "error"), expect_equal("statusinfo", "La transacción fue cancelada"),
                     expect_equal("reference", "Venta - AB082CA8ECF4"),
                     expect_equal("extra", {"transaction": "venta", "urlScheme": "zorroios.reader"}), lacks(wild_token)))
    add("parse-wild-pin-echoed", "an echoed pin (any case) is a secret like the user token: dropped",
        "myapp://" + ok_tail + "&Pin=0427", check=lacks("0427"))
    add("parse-scheme-uppercase-in-url", "the answer's scheme is compared case-insensitively", "MyApp://" + ok_tail)
    add("parse-scheme-uppercase-in-option", "the option's scheme is compared case-insensitively",
        "myapp://" + ok_tail, {"urlScheme": "MYAPP", "identifier": "ord-1"})
    add("parse-option-scheme-with-slashes", "a trailing '://' in options.urlScheme is stripped",
        "myapp://" + ok_tail, {"urlScheme": "myapp://", "identifier": "ord-1"})
    add("parse-reverse-dns-scheme", "a scheme with '.', '-', '+' and digits",
        "com.example.pos-app+v2://" + ok_tail, {"urlScheme": "com.example.pos-app+v2"})
    add("parse-plus-stays-literal", "'+' is a literal plus in POS answers: a+b stays 'a+b'",
        "myapp://" + ok_tail + "&reference=a+b", check=value_is("reference", "a+b"))
    add("parse-encoded-plus-and-space", "%2B is '+' and %20 is a space",
        "myapp://" + ok_tail + "&reference=a%2Bb%20c", check=value_is("reference", "a+b c"))
    add("parse-mixed-case-escapes", "hex digits of escapes in either case: %c3%b1 and %C3%A9",
        "myapp://" + ok_tail + "&reference=ni%c3%b1o%20caf%C3%A9", check=value_is("reference", "niño café"))
    add("parse-double-encoding", "%2526 decodes once, to '%26'",
        "myapp://" + ok_tail + "&reference=%2526", check=value_is("reference", "%26"))
    add("parse-encoded-amp-and-hash", "%26 and %23 inside a value neither split nor cut it",
        "myapp://" + ok_tail + "&reference=A%26B%23C", check=value_is("reference", "A&B#C"))
    add("parse-raw-colon-slash-at", "raw ':' '/' '@' in values are data (no URL authority parsing)",
        "myapp://" + ok_tail + "&reference=user:pw@host/path", check=value_is("reference", "user:pw@host/path"))
    add("parse-raw-equals-in-value", "only the first '=' splits key from value",
        "myapp://" + ok_tail + "&reference=a=b=c", check=value_is("reference", "a=b=c"))
    add("parse-raw-question-in-value", "a raw '?' inside a value is data",
        "myapp://" + ok_tail + "&reference=why?not", check=value_is("reference", "why?not"))
    add("parse-voucher-url", "the voucher 'url' key may hold a URL with ':', '/', '?' and '='",
        "myapp://" + ok_tail + "&url=https://vouchers.example.mx/v?id=9f3", check=value_is("url", "https://vouchers.example.mx/v?id=9f3"))
    add("parse-raw-utf8-value", "raw non-ASCII bytes in a value are kept", "myapp://" + ok_tail + "&reference=año",
        check=value_is("reference", "año"))
    add("parse-emoji-value", "a percent-encoded 4-byte UTF-8 sequence",
        "myapp://" + ok_tail + "&reference=%F0%9F%8E%89", check=value_is("reference", "🎉"))
    add("parse-declined-with-statusinfo", "declined: no amount needed, statusinfo decoded",
        "myapp://result=rechazada&statusinfo=Fondos%20insuficientes&identifier=ord-1")
    add("parse-error-result", "result 'error' with statusinfo and no amount",
        "myapp://result=error&statusinfo=Lector%20no%20conectado&identifier=ord-1")
    add("parse-declined-with-amount", "declined may carry an amount; it is normalized",
        "myapp://result=rechazada&amount=100&identifier=ord-1", check=value_is("amount", "100.00"))
    add("parse-result-uppercase", "result value and key are case-insensitive", "myapp://RESULT=APROBADA&amount=1.5&identifier=ord-1")
    add("parse-keys-mixed-case", "known keys match in any case; accountType output lowercase",
        "myapp://Result=aprobada&Amount=250.00&Identifier=ord-1&TransactionId=T-9&AccountType=Debit&BP_VERSION=4.3.24",
        check=value_is("accountType", "debit"))
    add("parse-full-approved", "every known key, typed: msi integer, last four of creditcard, accountType",
        "myapp://result=aprobada&statusinfo=OK&amount=1250.50&tip=125.05&reference=Mesa%2012&transactionid=720371234"
        "&msi=3&authorization=A1B2C3&creditcard=************4242&cardtype=VISA&email=ana%40example.com"
        "&phone=%2B525512345678&arqc=9F2608A1B2C3D4E5F6A7&aid=A0000000031010&applabel=VISA%20CREDITO"
        "&url=V-0001&identifier=ord-1&bank=BBVA&accountType=credit&name=ANA%20P%C3%89REZ&bp_version=4.3.24",
        check=value_is("msi", 3))
    add("parse-extras", "unknown keys go to extra, decoded, kept even when empty",
        "myapp://" + ok_tail + "&foo=bar&Empty=&ext_%C3%B1=%F0%9F%98%80",
        check=value_is("extra", {"foo": "bar", "Empty": "", "ext_ñ": "😀"}))
    add("parse-usertoken-dropped", "an echoed usertoken is dropped, not kept in extra",
        "myapp://" + ok_tail + "&usertoken=tok_live_123", check=lambda r: "extra" not in r)
    add("parse-usertoken-any-case-dropped", "an echoed UserToken in any case is dropped",
        "myapp://" + ok_tail + "&UserToken=tok_live_123&x=1", check=value_is("extra", {"x": "1"}))
    add("parse-empty-known-values-absent", "known keys with empty values count as absent",
        "myapp://" + ok_tail + "&statusinfo=&tip=&reference=&msi=&creditcard=&accountType=",
        check=lambda r: set(r) == {"version", "result", "identifier", "amount"})
    add("parse-empty-pieces-skipped", "empty pieces from '&&' and a trailing '&' are skipped",
        "myapp://&&result=aprobada&&amount=1&identifier=ord-1&")
    add("parse-amount-normalized", "amount and tip text normalized to two decimals; leading zeros dropped",
        "myapp://result=aprobada&amount=0100.5&tip=0&identifier=ord-1", check=value_is("amount", "100.50"))
    add("parse-msi-leading-zero", "msi '03' (two digits) is 3", "myapp://" + ok_tail + "&msi=03", check=value_is("msi", 3))
    add("parse-msi-zero", "msi '0' is 0", "myapp://" + ok_tail + "&msi=0", check=value_is("msi", 0))
    add("parse-msi-twelve", "msi 12", "myapp://" + ok_tail + "&msi=12")
    add("parse-creditcard-four-digits", "creditcard of exactly four digits", "myapp://" + ok_tail + "&creditcard=0042",
        check=value_is("creditcard", "0042"))
    add("parse-creditcard-dashed-mask", "only the last four digits are kept",
        "myapp://" + ok_tail + "&creditcard=XXXX-XXXX-XXXX-1234", check=value_is("creditcard", "1234"))
    add("parse-accounttype-uppercase", "accountType CREDIT is output lowercase",
        "myapp://" + ok_tail + "&accounttype=CREDIT", check=value_is("accountType", "credit"))
    add("parse-identifier-encoded-matches", "the decoded identifier is compared with options.identifier",
        "myapp://result=aprobada&amount=1&identifier=ord%2F1%20%C3%B1", {"urlScheme": "myapp", "identifier": "ord/1 ñ"})
    add("parse-identifier-option-absent", "without options.identifier any identifier is accepted",
        "myapp://result=aprobada&amount=1&identifier=anything", bare_opts)
    add("parse-identifier-option-null", "options.identifier null counts as absent",
        "myapp://result=aprobada&amount=1&identifier=anything", {"urlScheme": "myapp", "identifier": None})
    add("parse-encoded-key", "keys are percent-decoded before matching: %52ESULT is RESULT",
        "myapp://%52ESULT=aprobada&amount=1&identifier=ord-1")
    head = "myapp://result=error&identifier=ord-1&pad="
    add("parse-url-8192-bytes", "a URL of exactly 8192 bytes is accepted", head + "x" * (MAX_URL_BYTES - len(head)), bare_opts)
    add("parse-url-8192-bytes-multibyte", "the limit counts UTF-8 bytes: 4075 raw 'ñ' fill exactly 8192",
        head + "ñ" * ((MAX_URL_BYTES - len(head)) // 2), bare_opts)

    # -- errors: options
    add("parse-options-unknown-key", "an unknown option key is refused", "myapp://" + ok_tail,
        {"urlScheme": "myapp", "scheme": "myapp"}, (V, "scheme"))
    add("parse-options-missing-urlscheme", "options.urlScheme is required", "myapp://" + ok_tail,
        {"identifier": "ord-1"}, (V, "urlScheme"))
    add("parse-options-urlscheme-number", "options.urlScheme of the wrong JSON type", "myapp://" + ok_tail,
        {"urlScheme": 1}, ("invalid_json", "urlScheme"))
    add("parse-options-identifier-number", "options.identifier of the wrong JSON type", "myapp://" + ok_tail,
        {"urlScheme": "myapp", "identifier": 1}, ("invalid_json", "identifier"))

    # -- errors: URL shape
    add("parse-url-8193-bytes", "a URL over 8192 bytes", head + "x" * (MAX_URL_BYTES - len(head) + 1), bare_opts,
        ("limit_exceeded", "url"))
    add("parse-url-over-limit-multibyte", "fewer than 8192 characters but more than 8192 UTF-8 bytes",
        head + "ñ" * ((MAX_URL_BYTES - len(head)) // 2 + 1), bare_opts, ("limit_exceeded", "url"))
    for slug, char, what in [("space", " ", "a raw space"), ("tab", "\t", "a raw tab"), ("newline", "\n", "a raw newline"),
                             ("unit-separator", "\x1f", "a raw control character"), ("del", "\x7f", "a raw DEL")]:
        add(f"parse-raw-{slug}", f"{what} anywhere in the URL is refused",
            "myapp://" + ok_tail + "&reference=a" + char + "b", error=(M, "url"))
    add("parse-no-colon", "a URL without ':' has no scheme", "myapp//" + ok_tail, error=(M, "url"))
    add("parse-scheme-leading-digit", "the scheme must start with a letter", "1app://" + ok_tail, {"urlScheme": "1app"}, (M, "url"))
    add("parse-scheme-underscore", "'_' is not allowed in a scheme", "my_app://" + ok_tail, {"urlScheme": "my_app"}, (M, "url"))
    add("parse-empty-scheme", "an empty scheme", "://" + ok_tail, error=(M, "url"))
    add("parse-scheme-mismatch", "another app's scheme", "otherapp://" + ok_tail, error=(C, "scheme"))
    add("parse-scheme-longer", "a scheme that merely starts with the expected one", "myapp2://" + ok_tail, error=(C, "scheme"))
    add("parse-billpocket-scheme", "the request URL itself is not an answer", "billpocket://" + ok_tail, error=(C, "scheme"))
    add("parse-missing-slashes", "'scheme:' must be followed by '//'", "myapp:" + ok_tail, error=(M, "url"))
    add("parse-single-slash", "'scheme:/' is not 'scheme://'", "myapp:/" + ok_tail, error=(M, "url"))
    add("parse-raw-hash", "a raw '#' would cut the answer short", "myapp://" + ok_tail + "&reference=a#b", error=(M, "url"))
    add("parse-raw-hash-at-end", "a raw '#' at the end", "myapp://" + ok_tail + "#", error=(M, "url"))
    add("parse-double-question-mark", "only one '?' is skipped: '?result' is an unknown key, so result is missing",
        "myapp://??" + ok_tail, error=(V, "result"))

    # -- errors: query decoding
    add("parse-piece-without-equals", "a piece without '=' names no field", "myapp://" + ok_tail + "&flag", error=(M, None))
    add("parse-empty-key", "a piece with an empty key names no field", "myapp://" + ok_tail + "&=x", error=(M, None))
    add("parse-bad-escape-in-value", "'%zz' is not an escape; the error names the key", "myapp://" + ok_tail + "&reference=%zz",
        error=(M, "reference"))
    add("parse-truncated-escape", "'%2' at the end of a value", "myapp://" + ok_tail + "&reference=abc%2", error=(M, "reference"))
    add("parse-percent-at-end", "a lone '%' at the end of a value", "myapp://" + ok_tail + "&reference=100%", error=(M, "reference"))
    add("parse-bad-escape-key-case-kept", "the error names the decoded key as written", "myapp://" + ok_tail + "&Reference=%G1",
        error=(M, "Reference"))
    add("parse-bad-escape-in-key", "a bad escape in a key names no field", "myapp://" + ok_tail + "&%zz=1", error=(M, None))
    add("parse-bad-escape-key-64-bytes", "a key of 64 bytes is named in the error", "myapp://" + ok_tail + "&" + "k" * 64 + "=%",
        error=(M, "k" * 64))
    add("parse-bad-escape-key-65-bytes", "a key over 64 bytes is not named", "myapp://" + ok_tail + "&" + "k" * 65 + "=%",
        error=(M, None))
    for slug, escape, what in [("overlong", "%C0%AF", "an overlong encoding of '/'"),
                               ("surrogate", "%ED%A0%80", "a UTF-16 surrogate"),
                               ("truncated", "%C3", "a truncated 2-byte sequence"),
                               ("lone-continuation", "%80", "a lone continuation byte"),
                               ("byte-ff", "%FF", "byte 0xFF"),
                               ("above-max", "%F4%90%80%80", "a code point above U+10FFFF")]:
        add(f"parse-invalid-utf8-{slug}", f"{what} is not valid UTF-8", "myapp://" + ok_tail + "&reference=x" + escape,
            error=(M, "reference"))
    add("parse-invalid-utf8-in-key", "invalid UTF-8 in a key names no field", "myapp://" + ok_tail + "&%FF=1", error=(M, None))
    add("parse-nul", "%00 (NUL) is refused", "myapp://" + ok_tail + "&reference=a%00b", error=(M, "reference"))
    add("parse-duplicate-key-case", "result and RESULT are the same key: the second is named",
        "myapp://" + ok_tail + "&RESULT=aprobada", error=(M, "RESULT"))
    add("parse-duplicate-identifier", "a repeated identifier (no first- or last-wins)",
        "myapp://" + ok_tail + "&identifier=ord-2", error=(M, "identifier"))
    add("parse-duplicate-empty-value", "a duplicate is refused even when the first value is empty",
        "myapp://" + ok_tail + "&statusinfo=&statusinfo=x", error=(M, "statusinfo"))
    add("parse-duplicate-extra", "duplicate unknown keys are refused too", "myapp://" + ok_tail + "&foo=1&Foo=2",
        error=(M, "Foo"))

    # -- errors: typed fields
    add("parse-missing-result", "result is required", "myapp://amount=1&identifier=ord-1", error=(V, "result"))
    add("parse-empty-result", "an empty result counts as missing", "myapp://result=&amount=1&identifier=ord-1", error=(V, "result"))
    # Issue 30: a word PayHandoff does not know is an answer (it ends the hand-off), never an approval.
    add("parse-result-unknown", "an unknown word ('approved' is not Billpocket's) is 'unrecognized', the word kept",
        "myapp://result=approved&amount=1&identifier=ord-1",
        check=all_of(expect_equal("result", "unrecognized"), expect_equal("result_word", "approved")))
    add("parse-result-misspelt", "'aprobado' is not 'aprobada': unrecognized, never an approval",
        "myapp://result=aprobado&amount=1&identifier=ord-1", check=expect_equal("result", "unrecognized"))
    for word in ["declinada", "DECLINADA", "Declinada", "rechazada", "Rechazada"]:
        add(f"parse-result-{word.lower()}-{'lower' if word.islower() else 'upper' if word.isupper() else 'title'}", f"'{word}' is a decline (any case)", "myapp://result=" + word + "&identifier=ord-1",
            check=all_of(expect_equal("result", "declined"), lacks("result_word")))
    for word in ["Aprobada", "APROBADA"]:
        add(f"parse-result-{word.lower()}-{'upper' if word.isupper() else 'title'}", f"'{word}' is an approval (any case)", "myapp://result=" + word + "&amount=1.00&identifier=ord-1",
            check=expect_equal("result", "approved"))
    for word in ["Error", "ERROR"]:
        add(f"parse-result-{word.lower()}-{'upper' if word.isupper() else 'title'}", f"'{word}' is an error (any case)", "myapp://result=" + word + "&identifier=ord-1",
            check=expect_equal("result", "error"))
    add("parse-result-unknown-without-amount", "an unrecognized answer needs no amount (only an approval does)",
        "myapp://result=pendiente&identifier=ord-1", check=expect_equal("result_word", "pendiente"))
    add("parse-result-unknown-escaped", "the word is kept decoded", "myapp://result=en%20proceso&identifier=ord-1",
        check=expect_equal("result_word", "en proceso"))
    add("parse-missing-identifier", "identifier is required", "myapp://result=aprobada&amount=1", error=(V, "identifier"))
    add("parse-empty-identifier", "an empty identifier counts as missing", "myapp://result=aprobada&amount=1&identifier=",
        error=(V, "identifier"))
    add("parse-approved-without-amount", "an approved answer must carry the amount", "myapp://result=aprobada&identifier=ord-1",
        error=(V, "amount"))
    add("parse-approved-empty-amount", "an empty amount counts as missing", "myapp://result=aprobada&amount=&identifier=ord-1",
        error=(V, "amount"))
    for slug, text in [("comma", "1,000.00"), ("exponent", "1e2"), ("negative", "-5"), ("three-decimals", "100.001"),
                       ("encoded-space", "%20100"), ("trailing-dot", "100.")]:
        add(f"parse-amount-{slug}", f"amount '{urllib.parse.unquote(text)}' is not decimal text with at most two decimals",
            "myapp://result=aprobada&amount=" + text + "&identifier=ord-1", error=(V, "amount"))
    add("parse-amount-bad-on-declined", "a bad amount is refused even on a declined answer",
        "myapp://result=rechazada&amount=abc&identifier=ord-1", error=(V, "amount"))
    add("parse-tip-bad", "a bad tip", "myapp://" + ok_tail + "&tip=15.5.0", error=(V, "tip"))
    for slug, text in [("four", "4"), ("three-digits", "003"), ("plus-sign", "%2B3"), ("decimal", "3.0"), ("twenty-four", "24")]:
        add(f"parse-msi-{slug}", f"msi '{urllib.parse.unquote(text)}' is not 0, 3, 6, 9 or 12 in one or two digits",
            "myapp://" + ok_tail + "&msi=" + text, error=(V, "msi"))
    add("parse-creditcard-two-digits", "creditcard '42' has no last four digits", "myapp://" + ok_tail + "&creditcard=42",
        error=(V, "creditcard"))
    add("parse-creditcard-masked-tail", "creditcard ending in a mask", "myapp://" + ok_tail + "&creditcard=4242****",
        error=(V, "creditcard"))
    add("parse-creditcard-multibyte-tail", "the last four bytes (not characters) must be digits",
        "myapp://" + ok_tail + "&creditcard=123%C3%B1", error=(V, "creditcard"))
    add("parse-accounttype-unknown", "accountType must be credit or debit", "myapp://" + ok_tail + "&accountType=debito",
        error=(V, "accountType"))
    add("parse-accounttype-prepaid", "accountType 'prepaid' is refused", "myapp://" + ok_tail + "&accounttype=prepaid",
        error=(V, "accountType"))

    # -- errors: correlation
    add("parse-identifier-mismatch-case", "options.identifier is compared exactly (case-sensitive)",
        "myapp://result=aprobada&amount=1&identifier=ORD-1", error=(C, "identifier"))
    add("parse-identifier-mismatch", "an answer for another request", "myapp://result=rechazada&identifier=ord-2",
        error=(C, "identifier"))
    add("parse-identifier-mismatch-before-fields", "not for this sale comes first: an answer for another identifier "
        "with a bad amount is a mismatch, not a validation error",
        "myapp://result=aprobada&amount=1e2&identifier=ord-2", error=(C, "identifier"))
    add("parse-identifier-mismatch-before-missing-amount", "an approval for another identifier that lacks amount is a "
        "mismatch first", "myapp://result=aprobada&identifier=ord-2&transactionid=720371", error=(C, "identifier"))
    add("parse-identifier-mismatch-before-result", "an answer for another identifier without result is a mismatch first",
        "myapp://identifier=ord-2&amount=1", error=(C, "identifier"))
    add("parse-identifier-missing-with-option", "a missing identifier is a validation error, not a mismatch",
        "myapp://result=aprobada&amount=1", error=(V, "identifier"))
    add("parse-identifier-before-result", "identifier is the first field rule: neither result nor identifier names "
        "identifier", "myapp://amount=1", bare_opts, error=(V, "identifier"))
    add("parse-url-rules-before-identifier", "URL-level errors (duplicate keys) come before the identifier rules",
        "myapp://result=aprobada&amount=1&identifier=ord-2&amount=2", error=(M, "amount"))

    # -- the per-flow token (`<identifier>~<token>`)
    tok = "9f86d081884c7d659a2feaa0c55ad015"
    t_opts = {"urlScheme": "myapp", "identifier": "ord-1", "token": tok}
    add("parse-token-matches", "with a token the expected identifier is ord-1~<token>; the result names the identifier "
        "as received", "myapp://result=aprobada&amount=100.00&identifier=ord-1~" + tok + "&transactionid=720371", t_opts,
        check=value_is("identifier", "ord-1~" + tok))
    add("parse-token-encoded-tilde", "the answer's identifier is decoded before the comparison: %7E is '~'",
        "myapp://result=aprobada&amount=100.00&identifier=ord-1%7E" + tok, t_opts)
    add("parse-token-declined", "a declined answer for the flow's identifier and token",
        "myapp://result=rechazada&identifier=ord-1~" + tok, t_opts)
    add("parse-token-forged-without-token", "a forged approval with only the app's reference (no token) is refused",
        "myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1", t_opts, error=(C, "identifier"))
    add("parse-token-other-token", "an answer with another flow's token is refused",
        "myapp://result=aprobada&amount=100.00&identifier=ord-1~" + "0" * 32, t_opts, error=(C, "identifier"))
    add("parse-token-case", "the token compares exactly (case)",
        "myapp://result=aprobada&amount=100.00&identifier=ord-1~" + tok.upper(), t_opts, error=(C, "identifier"))
    add("parse-token-prefix", "a prefix of the token", "myapp://result=aprobada&amount=100.00&identifier=ord-1~" + tok[:-1],
        t_opts, error=(C, "identifier"))
    add("parse-token-other-reference", "the right token with another app reference",
        "myapp://result=aprobada&amount=100.00&identifier=ord-2~" + tok, t_opts, error=(C, "identifier"))
    add("parse-token-forged-missing-amount", "a forged answer without token that also lacks amount: mismatch first",
        "myapp://result=aprobada&identifier=ord-1", t_opts, error=(C, "identifier"))
    add("parse-token-plus-is-literal", "'+' is literal in POS answers: a token echoed with '+' does not match",
        "myapp://result=rechazada&identifier=ord-1+" + tok, t_opts, error=(C, "identifier"))
    add("parse-options-token-without-identifier", "options.token needs options.identifier",
        "myapp://result=rechazada&identifier=ord-1~" + tok, {"urlScheme": "myapp", "token": tok}, error=(V, "token"))
    add("parse-options-token-number", "options.token of the wrong JSON type", "myapp://" + ok_tail,
        {"urlScheme": "myapp", "identifier": "ord-1", "token": 12345678901234567}, error=("invalid_json", "token"))
    for slug, bad, why in [("empty", "", "empty"), ("short", "short", "5 characters"),
                           ("15-chars", "0123456789abcde", "15 characters"), ("129-chars", "t" * 129, "129 characters"),
                           ("ampersand", "0123456789abcdef&x", "'&'"), ("space", "0123456789 abcdef", "a space")]:
        add(f"parse-options-token-{slug}", f"options.token follows the nonce rule: {why} is refused", "myapp://" + ok_tail,
            with_(t_opts, token=bad), error=(V, "token"))
    add("parse-options-token-null", "options.token null counts as absent", "myapp://" + ok_tail,
        {"urlScheme": "myapp", "identifier": "ord-1", "token": None})

    # -- transactionid: 1 to 128 printable ASCII bytes (it is kept in the refund ledger)
    add("parse-transactionid-128", "a transactionid of 128 printable ASCII bytes is accepted",
        "myapp://" + ok_tail + "&transactionid=" + "T" * 128, check=value_is("transactionid", "T" * 128))
    add("parse-transactionid-punctuation", "every printable ASCII character from '!' to '~' may appear",
        "myapp://" + ok_tail + "&transactionid=" + urllib.parse.quote("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", safe=""),
        check=value_is("transactionid", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"))
    add("parse-transactionid-empty-absent", "an empty transactionid counts as absent (as every known key)",
        "myapp://" + ok_tail + "&transactionid=", check=lambda r: "transactionid" not in r)
    for slug, text, why in [("129", "T" * 129, "129 bytes"), ("space", "720%20371", "an encoded space"),
                            ("non-ascii", "72%C3%B1", "a non-ASCII letter"), ("tab", "720%09371", "an encoded tab"),
                            ("del", "720%7F", "an encoded DEL")]:
        add(f"parse-transactionid-{slug}", f"a transactionid with {why} is refused", "myapp://" + ok_tail + "&transactionid=" + text,
            error=(V, "transactionid"))
    add("parse-transactionid-on-declined", "the rule applies to every answer", "myapp://result=rechazada&identifier=ord-1"
        "&transactionid=a%20b", error=(V, "transactionid"))
    add("parse-transactionid-after-accounttype", "transactionid is the last field rule",
        "myapp://" + ok_tail + "&accountType=prepaid&transactionid=a%20b", error=(V, "accountType"))
    return s


# ---- pos.parse_result --------------------------------------------------------------------

def result_cases() -> Suite:
    """Android: the POS app answers onActivityResult with extras (already decoded key/value text),
    read with the rules of a URL answer."""
    s = Suite("pos.parse_result", "result", lambda i: parse_result(i["extras"], i["options"]))
    opts = {"identifier": "ord-1"}
    V, J, C = "validation", "invalid_json", "callback_mismatch"

    def add(id_, note, extras, options=opts, error=None, check=None):
        s.add(id_, note, {"extras": extras, "options": options}, error, check)

    def value_is(key, expected):
        def check(result):
            assert result.get(key) == expected, (key, result.get(key), expected)
        return check

    ok = {"result": "aprobada", "amount": "100.00", "identifier": "ord-1", "transactionid": "720371"}
    # Issue 30: the extras Android integrations read back (Billpocket's Cordova plugin and others).
    add("result-wild-declinada", "Billpocket's own plugin compares result with 'declinada': a decline",
        {"result": "declinada", "identifier": "ord-1", "statusinfo": "Fondos insuficientes"},
        check=all_of(expect_equal("result", "declined"), expect_equal("statusinfo", "Fondos insuficientes")))
    add("result-wild-capitalized", "another app compares ignoring case with Aprobada / Rechazada / Error",
        {"result": "Aprobada", "amount": "250.00", "identifier": "ord-1", "transactionid": "9931",
         "email": "a@example.com", "phone": "5512345678"},
        check=all_of(expect_equal("result", "approved"), expect_equal("phone", "5512345678")))
    tok = "9f86d081884c7d659a2feaa0c55ad015"

    # -- ok
    add("result-approved", "an approval: the same document as the URL answer's", ok,
        check=lambda r: r == {"version": 1, "result": "approved", "identifier": "ord-1", "amount": "100.00",
                              "transactionid": "720371"})
    add("result-seed-example", "the seed's fields as extras: the reference is already text, kept exactly",
        {"result": "aprobada", "statusinfo": "", "amount": "100.00", "tip": "15.00", "reference": SEED_REFERENCE,
         "transactionid": "720371234", "identifier": "ord-1"}, check=value_is("reference", SEED_REFERENCE))
    add("result-full-approved", "every known key, typed as in a URL answer",
        {"result": "aprobada", "statusinfo": "OK", "amount": "1250.50", "tip": "125.05", "reference": "Mesa 12",
         "transactionid": "720371234", "msi": "3", "authorization": "A1B2C3", "creditcard": "************4242",
         "cardtype": "VISA", "email": "ana@example.com", "phone": "+525512345678", "arqc": "9F2608A1B2C3D4E5F6A7",
         "aid": "A0000000031010", "applabel": "VISA CREDITO", "url": "https://vouchers.example.mx/v?id=9f3",
         "identifier": "ord-1", "bank": "BBVA", "accountType": "credit", "name": "ANA PÉREZ", "bp_version": "4.3.24"},
        check=value_is("msi", 3))
    add("result-keys-any-case", "known keys match in any case; values as in URL answers (accountType lowercased)",
        {"Result": "APROBADA", "AMOUNT": "250.00", "Identifier": "ord-1", "TransactionId": "T-9", "AccountType": "Debit",
         "BP_VERSION": "4.3.24"}, check=value_is("accountType", "debit"))
    add("result-no-percent-decoding", "values are text already: '%41' stays '%41', '+' stays '+'",
        {**ok, "reference": "%41+b%20c", "promo": "%2526"},
        check=lambda r: r["reference"] == "%41+b%20c" and r["extra"] == {"promo": "%2526"})
    add("result-key-not-decoded", "keys are not percent-decoded either: '%69dentifier' is an unknown key",
        {**ok, "%69dentifier": "ord-2"}, check=value_is("extra", {"%69dentifier": "ord-2"}))
    add("result-separators-are-data", "'&' and '=' inside a value are data (nothing is split)",
        {**ok, "reference": "x&identifier=ord-2"}, check=value_is("reference", "x&identifier=ord-2"))
    add("result-usertoken-dropped", "an echoed usertoken is dropped", {**ok, "usertoken": "tok_live_123"},
        check=lambda r: "extra" not in r and "usertoken" not in r)
    add("result-usertoken-camelcase-dropped", "the Android spelling userToken is dropped too", {**ok, "userToken": "tok_live_123"},
        check=lambda r: "extra" not in r)
    add("result-unknown-keys-extra", "unknown keys go to extra as written, kept even when empty",
        {**ok, "promo": "nov", "Empty": "", "ext_ñ": "😀"}, check=value_is("extra", {"promo": "nov", "Empty": "", "ext_ñ": "😀"}))
    add("result-empty-known-values-absent", "known keys with empty values count as absent",
        {**ok, "statusinfo": "", "tip": "", "msi": "", "creditcard": "", "accountType": ""},
        check=lambda r: set(r) == {"version", "result", "identifier", "amount", "transactionid"})
    add("result-declined", "a declined answer needs no amount; statusinfo may hold a line break (only U+0000 is refused)",
        {"result": "rechazada", "statusinfo": "Fondos insuficientes\nReintente", "identifier": "ord-1"},
        check=value_is("statusinfo", "Fondos insuficientes\nReintente"))
    add("result-error", "result error", {"result": "error", "statusinfo": "Lector desconectado", "identifier": "ord-1"})
    add("result-emoji-value", "a 4-byte character in a value", {**ok, "name": "ANA 🎉"}, check=value_is("name", "ANA 🎉"))
    add("result-without-expected-identifier", "without options.identifier any identifier is accepted",
        {**ok, "identifier": "anything"}, {})
    add("result-token", "with a token the expected identifier is ord-1~<token>",
        {**ok, "identifier": "ord-1~" + tok}, {"identifier": "ord-1", "token": tok}, check=value_is("identifier", "ord-1~" + tok))

    # -- errors: values that are not text
    for slug, value, why in [("number", 100, "a number"), ("boolean", True, "a boolean"), ("null", None, "null"),
                             ("object", {"value": "100.00"}, "an object"), ("array", ["100.00"], "an array")]:
        add(f"result-value-{slug}", f"every value must be a string: amount as {why}", {**ok, "amount": value},
            error=(J, "amount"))
    add("result-value-number-unknown-key", "an unknown key with a non-string value is refused too", {**ok, "promo": 5},
        error=(J, "promo"))
    add("result-extras-array", "the extras must be a JSON object", [["result", "aprobada"]], error=(J, ANY_FIELD))
    add("result-extras-string", "the extras must be a JSON object, not URL text", "result=aprobada&identifier=ord-1",
        error=(J, ANY_FIELD))

    # -- errors: keys, U+0000
    for slug, extras in [("result", {**ok, "RESULT": "rechazada"}), ("identifier", {**ok, "Identifier": "ord-2"}),
                         ("usertoken", {**ok, "usertoken": "a", "userToken": "b"}), ("extra", {**ok, "promo": "1", "PROMO": "2"})]:
        add(f"result-duplicate-key-{slug}", f"two {slug} keys differing only in case are refused (the error names the "
            "second key as written; which one is second depends on the JSON loader's key order, so only the code is checked)",
            extras, error=(V, ANY_FIELD))
    add("result-nul-in-value", "U+0000 in a value is refused", {**ok, "reference": "a\x00b"}, error=(V, "reference"))
    add("result-nul-in-identifier", "U+0000 after the identifier (C string truncation attack)",
        {**ok, "identifier": "ord-1\x00x"}, error=(V, "identifier"))

    # -- errors: fields, in the URL answer's order
    add("result-missing-identifier", "identifier is required", {"result": "aprobada", "amount": "1"}, error=(V, "identifier"))
    add("result-empty-identifier", "an empty identifier counts as missing", {**ok, "identifier": ""}, error=(V, "identifier"))
    add("result-identifier-before-result", "no result and no identifier: identifier first", {"amount": "1"}, {},
        error=(V, "identifier"))
    add("result-wrong-identifier", "an answer for another request", {**ok, "identifier": "ord-2"}, error=(C, "identifier"))
    add("result-wrong-identifier-missing-amount", "another identifier and no amount: not for this sale first",
        {"result": "aprobada", "identifier": "ord-2"}, error=(C, "identifier"))
    add("result-wrong-identifier-missing-result", "another identifier and no result: not for this sale first",
        {"identifier": "ord-2"}, error=(C, "identifier"))
    add("result-identifier-not-decoded", "ord%2D1 is not ord-1 (no percent-decoding)", {**ok, "identifier": "ord%2D1"},
        error=(C, "identifier"))
    add("result-token-forged", "a forged approval with the app's reference but without the token",
        ok, {"identifier": "ord-1", "token": tok}, error=(C, "identifier"))
    add("result-token-other", "another flow's token", {**ok, "identifier": "ord-1~" + "0" * 32},
        {"identifier": "ord-1", "token": tok}, error=(C, "identifier"))
    add("result-missing-result", "result is required", {"amount": "1", "identifier": "ord-1"}, error=(V, "result"))
    add("result-unknown-result", "an unknown word is 'unrecognized' (never an approval), the word kept",
        {**ok, "result": "approved"}, check=all_of(expect_equal("result", "unrecognized"), expect_equal("result_word", "approved")))
    for word in ["declinada", "Declinada", "Rechazada", "Error"]:
        add(f"result-word-{word.lower()}-{'lower' if word.islower() else 'title'}", f"'{word}' as Android extras (any case)", {**ok, "result": word},
            check=expect_equal("result", "error" if word == "Error" else "declined"))
    # Android result extras as integrations send them (issue 30): the merchant's PIN and the user
    # token echoed are secrets, dropped in any case; email, phone and capitalized words kept.
    add("result-android-pin-dropped", "an echoed pin (any case) is dropped like the user token, never stored or printed",
        {**ok, "PIN": "0427", "userToken": "tok-secret", "email": "cliente@example.com", "phone": "5512345678"},
        check=all_of(expect_equal("email", "cliente@example.com"), lacks("0427", "tok-secret")))
    add("result-android-pin-lowercase", "pin in lowercase is dropped too", {**ok, "pin": "9876"},
        check=lacks("9876"))
    add("result-approved-without-amount", "an approval must carry its amount", {"result": "aprobada", "identifier": "ord-1"},
        error=(V, "amount"))
    add("result-amount-bad", "amount must be decimal text", {**ok, "amount": "1e2"}, error=(V, "amount"))
    add("result-amount-padded", "a space is not trimmed", {**ok, "amount": " 100.00"}, error=(V, "amount"))
    add("result-tip-bad", "a bad tip", {**ok, "tip": "15.5.0"}, error=(V, "tip"))
    add("result-msi-bad", "msi 4", {**ok, "msi": "4"}, error=(V, "msi"))
    add("result-creditcard-bad", "creditcard must end in four digits", {**ok, "creditcard": "12ab"}, error=(V, "creditcard"))
    add("result-accounttype-bad", "accountType must be credit or debit", {**ok, "accountType": "prepaid"},
        error=(V, "accountType"))
    add("result-transactionid-space", "transactionid must be printable ASCII without spaces", {**ok, "transactionid": "720 371"},
        error=(V, "transactionid"))
    add("result-transactionid-129", "transactionid over 128 bytes", {**ok, "transactionid": "T" * 129}, error=(V, "transactionid"))

    # -- errors: options
    add("result-options-unknown-key", "urlScheme is not an option here (there is no URL)", ok,
        {"urlScheme": "myapp", "identifier": "ord-1"}, error=(V, "urlScheme"))
    add("result-options-identifier-number", "options.identifier of the wrong JSON type", ok, {"identifier": 1},
        error=(J, "identifier"))
    add("result-options-token-without-identifier", "options.token needs options.identifier", ok, {"token": tok},
        error=(V, "token"))
    add("result-options-token-short", "options.token follows the nonce rule", ok, {"identifier": "ord-1", "token": "short"},
        error=(V, "token"))
    add("result-options-token-number", "options.token of the wrong JSON type", ok, {"identifier": "ord-1", "token": 7},
        error=(J, "token"))
    return s


# ---- pos.refund_check -------------------------------------------------------------------

def refund_cases() -> Suite:
    s = Suite("pos.refund_check", "refund", lambda i: refund_check(i["check"]))
    V, J = "validation", "invalid_json"

    def add(id_, note, check, error=None, expect_codes=None, extra_check=None):
        def verify(result):
            if expect_codes is not None:
                got = [r["code"] for r in result["reasons"]]
                assert got == expect_codes, (id_, got, expect_codes)
            if extra_check is not None:
                extra_check(result)
        s.add(id_, note, {"check": check}, error, verify if error is None else None)

    def sale_at(approved_at, amount="100.00", **more):
        return {"transactionid": "T-1", "amount": amount, "approved_at": approved_at, **more}

    def chk(approved_at, now, amount=DROP, sale_amount="100.00", **sale_more):
        doc = {"sale": sale_at(approved_at, sale_amount, **sale_more), "now": now}
        if amount is not DROP:
            doc["amount"] = amount
        return doc

    t0 = mx_local(2026, 3, 10, 14, 30, 0)  # a Tuesday afternoon sale
    assert mx_deadline(t0) == mx_local(2026, 3, 10, 23) == utc(2026, 3, 11, 5)
    assert mx_iso(t0) == "2026-03-10T14:30:00-06:00"
    deadline0 = mx_deadline(t0)

    def warns(codes):
        def check(result):
            assert [w["code"] for w in result["warnings"]] == codes, (result["warnings"], codes)
        return check

    def all_true(*checks):
        def check(result):
            for c in checks:
                assert c(result) is not False
        return check

    def iso_is(key, expected):
        def check(result):
            assert result[key] == expected, (key, result[key], expected)
        return check

    # -- window boundaries
    add("refund-eligible-partial", "an approved sale, a partial refund, well inside the window", chk(t0, t0 + 3600, "40.00", bp_version="4.3.24"),
        expect_codes=[])
    add("refund-now-equals-approved", "now = approval second: too soon", chk(t0, t0), expect_codes=["too_soon"])
    add("refund-eligible-from-minus-one", "now = eligible_from - 1: too soon", chk(t0, t0 + 59), expect_codes=["too_soon"])
    add("refund-eligible-from-exact", "now = eligible_from (approval + 60 s): eligible", chk(t0, t0 + 60), expect_codes=[])
    add("refund-deadline-minus-one", "now = deadline - 1 (22:59:59 local): eligible", chk(t0, deadline0 - 1), expect_codes=[],
        extra_check=iso_is("deadline_local", "2026-03-10T23:00:00-06:00"))
    add("refund-deadline-exact", "now = deadline (23:00:00 local): past the deadline", chk(t0, deadline0), expect_codes=["past_deadline"])
    t_late = mx_local(2026, 3, 10, 22, 59, 30)
    add("refund-sale-225930-before-eligible", "sale at 22:59:30 local, now 22:59:50: too soon, deadline not yet reached",
        chk(t_late, t_late + 20), expect_codes=["too_soon"])
    add("refund-sale-225930-empty-window", "sale at 22:59:30 local, now 23:00:10: eligible_from is after the deadline, both reasons",
        chk(t_late, t_late + 40), expect_codes=["too_soon", "past_deadline"],
        extra_check=iso_is("eligible_from_local", "2026-03-10T23:00:30-06:00"))
    add("refund-sale-225930-after-both", "sale at 22:59:30 local, now 23:00:30: past the deadline only",
        chk(t_late, t_late + 60), expect_codes=["past_deadline"])
    t_2330 = mx_local(2025, 7, 15, 23, 30, 0)
    assert t_2330 == utc(2025, 7, 16, 5, 30)
    add("refund-sale-2330-local-next-utc-day", "sale at 23:30 local on July 15 (05:30 UTC July 16): its deadline is 23:00 July 15, before the sale",
        chk(t_2330, t_2330 + 120), expect_codes=["past_deadline"],
        extra_check=iso_is("deadline_local", "2025-07-15T23:00:00-06:00"))
    t_midnight = mx_local(2026, 1, 20, 0, 0, 0)
    add("refund-sale-local-midnight", "sale at 00:00:00 local: the whole day until 23:00 is open",
        chk(t_midnight, t_midnight + 60), expect_codes=[], extra_check=iso_is("deadline_local", "2026-01-20T23:00:00-06:00"))
    add("refund-sale-local-midnight-last-second", "sale at 00:00:00 local, now 22:59:59 local: eligible",
        chk(t_midnight, mx_local(2026, 1, 20, 22, 59, 59)), expect_codes=[])
    t_235959 = mx_local(2026, 1, 20, 23, 59, 59)
    add("refund-sale-235959-local", "sale at 23:59:59 local: its deadline (23:00 same day) has passed",
        chk(t_235959, t_235959 + 60), expect_codes=["past_deadline"])
    add("refund-sale-235959-local-too-soon", "sale at 23:59:59 local, now 30 s later: too soon and past the deadline",
        chk(t_235959, t_235959 + 30), expect_codes=["too_soon", "past_deadline"])
    t_a = utc(2026, 2, 4, 5, 59, 59)  # 23:59:59 local on Feb 3
    t_b = utc(2026, 2, 4, 6, 0, 0)  # 00:00:00 local on Feb 4
    now_ab = utc(2026, 2, 4, 6, 2, 0)
    add("refund-sale-055959-utc", "sale at 05:59:59 UTC is 23:59:59 of the previous Mexico City day: past the deadline",
        chk(t_a, now_ab), expect_codes=["past_deadline"], extra_check=iso_is("deadline_local", "2026-02-03T23:00:00-06:00"))
    add("refund-sale-060000-utc", "sale at 06:00:00 UTC is 00:00:00 Mexico City: a new day, eligible",
        chk(t_b, now_ab), expect_codes=[], extra_check=iso_is("deadline_local", "2026-02-04T23:00:00-06:00"))
    add("refund-yesterdays-sale", "a sale from yesterday checked this morning: past the deadline",
        chk(mx_local(2026, 3, 9, 10, 0, 0), mx_local(2026, 3, 10, 9, 0, 0)), expect_codes=["past_deadline"])
    t_nye = mx_local(2025, 12, 31, 22, 0, 0)
    add("refund-new-years-eve", "deadline on Dec 31 local is Jan 1 in UTC; ISO text stays local",
        chk(t_nye, t_nye + 1800), expect_codes=[], extra_check=iso_is("deadline_local", "2025-12-31T23:00:00-06:00"))
    add("refund-new-years-eve-past", "on Dec 31 at 23:00 local (05:00 UTC Jan 1) the window is closed",
        chk(t_nye, utc(2026, 1, 1, 5, 0, 0)), expect_codes=["past_deadline"])
    t_feb = mx_local(2025, 2, 28, 8, 15, 0)
    add("refund-end-of-february", "a sale on Feb 28 2025 (not a leap year)", chk(t_feb, t_feb + 61, "100"), expect_codes=[])
    add("refund-now-before-approval", "now before the approval (clock skew): too soon", chk(t0, t0 - 300), expect_codes=["too_soon"])
    add("refund-epoch-zero", "approved_at 0 is in range: 1969-12-31 18:00 local, deadline 23:00 that day",
        chk(0, 60), expect_codes=[], extra_check=iso_is("deadline_local", "1969-12-31T23:00:00-06:00"))
    add("refund-epoch-max", "approved_at and now at the largest accepted epoch second",
        chk(MAX_EPOCH, MAX_EPOCH), expect_codes=["too_soon"])

    # -- amounts
    add("refund-amount-default-whole-sale", "no refund amount: the sale's amount is refunded", chk(t0, t0 + 600),
        expect_codes=[], extra_check=iso_is("refund_amount", "100.00"))
    add("refund-amount-equal", "a refund equal to the sale is allowed", chk(t0, t0 + 600, "100.00"), expect_codes=[])
    add("refund-amount-equal-different-text", "'100' equals '100.00'", chk(t0, t0 + 600, "100"), expect_codes=[])
    add("refund-amount-one-centavo-more", "100.01 on a 100.00 sale exceeds the original", chk(t0, t0 + 600, "100.01"),
        expect_codes=["amount_exceeds_original"])
    add("refund-amount-minor-units", "refund amount as integer minor units", chk(t0, t0 + 600, 4000),
        expect_codes=[], extra_check=iso_is("refund_amount", "40.00"))
    add("refund-sale-amount-minor-units-exceeded", "sale amount as minor units, larger refund as text",
        chk(t0, t0 + 600, "50.01", sale_amount=5000), expect_codes=["amount_exceeds_original"])
    add("refund-amount-null", "a null refund amount counts as absent", chk(t0, t0 + 600, None), expect_codes=[])
    add("refund-all-reasons", "all four reasons, in order", chk(t_late, t_late + 40, "150.00", bp_version="4.3"),
        expect_codes=["too_soon", "past_deadline", "amount_exceeds_original", "pos_app_too_old"])

    # -- versions
    for slug, version, codes in [
        ("4-3", "4.3", ["pos_app_too_old"]), ("4-3-24", "4.3.24", []), ("4-3-24-0", "4.3.24.0", []),
        ("4-10", "4.10", []), ("4-3-24-build", "4.3.24 (512)", []), ("4-3-23", "4.3.23", ["pos_app_too_old"]),
        ("4-3-3", "4.3.3", ["pos_app_too_old"]), ("4", "4", ["pos_app_too_old"]), ("5", "5", []),
        ("4-3-25", "4.3.25", []), ("4-3-24-beta", "4.3.24-beta", []), ("3-99-99", "3.99.99", ["pos_app_too_old"]),
    ]:
        verdict = "too old" if codes else "new enough"
        add(f"refund-version-{slug}", f"bp_version '{version}' is {verdict} (numeric comparison, missing parts are 0)",
            chk(t0, t0 + 600, bp_version=version), expect_codes=codes)
    add("refund-version-null", "a null bp_version counts as unknown: no version check, the warning says so",
        chk(t0, t0 + 600, bp_version=None), expect_codes=[], extra_check=warns(["pos_app_version_unknown"]))
    add("refund-version-absent-warning", "without bp_version the verdict warns that the version is unknown (not blocking)",
        chk(t0, t0 + 600), expect_codes=[], extra_check=all_true(warns(["pos_app_version_unknown"]),
                                                                 lambda r: r["eligible"] is True))
    add("refund-version-absent-warning-not-eligible", "the warning does not change the verdict: too soon stays too soon",
        chk(t0, t0), expect_codes=["too_soon"], extra_check=warns(["pos_app_version_unknown"]))
    add("refund-version-known-no-warning", "a known bp_version: no warning (empty array)",
        chk(t0, t0 + 600, bp_version="4.3.24"), expect_codes=[], extra_check=warns([]))
    add("refund-version-old-no-warning", "a known old bp_version: a reason, no warning",
        chk(t0, t0 + 600, bp_version="4.3.20"), expect_codes=["pos_app_too_old"], extra_check=warns([]))

    # -- errors
    base = chk(t0, t0 + 600)
    add("refund-unknown-key", "an unknown key in check", {**base, "currency": "MXN"}, (V, "currency"))
    add("refund-unknown-sale-key", "an unknown key in sale is named with its path",
        {**base, "sale": {**base["sale"], "approvedAt": t0}}, (V, "sale.approvedAt"))
    add("refund-missing-transactionid", "sale.transactionid is required",
        {**base, "sale": with_(base["sale"], transactionid=DROP)}, (V, "sale.transactionid"))
    add("refund-empty-transactionid", "sale.transactionid must not be empty",
        {**base, "sale": with_(base["sale"], transactionid="")}, (V, "sale.transactionid"))
    # Issue 24: the ledger's one transactionid rule, wherever an id enters.
    for slug, bad, why in [("space", "720 371", "a space"), ("non-ascii", "72037ñ", "non-ASCII text"),
                           ("129-chars", "7" * 129, "129 characters"), ("control", "7203\t71", "a control character")]:
        add(f"refund-transactionid-{slug}", f"sale.transactionid with {why} is refused (the ledger's rule)",
            {**base, "sale": with_(base["sale"], transactionid=bad)}, (V, "sale.transactionid"))
    add("refund-transactionid-128-chars", "a transactionid of 128 printable characters is accepted",
        {**base, "sale": with_(base["sale"], transactionid="7" * 128)}, expect_codes=[])
    add("refund-transactionid-number", "sale.transactionid of the wrong JSON type",
        {**base, "sale": with_(base["sale"], transactionid=720371234)}, (J, "sale.transactionid"))
    add("refund-missing-sale-amount", "sale.amount is required", {**base, "sale": with_(base["sale"], amount=DROP)}, (V, "sale.amount"))
    add("refund-sale-amount-bad-text", "sale.amount must be decimal text", {**base, "sale": with_(base["sale"], amount="1e2")},
        (V, "sale.amount"))
    add("refund-sale-amount-boolean", "sale.amount of the wrong JSON type", {**base, "sale": with_(base["sale"], amount=True)},
        (J, "sale.amount"))
    add("refund-missing-approved-at", "sale.approved_at is required", {**base, "sale": with_(base["sale"], approved_at=DROP)},
        (V, "sale.approved_at"))
    add("refund-approved-at-null", "a null approved_at counts as missing", {**base, "sale": with_(base["sale"], approved_at=None)},
        (V, "sale.approved_at"))
    add("refund-approved-at-string", "approved_at must be a JSON integer", {**base, "sale": with_(base["sale"], approved_at=str(t0))},
        (J, "sale.approved_at"))
    add("refund-approved-at-negative", "approved_at before 1970", {**base, "sale": with_(base["sale"], approved_at=-1)},
        (V, "sale.approved_at"))
    add("refund-approved-at-too-large", "approved_at after 9999-12-31T23:59:59Z",
        {**base, "sale": with_(base["sale"], approved_at=MAX_EPOCH + 1)}, (V, "sale.approved_at"))
    add("refund-approved-at-milliseconds", "epoch milliseconds are far out of the seconds range",
        {**base, "sale": with_(base["sale"], approved_at=t0 * 1000)}, (V, "sale.approved_at"))
    add("refund-missing-now", "now is required", with_(base, now=DROP), (V, "now"))
    add("refund-now-negative", "now before 1970", with_(base, now=-1), (V, "now"))
    add("refund-now-too-large", "now after 9999", with_(base, now=MAX_EPOCH + 1), (V, "now"))
    add("refund-now-string", "now must be a JSON integer", with_(base, now="1773174000"), (J, "now"))
    add("refund-amount-zero-text", "a refund amount of 0 is refused", with_(base, amount="0.00"), (V, "amount"))
    add("refund-amount-zero-integer", "a refund amount of 0 minor units is refused", with_(base, amount=0), (V, "amount"))
    add("refund-amount-bad-text", "refund amount with three decimals", with_(base, amount="40.001"), (V, "amount"))
    add("refund-amount-negative", "a negative refund amount", with_(base, amount="-40.00"), (V, "amount"))
    add("refund-amount-array", "refund amount of the wrong JSON type", with_(base, amount=["40.00"]), (J, "amount"))
    add("refund-sale-not-object", "sale must be an object", with_(base, sale="T-1"), (J, "sale"))
    for slug, version in [("empty", ""), ("v-prefix", "v4.3.24"), ("beta", "beta"), ("leading-dot", ".4.3.24"),
                          ("leading-space", " 4.3.24")]:
        add(f"refund-version-{slug}-invalid", f"bp_version '{version}' does not start with a digit",
            {**base, "sale": with_(base["sale"], bp_version=version)}, (V, "sale.bp_version"))
    add("refund-version-number", "bp_version must be text", {**base, "sale": with_(base["sale"], bp_version=4)}, (J, "sale.bp_version"))
    return s


# ---------------------------------------------------------------------------------------

def main(argv: list[str]) -> int:
    suites = {"build_url.json": build_cases(), "parse_response.json": parse_cases(),
              "parse_result.json": result_cases(), "refund_check.json": refund_cases()}
    return vectorlib.main(argv, POS_DIR, suites, min_vectors=100)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
