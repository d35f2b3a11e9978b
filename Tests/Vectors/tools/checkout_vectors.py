#!/usr/bin/env python3
"""Writes the shared hosted-checkout test vectors (Tests/Vectors/checkout/*.json).

    python3 Tests/Vectors/tools/checkout_vectors.py          # (re)write the four files
    python3 Tests/Vectors/tools/checkout_vectors.py --check  # fail if the files on disk differ

Python 3.11, standard library only. The expected answers are computed here, from the
rules of the hosted-checkout contract (docs/architecture.md "Hosted checkout" and the doc comments of
Sources/PayHandoff/Checkout), by a small independent oracle (with the helpers the generators
share, in vectorlib.py next to this file):

- the nonce rides in the path: the URL sent to the gateway is the registered return URL with
  the segment `ph_<nonce>` appended to its path (a nonce holds only RFC 3986 unreserved
  characters, so it is sent as it is), and a callback is addressed to the return URL when its
  path is the registered path (no nonce) or that path plus `/ph_<nonce>` (the nonce, raw);
- URLs are split by a small RFC 3986 splitter written below from the rules (scheme up to the
  first `:`, fragment from the first `#`, query from the first `?`, authority after `//` up
  to the next `/`, no user information, port of 1 to 5 digits up to 65535, http/https
  default ports and empty paths normalized);
- incoming query text is decoded by a byte-level decoder written in vectorlib.py from the
  rules (split on `&`, skip empty pieces, split on the first `=`, `%` + two hex digits, `+` is
  a space, keys case-sensitive) followed by Python's strict UTF-8 decoder (which refuses
  overlong forms, surrogates and code points above U+10FFFF); NUL and duplicate keys are refused;
- amounts are integer minor units, parsed and formatted with integer arithmetic only.

Nothing here runs or imports PayHandoff. Every error case in the tables states the error it
expects; the generator checks that the oracle agrees, so a table typo or an oracle bug stops
the generator instead of producing a wrong vector. Several ok cases also state literal
expected values (URLs, decoded strings) as a second check of the oracle.

Vectors are written for JSON loaders that do not keep object key order (Foundation's
JSONDecoder): no vector depends on which of two unknown keys is reported first.

Output is deterministic: same tables, same bytes.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # importing vectorlib leaves no __pycache__ folder in the tree
import vectorlib  # noqa: E402  (the helpers the generators share, next to this file)
from vectorlib import (  # noqa: E402
    DROP, MAX_MINOR_UNITS, Fail, Suite, amount_from_json, ascii_lower, check_nonce, format_amount,
    make_with, normalize_web,
)

VECTORS_DIR = Path(__file__).resolve().parent.parent
CHECKOUT_DIR = VECTORS_DIR / "checkout"

MAX_URL_BYTES = 8192
MAX_RETURN_URL_BYTES = 2048
DEFAULT_BASE_URL = "https://api.pay.ingalca.com"

# The exact warning texts of CheckoutRequest (part of the result document).
IFRAME_WARNING = (
    "iframe with an http(s) return_url: the gateway redirects the iframe's top level, not the "
    "parent page; useful only on the same domain — usually choose one of the two integrations"
)
LIVE_KEY_WARNING = (
    "a live secret key (sk_live_…) in an app can be extracted from the binary: create sessions "
    "on your backend"
)

REFUSED_RETURN_SCHEMES = {
    "javascript", "data", "file", "about", "blob", "vbscript", "filesystem", "content", "intent",
}
KINDS = {
    "cards": {"path": "/v1/cards", "id_key": "card_id", "prefix": "card_", "object": "data.registration",
              "event": "card.registered", "other": "payments"},
    "payments": {"path": "/v1/payments", "id_key": "payment_id", "prefix": "pay_", "object": "data.checkout",
                 "event": "payment.confirmed", "other": "cards"},
}
STATUSES = ("completed", "failed", "cancelled")


V = "validation"
J = "invalid_json"
M = "malformed_url"
X = "callback_mismatch"
L = "limit_exceeded"
G = "gateway_error"


def utf8_len(text: str) -> int:
    return len(text.encode("utf-8"))


def has_control_or_space(text: str) -> bool:
    return any(b <= 0x20 or b == 0x7F for b in text.encode("utf-8"))


def valid_id(kind: str, value: str) -> bool:
    prefix = KINDS[kind]["prefix"]
    return value.startswith(prefix) and len(value) > len(prefix)


# ---------------------------------------------------------------------------------------
# JSON document access (missing or null: validation; wrong type: invalid_json)

MISSING = object()


def lookup(doc, path: str):
    current = doc
    for key in path.split("."):
        if not isinstance(current, dict) or key not in current:
            return MISSING
        current = current[key]
    return current


def opt_string(doc, path: str) -> str | None:
    value = lookup(doc, path)
    if value is MISSING or value is None:
        return None
    if not isinstance(value, str):
        raise Fail(J, path)
    return value


def req_string(doc, path: str) -> str:
    value = opt_string(doc, path)
    if value is None:
        raise Fail(V, path)
    return value


def opt_typed(doc, path: str, kind: type):
    value = lookup(doc, path)
    if value is MISSING or value is None:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) != (kind is bool):
        raise Fail(J, path)
    return value


def reject_unknown(obj, allowed, prefix: str = "") -> None:
    if not isinstance(obj, dict):
        return
    for key in obj:
        if key not in allowed:
            raise Fail(V, prefix + key)


# ---------------------------------------------------------------------------------------
# URL splitting (RFC 3986 §3, no normalization beyond the comparison rules)

SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+\-.]*")  # ASCII only
HOST_BYTES = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%!$&'()*+,;=[]:")


class URLParts:
    def __init__(self, scheme, host, port, path, query, fragment):
        self.scheme, self.host, self.port = scheme, host, port
        self.path, self.query, self.fragment = path, query, fragment

    @property
    def is_web(self) -> bool:
        return self.scheme in ("http", "https")


def split_url(text: str, code: str, field: str) -> URLParts:
    """Splits `scheme:[//authority]path[?query][#fragment]`; `Fail(code, field)` if malformed."""
    scheme, colon, rest = text.partition(":")
    if not colon or not SCHEME.fullmatch(scheme):
        raise Fail(code, field)
    scheme = ascii_lower(scheme)
    rest, hash_, fragment = rest.partition("#")
    fragment = fragment if hash_ else None
    rest, question, query = rest.partition("?")
    query = query if question else None
    host = port = None
    if rest.startswith("//"):
        authority, slash, tail = rest[2:].partition("/")
        path = slash + tail
        if "@" in authority:
            raise Fail(code, field)
        port_text = None
        if authority.startswith("["):
            close = authority.find("]")
            if close < 0:
                raise Fail(code, field)
            host_text, after = authority[:close + 1], authority[close + 1:]
            if after:
                if not after.startswith(":"):
                    raise Fail(code, field)
                port_text = after[1:]
        else:
            host_text, c, port_text = authority.partition(":")
            port_text = port_text if c else None
        if any(b not in HOST_BYTES for b in host_text.encode("utf-8")):
            raise Fail(code, field)
        if port_text is not None:
            if not re.fullmatch(r"[0-9]{1,5}", port_text) or int(port_text) > 65535:
                raise Fail(code, field)
            port = int(port_text)
        host = ascii_lower(host_text)
    else:
        path = rest
    port, path = normalize_web(scheme, port, path)
    return URLParts(scheme, host, port, path, query, fragment)


# ---------------------------------------------------------------------------------------
# Query decoding: `+` is a space (WHATWG/form rules), keys case-sensitive, duplicates refused

def decode_query(query: str) -> list[tuple[str, str]]:
    return vectorlib.decode_query(query.encode("utf-8"), plus_is_space=True, case_insensitive=False)


# ---------------------------------------------------------------------------------------
# Return URLs and where the nonce rides (a path segment `ph_<nonce>` appended to the path)

NONCE_SEGMENT = "ph_"


def check_return_url(text: str) -> URLParts:
    """The registered return URL: (validation, return_url) unless it is an http(s) URL with a
    host, or a custom scheme with a non-empty host (`scheme://host…`, the host without `=` or
    `&`, which would read like a Billpocket answer) or without authority and with an absolute
    path (`scheme:/path`); no fragment, a query that decodes, and a last path segment that does
    not start with `ph_` (that would be the URL PayHandoff sent, not the registered one)."""
    def bad():
        return Fail(V, "return_url")

    if text == "" or utf8_len(text) > MAX_RETURN_URL_BYTES or has_control_or_space(text):
        raise bad()
    try:
        parts = split_url(text, M, "return_url")
    except Fail:
        raise bad() from None
    if parts.scheme in REFUSED_RETURN_SCHEMES or parts.fragment is not None:
        raise bad()
    if parts.is_web:
        if not parts.host:
            raise bad()
    elif parts.host is None:
        if not parts.path.startswith("/"):
            raise bad()
    elif parts.host == "" or "=" in parts.host or "&" in parts.host:
        raise bad()
    if parts.path.rsplit("/", 1)[-1].startswith(NONCE_SEGMENT):
        raise bad()
    if parts.query is not None:
        try:
            decode_query(parts.query)
        except Fail:
            raise bad() from None
    return parts


def return_url_with_nonce(text: str, nonce: str) -> str:
    """The URL sent to the gateway: the registered text with the segment `ph_<nonce>` appended to
    its path (no extra `/` after a path that ends with one; an http(s) empty path reads as `/`),
    the query, if any, kept after it as written. (Return URLs have no fragment.)"""
    before_query, question, query = text.partition("?")
    segment = NONCE_SEGMENT + nonce
    sent = before_query + (segment if before_query.endswith("/") else "/" + segment)
    return sent + question + query


def addressed_nonce(parts: URLParts, registered: URLParts) -> str | None:
    """Whether `parts` is addressed to the registered return URL: scheme, host and port equal
    (else (callback_mismatch, that member)) and the path either exactly the registered path (the
    callback carries no nonce: None) or that path + `/ph_` + X (+ `ph_` + X after a path that ends
    with `/`), X non-empty and without `/` (the nonce X, raw, never percent-decoded); any other
    path is (callback_mismatch, path)."""
    for name in ("scheme", "host", "port"):
        if getattr(parts, name) != getattr(registered, name):
            raise Fail(X, name)
    if parts.path == registered.path:
        return None
    prefix = registered.path + ("" if registered.path.endswith("/") else "/") + NONCE_SEGMENT
    echoed = parts.path[len(prefix):]
    if parts.path.startswith(prefix) and echoed and "/" not in echoed:
        if parts.query is None and "&" in echoed:
            # A gateway appended `&status=…` to a return URL without a query (issue 24): a nonce
            # has no `&`, so the segment's first `&` ends it; the rest is the query.
            return echoed.split("&", 1)[0]
        return echoed
    raise Fail(X, "path")


def appended_query(parts: URLParts, registered: URLParts) -> str | None:
    """The query a gateway appended with `&` right after the nonce segment of a URL without a
    query (`…/ph_<nonce>&status=completed`), or None."""
    if parts.query is not None:
        return None
    prefix = registered.path + ("" if registered.path.endswith("/") else "/") + NONCE_SEGMENT
    echoed = parts.path[len(prefix):] if parts.path.startswith(prefix) else ""
    return echoed.split("&", 1)[1] if "&" in echoed and "/" not in echoed else None


def callback_query(parts: URLParts, registered: URLParts) -> str:
    """The text the callback's parameters are read from: the query, except when the registered
    URL has a non-empty query Q and the callback's query begins with Q + `?` (a gateway appended
    `?status=…` blindly to a URL that already had a query): then the text after that `?`."""
    appended = appended_query(parts, registered)
    if appended is not None:
        return appended
    query = parts.query or ""
    own = registered.query
    if own and query.startswith(own + "?"):
        return query[len(own) + 1:]
    return query


def check_echoed_nonce(echoed: str | None, nonce: str | None, accept_unverified: bool) -> bool:
    """The nonce rule of a callback: returns `verified`. An echoed nonce must equal the session's
    (a session without one matches none); a callback without one is unverified, allowed only when
    `accept_unverified`. Any failure is (callback_mismatch, nonce)."""
    if echoed is not None:
        if nonce is None or echoed != nonce:
            raise Fail(X, "nonce")
        return True
    if not accept_unverified:
        raise Fail(X, "nonce")
    return False


def callback_document(kind: str, query: str, verified: bool, expected_id: str | None) -> dict:
    """The callback's fields, read from `query` (decoded with the checkout rules): the other
    kind's id is (callback_mismatch, that key); status must be completed, failed or cancelled;
    the id must have its prefix and equal `expected_id` when one is known; completed needs the
    id. Unknown keys (`ph_nonce` among them: it is not special any more) go to `extra`."""
    k = KINDS[kind]
    values = {}
    extra = {}
    for key, value in decode_query(query):
        if key in ("status", "card_id", "payment_id", "reason"):
            values[key] = value
        else:
            extra[key] = value
    other_key = KINDS[k["other"]]["id_key"]
    if other_key in values:
        raise Fail(X, other_key)
    status = values.get("status")
    if status not in STATUSES:
        raise Fail(V, "status")
    object_id = values.get(k["id_key"]) or None
    if object_id is not None:
        if not valid_id(kind, object_id):
            raise Fail(V, k["id_key"])
        if expected_id is not None and object_id != expected_id:
            raise Fail(X, k["id_key"])
    elif status == "completed":
        raise Fail(V, k["id_key"])
    reason = values.get("reason") or None
    result = {"version": 1, "kind": kind, "status": status, "verified": verified}
    if object_id is not None:
        result[k["id_key"]] = object_id
    if reason is not None:
        result["reason"] = reason
    if extra:
        result["extra"] = extra
    return result


def split_callback(url: str) -> URLParts:
    """Size, characters and shape of an incoming callback URL."""
    if utf8_len(url) > MAX_URL_BYTES:
        raise Fail(L, "url")
    if has_control_or_space(url):
        raise Fail(M, "url")
    return split_url(url, M, "url")


# ---------------------------------------------------------------------------------------
# Oracle: checkout.build_request

COMMON_KEYS = ["kind", "api_key", "base_url", "integration", "return_url", "nonce", "fields"]
CARD_KEYS = ["provider", "customer_id", "target_origin", "customer"]
CUSTOMER_KEYS = ["name", "lastname", "email", "phone"]


def check_base_url(text: str) -> str:
    if has_control_or_space(text):
        raise Fail(V, "base_url")
    parts = split_url(text, V, "base_url")
    loopback = parts.host in ("127.0.0.1", "localhost", "[::1]")
    if not (parts.scheme == "https" or (parts.scheme == "http" and loopback)):
        raise Fail(V, "base_url")
    if not parts.host or parts.query is not None or parts.fragment is not None:
        raise Fail(V, "base_url")
    return text.rstrip("/")


def check_origin(text: str, field: str) -> None:
    if has_control_or_space(text):
        raise Fail(V, field)
    parts = split_url(text, V, field)
    if not parts.host or parts.query is not None or parts.fragment is not None or text.count("/") != 2:
        raise Fail(V, field)


def check_email(text: str) -> None:
    local, at, domain = text.partition("@")
    if not at or "@" in domain or not local or not domain or has_control_or_space(text):
        raise Fail(V, "customer.email")


def build_request(request: dict) -> dict:
    kind = req_string(request, "kind")
    if kind not in KINDS:
        raise Fail(V, "kind")
    reject_unknown(request, COMMON_KEYS + (CARD_KEYS if kind == "cards" else []))
    api_key = req_string(request, "api_key")
    base_url = opt_string(request, "base_url")
    base_url = DEFAULT_BASE_URL if base_url is None else base_url
    integration = opt_string(request, "integration")
    integration = "browser_tab" if integration is None else integration
    if integration not in ("browser_tab", "iframe"):
        raise Fail(V, "integration")
    return_url = opt_string(request, "return_url")
    fields = opt_typed(request, "fields", dict) or {}

    body: dict = {}
    if kind == "cards":
        customer = lookup(request, "customer")
        if customer is not MISSING and customer is not None and not isinstance(customer, dict):
            raise Fail(J, "customer")
        reject_unknown(customer, CUSTOMER_KEYS, "customer.")
        origins = opt_typed(request, "target_origin", list) or []
        for i, origin in enumerate(origins):
            if not isinstance(origin, str):
                raise Fail(J, f"target_origin[{i}]")
        if customer is MISSING:
            raise Fail(V, "customer")
        provider = req_string(request, "provider")
        customer_id = req_string(request, "customer_id")
        name = req_string(request, "customer.name")
        lastname = req_string(request, "customer.lastname")
        email = req_string(request, "customer.email")
        phone = opt_string(request, "customer.phone")
        if provider == "":
            raise Fail(V, "provider")
        if customer_id == "":
            raise Fail(V, "customer_id")
        if not origins:
            raise Fail(V, "target_origin")
        for i, origin in enumerate(origins):
            check_origin(origin, f"target_origin[{i}]")
        if name == "":
            raise Fail(V, "customer.name")
        if lastname == "":
            raise Fail(V, "customer.lastname")
        check_email(email)
        if phone == "":
            raise Fail(V, "customer.phone")
        customer_doc = {"name": name, "lastname": lastname, "email": email}
        if phone is not None:
            customer_doc["phone"] = phone
        body = {"provider": provider, "customer_id": customer_id, "target_origin": origins,
                "customer": customer_doc}

    if api_key == "" or any(b <= 0x20 or b >= 0x7F for b in api_key.encode("utf-8")):
        raise Fail(V, "api_key")
    base = check_base_url(base_url)
    warnings = []
    parts = None
    if return_url is not None:
        parts = check_return_url(return_url)
        if integration == "iframe":
            if not parts.is_web:
                raise Fail(V, "return_url")
            warnings.append(IFRAME_WARNING)
    elif integration == "browser_tab":
        raise Fail(V, "return_url")
    for key, value in fields.items():
        if key == "return_url" or key in body:
            raise Fail(V, key)
        body[key] = value
    if api_key.startswith("sk_live_"):
        warnings.append(LIVE_KEY_WARNING)

    nonce = check_nonce(request.get("nonce"), "nonce")
    result: dict = {"version": 1, "kind": kind}
    sent = None
    if parts is not None:
        assert nonce is not None, "an ok vector with a return URL must pass its nonce"
        sent = return_url_with_nonce(return_url, nonce)
        body["return_url"] = sent
    result["request"] = {
        "method": "POST",
        "url": base + KINDS[kind]["path"],
        "headers": [{"name": "Authorization", "value": "Bearer " + api_key},
                    {"name": "Content-Type", "value": "application/json"}],
        "body": body,
    }
    if sent is not None:
        result["return_url"] = sent
        result["nonce"] = nonce
    result["warnings"] = warnings
    return result


# ---------------------------------------------------------------------------------------
# Oracle: checkout.parse_session

def prints_as_itself(text: str) -> bool:
    """Printable ASCII other than '"' and '\\': prints as itself inside a JSON string."""
    return all(0x20 <= ord(c) <= 0x7E and c not in '"\\' for c in text)


def check_checkout_url(url: str, field: str) -> None:
    if utf8_len(url) > MAX_URL_BYTES or has_control_or_space(url):
        raise Fail(V, field)
    parts = split_url(url, V, field)
    if parts.scheme != "https" or not parts.host:
        raise Fail(V, field)
    if '"' in url or "\\" in url:
        raise Fail(V, field)  # raw, they would outgrow the room a flow keeps for the session (issue 24)


GATEWAY_TEXT_LIMIT = 1024  # issue 35, item 6: 1 KiB as JSON text (0.3: session id 128, brand 64, token 256 bytes)


def kept_whole(text: str) -> bool:
    """A value a gateway names and a flow keeps whole (session id, brand, card token): no control
    character, at most 1 KiB as JSON text without its quotes, a '"' or '\\' counting twice (issue 35)."""
    printed = utf8_len(text) + text.count('"') + text.count("\\")
    return printed <= GATEWAY_TEXT_LIMIT and not any(ord(c) < 0x20 or ord(c) == 0x7F for c in text)


def check_session_id(session_id: str | None, field: str) -> None:
    """Kept whole (kept_whole): a flow keeps it (issues 24 and 35)."""
    if session_id is not None and not kept_whole(session_id):
        raise Fail(V, field)


def parse_session(session: dict) -> dict:
    kind = req_string(session, "kind")
    if kind not in KINDS:
        raise Fail(V, "kind")
    k = KINDS[kind]
    result: dict = {"version": 1, "kind": kind}
    if "checkout_url" in session:
        reject_unknown(session, ["version", "kind", "checkout_url", "session_id", k["id_key"]])
        url = req_string(session, "checkout_url")
        session_id = opt_string(session, "session_id")
        object_id = opt_string(session, k["id_key"])
        check_checkout_url(url, "checkout_url")
        if object_id is not None and not valid_id(kind, object_id):
            raise Fail(V, k["id_key"])
        check_session_id(session_id, "session_id")
    else:
        reject_unknown(session, ["kind", "status", "body"])
        status = opt_typed(session, "status", int)
        if status is None:
            raise Fail(V, "status")
        if not 100 <= status <= 599:
            raise Fail(V, "status")
        if not 200 <= status <= 299:
            raise Fail(G, None)
        body = session.get("body")
        url_path = k["object"] + ".checkout_url"
        url = req_string(body, url_path)
        check_checkout_url(url, url_path)
        session_id = opt_string(body, k["object"] + ".id")
        check_session_id(session_id, k["object"] + ".id")
        id_path = k["object"] + "." + k["id_key"]
        object_id = opt_string(body, id_path)
        if object_id is None:
            id_path = "data." + k["id_key"]
            object_id = opt_string(body, id_path)
        if object_id is not None and not valid_id(kind, object_id):
            raise Fail(V, id_path)
    result["checkout_url"] = url
    if session_id is not None:
        result["session_id"] = session_id
    if object_id is not None:
        result[k["id_key"]] = object_id
    return result


# ---------------------------------------------------------------------------------------
# Oracle: checkout.parse_callback

def parse_callback(url: str, options: dict) -> dict:
    """Options first (kind, return_url, nonce, accept_unverified; then expected_id), then the URL:
    size, characters, addressing, nonce, query, fields."""
    reject_unknown(options, ["kind", "return_url", "nonce", "expected_id", "accept_unverified"])
    kind = req_string(options, "kind")
    if kind not in KINDS:
        raise Fail(V, "kind")
    registered = check_return_url(req_string(options, "return_url"))
    nonce = check_nonce(options.get("nonce"), "nonce")
    accept_unverified = opt_typed(options, "accept_unverified", bool) or False
    if nonce is None and not accept_unverified:
        raise Fail(V, "nonce")  # required unless accept_unverified is true
    expected_id = opt_string(options, "expected_id")

    parts = split_callback(url)
    echoed = addressed_nonce(parts, registered)
    verified = check_echoed_nonce(echoed, nonce, accept_unverified)
    return callback_document(kind, callback_query(parts, registered), verified, expected_id)


# ---------------------------------------------------------------------------------------
# Oracle: checkout.confirmation

def confirmation(event: dict) -> dict:
    type_ = req_string(event, "type")
    kind = next((name for name, k in KINDS.items() if k["event"] == type_), None)
    if kind is None:
        raise Fail(V, "type")
    id_key = KINDS[kind]["id_key"]
    data = opt_typed(event, "data", dict)
    if data is None:
        raise Fail(V, "data")
    object_id = opt_string(event, "data." + id_key)
    if object_id is None:
        object_id = opt_string(event, "data.id")
    if object_id is None or not valid_id(kind, object_id):
        raise Fail(V, "data." + id_key)
    last_four = opt_string(event, "data.last_four")
    if last_four is not None and not re.fullmatch(r"[0-9]{4}", last_four):
        raise Fail(V, "data.last_four")
    timestamps = {}
    for key, value in data.items():
        if utf8_len(key) > 3 and key.endswith("_at"):
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (str, int)):
                raise Fail(J, "data." + key)
            # Issue 24: the first six whose name and text are at most 40 printable ASCII
            # characters other than '"' and '\' are kept; the rest is not needed and not kept.
            text = value if isinstance(value, str) else ""
            if all(prints_as_itself(t) and utf8_len(t) <= 40 for t in (key, text)):
                timestamps[key] = value
    # ... the six whose names sort first (not the first six: JSON loaders do not all keep order).
    timestamps = {key: timestamps[key] for key in sorted(timestamps)[:6]}
    brand = opt_string(event, "data.brand")
    if brand is not None and not kept_whole(brand):
        raise Fail(V, "data.brand")
    token = opt_string(event, "data.token")
    if token is not None and not kept_whole(token):
        raise Fail(V, "data.token")
    amount = lookup(event, "data.amount")
    amount = amount_from_json(None if amount is MISSING else amount, "data.amount")
    result = {"version": 1, "type": type_, id_key: object_id}
    if brand is not None:
        result["brand"] = brand
    if last_four is not None:
        result["last_four"] = last_four
    if token is not None:
        result["token"] = token
    if amount is not None:
        result["amount"] = format_amount(amount)
    result["timestamps"] = timestamps
    return result


# ---------------------------------------------------------------------------------------
# Case tables

with_ = make_with(deep_copy=True)  # a changed document shares nothing with `base`


NONCE_A = "4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99"  # the shape ReturnURL.makeNonce produces
NONCE_B = "Ab-9.x_Y~z0123456789"  # every kind of unreserved character
RETURN_URL = "fixapp://checkout-callback"
UNIVERSAL_LINK = "https://tuapp.com/checkout-callback"


def expect_equal(path: str, expected):
    def check(result):
        got = result
        for key in path.split("."):
            got = got[key] if isinstance(got, dict) else got[int(key)]
        assert got == expected, (path, got, expected)
    return check


def no_key(key: str):
    def check(result):
        assert key not in result, (key, result)
    return check


def all_of(*checks):
    def check(result):
        for c in checks:
            c(result)
    return check


# ---- checkout.build_request --------------------------------------------------------------

def build_cases() -> Suite:
    s = Suite("checkout.build_request", "build", lambda i: build_request(i["request"]), detach=True)

    def add(id_, note, request, error=None, check=None):
        s.add(id_, note, {"request": request}, error, check)

    card = {
        "kind": "cards", "api_key": "sk_test_51Hx9abc", "return_url": RETURN_URL, "nonce": NONCE_A,
        "provider": "dinelco", "customer_id": "cus_1", "target_origin": ["https://fix.example.com"],
        "customer": {"name": "Juan", "lastname": "Pérez", "email": "juan@example.com", "phone": "+595981234567"},
    }
    pay = {"kind": "payments", "api_key": "sk_test_51Hx9abc", "return_url": RETURN_URL, "nonce": NONCE_A,
           "fields": {"amount": 150000, "currency": "PYG", "description": "Pedido #42 & más"}}

    def customer(**changes):
        return with_(card["customer"], **changes)

    # -- ok: cards
    add("build-card-seed-example", "the seed's card registration: POST /v1/cards, Bearer key, JSON content type, "
        "the nonce in the path segment ph_<nonce> of the return URL",
        card, check=all_of(
            expect_equal("request.url", "https://api.pay.ingalca.com/v1/cards"),
            expect_equal("return_url", "fixapp://checkout-callback/ph_" + NONCE_A),
            expect_equal("request.body.return_url", "fixapp://checkout-callback/ph_" + NONCE_A),
            expect_equal("request.headers.0.value", "Bearer sk_test_51Hx9abc"),
            expect_equal("warnings", [])))
    add("build-card-without-phone", "customer.phone is optional and absent from the body when not given",
        with_(card, customer=customer(phone=DROP)))
    add("build-card-null-phone", "a null customer.phone counts as absent", with_(card, customer=customer(phone=None)))
    add("build-card-reverse-dns-return-url", "a reverse-DNS custom scheme return URL (com.fix.app://return)",
        with_(card, return_url="com.fix.app://return"),
        check=expect_equal("return_url", "com.fix.app://return/ph_" + NONCE_A))
    add("build-card-single-slash-return-url", "a custom scheme with a path and no authority (com.fix.app:/return)",
        with_(card, return_url="com.fix.app:/return"), check=expect_equal("return_url", "com.fix.app:/return/ph_" + NONCE_A))
    add("build-card-universal-link-return-url", "an https universal link / App Link as return URL",
        with_(card, return_url=UNIVERSAL_LINK),
        check=expect_equal("return_url", UNIVERSAL_LINK + "/ph_" + NONCE_A))
    add("build-card-several-origins", "several target origins, with ports and an http loopback origin, in order",
        with_(card, target_origin=["https://fix.example.com", "https://pay.fix.example.com:8443", "http://localhost:3000"]))
    add("build-card-origin-ipv6", "an IPv6 literal origin with a port", with_(card, target_origin=["http://[::1]:8080"]))
    add("build-card-extra-fields", "extra body fields are carried through unchanged, nested values included",
        with_(card, fields={"metadata": {"order": "42", "tags": ["a", "b"]}, "locale": "es-PY", "save": True}),
        check=expect_equal("request.body.metadata", {"order": "42", "tags": ["a", "b"]}))
    add("build-card-live-key-warning", "a live secret key is accepted with a warning (it belongs on the backend)",
        with_(card, api_key="sk_live_51Hx9abc"), check=expect_equal("warnings", [LIVE_KEY_WARNING]))
    add("build-card-iframe-https-return-url", "iframe with an https return URL: accepted with the iframe warning",
        with_(card, integration="iframe", return_url="https://fix.example.com/checkout-callback"),
        check=expect_equal("warnings", [IFRAME_WARNING]))
    add("build-card-iframe-live-key-both-warnings", "iframe + https return URL + live key: both warnings, iframe first",
        with_(card, integration="iframe", return_url="https://fix.example.com/cb", api_key="sk_live_x"),
        check=expect_equal("warnings", [IFRAME_WARNING, LIVE_KEY_WARNING]))
    add("build-card-iframe-without-return-url", "classic iframe + postMessage: no return_url anywhere and no nonce in the result",
        with_(card, integration="iframe", return_url=DROP, nonce=DROP),
        check=all_of(no_key("return_url"), no_key("nonce"), expect_equal("warnings", [])))
    add("build-card-iframe-without-return-url-with-nonce", "a given nonce is still validated but unused without a return URL",
        with_(card, integration="iframe", return_url=DROP), check=no_key("nonce"))
    add("build-card-explicit-browser-tab", "integration browser_tab is the default, also when written",
        with_(card, integration="browser_tab"))
    add("build-card-customer-unicode", "customer names with accents and emoji are carried unchanged",
        with_(card, customer=customer(name="José María", lastname="Ñandutí 🇵🇾")))
    add("build-card-email-plus-address", "an e-mail with '+' and subdomains", with_(card, customer=customer(email="juan+pay@mail.example.com.py")))

    # -- ok: payments
    add("build-payment-seed-example", "payment: POST /v1/payments with the host's fields and return_url",
        pay, check=all_of(expect_equal("request.url", "https://api.pay.ingalca.com/v1/payments"),
                          expect_equal("request.body.description", "Pedido #42 & más")))
    add("build-payment-minimal", "a payment without extra fields: the body is only return_url",
        with_(pay, fields=DROP), check=expect_equal("request.body", {"return_url": RETURN_URL + "/ph_" + NONCE_A}))
    add("build-payment-card-named-fields-allowed", "provider/customer_id/customer are ordinary fields on a payment",
        with_(pay, fields={"provider": "dinelco", "customer_id": "cus_1", "customer": {"name": "Ana"}, "target_origin": []}))
    add("build-payment-return-url-own-query", "the host's own query is kept after the nonce segment",
        with_(pay, return_url="fixapp://checkout-callback?src=app"),
        check=expect_equal("return_url", "fixapp://checkout-callback/ph_" + NONCE_A + "?src=app"))
    add("build-payment-return-url-empty-query", "a return URL ending in '?' keeps its '?' after the nonce segment",
        with_(pay, return_url="fixapp://cb?"), check=expect_equal("return_url", "fixapp://cb/ph_" + NONCE_A + "?"))
    add("build-payment-return-url-trailing-ampersand", "a return URL's query ending in '&' is kept as written",
        with_(pay, return_url="fixapp://cb?src=app&"),
        check=expect_equal("return_url", "fixapp://cb/ph_" + NONCE_A + "?src=app&"))
    add("build-payment-return-url-encoded-query", "an escaped query in the return URL is kept as written",
        with_(pay, return_url="https://tuapp.com/cb?next=%2Fhome&q=a+b"),
        check=expect_equal("return_url", "https://tuapp.com/cb/ph_" + NONCE_A + "?next=%2Fhome&q=a+b"))
    # The placement examples of the rule, one by one.
    for slug, registered, sent, why in [
        ("https-path", "https://shop.example/pay/return", "https://shop.example/pay/return/ph_", "an https path"),
        ("https-trailing-slash", "https://shop.example/pay/return/", "https://shop.example/pay/return/ph_",
         "a path ending in '/' (no second '/')"),
        ("https-empty-path", "https://shop.example", "https://shop.example/ph_", "an https URL without path (reads as '/')"),
        ("https-root", "https://shop.example/", "https://shop.example/ph_", "the root path"),
        ("custom-trailing-slash", "fixapp://checkout-callback/", "fixapp://checkout-callback/ph_",
         "a custom scheme with host and path '/'"),
        ("custom-single-slash-root", "com.fix.app:/", "com.fix.app:/ph_", "a custom scheme without authority and path '/'"),
        ("https-port-and-query", "https://shop.example:8443/r?a=1&b=2", "https://shop.example:8443/r/ph_{}?a=1&b=2",
         "a port and a query"),
    ]:
        expected = sent.format(NONCE_A) if "{}" in sent else sent + NONCE_A
        add(f"build-payment-nonce-segment-{slug}", f"the nonce segment after {why}",
            with_(pay, return_url=registered), check=all_of(expect_equal("return_url", expected),
                                                           expect_equal("request.body.return_url", expected)))
    add("build-payment-return-url-with-ph-nonce-query", "ph_nonce is not special any more: a return URL may carry "
        "its own ph_nonce query parameter (it comes back as extra)",
        with_(pay, return_url="fixapp://cb?ph_nonce=abc"), check=expect_equal("return_url", "fixapp://cb/ph_" + NONCE_A + "?ph_nonce=abc"))
    add("build-payment-return-url-ph-inside-segment", "only a last segment that starts with ph_ is refused: 'graph_x' "
        "and a 'ph_' segment before the last are fine",
        with_(pay, return_url="https://shop.example/ph_old/graph_x"),
        check=expect_equal("return_url", "https://shop.example/ph_old/graph_x/ph_" + NONCE_A))
    add("build-payment-return-url-host-starts-with-ph", "a host that starts with ph_ is not a path segment",
        with_(pay, return_url="fixapp://ph_host"), check=expect_equal("return_url", "fixapp://ph_host/ph_" + NONCE_A))
    add("build-payment-return-url-uppercase-scheme", "scheme case is kept as written in the sent URL",
        with_(pay, return_url="FixApp://Checkout-Callback"))
    add("build-payment-return-url-with-port", "an http(s) return URL with a port", with_(pay, return_url="https://tuapp.com:8443/cb"))
    add("build-payment-return-url-2048-bytes", "a return URL of exactly 2048 bytes is accepted",
        with_(pay, return_url="https://tuapp.com/" + "a" * (2048 - 18)))
    add("build-payment-iframe-without-return-url", "payment in an iframe without return_url",
        with_(pay, integration="iframe", return_url=DROP, nonce=DROP),
        check=all_of(no_key("return_url"), no_key("nonce"), expect_equal("request.body", pay["fields"])))
    add("build-payment-nonce-unreserved", "a nonce may use every RFC 3986 unreserved character; it is sent unescaped",
        with_(pay, nonce=NONCE_B), check=expect_equal("return_url", RETURN_URL + "/ph_" + NONCE_B))
    add("build-payment-nonce-16-chars", "the shortest nonce: 16 characters", with_(pay, nonce="0123456789abcdef"))
    add("build-payment-nonce-128-chars", "the longest nonce: 128 characters", with_(pay, nonce="Zz9-" * 32))
    add("build-payment-null-optionals", "null base_url, integration and fields count as absent (defaults)",
        with_(pay, base_url=None, integration=None, fields=None),
        check=expect_equal("request.url", "https://api.pay.ingalca.com/v1/payments"))
    add("build-payment-api-key-punctuation", "an API key may hold any printable ASCII character",
        with_(pay, api_key="sk_test_!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"))
    add("build-payment-uppercase-live-prefix-no-warning", "only the exact prefix 'sk_live_' warns", with_(pay, api_key="SK_LIVE_abc"),
        check=expect_equal("warnings", []))

    # -- ok: base URLs
    add("build-base-url-trailing-slash", "a trailing '/' of the base URL is removed",
        with_(pay, base_url="https://sandbox.pay.ingalca.com/"),
        check=expect_equal("request.url", "https://sandbox.pay.ingalca.com/v1/payments"))
    add("build-base-url-path-prefix", "a path prefix of the base URL is kept",
        with_(card, base_url="https://gw.example.com/api/"),
        check=expect_equal("request.url", "https://gw.example.com/api/v1/cards"))
    add("build-base-url-several-trailing-slashes", "every trailing '/' is removed",
        with_(pay, base_url="https://gw.example.com/api//"),
        check=expect_equal("request.url", "https://gw.example.com/api/v1/payments"))
    add("build-base-url-https-port", "an https base URL with a port", with_(pay, base_url="https://gw.example.com:8443"))
    add("build-base-url-http-127", "http is allowed on 127.0.0.1 (tests)", with_(pay, base_url="http://127.0.0.1:8080"),
        check=expect_equal("request.url", "http://127.0.0.1:8080/v1/payments"))
    add("build-base-url-http-localhost", "http is allowed on localhost (tests)", with_(pay, base_url="http://localhost:4010/"))
    add("build-base-url-http-ipv6-loopback", "http is allowed on [::1] (tests)", with_(pay, base_url="http://[::1]:8080"))

    # -- errors: document shape
    add("build-kind-missing", "kind is required", with_(pay, kind=DROP), (V, "kind"))
    add("build-kind-unknown", "kind must be cards or payments", with_(pay, kind="card"), (V, "kind"))
    add("build-kind-uppercase", "kind is exact: 'Payments' is refused", with_(pay, kind="Payments"), (V, "kind"))
    add("build-kind-number", "kind of the wrong JSON type", with_(pay, kind=1), (J, "kind"))
    add("build-unknown-top-level-key", "a misspelt key is refused, not ignored", with_(pay, returnUrl="fixapp://x"), (V, "returnUrl"))
    add("build-payment-with-provider-key", "a card key on a payment document is refused", with_(pay, provider="dinelco"), (V, "provider"))
    add("build-payment-with-customer-key", "customer on a payment document is refused",
        with_(pay, customer=card["customer"]), (V, "customer"))
    add("build-payment-with-target-origin-key", "target_origin on a payment document is refused",
        with_(pay, target_origin=["https://a.com"]), (V, "target_origin"))
    add("build-fields-not-object", "fields must be an object", with_(pay, fields=["amount", 1]), (J, "fields"))
    add("build-integration-unknown", "integration must be browser_tab or iframe", with_(pay, integration="webview"), (V, "integration"))
    add("build-integration-number", "integration of the wrong JSON type", with_(pay, integration=0), (J, "integration"))

    # -- errors: API key
    add("build-api-key-missing", "api_key is required", with_(pay, api_key=DROP), (V, "api_key"))
    add("build-api-key-null", "a null api_key counts as missing", with_(pay, api_key=None), (V, "api_key"))
    add("build-api-key-empty", "api_key must not be empty", with_(pay, api_key=""), (V, "api_key"))
    add("build-api-key-space", "a space in the key could split the header", with_(pay, api_key="sk_test abc"), (V, "api_key"))
    add("build-api-key-newline", "CR/LF in the key would inject headers", with_(pay, api_key="sk_test_abc\r\nX-Evil: 1"), (V, "api_key"))
    add("build-api-key-non-ascii", "a non-ASCII character in the key", with_(pay, api_key="sk_test_ñandú"), (V, "api_key"))
    add("build-api-key-del", "DEL (0x7F) in the key", with_(pay, api_key="sk_test_\u007f"), (V, "api_key"))
    add("build-api-key-number", "api_key of the wrong JSON type", with_(pay, api_key=12345), (J, "api_key"))

    # -- errors: base URL
    for slug, base, why in [
        ("http-remote", "http://api.pay.ingalca.com", "plain http to a remote host"),
        ("http-loopback-lookalike", "http://127.0.0.1.evil.com", "a host that only starts like a loopback address"),
        ("http-localhost-subdomain", "http://localhost.evil.com:8080", "a localhost lookalike"),
        ("ftp", "ftp://api.pay.ingalca.com", "a non-http scheme"),
        ("query", "https://api.pay.ingalca.com?x=1", "a query"),
        ("fragment", "https://api.pay.ingalca.com#v1", "a fragment"),
        ("no-host", "https://", "no host"),
        ("no-authority", "https:/api.pay.ingalca.com", "no authority"),
        ("userinfo", "https://user:pw@api.pay.ingalca.com", "user information"),
        ("no-scheme", "api.pay.ingalca.com", "no scheme"),
        ("space", "https://api.pay.ingalca.com/ v1", "a space"),
        ("bad-port", "https://api.pay.ingalca.com:99999", "a port above 65535"),
        ("empty", "", "an empty text"),
    ]:
        add(f"build-base-url-{slug}", f"base_url with {why} is refused", with_(pay, base_url=base), (V, "base_url"))
    add("build-base-url-number", "base_url of the wrong JSON type", with_(pay, base_url=443), (J, "base_url"))

    # -- errors: return URL
    add("build-return-url-missing", "the browser-tab integration needs a return URL", with_(pay, return_url=DROP), (V, "return_url"))
    add("build-return-url-null", "a null return_url counts as missing", with_(pay, return_url=None), (V, "return_url"))
    add("build-return-url-number", "return_url of the wrong JSON type", with_(pay, return_url=1), (J, "return_url"))
    add("build-card-iframe-custom-scheme", "a custom-scheme return URL cannot work inside an iframe",
        with_(card, integration="iframe"), (V, "return_url"))
    add("build-payment-iframe-custom-scheme", "iframe + reverse-DNS custom scheme is refused too",
        with_(pay, integration="iframe", return_url="com.fix.app://return"), (V, "return_url"))
    for slug, url, why in [
        ("empty", "", "an empty text"),
        ("javascript", "javascript:alert(document.cookie)", "the javascript: scheme"),
        ("javascript-uppercase", "JavaScript://checkout-callback", "the javascript: scheme in mixed case"),
        ("data", "data:text/html,<script>x</script>", "the data: scheme"),
        ("file", "file:///etc/passwd", "the file: scheme"),
        ("about", "about:blank", "the about: scheme"),
        ("blob", "blob:https://tuapp.com/uuid", "the blob: scheme"),
        ("vbscript", "vbscript:msgbox", "the vbscript: scheme"),
        ("filesystem", "filesystem:https://tuapp.com/temporary/x", "the filesystem: scheme"),
        ("content", "content://com.fix.provider/cb", "the content: scheme"),
        ("intent", "intent://checkout-callback#Intent;scheme=fixapp;end", "the intent: scheme"),
        ("fragment", "fixapp://checkout-callback#done", "a fragment (it would swallow the gateway's query)"),
        ("empty-fragment", "https://tuapp.com/cb#", "an empty fragment"),
        ("https-triple-slash", "https:///checkout-callback", "an https URL with an empty host"),
        ("https-single-slash", "https:/checkout-callback", "an https URL without authority"),
        ("http-no-authority", "http:checkout-callback", "an http URL without authority"),
        ("userinfo-custom", "fixapp://user@checkout-callback", "user information on a custom scheme"),
        ("userinfo-https", "https://tuapp.com@evil.com/cb", "user information that disguises the host"),
        ("port-letters", "https://tuapp.com:https/cb", "a non-numeric port"),
        ("port-too-large", "https://tuapp.com:65536/cb", "a port above 65535"),
        ("port-empty", "https://tuapp.com:/cb", "an empty port"),
        ("custom-opaque", "fixapp:cb", "a custom scheme that is neither scheme://… nor scheme:/path"),
        ("no-scheme", "checkout-callback", "no scheme"),
        ("scheme-leading-digit", "1fixapp://checkout-callback", "a scheme that starts with a digit"),
        ("scheme-underscore", "fix_app://checkout-callback", "'_' in the scheme"),
        ("space", "fixapp://checkout callback", "a space"),
        ("tab", "fixapp://checkout-callback\t", "a tab"),
        ("newline", "fixapp://checkout-callback\n", "a newline"),
        ("nul", "fixapp://checkout-callback\u0000", "a NUL character"),
        ("query-bad-escape", "fixapp://cb?src=%zz", "a query with a bad escape"),
        ("query-invalid-utf8", "fixapp://cb?src=%C0%AF", "a query with an overlong UTF-8 escape"),
        ("query-no-equals", "fixapp://cb?debug", "a query piece without '='"),
        ("query-duplicate-key", "fixapp://cb?src=a&src=b", "a query with a duplicate key"),
        ("custom-empty-host", "myapp://", "a custom scheme with an empty host (it would address Billpocket answers to myapp://)"),
        ("custom-empty-host-path", "myapp:///x", "a custom scheme with an empty host and a path"),
        ("custom-host-equals", "myapp://result=aprobada", "a custom-scheme host with '=' (it reads like a Billpocket answer)"),
        ("custom-host-ampersand", "myapp://a&b", "a custom-scheme host with '&'"),
        ("last-segment-ph", "fixapp://checkout-callback/ph_" + NONCE_A, "a last path segment starting with ph_ "
         "(that is the URL PayHandoff sent, not the registered one)"),
        ("last-segment-ph-only", "https://tuapp.com/ph_", "a last path segment that is exactly ph_"),
        ("last-segment-ph-with-query", "com.fix.app:/ph_x?src=app", "a scheme:/path return URL whose last segment starts with ph_"),
        ("2049-bytes", "https://tuapp.com/" + "a" * (2049 - 18), "2049 bytes"),
        ("2049-bytes-multibyte", "https://tuapp.com/" + "é" * 1015 + "a", "1034 characters but 2049 UTF-8 bytes"),
    ]:
        add(f"build-return-url-{slug}", f"return_url with {why} is refused", with_(pay, return_url=url), (V, "return_url"))

    # -- errors: fields that PayHandoff sets
    add("build-payment-fields-return-url", "extra fields cannot override return_url",
        with_(pay, fields={"return_url": "https://evil.com/cb"}), (V, "return_url"))
    add("build-card-fields-return-url", "card extra fields cannot override return_url",
        with_(card, fields={"return_url": "https://evil.com/cb"}), (V, "return_url"))
    for key, value in [("provider", "other"), ("customer_id", "cus_2"), ("target_origin", ["https://evil.com"]),
                       ("customer", {"name": "Eve"})]:
        add(f"build-card-fields-override-{key.replace('_', '-')}", f"extra fields cannot override {key}",
            with_(card, fields={key: value}), (V, key))

    # -- errors: card fields
    add("build-card-provider-missing", "provider is required for cards", with_(card, provider=DROP), (V, "provider"))
    add("build-card-provider-empty", "provider must not be empty", with_(card, provider=""), (V, "provider"))
    add("build-card-provider-number", "provider of the wrong JSON type", with_(card, provider=7), (J, "provider"))
    add("build-card-customer-id-missing", "customer_id is required", with_(card, customer_id=DROP), (V, "customer_id"))
    add("build-card-customer-id-empty", "customer_id must not be empty", with_(card, customer_id=""), (V, "customer_id"))
    add("build-card-target-origin-missing", "target_origin is required", with_(card, target_origin=DROP), (V, "target_origin"))
    add("build-card-target-origin-empty", "target_origin needs at least one origin", with_(card, target_origin=[]), (V, "target_origin"))
    add("build-card-target-origin-string", "target_origin must be an array, not one string",
        with_(card, target_origin="https://fix.example.com"), (J, "target_origin"))
    add("build-card-target-origin-non-string", "an origin of the wrong JSON type names its index",
        with_(card, target_origin=["https://fix.example.com", 443]), (J, "target_origin[1]"))
    for slug, origins, index, why in [
        ("trailing-slash", ["https://fix.example.com/"], 0, "a trailing '/' (an origin has no path)"),
        ("path", ["https://a.com/path"], 0, "a path"),
        ("query", ["https://fix.example.com?x=1"], 0, "a query"),
        ("fragment", ["https://fix.example.com#x"], 0, "a fragment"),
        ("userinfo", ["https://user@fix.example.com"], 0, "user information"),
        ("no-scheme", ["fix.example.com"], 0, "no scheme"),
        ("no-host", ["https://"], 0, "no host"),
        ("opaque", ["https:fix.example.com//"], 0, "no authority (the two '/' elsewhere)"),
        ("space", ["https://fix.example.com "], 0, "a trailing space"),
        ("bad-port", ["https://fix.example.com:99999"], 0, "a port above 65535"),
        ("second-bad", ["https://fix.example.com", "https://b.com/x"], 1, "a bad second origin, named by index"),
    ]:
        add(f"build-card-origin-{slug}", f"an origin with {why} is refused",
            with_(card, target_origin=origins), (V, f"target_origin[{index}]"))

    # -- errors: customer
    add("build-card-customer-missing", "customer is required for cards", with_(card, customer=DROP), (V, "customer"))
    add("build-card-customer-string", "customer must be an object", with_(card, customer="Juan Pérez"), (J, "customer"))
    add("build-card-customer-unknown-key", "an unknown customer key is refused, named with its path",
        with_(card, customer=customer(mail="juan@example.com")), (V, "customer.mail"))
    add("build-card-customer-name-empty", "customer.name must not be empty", with_(card, customer=customer(name="")), (V, "customer.name"))
    add("build-card-customer-name-missing", "customer.name is required", with_(card, customer=customer(name=DROP)), (V, "customer.name"))
    add("build-card-customer-lastname-empty", "customer.lastname must not be empty",
        with_(card, customer=customer(lastname="")), (V, "customer.lastname"))
    add("build-card-customer-lastname-missing", "customer.lastname is required",
        with_(card, customer=customer(lastname=DROP)), (V, "customer.lastname"))
    add("build-card-customer-email-missing", "customer.email is required", with_(card, customer=customer(email=DROP)), (V, "customer.email"))
    add("build-card-customer-email-number", "customer.email of the wrong JSON type",
        with_(card, customer=customer(email=1)), (J, "customer.email"))
    for slug, email, why in [
        ("no-at", "juan.example.com", "no '@'"),
        ("two-at", "juan@mail@example.com", "two '@'"),
        ("empty-local", "@example.com", "an empty local part"),
        ("empty-domain", "juan@", "an empty domain"),
        ("space", "juan perez@example.com", "a space"),
        ("empty", "", "an empty text"),
    ]:
        add(f"build-card-customer-email-{slug}", f"customer.email with {why} is refused",
            with_(card, customer=customer(email=email)), (V, "customer.email"))

    # -- errors: nonce
    for slug, nonce, why in [
        ("15-chars", "0123456789abcde", "15 characters (too short to be unguessable)"),
        ("129-chars", "a" * 129, "129 characters"),
        ("plus", "0123456789abcdef+", "'+' (not unreserved)"),
        ("percent", "0123456789abcdef%41", "'%' (not unreserved)"),
        ("space", "0123456789 abcdef", "a space"),
        ("ampersand", "0123456789abcdef&status=completed", "'&' (it would inject a parameter)"),
        ("non-ascii", "0123456789abcdefñ", "a non-ASCII letter"),
        ("empty", "", "an empty text"),
    ]:
        add(f"build-nonce-{slug}", f"a nonce with {why} is refused", with_(pay, nonce=nonce), (V, "nonce"))
    add("build-nonce-number", "nonce of the wrong JSON type", with_(pay, nonce=1234567890123456), (J, "nonce"))
    return s


# ---- checkout.parse_session --------------------------------------------------------------

def session_cases() -> Suite:
    s = Suite("checkout.parse_session", "session", lambda i: parse_session(i["session"]), detach=True)

    def add(id_, note, session, error=None, check=None):
        s.add(id_, note, {"session": session}, error, check)

    url_head = "https://checkout.pay.ingalca.com/r/"
    card_url = url_head + "9f8e7d6c"
    pay_url = "https://checkout.pay.ingalca.com/p/1a2b3c4d"

    def card_answer(status=201, **registration):
        reg = {"checkout_url": card_url}
        reg.update(registration)
        return {"kind": "cards", "status": status, "body": {"data": {"registration": reg}}}

    def pay_answer(status=201, **checkout):
        co = {"checkout_url": pay_url}
        co.update(checkout)
        return {"kind": "payments", "status": status, "body": {"data": {"checkout": co}}}

    # -- ok: gateway answers
    add("session-card-gateway-full", "the gateway's card answer: data.registration with id, checkout_url, card_id",
        card_answer(id="reg_01HX", card_id="card_9f8e7d6c"),
        check=expect_equal("card_id", "card_9f8e7d6c"))
    add("session-card-gateway-url-only", "only data.registration.checkout_url: no ids in the result",
        card_answer(), check=all_of(no_key("session_id"), no_key("card_id")))
    add("session-card-gateway-200", "HTTP 200 is as good as 201", card_answer(status=200))
    add("session-card-gateway-299", "every 2xx status is success", card_answer(status=299))
    add("session-card-id-from-data", "card_id may sit at data.card_id",
        {"kind": "cards", "status": 201, "body": {"data": {"card_id": "card_abc", "registration": {"checkout_url": card_url}}}},
        check=expect_equal("card_id", "card_abc"))
    add("session-card-registration-id-wins", "data.registration.card_id is read before data.card_id",
        {"kind": "cards", "status": 201,
         "body": {"data": {"card_id": "card_other", "registration": {"checkout_url": card_url, "card_id": "card_reg"}}}},
        check=expect_equal("card_id", "card_reg"))
    add("session-card-null-id-falls-back", "a null data.registration.card_id counts as absent",
        {"kind": "cards", "status": 201,
         "body": {"data": {"card_id": "card_abc", "registration": {"checkout_url": card_url, "card_id": None}}}},
        check=expect_equal("card_id", "card_abc"))
    add("session-card-extra-members-ignored", "other members of the answer are not needed and not kept",
        {"kind": "cards", "status": 201, "body": {"ok": True, "data": {"registration": {
            "checkout_url": card_url, "expires_at": "2026-11-30T16:30:00Z", "provider": "dinelco"}}, "meta": {"x": 1}}})
    add("session-card-url-with-port-and-query", "a checkout URL may have a port and a query",
        card_answer(checkout_url="https://checkout.pay.ingalca.com:8443/r/abc?lang=es&t=1"))
    add("session-card-url-uppercase-host", "the URL is returned as written", card_answer(checkout_url="https://Checkout.Pay.Ingalca.com/r/x"))
    add("session-card-url-8192-bytes", "a checkout URL of exactly 8192 bytes is accepted",
        card_answer(checkout_url=url_head + "x" * (8192 - len(url_head))))
    add("session-card-empty-session-id", "session_id is carried as given (any string)", card_answer(id=""),
        check=expect_equal("session_id", ""))
    # Issue 24: what a flow keeps has a rule that bounds it, so the snapshot keeps room for it.
    add("session-card-session-id-128-bytes", "a session id of 128 bytes is kept", card_answer(id="r" * 128))
    # Issue 35, item 6: 1 KiB as JSON text (no gateway documents a bound; 0.3 refused 129 bytes).
    add("session-card-session-id-129-bytes", "a session id of 129 bytes is kept (0.3 refused it)", card_answer(id="r" * 129))
    add("session-card-session-id-1024-bytes", "a session id of 1024 bytes is kept", card_answer(id="r" * 1024))
    add("session-card-session-id-1025-bytes", "a session id of 1025 bytes is refused, naming its path",
        card_answer(id="r" * 1025), (V, "data.registration.id"))
    add("session-backend-session-id-quotes-1024-printed", "512 '\"' print as 1024 bytes: kept",
        {"kind": "cards", "checkout_url": card_url, "session_id": '"' * 512})
    add("session-backend-session-id-quotes-1025-printed", "a session id printing as 1025 bytes of JSON is refused",
        {"kind": "cards", "checkout_url": card_url, "session_id": '"' * 512 + "x"}, (V, "session_id"))
    add("session-backend-session-id-control", "a session id with a control character is refused",
        {"kind": "cards", "checkout_url": card_url, "session_id": "reg\u0007"}, (V, "session_id"))
    add("session-card-url-raw-quote", "a checkout URL with a raw '\"' is refused (a URL has it percent-encoded)",
        card_answer(checkout_url=card_url + '"x'), (V, "data.registration.checkout_url"))
    add("session-backend-url-raw-backslash", "a checkout URL with a raw '\\' is refused",
        {"kind": "payments", "checkout_url": pay_url + "\\x"}, (V, "checkout_url"))
    add("session-payment-gateway-full", "the gateway's payment answer: data.checkout with id, checkout_url, payment_id",
        pay_answer(id="chk_77", payment_id="pay_123"), check=expect_equal("payment_id", "pay_123"))
    add("session-payment-id-from-data", "payment_id may sit at data.payment_id",
        {"kind": "payments", "status": 201, "body": {"data": {"payment_id": "pay_9", "checkout": {"checkout_url": pay_url}}}})
    add("session-payment-ignores-registration", "a payment reads data.checkout, not data.registration",
        {"kind": "payments", "status": 200, "body": {"data": {
            "registration": {"checkout_url": "http://evil.example.com/"}, "checkout": {"checkout_url": pay_url}}}},
        check=expect_equal("checkout_url", pay_url))
    add("session-payment-ignores-card-id", "a payment answer's card_id is not read",
        pay_answer(card_id="not-a-card-id"), check=no_key("card_id"))

    # -- ok: created by the merchant backend
    add("session-backend-card", "the backend passes checkout_url, session_id and card_id",
        {"kind": "cards", "checkout_url": card_url, "session_id": "reg_01HX", "card_id": "card_1"})
    add("session-backend-payment-url-only", "the backend passes only the checkout URL",
        {"kind": "payments", "checkout_url": pay_url}, check=all_of(no_key("session_id"), no_key("payment_id")))
    add("session-backend-payment-full", "the backend passes every member",
        {"kind": "payments", "checkout_url": pay_url, "session_id": "chk_1", "payment_id": "pay_1"})
    add("session-backend-round-trip", "a result document (with its version) reads back as the same session",
        {"version": 1, "kind": "cards", "checkout_url": card_url, "session_id": "reg_1", "card_id": "card_1"})
    add("session-backend-null-ids", "null ids count as absent", {"kind": "cards", "checkout_url": card_url, "session_id": None, "card_id": None})

    # -- errors: document
    add("session-kind-missing", "kind is required", {"status": 201, "body": {}}, (V, "kind"))
    add("session-kind-unknown", "kind must be cards or payments", with_(card_answer(), kind="registration"), (V, "kind"))
    add("session-kind-number", "kind of the wrong JSON type", with_(card_answer(), kind=2), (J, "kind"))
    add("session-gateway-unknown-key", "an unknown key next to status/body is refused",
        with_(card_answer(), headers={"x": "y"}), (V, "headers"))
    add("session-status-missing", "a document with neither checkout_url nor status", {"kind": "cards", "body": {}}, (V, "status"))
    add("session-status-string", "status must be an integer", with_(card_answer(), status="201"), (J, "status"))
    add("session-status-99", "a status below 100 is not HTTP", card_answer(status=99), (V, "status"))
    add("session-status-600", "a status above 599 is not HTTP", card_answer(status=600), (V, "status"))
    add("session-status-negative", "a negative status", card_answer(status=-201), (V, "status"))
    add("session-backend-with-status", "checkout_url and status together: status is unknown in the backend form",
        {"kind": "cards", "checkout_url": card_url, "status": 201}, (V, "status"))
    add("session-backend-unknown-key", "an unknown key in the backend form", {"kind": "cards", "checkout_url": card_url, "url": card_url}, (V, "url"))
    add("session-backend-other-kind-id", "payment_id on a card session is refused",
        {"kind": "cards", "checkout_url": card_url, "payment_id": "pay_1"}, (V, "payment_id"))
    add("session-backend-card-id-on-payment", "card_id on a payment session is refused",
        {"kind": "payments", "checkout_url": pay_url, "card_id": "card_1"}, (V, "card_id"))
    add("session-backend-bad-card-id", "a backend card_id without the card_ prefix", {"kind": "cards", "checkout_url": card_url, "card_id": "1234"}, (V, "card_id"))
    add("session-backend-bad-payment-id", "a backend payment_id that is only the prefix",
        {"kind": "payments", "checkout_url": pay_url, "payment_id": "pay_"}, (V, "payment_id"))
    add("session-backend-session-id-number", "session_id of the wrong JSON type",
        {"kind": "cards", "checkout_url": card_url, "session_id": 7}, (J, "session_id"))
    add("session-backend-url-http", "a backend checkout URL over plain http", {"kind": "cards", "checkout_url": "http://checkout.pay.ingalca.com/r/x"}, (V, "checkout_url"))
    add("session-backend-url-number", "checkout_url of the wrong JSON type", {"kind": "cards", "checkout_url": 1}, (J, "checkout_url"))

    # -- errors: gateway failures
    add("session-gateway-400", "a 4xx answer is a gateway error",
        {"kind": "cards", "status": 400, "body": {"error": {"code": "invalid_request", "message": "customer.email is invalid"}}}, (G, None))
    add("session-gateway-401", "an unauthorized key is a gateway error", {"kind": "payments", "status": 401, "body": {"message": "bad key"}}, (G, None))
    add("session-gateway-500-no-body", "a 5xx answer without a body", {"kind": "payments", "status": 500}, (G, None))
    add("session-gateway-302", "a redirect is not success", card_answer(status=302), (G, None))
    add("session-gateway-199", "a 1xx status is not success", card_answer(status=199), (G, None))
    add("session-gateway-300", "300 is just past the success range", card_answer(status=300), (G, None))

    # -- errors: checkout URL
    reg_url = "data.registration.checkout_url"
    add("session-card-url-missing", "a 2xx answer without the checkout URL",
        {"kind": "cards", "status": 201, "body": {"data": {"registration": {"id": "reg_1"}}}}, (V, reg_url))
    add("session-card-no-body", "a 2xx answer without a body", {"kind": "cards", "status": 201}, (V, reg_url))
    add("session-card-body-string", "a 2xx answer whose body is not an object", {"kind": "cards", "status": 200, "body": "OK"}, (V, reg_url))
    add("session-card-url-at-payment-path", "a card answer shaped like a payment answer",
        {"kind": "cards", "status": 201, "body": {"data": {"checkout": {"checkout_url": card_url}}}}, (V, reg_url))
    add("session-payment-url-at-card-path", "a payment answer shaped like a card answer",
        {"kind": "payments", "status": 201, "body": {"data": {"registration": {"checkout_url": pay_url}}}},
        (V, "data.checkout.checkout_url"))
    add("session-card-url-null", "a null checkout URL counts as missing", card_answer(checkout_url=None), (V, reg_url))
    add("session-card-url-number", "a checkout URL of the wrong JSON type", card_answer(checkout_url=42), (J, reg_url))
    add("session-card-url-object", "a checkout URL as an object", card_answer(checkout_url={"href": card_url}), (J, reg_url))
    for slug, url, why in [
        ("http", "http://checkout.pay.ingalca.com/r/x", "plain http (3-D Secure must not load over http)"),
        ("ftp", "ftp://checkout.pay.ingalca.com/r/x", "ftp"),
        ("javascript", "javascript:alert(1)", "the javascript: scheme"),
        ("data", "data:text/html,hi", "the data: scheme"),
        ("no-host", "https://", "no host"),
        ("empty-host-path", "https:///r/x", "an empty host"),
        ("no-authority", "https:checkout.pay.ingalca.com/r/x", "no authority"),
        ("relative", "/r/9f8e7d6c", "a relative reference"),
        ("empty", "", "an empty text"),
        ("space", "https://checkout.pay.ingalca.com/r/a b", "a space"),
        ("newline", "https://checkout.pay.ingalca.com/r/x\n", "a newline"),
        ("userinfo", "https://checkout.pay.ingalca.com@evil.com/r/x", "user information"),
        ("bad-port", "https://checkout.pay.ingalca.com:0x1bb/r/x", "a non-decimal port"),
        ("8193-bytes", url_head + "x" * (8193 - len(url_head)), "8193 bytes"),
    ]:
        add(f"session-card-url-{slug}", f"a checkout URL with {why} is refused", card_answer(checkout_url=url), (V, reg_url))
    add("session-payment-url-http", "a payment checkout URL over plain http", pay_answer(checkout_url="http://x.com/p"),
        (V, "data.checkout.checkout_url"))

    # -- errors: ids in the gateway answer
    add("session-card-id-other-prefix", "a card_id with the payment prefix", card_answer(card_id="pay_1"), (V, "data.registration.card_id"))
    add("session-card-id-prefix-only", "'card_' alone is not an id", card_answer(card_id="card_"), (V, "data.registration.card_id"))
    add("session-card-id-uppercase", "the prefix is case-sensitive", card_answer(card_id="CARD_1"), (V, "data.registration.card_id"))
    add("session-card-id-number", "a card_id of the wrong JSON type", card_answer(card_id=1), (J, "data.registration.card_id"))
    add("session-card-data-card-id-bad", "a bad data.card_id is named by its own path",
        {"kind": "cards", "status": 201, "body": {"data": {"card_id": "tok_1", "registration": {"checkout_url": card_url}}}},
        (V, "data.card_id"))
    add("session-payment-id-card-prefix", "a payment_id with the card prefix", pay_answer(payment_id="card_1"),
        (V, "data.checkout.payment_id"))
    add("session-card-session-id-number", "a session id of the wrong JSON type", card_answer(id=12), (J, "data.registration.id"))
    return s


# ---- checkout.parse_callback -------------------------------------------------------------

def callback_cases() -> Suite:
    s = Suite("checkout.parse_callback", "callback", lambda i: parse_callback(i["url"], i["options"]), detach=True)

    def add(id_, note, url, options, error=None, check=None):
        s.add(id_, note, {"url": url, "options": options}, error, check)

    N = NONCE_A
    cards = {"kind": "cards", "return_url": RETURN_URL, "nonce": N}
    pays = {"kind": "payments", "return_url": RETURN_URL, "nonce": N}
    web = {"kind": "cards", "return_url": UNIVERSAL_LINK, "nonce": N}
    lenient = with_(cards, accept_unverified=True)  # the setting for gateways that drop the nonce
    lenient_no_nonce = {"kind": "cards", "return_url": RETURN_URL, "accept_unverified": True}
    cb = RETURN_URL + "/ph_" + N + "?"  # the gateway's redirect to the URL PayHandoff sent
    plain = RETURN_URL + "?"  # a callback to the registered URL itself: it carries no nonce

    def reason_is(text):
        return expect_equal("reason", text)

    verified = expect_equal("verified", True)
    unverified = expect_equal("verified", False)

    # -- ok
    add("callback-seed-example", "the seed's redirect without nonce, read with accept_unverified: accepted, unverified",
        "fixapp://checkout-callback?status=completed&card_id=card_xyz789", lenient_no_nonce,
        check=all_of(unverified, expect_equal("card_id", "card_xyz789")))
    add("callback-completed-verified", "completed with card_id, the session's nonce in the path: verified",
        cb + "status=completed&card_id=card_xyz789", cards, check=verified)
    add("callback-nonce-first", "parameter order does not matter", cb + "card_id=card_1&status=completed", cards)
    # Issue 24: a gateway that appends '&status=…' to a return URL without a query.
    amp = RETURN_URL + "/ph_" + N + "&"
    add("callback-ampersand-appended", "…/ph_<nonce>&status=completed: a nonce has no '&', so the segment ends at the "
        "first one and the rest is the query; verified", amp + "status=completed&card_id=card_1", cards,
        check=all_of(verified, expect_equal("card_id", "card_1")))
    add("callback-ampersand-appended-failed", "the '&'-appended query is decoded as any other ('+' is a space)",
        amp + "status=failed&reason=OTP+rechazado", cards, check=reason_is("OTP rechazado"))
    add("callback-ampersand-appended-fragment", "a fragment after the '&'-appended query is not read",
        amp + "status=cancelled#x=1", cards, check=expect_equal("status", "cancelled"))
    add("callback-ampersand-appended-wrong-nonce", "another nonce before the '&' is still refused",
        RETURN_URL + "/ph_" + NONCE_B + "&status=completed&card_id=card_1", cards, (X, "nonce"))
    add("callback-spoofed-without-nonce-accepted-unverified", "with accept_unverified a link without the nonce is "
        "accepted but unverified (it never confirms by itself)",
        plain + "status=completed&card_id=card_x", lenient, check=unverified)
    add("callback-verified-with-accept-unverified", "accept_unverified does not weaken a callback that carries the nonce",
        cb + "status=completed&card_id=card_1", lenient, check=verified)
    add("callback-ph-nonce-query-is-extra", "ph_nonce in the query is an ordinary parameter now (reported in extra); "
        "only the path segment counts",
        cb + "status=completed&card_id=card_1&ph_nonce=" + N, cards,
        check=all_of(verified, expect_equal("extra", {"ph_nonce": N})))
    add("callback-ph-nonce-query-without-path-nonce", "a nonce in the query only (the old placement) does not verify: "
        "with accept_unverified the callback is unverified and ph_nonce is extra",
        plain + "status=completed&card_id=card_1&ph_nonce=" + N, lenient,
        check=all_of(unverified, expect_equal("extra", {"ph_nonce": N})))
    add("callback-nonce-in-fragment-unverified", "a nonce in the fragment does not count: unverified (accept_unverified)",
        plain + "status=completed&card_id=card_1#ph_" + N, lenient, check=unverified)
    add("callback-failed-reason-plus", "'+' in a value is a space: Fondos+insuficientes",
        cb + "status=failed&reason=Fondos+insuficientes", cards, check=reason_is("Fondos insuficientes"))
    add("callback-failed-reason-percent-20", "%20 is a space", cb + "status=failed&reason=Fondos%20insuficientes", cards,
        check=reason_is("Fondos insuficientes"))
    add("callback-failed-reason-percent-2b", "%2B is a literal plus", cb + "status=failed&reason=1%2B1+%3D+2", cards,
        check=reason_is("1+1 = 2"))
    add("callback-failed-reason-utf8", "percent-encoded UTF-8 (accents, em dash) decodes",
        cb + "status=failed&reason=Tarjeta%20rechazada%20%E2%80%94%20reintent%C3%A1", cards,
        check=reason_is("Tarjeta rechazada — reintentá"))
    add("callback-failed-reason-emoji", "a 4-byte UTF-8 sequence decodes", cb + "status=failed&reason=%F0%9F%92%B3+rechazada", cards,
        check=reason_is("💳 rechazada"))
    add("callback-failed-reason-raw-utf8", "raw (unescaped) UTF-8 next to escaped UTF-8 in one value",
        cb + "status=failed&reason=rechaz%C3%B3_por_el_emisor_ñ", cards, check=reason_is("rechazó_por_el_emisor_ñ"))
    add("callback-failed-reason-double-encoded", "decoding happens once: %2526 is '%26'",
        cb + "status=failed&reason=%2526", cards, check=reason_is("%26"))
    add("callback-failed-reason-equals", "a value is split at the first '=' only", cb + "status=failed&reason=a=b=c", cards,
        check=reason_is("a=b=c"))
    add("callback-failed-reason-lowercase-hex", "lowercase hex digits in escapes", cb + "status=failed&reason=%c3%a9xito", cards,
        check=reason_is("éxito"))
    add("callback-failed-reason-empty-dropped", "an empty reason counts as absent", cb + "status=failed&reason=", cards,
        check=no_key("reason"))
    add("callback-failed-no-id", "failed without an id is fine", cb + "status=failed", cards, check=no_key("card_id"))
    add("callback-failed-empty-card-id", "an empty card_id counts as absent", cb + "status=failed&card_id=", cards,
        check=no_key("card_id"))
    add("callback-failed-with-id", "failed may name the card", cb + "status=failed&card_id=card_1&reason=do_not_honor", cards)
    add("callback-cancelled", "the user cancelled", cb + "status=cancelled", cards)
    add("callback-cancelled-without-nonce", "cancelled without nonce, read with accept_unverified: unverified",
        plain + "status=cancelled", lenient, check=unverified)
    add("callback-without-nonce-or-session-nonce", "accept_unverified without a session nonce: a callback without "
        "nonce is accepted, unverified", plain + "status=failed&reason=x", lenient_no_nonce, check=unverified)
    add("callback-extra-params", "unknown parameters are kept in extra, decoded, even when empty",
        cb + "status=completed&card_id=card_1&utm_source=mail%20x&empty=&n=1", cards,
        check=expect_equal("extra", {"utm_source": "mail x", "empty": "", "n": "1"}))
    add("callback-status-capitalized-key-is-extra", "keys are case-sensitive: 'Status' is an extra parameter",
        cb + "status=failed&Status=completed&CARD_ID=card_1", cards,
        check=expect_equal("extra", {"Status": "completed", "CARD_ID": "card_1"}))
    add("callback-key-percent-encoded", "keys are percent-decoded: st%61tus is status", cb + "st%61tus=completed&card%5Fid=card_1", cards)
    add("callback-plus-in-key", "'+' in a key is a space too", cb + "status=cancelled&utm+src=a+b", cards,
        check=expect_equal("extra", {"utm src": "a b"}))
    add("callback-empty-pieces-skipped", "'&&', a leading and a trailing '&' are skipped",
        cb + "&&status=completed&&card_id=card_1&&", cards)
    add("callback-fragment-ignored", "the fragment is ignored, even when it looks like parameters",
        cb + "status=failed#status=completed&card_id=card_evil", cards,
        check=all_of(expect_equal("status", "failed"), no_key("card_id")))
    add("callback-question-mark-in-value", "a '?' after the first belongs to the query", cb + "status=cancelled&next=/a?b=c", cards,
        check=expect_equal("extra", {"next": "/a?b=c"}))
    add("callback-at-sign-in-query", "'@' and ':' in the query are not user information", cb + "status=cancelled&by=ana@example.com:1", cards)
    add("callback-card-id-escaped", "an escaped id decodes before its prefix is checked", cb + "status=completed&card_id=card%5F%7Eabc", cards,
        check=expect_equal("card_id", "card_~abc"))
    add("callback-uppercase-scheme-and-host", "scheme and host compare ignoring case",
        "FIXAPP://Checkout-Callback/ph_" + N + "?status=completed&card_id=card_1", cards)
    own = {"kind": "cards", "return_url": "fixapp://checkout-callback?src=app", "nonce": N}
    sent_own = "fixapp://checkout-callback/ph_" + N + "?src=app"  # the URL PayHandoff sent for `own`
    add("callback-return-url-own-query", "the return URL's own parameters come back as extra",
        sent_own + "&status=completed&card_id=card_1", own, check=all_of(verified, expect_equal("extra", {"src": "app"})))
    add("callback-return-url-own-query-absent", "only scheme, host, port and path must match, not the host's query",
        cb + "status=cancelled", own)
    add("callback-reverse-dns-scheme", "a reverse-DNS custom scheme",
        "com.fix.app://return/ph_" + N + "?status=completed&card_id=card_1",
        {"kind": "cards", "return_url": "com.fix.app://return", "nonce": N}, check=verified)
    add("callback-single-slash-scheme", "a scheme:/path return URL: the nonce segment follows its path",
        "com.fix.app:/return/ph_" + N + "?status=cancelled", {"kind": "cards", "return_url": "com.fix.app:/return", "nonce": N},
        check=verified)
    add("callback-custom-scheme-with-path", "a custom scheme with host and path",
        "fixapp://payments/return/ph_" + N + "?status=cancelled",
        {"kind": "cards", "return_url": "fixapp://payments/return", "nonce": N}, check=verified)
    add("callback-custom-scheme-trailing-slash", "a registered path ending in '/' is followed by ph_ directly",
        "fixapp://payments/ph_" + N + "?status=cancelled", {"kind": "cards", "return_url": "fixapp://payments/", "nonce": N},
        check=verified)
    add("callback-universal-link", "an https universal link callback",
        UNIVERSAL_LINK + "/ph_" + N + "?status=completed&card_id=card_1", web, check=verified)
    add("callback-universal-link-default-port", "https with :443 is the same as no port",
        "https://tuapp.com:443/checkout-callback/ph_" + N + "?status=completed&card_id=card_1", web)
    add("callback-universal-link-port-leading-zero", "port 0443 is port 443",
        "https://tuapp.com:0443/checkout-callback/ph_" + N + "?status=cancelled", web)
    add("callback-universal-link-host-case", "the host compares ignoring ASCII case",
        "https://TUAPP.com/checkout-callback/ph_" + N + "?status=cancelled", web)
    add("callback-universal-link-root", "an empty http(s) path equals '/': the nonce segment is /ph_<nonce>",
        "https://tuapp.com/ph_" + N + "?status=cancelled", {"kind": "cards", "return_url": "https://tuapp.com", "nonce": N},
        check=verified)
    add("callback-universal-link-root-registered-slash", "a return URL with path '/' is addressed by /ph_<nonce> too",
        "https://tuapp.com/ph_" + N + "?status=cancelled", {"kind": "cards", "return_url": "https://tuapp.com/", "nonce": N},
        check=verified)
    add("callback-universal-link-root-unverified", "an empty http(s) path equals '/' (no nonce, accept_unverified)",
        "https://tuapp.com?status=cancelled",
        {"kind": "cards", "return_url": "https://tuapp.com/", "accept_unverified": True}, check=unverified)
    add("callback-universal-link-registered-port", "a registered non-default port must be repeated",
        "https://tuapp.com:8443/cb/ph_" + N + "?status=cancelled",
        {"kind": "cards", "return_url": "https://tuapp.com:8443/cb", "nonce": N})
    add("callback-http-default-port", "http with :80 is the same as no port",
        "http://localhost:80/cb/ph_" + N + "?status=cancelled", {"kind": "cards", "return_url": "http://localhost/cb", "nonce": N})

    # -- ok: what gateways do to a return URL with and without its own query (the nonce in the path survives all three)
    add("callback-gateway-appends-to-plain-url", "return URL without query: the gateway adds ?status=… to the URL sent",
        RETURN_URL + "/ph_" + N + "?status=completed&card_id=card_1", cards, check=all_of(verified, no_key("extra")))
    add("callback-gateway-replaces-query-of-plain-url", "return URL without query, a gateway that replaces the query: "
        "the same URL, verified", RETURN_URL + "/ph_" + N + "?status=cancelled", cards, check=verified)
    add("callback-gateway-appends-with-ampersand", "return URL with its own query: the gateway appends &status=…; "
        "the own query comes back as extra",
        sent_own + "&status=completed&card_id=card_1", own,
        check=all_of(verified, expect_equal("extra", {"src": "app"}), expect_equal("card_id", "card_1")))
    add("callback-gateway-appends-blindly-with-question-mark", "return URL with its own query: the gateway appends "
        "?status=… blindly; the query begins with the own query and '?', so the parameters are read after that '?'",
        sent_own + "?status=completed&card_id=card_1", own,
        check=all_of(verified, expect_equal("status", "completed"), expect_equal("card_id", "card_1"), no_key("extra")))
    add("callback-gateway-replaces-query", "return URL with its own query: the gateway replaces the query; the nonce "
        "in the path survives, the own parameter is simply gone",
        "fixapp://checkout-callback/ph_" + N + "?status=completed&card_id=card_1", own, check=all_of(verified, no_key("extra")))
    add("callback-gateway-appends-blindly-failed", "a blind '?' append of a failed status with reason",
        sent_own + "?status=failed&reason=Fondos+insuficientes", own, check=reason_is("Fondos insuficientes"))
    add("callback-blind-append-repair-needs-own-query", "a return URL without its own query has nothing to repair: "
        "a raw '?' inside the query is data",
        cb + "status=cancelled&next=a?status=completed", cards, check=expect_equal("extra", {"next": "a?status=completed"}))
    add("callback-blind-append-other-prefix-is-data", "the repair applies only when the query begins with the own "
        "query and '?': another prefix keeps the raw '?' as data",
        "fixapp://checkout-callback/ph_" + N + "?src=web?x=1&status=cancelled", own,
        check=expect_equal("extra", {"src": "web?x=1"}))
    add("callback-payment-completed", "a payment callback with payment_id",
        cb + "status=completed&payment_id=pay_123", pays, check=expect_equal("payment_id", "pay_123"))
    add("callback-payment-failed", "a failed payment with reason", cb + "status=failed&payment_id=pay_123&reason=insufficient_funds", pays)
    add("callback-payment-expected-id", "the id the session knew echoes back",
        cb + "status=completed&payment_id=pay_123", with_(pays, expected_id="pay_123"))
    add("callback-card-expected-id", "the card id the session knew echoes back",
        cb + "status=completed&card_id=card_1", with_(cards, expected_id="card_1"))
    add("callback-expected-id-absent-on-failed", "an expected id is not required on failed",
        cb + "status=failed", with_(cards, expected_id="card_1"))
    add("callback-url-8192-bytes", "a callback URL of exactly 8192 bytes is accepted",
        cb + "status=cancelled&pad=" + "x" * (8192 - len(cb + "status=cancelled&pad=")), cards)

    # -- errors: size and characters
    long_head = cb + "status=cancelled&pad="
    add("callback-url-8193-bytes", "one byte over 8 KiB", long_head + "x" * (8193 - len(long_head)), cards, (L, "url"))
    add("callback-url-over-limit-multibyte", "the limit counts UTF-8 bytes, not characters",
        long_head + "é" * ((8192 - len(long_head)) // 2 + 1), cards, (L, "url"))
    add("callback-url-huge", "a 64 KiB callback is refused before parsing", long_head + "x" * 65536, cards, (L, "url"))
    for slug, url, why in [
        ("space", cb + "status=failed&reason=Fondos insuficientes", "a raw space"),
        ("nul", cb + "status=completed&card_id=card_1\u0000", "a raw NUL"),
        ("newline", cb + "status=completed\n&card_id=card_1", "a raw newline"),
        ("tab", "fixapp://checkout-callback\t?status=cancelled", "a raw tab"),
        ("del", cb + "status=cancelled\u007f", "a raw DEL"),
        ("no-scheme", "checkout-callback?status=completed&card_id=card_1", "no scheme"),
        ("bad-scheme", "1fixapp://checkout-callback?status=cancelled", "a scheme starting with a digit"),
        ("empty", "", "an empty text"),
        ("userinfo", "fixapp://evil@checkout-callback?status=completed&card_id=card_1", "user information"),
        ("port-letters", "fixapp://checkout-callback:x?status=cancelled", "a non-numeric port"),
        ("port-too-large", "fixapp://checkout-callback:65536?status=cancelled", "a port above 65535"),
        ("port-six-digits", "fixapp://checkout-callback:000443?status=cancelled", "a port of six digits"),
        ("port-empty", "fixapp://checkout-callback:?status=cancelled", "an empty port"),
        ("host-bad-char", "fixapp://checkout\"callback?status=cancelled", "a character a host cannot have"),
    ]:
        add(f"callback-url-{slug}", f"a callback with {why} is malformed", url, cards, (M, "url"))
    add("callback-universal-link-userinfo", "user information that disguises the host",
        "https://tuapp.com@evil.com/checkout-callback?status=completed&card_id=card_1", web, (M, "url"))

    # -- errors: not addressed to the return URL
    add("callback-wrong-scheme", "another app's scheme", "otherapp://checkout-callback?status=completed&card_id=card_1", cards, (X, "scheme"))
    add("callback-javascript-url", "a javascript: URL is not the return URL",
        "javascript:alert(document.cookie)//fixapp://checkout-callback?status=completed", cards, (X, "scheme"))
    add("callback-https-for-custom-scheme", "https instead of the registered custom scheme",
        "https://checkout-callback?status=completed&card_id=card_1", cards, (X, "scheme"))
    add("callback-scheme-prefix", "a scheme that only starts like the registered one",
        "fixapp2://checkout-callback?status=cancelled", cards, (X, "scheme"))
    add("callback-wrong-host", "another host", "fixapp://evil?status=completed&card_id=card_1", cards, (X, "host"))
    add("callback-host-suffix", "a host that only starts like the registered one",
        "fixapp://checkout-callback.evil.com?status=completed&card_id=card_1", cards, (X, "host"))
    add("callback-no-authority", "fixapp:checkout-callback has no host", "fixapp:checkout-callback?status=cancelled", cards, (X, "host"))
    add("callback-empty-host", "an empty host is not the registered one", "fixapp:///checkout-callback?status=cancelled", cards, (X, "host"))
    add("callback-double-slash-vs-single", "com.fix.app://return is not com.fix.app:/return",
        "com.fix.app://return?status=cancelled", {"kind": "cards", "return_url": "com.fix.app:/return", "nonce": N}, (X, "host"))
    add("callback-universal-link-wrong-host", "a universal link on another domain",
        "https://evil.com/checkout-callback?status=completed&card_id=card_1", web, (X, "host"))
    add("callback-universal-link-http", "http instead of https", "http://tuapp.com/checkout-callback?status=cancelled", web, (X, "scheme"))
    add("callback-universal-link-port", "a non-default port", "https://tuapp.com:8443/checkout-callback?status=cancelled", web, (X, "port"))
    add("callback-universal-link-port-80", "port 80 is not the https default", "https://tuapp.com:80/checkout-callback?status=cancelled", web, (X, "port"))
    add("callback-universal-link-missing-port", "the registered port is missing",
        "https://tuapp.com/cb?status=cancelled", {"kind": "cards", "return_url": "https://tuapp.com:8443/cb", "nonce": N}, (X, "port"))
    add("callback-custom-scheme-port", "a port the registered URL does not have", "fixapp://checkout-callback:1234?status=cancelled", cards, (X, "port"))
    add("callback-path-trailing-slash", "a trailing '/' changes the path", "fixapp://checkout-callback/?status=completed&card_id=card_1", cards, (X, "path"))
    add("callback-path-extra-segment", "an extra path segment", "fixapp://checkout-callback/evil?status=cancelled", cards, (X, "path"))
    add("callback-universal-link-path-case", "the path is case-sensitive",
        "https://tuapp.com/Checkout-Callback?status=completed&card_id=card_1", web, (X, "path"))
    add("callback-universal-link-trailing-slash", "a trailing '/' on a universal link", "https://tuapp.com/checkout-callback/?status=cancelled", web, (X, "path"))
    add("callback-universal-link-encoded-path", "the path is compared as written, not decoded",
        "https://tuapp.com/checkout%2Dcallback?status=cancelled", web, (X, "path"))
    add("callback-universal-link-root-path", "the root path is not the registered path", "https://tuapp.com/?status=cancelled", web, (X, "path"))

    # -- errors: query syntax
    for slug, query, field, why in [
        ("bad-escape", "status=failed&reason=%zz", "reason", "'%' followed by non-hex"),
        ("truncated-escape", "status=failed&reason=abc%", "reason", "a '%' at the end"),
        ("one-digit-escape", "status=failed&reason=%4", "reason", "'%' with one hex digit"),
        ("bare-percent", "status=failed&reason=100%+seguro", "reason", "a bare '%'"),
        ("overlong-utf8", "status=failed&reason=%C0%AF", "reason", "an overlong UTF-8 form"),
        ("surrogate", "status=failed&reason=%ED%A0%80", "reason", "an encoded UTF-16 surrogate"),
        ("lone-lead-byte", "status=completed&card_id=card_%C3", "card_id", "a lone UTF-8 lead byte"),
        ("above-max-code-point", "status=failed&reason=%F4%90%80%80", "reason", "a code point above U+10FFFF"),
        ("invalid-byte-ff", "status=failed&reason=%FF", "reason", "the byte 0xFF"),
        ("nul-escape", "status=failed&reason=%00", "reason", "an escaped NUL"),
        ("nul-in-ph-nonce", "status=cancelled&ph_nonce=" + N + "%00", "ph_nonce", "an escaped NUL in an ordinary ph_nonce parameter"),
        ("bad-escape-in-status", "status=complet%g0&card_id=card_1", "status", "a bad escape in status"),
        ("bad-escape-in-key", "st%zztus=completed&card_id=card_1", None, "a bad escape in a key"),
        ("invalid-utf8-key", "%FF=1&status=cancelled", None, "invalid UTF-8 in a key"),
        ("nul-in-key", "a%00b=1&status=cancelled", None, "NUL in a key"),
        ("no-equals", "status=completed&card_id", None, "a piece without '='"),
        ("empty-key", "status=cancelled&=x", None, "an empty key"),
        ("only-equals", "status=cancelled&=", None, "a piece that is only '='"),
        ("duplicate-status", "status=failed&status=completed&card_id=card_1", "status", "status twice"),
        ("duplicate-card-id", "status=completed&card_id=card_1&card_id=card_2", "card_id", "card_id twice"),
        ("duplicate-by-escape", "status=failed&st%61tus=completed&card_id=card_1", "status", "status twice, once escaped"),
        ("duplicate-ph-nonce", "status=cancelled&ph_nonce=" + N + "&ph_nonce=" + N, "ph_nonce", "an ordinary ph_nonce parameter twice"),
        ("duplicate-empty-values", "status=cancelled&utm=&utm=", "utm", "an extra key twice, with empty values"),
        ("duplicate-reason-plus-vs-space", "status=failed&reason=a+b&reason=a%20b", "reason", "reason twice with equal decoded values"),
        ("long-key-bad-value", "status=cancelled&" + "k" * 65 + "=%zz", None, "a bad value under a key over 64 bytes (not quoted)"),
        ("64-byte-key-bad-value", "status=cancelled&" + "k" * 64 + "=%zz", "k" * 64, "a bad value under a 64-byte key (quoted)"),
    ]:
        add(f"callback-query-{slug}", f"a query with {why} is malformed", cb + query, cards, (M, field))

    # -- errors: correlation (the nonce segment) and kind
    def seg(nonce_text):
        return RETURN_URL + "/ph_" + nonce_text + "?status=completed&card_id=card_1"

    add("callback-without-nonce-refused", "a callback without the nonce is refused by default: anyone can send it",
        plain + "status=completed&card_id=card_1", cards, (X, "nonce"))
    add("callback-seed-example-refused-by-default", "the seed's redirect (no nonce) for a session with a nonce: refused",
        "fixapp://checkout-callback?status=completed&card_id=card_xyz789", cards, (X, "nonce"))
    add("callback-spoofed-failed-refused", "a forged failed callback without the nonce: refused (it must not close the payment page)",
        "fixapp://checkout-callback?status=failed&reason=x", cards, (X, "nonce"))
    add("callback-without-nonce-accept-unverified-false", "accept_unverified false is the default",
        plain + "status=cancelled", with_(cards, accept_unverified=False), (X, "nonce"))
    add("callback-old-query-nonce-refused", "the old placement (ph_nonce in the query, no path segment) is a callback "
        "without nonce: refused", plain + "status=completed&card_id=card_1&ph_nonce=" + N, cards, (X, "nonce"))
    add("callback-nonce-in-fragment-refused", "a nonce in the fragment does not count", plain + "status=cancelled#/ph_" + N,
        cards, (X, "nonce"))
    add("callback-wrong-nonce", "another session's nonce", seg("0" * 32), cards, (X, "nonce"))
    add("callback-nonce-case", "the nonce is case-sensitive", seg(N.upper()), cards, (X, "nonce"))
    add("callback-nonce-prefix", "a prefix of the nonce", seg(N[:-1]), cards, (X, "nonce"))
    add("callback-nonce-longer", "the nonce plus one character", seg(N + "0"), cards, (X, "nonce"))
    add("callback-nonce-percent-encoded", "the echoed nonce is compared raw, never percent-decoded: %34 is not '4'",
        seg("%34" + N[1:]), cards, (X, "nonce"))
    add("callback-nonce-with-semicolon", "path parameters are not stripped: ';x' after the nonce is part of it",
        seg(N + ";x"), cards, (X, "nonce"))
    add("callback-nonce-encoded-slash", "an encoded '/' stays inside the echoed nonce", seg(N + "%2Fx"), cards, (X, "nonce"))
    add("callback-nonce-without-session-nonce", "a nonce on a session created without one (accept_unverified)",
        seg(N), lenient_no_nonce, (X, "nonce"))
    add("callback-wrong-nonce-accept-unverified", "accept_unverified never accepts a wrong nonce", seg("0" * 32), lenient,
        (X, "nonce"))
    add("callback-nonce-empty-segment", "'ph_' without a nonce is not an address of the return URL",
        RETURN_URL + "/ph_?status=cancelled", cards, (X, "path"))
    add("callback-nonce-then-segment", "nothing may follow the nonce segment", RETURN_URL + "/ph_" + N + "/x?status=cancelled",
        cards, (X, "path"))
    add("callback-nonce-segment-twice", "the nonce segment twice", RETURN_URL + "/ph_" + N + "/ph_" + N + "?status=cancelled",
        cards, (X, "path"))
    add("callback-segment-before-nonce", "an extra segment before the nonce segment",
        RETURN_URL + "/x/ph_" + N + "?status=cancelled", cards, (X, "path"))
    add("callback-nonce-segment-uppercase-prefix", "the prefix is ph_ exactly (PH_ is another path)",
        RETURN_URL + "/PH_" + N + "?status=cancelled", cards, (X, "path"))
    add("callback-nonce-segment-without-slash", "ph_<nonce> glued to the registered path is another path",
        "https://tuapp.com/checkout-callbackph_" + N + "?status=cancelled", web, (X, "path"))
    add("callback-nonce-segment-double-slash", "a registered path ending in '/' is followed by ph_ directly, not '/ph_'",
        "fixapp://payments//ph_" + N + "?status=cancelled", {"kind": "cards", "return_url": "fixapp://payments/", "nonce": N},
        (X, "path"))
    add("callback-blind-append-empty-own-query", "the repair needs a non-empty own query: after 'fixapp://cb?' a blind "
        "'?status=…' makes the key '?status', so status is missing",
        "fixapp://cb/ph_" + N + "??status=completed&card_id=card_1", {"kind": "cards", "return_url": "fixapp://cb?", "nonce": N},
        (V, "status"))
    add("callback-card-flow-payment-id", "payment_id on a card registration", cb + "status=completed&payment_id=pay_1", cards, (X, "payment_id"))
    add("callback-card-flow-both-ids", "card_id and payment_id together", cb + "status=completed&card_id=card_1&payment_id=pay_1", cards,
        (X, "payment_id"))
    add("callback-card-flow-empty-payment-id", "even an empty payment_id is the wrong flow's key", cb + "status=cancelled&payment_id=", cards,
        (X, "payment_id"))
    add("callback-payment-flow-card-id", "card_id on a payment", cb + "status=completed&card_id=card_1", pays, (X, "card_id"))
    add("callback-expected-id-mismatch", "another card than the session's", cb + "status=completed&card_id=card_2",
        with_(cards, expected_id="card_1"), (X, "card_id"))
    add("callback-expected-id-mismatch-on-failed", "another card than the session's, on failed",
        cb + "status=failed&card_id=card_2", with_(cards, expected_id="card_1"), (X, "card_id"))
    add("callback-payment-expected-id-mismatch", "another payment than the session's",
        cb + "status=completed&payment_id=pay_999", with_(pays, expected_id="pay_123"), (X, "payment_id"))

    # -- errors: status and ids
    add("callback-status-missing", "a callback without status", cb + "card_id=card_1", cards, (V, "status"))
    add("callback-no-query", "a callback without any query", RETURN_URL + "/ph_" + N, cards, (V, "status"))
    add("callback-no-query-no-nonce", "neither query nor nonce: refused for the nonce first", RETURN_URL, cards, (X, "nonce"))
    add("callback-status-empty", "an empty status", cb + "status=&card_id=card_1", cards, (V, "status"))
    add("callback-status-unknown", "an unknown status", cb + "status=success&card_id=card_1", cards, (V, "status"))
    add("callback-status-capitalized", "'Completed' is not 'completed'", cb + "status=Completed&card_id=card_1", cards, (V, "status"))
    add("callback-status-uppercase", "'FAILED' is not 'failed'", cb + "status=FAILED", cards, (V, "status"))
    add("callback-status-trailing-space", "a trailing %20 is part of the value", cb + "status=completed%20&card_id=card_1", cards, (V, "status"))
    add("callback-status-trailing-plus", "a trailing '+' is a space, part of the value", cb + "status=cancelled+", cards, (V, "status"))
    add("callback-status-american-spelling", "'canceled' is not 'cancelled'", cb + "status=canceled", cards, (V, "status"))
    add("callback-completed-without-id", "completed must name the card", cb + "status=completed", cards, (V, "card_id"))
    add("callback-completed-empty-id", "an empty card_id on completed counts as missing", cb + "status=completed&card_id=", cards, (V, "card_id"))
    add("callback-payment-completed-without-id", "a completed payment must name the payment", cb + "status=completed", pays, (V, "payment_id"))
    add("callback-card-id-other-prefix", "a card_id with the payment prefix", cb + "status=completed&card_id=pay_1", cards, (V, "card_id"))
    add("callback-card-id-prefix-only", "'card_' alone is not an id", cb + "status=completed&card_id=card_", cards, (V, "card_id"))
    add("callback-card-id-uppercase", "the prefix is case-sensitive", cb + "status=completed&card_id=CARD_1", cards, (V, "card_id"))
    add("callback-card-id-on-failed-bad", "a bad id is refused on failed too", cb + "status=failed&card_id=xyz", cards, (V, "card_id"))
    add("callback-payment-id-card-prefix", "a payment_id with the card prefix", cb + "status=completed&payment_id=card_1", pays, (V, "payment_id"))

    # -- errors: order of the checks
    add("callback-order-path-before-query", "an address mismatch is reported before a bad query",
        "fixapp://checkout-callback/x?status=%zz", cards, (X, "path"))
    add("callback-order-address-before-nonce", "an address mismatch is reported before a missing nonce",
        "fixapp://evil?status=completed&card_id=card_1", cards, (X, "host"))
    add("callback-order-nonce-before-query", "a wrong nonce is reported before a bad query",
        RETURN_URL + "/ph_wrong?status=%zz", cards, (X, "nonce"))
    add("callback-order-missing-nonce-before-query", "a missing nonce is reported before a bad query",
        plain + "status=%zz", cards, (X, "nonce"))
    add("callback-order-nonce-before-kind", "a wrong nonce is reported before the wrong flow's id",
        RETURN_URL + "/ph_wrong?status=completed&payment_id=pay_1", cards, (X, "nonce"))
    add("callback-order-kind-before-status", "the wrong flow's id is reported before a missing status",
        cb + "payment_id=pay_1", cards, (X, "payment_id"))
    add("callback-order-status-before-id", "a bad status is reported before a bad id", cb + "status=ok&card_id=bad", cards, (V, "status"))
    add("callback-order-prefix-before-expected", "a mis-prefixed id is a validation error, not a mismatch",
        cb + "status=completed&card_id=pay_1", with_(cards, expected_id="card_1"), (V, "card_id"))

    # -- errors: options
    add("callback-options-unknown-key", "an unknown options key is refused", cb + "status=cancelled", with_(cards, expectedId="card_1"), (V, "expectedId"))
    add("callback-options-kind-missing", "options.kind is required", cb + "status=cancelled", with_(cards, kind=DROP), (V, "kind"))
    add("callback-options-kind-unknown", "options.kind must be cards or payments", cb + "status=cancelled", with_(cards, kind="card"), (V, "kind"))
    add("callback-options-return-url-missing", "options.return_url is required", cb + "status=cancelled", with_(cards, return_url=DROP), (V, "return_url"))
    add("callback-options-return-url-javascript", "a javascript: return URL is refused",
        "javascript:alert(1)", with_(cards, return_url="javascript:alert(1)"), (V, "return_url"))
    add("callback-options-return-url-with-ph-nonce-query", "a registered return URL may hold a ph_nonce query "
        "parameter now (it is ordinary): it comes back in extra",
        RETURN_URL + "/ph_" + N + "?ph_nonce=abc&status=cancelled", with_(cards, return_url=RETURN_URL + "?ph_nonce=abc"),
        check=all_of(verified, expect_equal("extra", {"ph_nonce": "abc"})))
    add("callback-options-return-url-sent-form", "the URL PayHandoff sent (last segment ph_…) is not a registered return URL",
        cb + "status=cancelled", with_(cards, return_url=RETURN_URL + "/ph_" + N), (V, "return_url"))
    for slug, url, why in [
        ("empty-host", "myapp://", "a custom scheme with an empty host (it would catch Billpocket answers to myapp://)"),
        ("empty-host-path", "myapp:///x", "a custom scheme with an empty host"),
        ("host-equals", "myapp://result=aprobada", "a custom-scheme host with '='"),
        ("host-ampersand", "myapp://x&y", "a custom-scheme host with '&'"),
    ]:
        add(f"callback-options-return-url-{slug}", f"a registered return URL with {why} is refused",
            "myapp://result=aprobada&identifier=ord-1", with_(cards, return_url=url), (V, "return_url"))
    add("callback-options-return-url-fragment", "a registered return URL with a fragment is refused",
        cb + "status=cancelled", with_(cards, return_url=RETURN_URL + "#x"), (V, "return_url"))
    add("callback-options-nonce-number", "options.nonce of the wrong JSON type", cb + "status=cancelled", with_(cards, nonce=1), (J, "nonce"))
    for slug, nonce, why in [
        ("empty", "", "empty (it would verify anything ending in ph_)"),
        ("short", "short", "5 characters"),
        ("15-chars", "0123456789abcde", "15 characters"),
        ("129-chars", "a" * 129, "129 characters"),
        ("ampersand", "0123456789abcdef&x", "'&'"),
        ("slash", "0123456789abcdef/x", "'/'"),
        ("percent", "0123456789abcdef%41", "'%'"),
        ("non-ascii", "0123456789abcdefñ", "a non-ASCII letter"),
    ]:
        add(f"callback-options-nonce-{slug}", f"options.nonce follows the nonce rule: {why} is refused",
            RETURN_URL + "/ph_" + nonce + "?status=cancelled", with_(cards, nonce=nonce), (V, "nonce"))
    add("callback-options-nonce-16-chars", "the shortest nonce the rule allows",
        RETURN_URL + "/ph_0123456789abcdef?status=cancelled", with_(cards, nonce="0123456789abcdef"), check=verified)
    add("callback-options-nonce-required", "without accept_unverified the nonce option is required",
        cb + "status=cancelled", with_(cards, nonce=DROP), (V, "nonce"))
    add("callback-options-nonce-null-required", "a null nonce counts as absent: still required",
        cb + "status=cancelled", with_(cards, nonce=None), (V, "nonce"))
    add("callback-options-nonce-required-accept-false", "accept_unverified false: the nonce is required",
        plain + "status=cancelled", {"kind": "cards", "return_url": RETURN_URL, "accept_unverified": False}, (V, "nonce"))
    add("callback-options-accept-unverified-text", "accept_unverified must be a JSON boolean",
        cb + "status=cancelled", with_(cards, accept_unverified="true"), (J, "accept_unverified"))
    add("callback-options-accept-unverified-number", "accept_unverified as a number",
        cb + "status=cancelled", with_(cards, accept_unverified=1), (J, "accept_unverified"))
    add("callback-options-order-nonce-before-url", "the options are checked before the URL",
        "not a url", with_(cards, nonce="short"), (V, "nonce"))
    add("callback-options-expected-id-number", "options.expected_id of the wrong JSON type",
        cb + "status=cancelled", with_(cards, expected_id=1), (J, "expected_id"))
    return s


# ---- checkout.confirmation ---------------------------------------------------------------

def confirm_cases() -> Suite:
    s = Suite("checkout.confirmation", "confirm", lambda i: confirmation(i["event"]), detach=True)

    def add(id_, note, event, error=None, check=None):
        s.add(id_, note, {"event": event}, error, check)

    card_data = {"card_id": "card_xyz789", "brand": "visa", "last_four": "4242", "token": "tok_1Nv0abc",
                 "created_at": "2026-11-30T16:00:00Z"}
    card = {"type": "card.registered", "data": card_data}
    pay = {"type": "payment.confirmed", "data": {"payment_id": "pay_123", "amount": "100.00", "confirmed_at": "2026-11-30T16:05:00Z"}}

    def cdata(**changes):
        return {"type": "card.registered", "data": with_(card_data, **changes)}

    def pdata(**changes):
        return {"type": "payment.confirmed", "data": with_(pay["data"], **changes)}

    # -- ok
    add("confirm-card-seed", "card.registered with brand, last_four, token and a timestamp", card,
        check=expect_equal("timestamps", {"created_at": "2026-11-30T16:00:00Z"}))
    add("confirm-card-minimal", "only the card id: no optional members, empty timestamps",
        {"type": "card.registered", "data": {"card_id": "card_1"}}, check=expect_equal("timestamps", {}))
    add("confirm-card-id-fallback", "the id may be data.id", {"type": "card.registered", "data": {"id": "card_1", "brand": "mastercard"}},
        check=expect_equal("card_id", "card_1"))
    add("confirm-card-id-preferred", "data.card_id is read before data.id", cdata(id="evt_1"), check=expect_equal("card_id", "card_xyz789"))
    add("confirm-card-null-id-falls-back", "a null data.card_id counts as absent", cdata(card_id=None, id="card_2"),
        check=expect_equal("card_id", "card_2"))
    add("confirm-card-last-four-leading-zero", "last_four keeps leading zeros", cdata(last_four="0042"))
    add("confirm-card-null-optionals", "null brand, last_four, token, amount count as absent",
        cdata(brand=None, last_four=None, token=None, amount=None), check=all_of(no_key("brand"), no_key("last_four")))
    add("confirm-card-timestamps", "every *_at member is a timestamp; text and integers kept as they came",
        cdata(updated_at=1764518400000, verified_at="2026-11-30T16:00:01.123-03:00"),
        check=expect_equal("timestamps", {"created_at": "2026-11-30T16:00:00Z", "updated_at": 1764518400000,
                                          "verified_at": "2026-11-30T16:00:01.123-03:00"}))
    add("confirm-card-null-timestamp-ignored", "a null *_at member is left out", cdata(expires_at=None),
        check=expect_equal("timestamps", {"created_at": "2026-11-30T16:00:00Z"}))
    add("confirm-card-non-timestamp-keys-ignored", "'_at' alone, 'at', 'chat', 'at_time' are not timestamps (any type)",
        cdata(_at={"x": 1}, at=True, chat=[1, 2], at_time=False, format=None),
        check=expect_equal("timestamps", {"created_at": "2026-11-30T16:00:00Z"}))
    add("confirm-card-unknown-members-ignored", "other data members are not needed and not kept",
        cdata(customer={"id": "cus_1"}, status="active", fingerprint=12345), check=no_key("customer"))
    add("confirm-card-with-amount", "a card event with an amount keeps it", cdata(amount=0), check=expect_equal("amount", "0.00"))
    add("confirm-card-ignores-payment-id", "a card event's payment_id is not read", cdata(payment_id="nope"))
    add("confirm-card-unicode-brand", "brand and token are carried as text", cdata(brand="Bancard Crédito", token="tok_ñ"))
    # Issue 24: a flow keeps the confirmation; every kept member is bounded.
    add("confirm-card-six-timestamps-kept", "at most six timestamps are kept: those whose names sort first",
        cdata(**{f"t{n}_at": n for n in range(8)}),
        check=expect_equal("timestamps", {"created_at": "2026-11-30T16:00:00Z", **{f"t{n}_at": n for n in range(5)}}))
    add("confirm-card-long-timestamp-not-kept", "a timestamp text over 40 characters is not kept (not needed)",
        cdata(updated_at="2026-11-30T16:00:00.000000000000000000000Z"),
        check=expect_equal("timestamps", {"created_at": "2026-11-30T16:00:00Z"}))
    add("confirm-card-brand-64-bytes", "a brand of 64 bytes is kept", cdata(brand="b" * 64))
    # Issue 35, item 6: brand and token up to 1 KiB as JSON text (0.3: 64 and 256 bytes).
    add("confirm-card-brand-65-bytes", "a brand of 65 bytes is kept (0.3 refused it)", cdata(brand="b" * 65))
    add("confirm-card-token-257-bytes", "a token reference of 257 bytes is kept (0.3 refused it)", cdata(token="t" * 257))
    add("confirm-card-brand-1024-bytes", "a brand of 1024 bytes is kept", cdata(brand="b" * 1024))
    add("confirm-card-brand-1025-bytes", "a brand of 1025 bytes is refused", cdata(brand="b" * 1025), (V, "data.brand"))
    add("confirm-card-token-1024-bytes", "a token reference of 1024 bytes is kept", cdata(token="t" * 1024))
    add("confirm-card-token-1025-bytes", "a token reference of 1025 bytes is refused", cdata(token="t" * 1025), (V, "data.token"))
    add("confirm-card-token-backslashes-1025-printed", "a token printing as 1025 bytes of JSON (512 backslashes) is refused",
        cdata(token="\\" * 512 + "t"), (V, "data.token"))
    add("confirm-card-brand-control", "a brand with a control character is refused", cdata(brand="vi\u0000sa"), (V, "data.brand"))
    add("confirm-payment-seed", "payment.confirmed with amount text and confirmed_at", pay, check=expect_equal("amount", "100.00"))
    add("confirm-payment-id-fallback", "the payment id may be data.id", {"type": "payment.confirmed", "data": {"id": "pay_9"}})
    add("confirm-payment-ignores-card-id", "a payment event's card_id is not read", pdata(card_id="card_1"), check=no_key("card_id"))
    for slug, amount, text in [
        ("one-decimal", "100.5", "100.50"), ("whole", "100", "100.00"), ("leading-zeros", "007.5", "7.50"),
        ("one-centavo", "0.01", "0.01"), ("zero-text", "0", "0.00"), ("minor-units", 10050, "100.50"),
        ("minor-units-one", 1, "0.01"), ("max-minor-units", MAX_MINOR_UNITS, "90071992547409.91"),
        ("max-text", "90071992547409.91", "90071992547409.91"),
    ]:
        add(f"confirm-payment-amount-{slug}", f"amount {json.dumps(amount)} is {text}", pdata(amount=amount),
            check=expect_equal("amount", text))
    add("confirm-payment-no-amount", "a payment event without amount", pdata(amount=DROP), check=no_key("amount"))

    # -- errors: type and data
    add("confirm-type-missing", "type is required", {"data": card_data}, (V, "type"))
    add("confirm-type-unknown", "only card.registered and payment.confirmed", with_(card, type="card.updated"), (V, "type"))
    add("confirm-type-uppercase", "type is exact", with_(card, type="Card.Registered"), (V, "type"))
    add("confirm-type-payment-failed", "payment.failed is not a confirmation", with_(pay, type="payment.failed"), (V, "type"))
    add("confirm-type-number", "type of the wrong JSON type", with_(card, type=1), (J, "type"))
    add("confirm-data-missing", "data is required", {"type": "card.registered"}, (V, "data"))
    add("confirm-data-null", "a null data counts as missing", {"type": "card.registered", "data": None}, (V, "data"))
    add("confirm-data-array", "data must be an object", {"type": "card.registered", "data": [card_data]}, (J, "data"))
    add("confirm-data-string", "data as text", {"type": "payment.confirmed", "data": "pay_123"}, (J, "data"))

    # -- errors: ids
    add("confirm-card-id-missing", "no card_id and no id", cdata(card_id=DROP), (V, "data.card_id"))
    add("confirm-card-id-other-prefix", "a card event naming a payment", cdata(card_id="pay_1"), (V, "data.card_id"))
    add("confirm-card-id-prefix-only", "'card_' alone is not an id", cdata(card_id="card_"), (V, "data.card_id"))
    add("confirm-card-id-empty", "an empty card_id does not fall back to data.id", cdata(card_id="", id="card_1"), (V, "data.card_id"))
    add("confirm-card-id-uppercase", "the prefix is case-sensitive", cdata(card_id="Card_1"), (V, "data.card_id"))
    add("confirm-card-data-id-bad", "a bad data.id is reported under data.card_id", {"type": "card.registered", "data": {"id": "evt_1"}},
        (V, "data.card_id"))
    add("confirm-card-id-number", "card_id of the wrong JSON type", cdata(card_id=1), (J, "data.card_id"))
    add("confirm-card-data-id-number", "data.id of the wrong JSON type", {"type": "card.registered", "data": {"id": 7}}, (J, "data.id"))
    add("confirm-payment-id-missing", "no payment_id and no id", pdata(payment_id=DROP), (V, "data.payment_id"))
    add("confirm-payment-id-card-prefix", "a payment event naming a card", pdata(payment_id="card_1"), (V, "data.payment_id"))
    add("confirm-payment-only-card-id", "a payment event with only a card_id", {"type": "payment.confirmed", "data": {"card_id": "card_1"}},
        (V, "data.payment_id"))

    # -- errors: last_four
    for slug, value, why in [
        ("three-digits", "424", "three digits"), ("five-digits", "42424", "five digits"), ("letter", "42a2", "a letter"),
        ("masked", "**42", "mask characters"), ("fullwidth", "４２４２", "full-width digits"), ("space", "424 ", "a space"),
        ("empty", "", "an empty text"),
    ]:
        add(f"confirm-last-four-{slug}", f"last_four with {why} is refused", cdata(last_four=value), (V, "data.last_four"))
    add("confirm-last-four-number", "last_four as a JSON number", cdata(last_four=4242), (J, "data.last_four"))

    # -- errors: amount
    for slug, value, why in [
        ("three-decimals", "100.123", "three decimals (never rounded)"), ("exponent", "1e2", "an exponent"),
        ("negative-text", "-1.00", "a sign"), ("plus-sign", "+1", "a plus sign"), ("leading-dot", ".5", "a leading dot"),
        ("trailing-dot", "5.", "a trailing dot"), ("thousands", "1,000.00", "a thousands separator"),
        ("comma-decimal", "100,50", "a decimal comma"), ("space", " 100", "a space"), ("empty", "", "an empty text"),
        ("currency", "$100", "a currency sign"), ("over-max-text", "90071992547409.92", "one centavo above the maximum"),
        ("huge-text", "9" * 40, "40 digits"),
    ]:
        add(f"confirm-amount-{slug}", f"amount text with {why} is refused", pdata(amount=value), (V, "data.amount"))
    add("confirm-amount-negative-minor-units", "negative minor units", pdata(amount=-100), (V, "data.amount"))
    add("confirm-amount-over-max-minor-units", "2^53 is beyond what JSON text carries exactly", pdata(amount=MAX_MINOR_UNITS + 1), (J, "data.amount"))
    add("confirm-amount-boolean", "amount as a boolean", pdata(amount=True), (J, "data.amount"))
    add("confirm-amount-object", "amount as an object", pdata(amount={"value": 100, "currency": "PYG"}), (J, "data.amount"))

    # -- errors: timestamps and other members
    add("confirm-timestamp-boolean", "a *_at member that is a boolean", cdata(created_at=True), (J, "data.created_at"))
    add("confirm-timestamp-object", "a *_at member that is an object", pdata(confirmed_at={"seconds": 1}), (J, "data.confirmed_at"))
    add("confirm-timestamp-array", "a *_at member that is an array", cdata(updated_at=["2026-11-30"]), (J, "data.updated_at"))
    add("confirm-brand-number", "brand of the wrong JSON type", cdata(brand=4), (J, "data.brand"))
    add("confirm-token-object", "token of the wrong JSON type", cdata(token={"id": "tok_1"}), (J, "data.token"))
    return s


# ---------------------------------------------------------------------------------------

def other_vector_ids() -> set[str]:
    """Ids of the other suites' files (vector ids are unique across all vectors)."""
    ids: set[str] = set()
    for path in sorted(VECTORS_DIR.glob("*/*.json")):
        if path.parent == CHECKOUT_DIR:
            continue
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        ids.update(v.get("id") for v in document.get("vectors", []) if isinstance(v, dict))
    return ids


def main(argv: list[str]) -> int:
    suites = {"build_request.json": build_cases(), "parse_session.json": session_cases(),
              "parse_callback.json": callback_cases(), "confirmation.json": confirm_cases()}
    return vectorlib.main(argv, CHECKOUT_DIR, suites, min_vectors=110, other_ids=other_vector_ids())


if __name__ == "__main__":
    sys.exit(main(sys.argv))
