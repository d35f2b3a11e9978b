"""Helpers shared by the test-vector generators in this folder (pos_vectors.py,
checkout_vectors.py, flow_vectors.py, …, and the POS-app oracles pos_square.py, pos_sumup.py,
pos_clip.py of pos_apps_vectors.py).

The generators run as `python3 Tests/Vectors/tools/X_vectors.py`, so Python puts this folder
on sys.path and they import this module by name. Python 3.11, standard library only.

Same oracle rule as the generators: everything here is written from the rules of the
contracts (docs/architecture.md), and nothing here runs or imports PayHandoff. The expected answers
are computed in Python, never by running Swift.

- `Fail`: the expected error an oracle raises (`code`, `field`);
- text and URLs: `ascii_lower`, `normalize_web` (http/https default ports and empty paths),
  outgoing `percent_encode` (RFC 3986 unreserved characters only), incoming `percent_decode`
  and `decode_query` (byte-level, from the rules, then Python's strict UTF-8 decoder); the
  POS and checkout rules differ in `+` and key-case handling, so both are parameters;
- amounts: integer minor units, parsed and formatted with integer arithmetic only;
- the nonce/token rule (`check_nonce`): 16 to 128 RFC 3986 unreserved characters;
- case tables: `DROP`, `make_with`, `err`, `ANY_FIELD`, `Suite`;
- output: `render` and `main` (write the files, or `--check` that they are up to date);
- POS apps beside Billpocket (issue 39): `check_pos_app`, `check_currency` (ISO 4217 minor units),
  `PosRequest` (the request member rules), `check_callback_url`, `answer_query` (an answer URL's
  address and query), `answer_options`, `string_extras`, `check_result_code`, `no_data_answer`,
  `check_transaction_id`.
"""

from __future__ import annotations

import json
import re
import sys
import urllib.parse
from pathlib import Path
from typing import Callable

MAX_MINOR_UNITS = 9_007_199_254_740_991  # 2^53 - 1
MAX_FIELD_KEY_BYTES = 64  # longer query keys are not quoted in error fields (POS and checkout alike)


class Fail(Exception):
    """An expected error: `code` and `field` (None = the error names no field)."""

    def __init__(self, code: str, field: str | None):
        super().__init__(code, field)
        self.code = code
        self.field = field


NONCE_TEXT = re.compile(r"[A-Za-z0-9\-._~]{16,128}")  # RFC 3986 unreserved characters only


def check_token(value, field: str) -> str | None:
    """A POS token: the nonce rule, and no '~' (it follows the identifier after a '~', and the
    identifier sent must split in one way only, at its last '~': issue 24)."""
    token = check_nonce(value, field)
    if token is not None and "~" in token:
        raise Fail("validation", field)
    return token


def check_nonce(value, field: str) -> str | None:
    """A checkout nonce or a POS token (the same rule): None (absent) stays None; text of 16 to
    128 unreserved characters is returned; other text is (validation, field), another JSON type
    (invalid_json, field)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise Fail("invalid_json", field)
    if not NONCE_TEXT.fullmatch(value):
        raise Fail("validation", field)
    return value


def ascii_lower(text: str) -> str:
    """A-Z to a-z only (what 'ASCII case-insensitive' means); other characters unchanged."""
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)


# ---------------------------------------------------------------------------------------
# Percent-encoding

def percent_encode(text: str) -> str:
    """Outgoing: everything but the RFC 3986 unreserved characters, uppercase hex."""
    return urllib.parse.quote(text, safe="-._~")


def normalize_web(scheme: str, port: int | None, path: str) -> tuple[int | None, str]:
    """URL comparison rule for http and https (scheme already lowercased): an empty path is `/`,
    the default port (80, 443) is no port. Other schemes: unchanged. Returns (port, path)."""
    if scheme in ("http", "https"):
        path = path or "/"
        if (scheme, port) in (("http", 80), ("https", 443)):
            port = None
    return port, path


HEX = b"0123456789abcdefABCDEF"


def percent_decode(raw: bytes, field: str | None, *, plus_is_space: bool) -> str:
    """Incoming: `%` + two hex digits is a byte, `+` is a space (`plus_is_space`, the
    WHATWG/form rule) or a literal `+`; then strict UTF-8 (refuses overlong forms, surrogates
    and code points above U+10FFFF). Bad escapes, bad UTF-8 and NUL: malformed_url `field`."""
    out = bytearray()
    i = 0
    while i < len(raw):
        byte = raw[i]
        if byte == ord("%"):
            pair = raw[i + 1:i + 3]
            if len(pair) != 2 or pair[0] not in HEX or pair[1] not in HEX:
                raise Fail("malformed_url", field)
            out.append(int(pair, 16))
            i += 3
        else:
            out.append(ord(" ") if plus_is_space and byte == ord("+") else byte)
            i += 1
    if 0 in out:
        raise Fail("malformed_url", field)
    try:
        return out.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        raise Fail("malformed_url", field) from None


def decode_query(raw: bytes, *, plus_is_space: bool, case_insensitive: bool) -> list[tuple[str, str]]:
    """Split on `&` (empty pieces skipped), then on the first `=` (required, key not empty:
    else malformed_url with no field), then `percent_decode` key and value. A key that repeats
    (compared with `ascii_lower` when `case_insensitive`) is malformed_url. Errors name the
    decoded key, or no field when it is longer than MAX_FIELD_KEY_BYTES."""
    fold = ascii_lower if case_insensitive else (lambda text: text)
    items: list[tuple[str, str]] = []
    seen: set[str] = set()
    for piece in raw.split(b"&"):
        if not piece:
            continue
        raw_key, equals, raw_value = piece.partition(b"=")
        if not equals or not raw_key:
            raise Fail("malformed_url", None)
        key = percent_decode(raw_key, None, plus_is_space=plus_is_space)
        field = key if len(key.encode("utf-8")) <= MAX_FIELD_KEY_BYTES else None
        value = percent_decode(raw_value, field, plus_is_space=plus_is_space)
        if fold(key) in seen:
            raise Fail("malformed_url", field)
        seen.add(fold(key))
        items.append((key, value))
    return items


# ---------------------------------------------------------------------------------------
# Amounts: decimal text `DIGITS [. DIGIT [DIGIT]]` or JSON integer minor units.

AMOUNT_TEXT = re.compile(r"[0-9]+(?:\.[0-9]{1,2})?")  # [0-9] is ASCII-only in `re`


def amount_from_text(text: str, field: str) -> int:
    if not AMOUNT_TEXT.fullmatch(text):
        raise Fail("validation", field)
    whole, _, fraction = text.partition(".")
    units = int(whole) * 100 + int((fraction + "00")[:2])
    if units > MAX_MINOR_UNITS:
        raise Fail("validation", field)
    return units


def amount_from_json(value, field: str) -> int | None:
    """None (absent): None; an integer is minor units, text is `amount_from_text`."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise Fail("invalid_json", field)
    if isinstance(value, int):
        if abs(value) > MAX_MINOR_UNITS:
            # JSON text carries integers only within +-(2^53 - 1) (what a double keeps exactly):
            # the text layer (cJSON in the C ABI, Codable in Swift) refuses the number itself.
            raise Fail("invalid_json", field)
        if value < 0:
            raise Fail("validation", field)
        return value
    if isinstance(value, str):
        return amount_from_text(value, field)
    if isinstance(value, float):
        raise AssertionError("floats cannot be represented by the vector loaders: " + field)
    raise Fail("invalid_json", field)


def format_amount(units: int) -> str:
    return f"{units // 100}.{units % 100:02d}"


# ---------------------------------------------------------------------------------------
# Case tables

DROP = object()  # marks a key to remove from a base document


def make_with(*, deep_copy: bool) -> Callable[..., dict]:
    """The tables' `with_(base, key=value, other=DROP)`: a copy of `base` with keys replaced
    or (DROP) removed. `deep_copy` copies nested objects too (a JSON round trip); without it
    the copy is shallow and shares them with `base`."""
    def with_(base: dict, **changes) -> dict:
        out = json.loads(json.dumps(base)) if deep_copy else dict(base)
        for key, value in changes.items():
            if value is DROP:
                out.pop(key, None)
            else:
                out[key] = value
        return out
    return with_


ANY_FIELD = object()  # an expected error whose field the vector does not state (see `err`)


def err(code: str, field) -> dict:
    """An expected error. With `ANY_FIELD` the vector states only the code: used where the field
    depends on the order in which a JSON loader hands over an object's keys (the runners' loaders
    do not all keep it), e.g. which of two keys equal ignoring case is "the second one"."""
    if field is ANY_FIELD:
        return {"error": {"code": code}}
    return {"error": {"code": code, "field": field}}


class Suite:
    """The vectors of one oracle: each case's expected outcome is what `oracle(input)`
    returns (ok) or raises (`Fail`: error). With `detach`, each input is stored as a JSON copy,
    and the oracle gets another, so neither the tables' shared objects nor the oracle can
    change a stored input."""

    def __init__(self, name: str, prefix: str, oracle, *, detach: bool = False):
        self.name = name
        self.prefix = prefix
        self.oracle = oracle
        self.detach = detach
        self.vectors: list[dict] = []

    def add(self, id_: str, note: str, input_: dict, error: tuple[str, str | None] | None = None,
            check=None, skip: dict[str, str] | None = None):
        """Adds a vector; `error` is the error the case is written to provoke (None: ok).
        `check(result)` may assert literal facts about an ok result. `skip` names the runners
        that cannot express the vector, each with its reason (see `skips`)."""
        assert id_.startswith(self.prefix + "-"), id_
        assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", id_), id_
        assert "\n" not in note and note, id_
        assert all(v["id"] != id_ for v in self.vectors), "duplicate id " + id_
        argument = input_
        if self.detach:
            input_ = json.loads(json.dumps(input_))  # detach from the tables' shared objects
            argument = json.loads(json.dumps(input_))
        try:
            outcome = {"ok": self.oracle(argument)}
        except Fail as failure:
            outcome = err(failure.code, failure.field)
        wanted = err(*error) if error else None
        if error and error[1] is ANY_FIELD and "error" in outcome:
            outcome = err(outcome["error"]["code"], ANY_FIELD)
        if wanted is not None and outcome != wanted:
            raise AssertionError(f"{id_}: table expects {wanted}, oracle says {outcome}")
        if wanted is None and "ok" not in outcome:
            raise AssertionError(f"{id_}: table expects ok, oracle says {outcome}")
        if check is not None:
            check(outcome["ok"])
        self.vectors.append(with_skip({"id": id_, "note": note, "input": input_, "expect": outcome}, skip))


# ---------------------------------------------------------------------------------------
# Runners that cannot express a vector (Tests/Vectors/README.md, "Skips")

RUNNERS = ("swift", "c", "kotlin", "javascript")

LONE_SURROGATE_SKIPS = {
    "swift": "a Swift String cannot hold a lone UTF-16 surrogate (Foundation's JSONDecoder reads this file with "
             "U+FFFD in its place): only the Kotlin and JavaScript glue ever meets one",
    "c": "C strings are UTF-8, which has no lone UTF-16 surrogate (cJSON reads this file with U+FFFD in its place): "
         "only the Kotlin and JavaScript glue ever meets one",
}


def with_skip(vector: dict, skip: dict[str, str] | None) -> dict:
    """`vector` with its `skip` member ({runner: reason}), when it has one."""
    if skip:
        assert set(skip) <= set(RUNNERS) and all(isinstance(r, str) and r for r in skip.values()), skip
        assert set(skip) != set(RUNNERS), "a vector no runner runs"
        vector["skip"] = dict(skip)
    return vector


def has_lone_surrogate(value) -> bool:
    """Whether a string of `value` (keys included) holds a lone UTF-16 surrogate. A Python str
    holds every character whole (a pair read from JSON is one code point), so any code point
    U+D800..U+DFFF in one is lone."""
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_lone_surrogate(v) for v in value)
    return False


# ---------------------------------------------------------------------------------------
# Output

def render(suite) -> str:
    """The file text of a suite (anything with `name` and `vectors`). A lone surrogate has no
    UTF-8 form: it is written as its JSON escape (\\ud800), which JSON.parse and org.json read
    back as that code unit."""
    text = json.dumps({"suite": suite.name, "vectors": suite.vectors}, indent=2, ensure_ascii=False) + "\n"
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text)


def count_errors(suite) -> int:
    return sum("error" in v["expect"] for v in suite.vectors)


def outcome_counts(file_name: str, suite) -> str:
    n_err = count_errors(suite)
    return f"{suite.name}: {len(suite.vectors)} vectors ({len(suite.vectors) - n_err} ok, {n_err} error)"


def main(argv: list[str], directory: Path, suites: dict, *, min_vectors: int | None = None,
         describe: Callable[[str, object], str] = outcome_counts, other_ids: set[str] = frozenset()) -> int:
    """A generator's command line: writes `suites` ({file name: suite}) into `directory`, or
    with `--check` writes nothing and returns 1 when a file on disk differs. Vector ids must be
    unique, and not in `other_ids`. With `min_vectors` the vectors are tallied by outcome: at
    least that many, and at least 40 % expecting an error. Prints `describe(file_name, suite)`
    per file, then the total."""
    check_only = "--check" in argv[1:]
    ids = [v["id"] for s in suites.values() for v in s.vectors]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert not duplicates, "duplicate vector ids: " + ", ".join(duplicates)
    clash = set(ids) & set(other_ids)
    assert not clash, "ids already used by another suite: " + ", ".join(sorted(clash))
    total = len(ids)
    if min_vectors is not None:
        errors = sum(count_errors(s) for s in suites.values())
        assert total >= min_vectors and errors * 10 >= total * 4, (total, errors)
        total_line = f"total: {total} vectors, {errors} expecting an error ({100 * errors / total:.1f}%)"
    else:
        total_line = f"total: {total} vectors"

    stale = []
    for name, suite in suites.items():
        path = directory / name
        text = render(suite)
        current = path.read_bytes().decode("utf-8") if path.exists() else None
        if current != text:
            stale.append(name)
            if not check_only:
                directory.mkdir(parents=True, exist_ok=True)
                path.write_bytes(text.encode("utf-8"))
        print(describe(name, suite))
    print(total_line)
    if check_only and stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


# ---------------------------------------------------------------------------------------
# POS apps beside Billpocket (issue 39: pos_square.py, pos_sumup.py, pos_clip.py)
#
# What the three provider oracles share: the `pos_app` word, reading a request's members with the
# POS request rules (unknown keys refused, null is absent, another JSON type is invalid_json), the
# ISO 4217 currency rule, the identifier sent (`<identifier>~<token>`), callback URLs and the
# answer URL's address, and the "no data" answer of an Android activity result.

POS_APPS = ("billpocket", "square", "sumup", "clip")
TOKEN_SEPARATOR = "~"

# ISO 4217 (list one, the current table maintained by SIX Group for the ISO 4217 Maintenance
# Agency): every active code whose minor unit is not 2. PayHandoff's amounts are two-decimal
# minor units, so these are refused (issue 39 spec: "currencies whose minor unit is not 2 are
# refused"); "N.A." (no minor unit: precious metals, SDRs, test and no-currency codes) counts as
# not 2. Any other three-letter code is taken as two-decimal: the POS app itself refuses a code
# its merchant cannot take (Square `unsupported_currency_code`, SumUp "must match the logged-in
# merchant").
ISO4217_ZERO_DECIMALS = ("BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI",
                         "VND", "VUV", "XAF", "XOF", "XPF")
ISO4217_THREE_DECIMALS = ("BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND")
ISO4217_FOUR_DECIMALS = ("CLF", "UYW")
ISO4217_NO_MINOR_UNIT = ("XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XDR", "XPD", "XPT", "XSU", "XTS", "XUA", "XXX")
CURRENCY_TEXT = re.compile(r"[A-Z]{3}")


def check_currency(value, field: str = "currency") -> str:
    """A present `currency`: three uppercase ASCII letters with a minor unit of 2."""
    if not isinstance(value, str):
        raise Fail("invalid_json", field)
    if not CURRENCY_TEXT.fullmatch(value):
        raise Fail("validation", field)
    if value in ISO4217_ZERO_DECIMALS + ISO4217_THREE_DECIMALS + ISO4217_FOUR_DECIMALS + ISO4217_NO_MINOR_UNIT:
        raise Fail("validation", field)
    return value


def utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


FRESH_POS_TOKEN = "f" * 32  # stands for a fresh token (32 lowercase hex digits) in length checks only


class PosRequest:
    """Reads one POS request document by the request rules of pos_build_url (Billpocket's, for
    every provider): keys outside `allowed` are refused (validation, the key); JSON null counts
    as absent; a member of another JSON type is invalid_json naming it."""

    def __init__(self, request, allowed: tuple[str, ...]):
        if not isinstance(request, dict):
            raise Fail("invalid_json", None)
        for key in request:
            if key not in allowed:
                raise Fail("validation", key)
        self.request = request

    def get(self, key: str):
        return self.request.get(key)

    def string(self, key: str, required: bool) -> str | None:
        value = self.request.get(key)
        if value is None:
            if required:
                raise Fail("validation", key)
            return None
        if not isinstance(value, str):
            raise Fail("invalid_json", key)
        return value

    def text(self, key: str, required: bool, limit: int | None = None) -> str | None:
        """Text: required text is not empty; at most `limit` UTF-16 units; never U+0000."""
        value = self.string(key, required)
        if value is not None:
            if value == "" or "\x00" in value:
                raise Fail("validation", key)
            if limit is not None and utf16_units(value) > limit:
                raise Fail("validation", key)
        return value

    def boolean(self, key: str) -> bool | None:
        value = self.request.get(key)
        if value is not None and not isinstance(value, bool):
            raise Fail("invalid_json", key)
        return value

    def integer(self, key: str) -> int | None:
        value = self.request.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise Fail("invalid_json", key)
        return value

    def amount(self, key: str, required: bool) -> int | None:
        """An amount above zero (text or integer minor units, as Billpocket's)."""
        units = amount_from_json(self.request.get(key), key)
        if units is None:
            if required:
                raise Fail("validation", key)
            return None
        if units == 0:
            raise Fail("validation", key)
        return units

    def token(self) -> str | None:
        """The optional `token`: a string (the POS token rule) or `true` (a fresh one)."""
        value = self.request.get("token")
        if value is True:
            return FRESH_POS_TOKEN
        if value is False:
            raise Fail("validation", "token")
        return check_token(value, "token")


def check_pos_app(value, default: str | None = "billpocket") -> str:
    """`pos_app`: absent or null is `default`; one of POS_APPS; another JSON type is invalid_json."""
    if value is None:
        if default is None:
            raise Fail("validation", "pos_app")
        return default
    if not isinstance(value, str):
        raise Fail("invalid_json", "pos_app")
    if value not in POS_APPS:
        raise Fail("validation", "pos_app")
    return value


def sent_pos_identifier(identifier: str, token: str | None) -> str:
    return identifier if token is None else identifier + TOKEN_SEPARATOR + token


SCHEME_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9+\-.]*")


def check_callback_url(value, field: str = "callback_url") -> str:
    """A provider's callback URL (Square iOS, SumUp): `scheme:rest`, the scheme by RFC 3986, the
    rest not empty; no space, control character or DEL; no `?` or `#` (the POS app appends its
    answer as `?…`, which must be the whole query); at most 1024 bytes; the scheme at most 50
    characters (Billpocket's `urlScheme` bound, which every answer's scheme shares). Present and text."""
    if value is None:
        raise Fail("validation", field)
    if not isinstance(value, str):
        raise Fail("invalid_json", field)
    scheme, colon, rest = value.partition(":")
    if (not colon or not SCHEME_TEXT.fullmatch(scheme) or len(scheme) > 50 or rest == "" or len(value.encode("utf-8")) > 1024
            or any(ord(c) <= 0x20 or ord(c) == 0x7F for c in value) or "?" in value or "#" in value):
        raise Fail("validation", field)
    return value


MAX_ANSWER_URL_BYTES = 8192


def answer_query(url: str, callback_url: str) -> bytes:
    """An answer URL to a callback URL: the URL rules of every POS answer (size, characters, scheme
    syntax, no raw `#`), then its scheme must be the callback URL's, ignoring ASCII case
    (callback_mismatch `scheme` otherwise) — Billpocket's rule (`parse-scheme-mismatch`): the
    answer is tied to the sale by the echoed token, not by its address, and Square's iOS SDK may
    rewrite the address (`square_request` as host or last path segment, SCAPIURLConversion.m;
    the issue 39 spec). Returns the raw query (empty without `?`)."""
    raw = url.encode("utf-8")
    if len(raw) > MAX_ANSWER_URL_BYTES:
        raise Fail("limit_exceeded", "url")
    if any(b <= 0x20 or b == 0x7F for b in raw):
        raise Fail("malformed_url", "url")
    scheme, colon, _ = url.partition(":")
    if not colon or not SCHEME_TEXT.fullmatch(scheme):
        raise Fail("malformed_url", "url")
    c_scheme, _, _ = callback_url.partition(":")
    if ascii_lower(scheme) != ascii_lower(c_scheme):
        raise Fail("callback_mismatch", "scheme")
    if "#" in url:  # after the scheme, as the core (CallbackURL.query): another app's URL is named as such
        raise Fail("malformed_url", "url")
    _, _, query = url.partition("?")
    return query.encode("utf-8")


class _Pairs(list):
    """A JSON object's members in order, duplicates kept (json.loads' object_pairs_hook)."""


class _NonInteger:
    """A number token with a fraction or an exponent: the C ABI's JSON rules refuse it."""


class _Refused(Exception):
    def __init__(self, path):
        super().__init__(path)
        self.path = path


def _located(inner, step: str) -> str:
    return step if inner is None else (step + inner if inner.startswith("[") else step + "." + inner)


def _checked(value, depth: int):
    """The document, by the C ABI's JSON rules (PayHandoffABI/JSONText+Reader.swift: integers within
    ±(2^53 − 1), no key twice in one object — the first key that repeats an earlier one is named —,
    at most 64 arrays/objects deep); a refusal names the path from the root (None: the root)."""
    if isinstance(value, _Pairs):
        if depth >= 64:
            raise _Refused(None)
        seen = set()
        for key, _ in value:
            if key in seen:
                raise _Refused(key)
            seen.add(key)
        out = {}
        for key, member in value:
            try:
                out[key] = _checked(member, depth + 1)
            except _Refused as refused:
                raise _Refused(_located(refused.path, key)) from None
        return out
    if isinstance(value, list):
        if depth >= 64:
            raise _Refused(None)
        out = []
        for index, element in enumerate(value):
            try:
                out.append(_checked(element, depth + 1))
            except _Refused as refused:
                raise _Refused(_located(refused.path, "[" + str(index) + "]")) from None
        return out
    if value is _NonInteger or (isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53 - 1):
        raise _Refused(None)
    return value


def json_text(text: str, field: str):
    """JSON text inside a POS answer (Square's `data`, Clip's `PAYMENT_RESPONSE`), read as the
    core's codec over cJSON reads it (PayHandoffABI/JSONText.swift, `CJSONTextCodec`): text that is
    not one JSON value is invalid_json naming `field`; a member the rules refuse is invalid_json
    naming `field.path` (`data.error_code` for a repeated key, `PAYMENT_RESPONSE.amount` for 100.00)."""
    def refuse_constant(name):
        raise ValueError(name)
    try:
        document = json.loads(text, object_pairs_hook=_Pairs, parse_float=lambda _: _NonInteger,
                              parse_constant=refuse_constant)
    except (ValueError, RecursionError):
        raise Fail("invalid_json", field) from None
    try:
        return _checked(document, 0)
    except _Refused as refused:
        raise Fail("invalid_json", None if refused.path is None else field + "." + refused.path) from None


# Keys of an answer that carry a secret when a POS app echoes them (any ASCII case): dropped from
# every app's answer, never kept in `extra` (the core: Redaction.isSecretKey, applied where every
# app's answer is made).
SECRET_ECHO_KEYS = ("usertoken", "pin", "affiliate-key", "affiliate_key")


def public_extra(pairs) -> dict:
    """An answer's other keys (`(key, value)` pairs or a dict) without the secret ones."""
    items = pairs.items() if isinstance(pairs, dict) else pairs
    return {k: v for k, v in items if ascii_lower(k) not in SECRET_ECHO_KEYS}


def answer_options(options, allowed: tuple[str, ...], then=None) -> tuple[dict, str | None]:
    """The options of an answer reader (pos_parse_response / pos_parse_result): an object, keys
    in `allowed`, then `then(options)` (the app's own options: `callback_url`, as Billpocket's
    `urlScheme`, or `result_code`, checked before the identifier, in the core's order), `identifier`
    text, `token` by the token rule (needs `identifier`). Returns the options and the expected
    `<identifier>~<token>` (None: any echo is accepted)."""
    if not isinstance(options, dict):
        raise Fail("invalid_json", None)
    for key in options:
        if key not in allowed:
            raise Fail("validation", key)
    if then is not None:
        then(options)
    identifier = options.get("identifier")
    if identifier is not None and not isinstance(identifier, str):
        raise Fail("invalid_json", "identifier")
    token = check_token(options.get("token"), "token")
    if token is not None and identifier is None:
        raise Fail("validation", "token")
    return options, (None if identifier is None else sent_pos_identifier(identifier, token))


def check_result_code(options: dict) -> int | None:
    """`result_code` of pos_parse_result's options (the Android activity's result code: RESULT_OK -1,
    RESULT_CANCELED 0; h39core put it in the options): a JSON integer when present. The extras
    decide the answer; the code is only read (a provider's answer under the other code is still that
    answer: Clip returns errors under RESULT_OK)."""
    value = options.get("result_code")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise Fail("invalid_json", "result_code")
    return value


def string_extras(extras) -> dict[str, str]:
    """Android result extras: an object of strings (another JSON type: invalid_json naming the
    key; not an object: invalid_json, no field); a value holding U+0000 is validation naming it.
    Keys are Android Bundle keys: case-sensitive."""
    if not isinstance(extras, dict):
        raise Fail("invalid_json", None)
    for key, value in extras.items():
        if not isinstance(value, str):
            raise Fail("invalid_json", key)
    for key, value in extras.items():
        if "\x00" in value:
            raise Fail("validation", key)
    return extras


def no_data_answer(pos_app: str) -> dict:
    """An activity result without data (`extras` null: the POS app crashed, was uninstalled, or
    the user backed out) read by `pos_parse_result`: there is no answer to read — `invalid_json`
    (no field), as Billpocket's `hostile-result-extras-null` says; `pos_app` does not change what a
    null document is. (`{}` is read by each app's rules: its echo is missing.) In a flow, the host
    reports it as `pos.result` with `extras: null` or `{}`: `returned_without_response` with
    reconcile, never declined (FlowModel.result)."""
    raise Fail("invalid_json", None)


def check_transaction_id(value: str, field: str) -> str:
    """The ledger's one transactionid rule (issue 24): 1 to 128 printable ASCII characters, no space."""
    raw = value.encode("utf-8")
    if not 1 <= len(raw) <= 128 or not all(0x21 <= b <= 0x7E for b in raw):
        raise Fail("validation", field)
    return value
