#!/usr/bin/env python3
"""Writes the hostile-input corpus (Tests/Vectors/hostile/*.json).

    python3 Tests/Vectors/tools/hostile_vectors.py          # (re)write the files
    python3 Tests/Vectors/tools/hostile_vectors.py --check  # fail if the files on disk differ

Inputs an attacker controls: any URL handed to the app (any app can claim or call the scheme)
and any JSON a compromised or buggy host layer passes (Android result extras included). The cases
use the existing suite names (`pos.parse_response`, `pos.parse_result`, `checkout.parse_callback`,
`pos.build_url`, `checkout.build_request`, `checkout.parse_session`, `checkout.confirmation`,
`coordinator.script`), so every runner that runs the shared vectors runs them once it scans this
folder.

Every case states the error it is written to provoke; the expected documents are computed by the
independent Python oracles of the other generators (pos_vectors.py, checkout_vectors.py and the
coordinator model of flow_vectors.py, all written from the rules in docs/architecture.md), and the generator
stops when a table and an oracle disagree. Nothing here runs PayHandoff.

Not expressible as vector files (the runners read them with Foundation's JSONDecoder and with
cJSON, which refuse them, or JSON cannot carry them): 10 000-deep JSON, JSON numbers with a
fraction ("floats as amounts"), lone-surrogate `\\ud800` escapes in JSON text, raw invalid UTF-8
bytes, JSON text over 64 KiB. Those are tested directly against the C ABI in
Tests/CHarness/harness.c (`hostile_direct`) and in Tests/PayHandoffABITests/HostileABITests.swift.

Host strings (`host_strings_*.json`): lone UTF-16 surrogates in the strings a Kotlin or JavaScript
host passes, refused by the bindings' glue before any C call; the Swift and C runners skip them
(the `skip` member of each vector says why: their strings cannot hold one).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.dont_write_bytecode = True
import vectorlib  # noqa: E402
import pos_vectors as pos  # noqa: E402
import checkout_vectors as co  # noqa: E402
import flow_vectors as fl  # noqa: E402
import pos_apps_vectors as apps  # noqa: E402
import pos_square as square  # noqa: E402
import pos_sumup as sumup  # noqa: E402
import pos_clip as clip  # noqa: E402
from vectorlib import Suite  # noqa: E402

HOSTILE_DIR = Path(__file__).resolve().parent.parent / "hostile"

M, C, V, L, J = "malformed_url", "callback_mismatch", "validation", "limit_exceeded", "invalid_json"


# ---------------------------------------------------------------------------------------
# pos.parse_response

POS_OPTS = {"urlScheme": "myapp", "identifier": "ord-1"}
POS_BARE = {"urlScheme": "myapp"}
OK_TAIL = "amount=100.00&transactionid=720371"


def answer(*pieces: str, scheme: str = "myapp://") -> str:
    return scheme + "&".join(pieces)


def pos_parse_cases() -> Suite:
    s = Suite("pos.parse_response", "hostile-pos", lambda i: pos.parse_response(i["url"], i["options"]))

    def add(id_, note, url, error=None, options=POS_OPTS):
        s.add("hostile-pos-" + id_, note, {"url": url, "options": options}, error)

    base = ("result=aprobada", "identifier=ord-1", OK_TAIL)
    # Spoofing: scheme, identifier of another sale, missing correlation.
    add("scheme-foreign", "an answer to another app's scheme", answer(*base, scheme="evil://"), (C, "scheme"))
    add("scheme-prefix", "a scheme that only starts with ours", answer(*base, scheme="myapp2://"), (C, "scheme"))
    add("scheme-suffix", "a scheme that ends with ours", answer(*base, scheme="xmyapp://"), (C, "scheme"))
    add("scheme-dotted", "our scheme with a dotted suffix", answer(*base, scheme="myapp.evil://"), (C, "scheme"))
    add("scheme-upper", "scheme case does not matter (RFC 3986)", answer(*base, scheme="MYAPP://"))
    add("scheme-homoglyph", "a Cyrillic 'а' in the scheme", answer(*base, scheme="my\u0430pp://"), (M, "url"))
    add("scheme-billpocket", "the POS app's own request scheme is not our answer scheme",
        answer("transaction=venta", "identifier=ord-1", scheme="billpocket://"), (C, "scheme"))
    add("scheme-one-slash", "scheme:/ instead of scheme://", "myapp:/result=aprobada&identifier=ord-1&" + OK_TAIL, (M, "url"))
    add("scheme-no-slash", "scheme: without //", "myapp:result=aprobada&identifier=ord-1&" + OK_TAIL, (M, "url"))
    add("scheme-only", "nothing after scheme://: the identifier is the first field rule", "myapp://", (V, "identifier"))
    add("empty-url", "an empty URL", "", (M, "url"))
    add("no-scheme", "no scheme at all", "result=aprobada&identifier=ord-1", (M, "url"))
    add("identifier-other-sale", "the answer for another sale", answer("result=aprobada", "identifier=ord-2", OK_TAIL), (C, "identifier"))
    add("identifier-case", "identifiers compare exactly: ORD-1 is not ord-1", answer("result=aprobada", "identifier=ORD-1", OK_TAIL), (C, "identifier"))
    add("identifier-prefix", "an identifier that extends ours", answer("result=aprobada", "identifier=ord-10", OK_TAIL), (C, "identifier"))
    add("identifier-truncated", "an identifier that is a prefix of ours", answer("result=aprobada", "identifier=ord-", OK_TAIL), (C, "identifier"))
    add("identifier-trailing-space", "an identifier with a trailing encoded space", answer("result=aprobada", "identifier=ord-1%20", OK_TAIL), (C, "identifier"))
    add("identifier-missing", "an approval without identifier", answer("result=aprobada", OK_TAIL), (V, "identifier"))
    add("identifier-empty", "an empty identifier counts as missing", answer("result=aprobada", "identifier=", OK_TAIL), (V, "identifier"))
    add("identifier-twice", "two identifiers, ours second", answer("result=aprobada", "identifier=ord-2", "identifier=ord-1", OK_TAIL), (M, "identifier"))
    add("identifier-twice-case", "keys compare ignoring case: IDENTIFIER and identifier are the same key",
        answer("result=aprobada", "IDENTIFIER=ord-2", "identifier=ord-1", OK_TAIL), (M, "identifier"))
    add("identifier-smuggled", "an encoded '&identifier=' inside another value stays inside it",
        answer("result=aprobada", "identifier=ord-2", "reference=x%26identifier%3Dord-1", OK_TAIL), (C, "identifier"))
    add("identifier-smuggled-ok", "the smuggled pair is part of the reference; the real identifier is ours",
        answer("result=aprobada", "identifier=ord-1", "reference=x%26identifier%3Dord-2", OK_TAIL))
    tok = "9f86d081884c7d659a2feaa0c55ad015"
    tokened = {"urlScheme": "myapp", "identifier": "ord-1", "token": tok}
    add("token-forged", "the forger knows the order reference but not the token", answer(*base), (C, "identifier"), tokened)
    add("token-genuine", "the genuine answer echoes ord-1~<token>", answer("result=aprobada", "identifier=ord-1~" + tok, OK_TAIL),
        options=tokened)
    add("token-smuggled-in-reference", "the token inside another value does not count",
        answer(*base, "reference=ord-1~" + tok), (C, "identifier"), tokened)
    add("token-twice", "the identifier twice, the genuine one second", answer(*base, "identifier=ord-1~" + tok),
        (M, "identifier"), tokened)
    add("token-truncated-nul", "ord-1~<token>%00: NUL is refused before any comparison",
        answer("result=aprobada", "identifier=ord-1~" + tok + "%00", OK_TAIL), (M, "identifier"), tokened)
    add("token-prefix-match", "the token followed by more text", answer("result=aprobada", "identifier=ord-1~" + tok + "x", OK_TAIL),
        (C, "identifier"), tokened)
    add("token-double-separator", "ord-1~~<token> is not ord-1~<token>",
        answer("result=aprobada", "identifier=ord-1~~" + tok, OK_TAIL), (C, "identifier"), tokened)
    add("other-sale-no-amount", "another sale's approval without amount: not for this sale first",
        answer("result=aprobada", "identifier=ord-2", "transactionid=720371"), (C, "identifier"))
    add("other-sale-bad-everything", "another sale's answer with no result and a bad amount: not for this sale first",
        answer("identifier=ord-2", "amount=1e2", "msi=4"), (C, "identifier"))
    add("transactionid-space", "a transactionid with an encoded space (it is kept in the ledger)",
        answer("result=aprobada", "identifier=ord-1", "amount=100.00", "transactionid=720%20371"), (V, "transactionid"))
    add("transactionid-newline", "a transactionid with an encoded line feed",
        answer("result=aprobada", "identifier=ord-1", "amount=100.00", "transactionid=720%0A371"), (V, "transactionid"))
    add("transactionid-long", "a transactionid of 129 bytes",
        answer("result=aprobada", "identifier=ord-1", "amount=100.00", "transactionid=" + "9" * 129), (V, "transactionid"))
    add("result-twice", "aprobada and rechazada in one answer", answer("result=rechazada", "result=aprobada", "identifier=ord-1", OK_TAIL), (M, "result"))
    add("result-missing", "no result", answer("identifier=ord-1", OK_TAIL), (V, "result"))
    # Issue 30: a word PayHandoff does not know is an answer — 'unrecognized', never an approval.
    add("result-unknown", "an unknown result word: unrecognized, never approved", answer("result=approved", "identifier=ord-1", OK_TAIL))
    add("result-padded", "a result with an encoded space is not aprobada: unrecognized", answer("result=aprobada%20", "identifier=ord-1", OK_TAIL))
    add("result-long-word", "an unknown word of 2000 bytes is read (and cut where a flow keeps it)",
        answer("result=" + "x" * 2000, "identifier=ord-1", OK_TAIL))
    add("pin-echoed", "a merchant PIN echoed back is dropped like the user token", answer(*base, "pin=0427"))
    add("result-upper", "result words compare ignoring case", answer("result=APROBADA", "identifier=ord-1", OK_TAIL))
    add("result-encoded-letters", "percent-encoded letters decode to the same word", answer("result=%61probada", "identifier=ord-1", OK_TAIL))
    add("approved-no-amount", "an approval must carry its amount", answer("result=aprobada", "identifier=ord-1", "transactionid=720371"), (V, "amount"))
    add("usertoken-echoed", "a user token echoed back is dropped", answer(*base, "usertoken=tok_secret"))
    add("usertoken-echoed-mixed-case", "UserToken in any case is dropped", answer(*base, "UserToken=tok_secret"))
    # Encoding attacks.
    add("nul-value", "%00 in a value", answer(*base, "reference=a%00b"), (M, "reference"))
    add("nul-key", "%00 in a key", answer(*base, "ref%00=x"), (M, None))
    add("nul-identifier", "%00 after our identifier (C string truncation attack)", answer("result=aprobada", "identifier=ord-1%00x", OK_TAIL), (M, "identifier"))
    add("overlong-slash", "overlong UTF-8 '/' (%C0%AF)", answer(*base, "reference=%C0%AF"), (M, "reference"))
    add("overlong-nul", "overlong UTF-8 NUL (%C0%80)", answer(*base, "reference=%C0%80"), (M, "reference"))
    add("overlong-3-byte", "3-byte overlong '/' (%E0%80%AF)", answer(*base, "reference=%E0%80%AF"), (M, "reference"))
    add("overlong-identifier", "overlong UTF-8 for '1' inside the identifier", answer("result=aprobada", "identifier=ord-%C0%B1", OK_TAIL), (M, "identifier"))
    add("lone-surrogate-high", "a UTF-8-encoded lone high surrogate (%ED%A0%80)", answer(*base, "reference=%ED%A0%80"), (M, "reference"))
    add("lone-surrogate-low", "a UTF-8-encoded lone low surrogate (%ED%BF%BF)", answer(*base, "reference=%ED%BF%BF"), (M, "reference"))
    add("surrogate-pair-cesu", "a CESU-8 surrogate pair instead of a 4-byte sequence", answer(*base, "reference=%ED%A0%BD%ED%B8%80"), (M, "reference"))
    add("above-max-code-point", "a code point above U+10FFFF (%F4%90%80%80)", answer(*base, "reference=%F4%90%80%80"), (M, "reference"))
    add("truncated-sequence", "a truncated 3-byte sequence", answer(*base, "reference=%E2%82"), (M, "reference"))
    add("lone-continuation", "a lone continuation byte", answer(*base, "reference=%80"), (M, "reference"))
    add("byte-ff", "the byte 0xFF", answer(*base, "reference=%FF"), (M, "reference"))
    add("bad-escape-letters", "%zz", answer(*base, "reference=%zz"), (M, "reference"))
    add("bad-escape-short", "% and one hex digit at the end", answer(*base, "reference=%4"), (M, "reference"))
    add("bad-escape-bare", "a bare % at the end", answer(*base, "reference=100%"), (M, "reference"))
    add("mixed-case-escape", "lowercase and mixed-case hex digits decode alike", answer(*base, "reference=%c3%B1%C3%b1"))
    add("double-encoded", "%2526 decodes once, to the text %26", answer(*base, "reference=a%2526b"))
    add("double-encoded-identifier", "a double-encoded identifier is not ours", answer("result=aprobada", "identifier=ord%252D1", OK_TAIL), (C, "identifier"))
    add("plus-literal", "'+' is literal in POS answers", answer(*base, "reference=a+b"))
    add("plus-encoded", "%2B is '+' as well", answer(*base, "reference=a%2Bb"))
    add("plus-identifier-is-not-space", "identifier 'ord+1' is not 'ord 1'", answer("result=aprobada", "identifier=ord+1", OK_TAIL), (C, "identifier"),
        options={"urlScheme": "myapp", "identifier": "ord 1"})
    add("plus-identifier-literal", "identifier 'ord+1' sent raw matches 'ord+1'", answer("result=aprobada", "identifier=ord+1", OK_TAIL),
        options={"urlScheme": "myapp", "identifier": "ord+1"})
    add("encoded-separators", "encoded & and = stay inside the value", answer(*base, "reference=a%26b%3Dc"))
    add("encoded-key", "an encoded key decodes before comparison", answer("result=aprobada", "%69dentifier=ord-1", OK_TAIL))
    add("raw-hash", "a raw '#' would cut the answer short", answer(*base, "reference=a#b"), (M, "url"))
    add("encoded-hash", "%23 is an ordinary character", answer(*base, "reference=a%23b"))
    add("question-prefix", "an optional leading '?' is tolerated", "myapp://?result=aprobada&identifier=ord-1&" + OK_TAIL)
    add("double-question", "a second '?' is part of the first key", "myapp://??result=aprobada&identifier=ord-1&" + OK_TAIL, (V, "result"))
    add("raw-space", "a raw space in the URL", answer(*base, "reference=a b"), (M, "url"))
    add("raw-newline", "a raw line feed in the URL", answer(*base, "reference=a\nb"), (M, "url"))
    add("raw-tab", "a raw tab in the URL", answer(*base, "reference=a\tb"), (M, "url"))
    add("raw-del", "a raw DEL in the URL", answer(*base, "reference=a\x7fb"), (M, "url"))
    add("empty-key", "a piece with an empty key", answer(*base, "=x"), (M, None))
    add("no-equals", "a piece without '='", answer(*base, "flag"), (M, None))
    add("empty-pieces", "empty pieces between '&' are skipped", "myapp://&&result=aprobada&&identifier=ord-1&&" + OK_TAIL + "&&")
    # Type confusion in the answer's values.
    add("amount-exponent", "amount 1e2", answer("result=aprobada", "identifier=ord-1", "amount=1e2"), (V, "amount"))
    add("amount-negative", "amount -100.00", answer("result=aprobada", "identifier=ord-1", "amount=-100.00"), (V, "amount"))
    add("amount-comma", "amount 100,00", answer("result=aprobada", "identifier=ord-1", "amount=100,00"), (V, "amount"))
    add("amount-three-decimals", "amount 100.001", answer("result=aprobada", "identifier=ord-1", "amount=100.001"), (V, "amount"))
    add("amount-leading-space", "amount with an encoded leading space", answer("result=aprobada", "identifier=ord-1", "amount=%20100.00"), (V, "amount"))
    add("amount-fullwidth", "fullwidth digits are not digits", answer("result=aprobada", "identifier=ord-1", "amount=%EF%BC%91%EF%BC%90%EF%BC%90"), (V, "amount"))
    add("amount-hex", "amount 0x10", answer("result=aprobada", "identifier=ord-1", "amount=0x10"), (V, "amount"))
    add("amount-max", "2^53-1 minor units is the largest amount", answer("result=aprobada", "identifier=ord-1", "amount=90071992547409.91"))
    add("amount-max-plus-one", "one centavo over 2^53-1", answer("result=aprobada", "identifier=ord-1", "amount=90071992547409.92"), (V, "amount"))
    add("amount-int64-overflow", "an amount beyond Int64", answer("result=aprobada", "identifier=ord-1", "amount=99999999999999999999"), (V, "amount"))
    add("msi-text", "msi as a word", answer(*base, "msi=tres"), (V, "msi"))
    add("msi-not-allowed", "msi 4 is not an allowed installment count", answer(*base, "msi=4"), (V, "msi"))
    add("msi-three-digits", "msi 003", answer(*base, "msi=003"), (V, "msi"))
    add("creditcard-letters", "creditcard must end with four digits", answer(*base, "creditcard=12ab"), (V, "creditcard"))
    add("accounttype-unknown", "accountType must be credit or debit", answer(*base, "accountType=prepaid"), (V, "accountType"))
    return s


# ---------------------------------------------------------------------------------------
# pos.parse_result (Android result extras: any app that starts our activity for a result, or a
# tampered POS app, controls them)

TOKEN = "9f86d081884c7d659a2feaa0c55ad015"
RESULT_OPTS = {"identifier": "ord-1", "token": TOKEN}
GENUINE = {"result": "aprobada", "amount": "100.00", "transactionid": "720371", "identifier": "ord-1~" + TOKEN}


def pos_result_cases() -> Suite:
    s = Suite("pos.parse_result", "hostile-result", lambda i: pos.parse_result(i["extras"], i["options"]))

    def add(id_, note, extras, error=None, options=RESULT_OPTS):
        s.add("hostile-result-" + id_, note, {"extras": extras, "options": options}, error)

    add("genuine", "the genuine result (control case)", GENUINE)
    add("forged-reference", "the forger knows the order reference, not the token", {**GENUINE, "identifier": "ord-1"},
        (C, "identifier"))
    add("forged-no-amount", "a forged approval without amount: not for this sale, first",
        {"result": "aprobada", "identifier": "ord-1"}, (C, "identifier"))
    add("token-encoded", "extras are not percent-decoded: ord-1%7E<token> is not ord-1~<token>",
        {**GENUINE, "identifier": "ord-1%7E" + TOKEN}, (C, "identifier"))
    add("token-in-other-key", "the token under another key does not count",
        {**GENUINE, "identifier": "ord-1", "identifier_": "ord-1~" + TOKEN}, (C, "identifier"))
    add("identifier-twice-case", "identifier and IDENTIFIER: one key twice (the field depends on key order)",
        {**GENUINE, "IDENTIFIER": "ord-1"}, (V, vectorlib.ANY_FIELD))
    add("usertoken-twice-case", "usertoken and USERTOKEN: a duplicate even though both would be dropped",
        {**GENUINE, "usertoken": "a", "USERTOKEN": "b"}, (V, vectorlib.ANY_FIELD))
    add("nul-amount", "U+0000 inside the amount", {**GENUINE, "amount": "100.00\x00"}, (V, "amount"))
    add("nul-identifier", "U+0000 after the genuine identifier (C string truncation)",
        {**GENUINE, "identifier": "ord-1~" + TOKEN + "\x00x"}, (V, "identifier"))
    add("result-padded", "a result with a trailing newline is not aprobada: unrecognized", {**GENUINE, "result": "aprobada\n"})
    add("pin-echoed", "an echoed PIN (any case) is dropped", {**GENUINE, "Pin": "0427"})
    add("amount-fullwidth", "fullwidth digits are not digits", {**GENUINE, "amount": "１００.００"}, (V, "amount"))
    add("amount-spaces", "an amount with spaces", {**GENUINE, "amount": " 100.00 "}, (V, "amount"))
    add("value-object", "a nested object as a value", {**GENUINE, "reference": {"a": "b"}}, (J, "reference"))
    add("value-number-identifier", "the identifier as a number", {**GENUINE, "identifier": 1}, (J, "identifier"))
    add("extras-null", "extras null", None, (J, vectorlib.ANY_FIELD))
    add("proto-key", "a __proto__ key is an ordinary unknown key (kept in extra)", {**GENUINE, "__proto__": "x"})
    add("many-keys", "500 unknown keys are kept in extra", {**GENUINE, **{f"k{i}": "v" for i in range(500)}})
    add("url-as-value", "a whole answer URL inside a value is just text",
        {**GENUINE, "url": "myapp://result=aprobada&identifier=ord-2"})
    return s


# ---------------------------------------------------------------------------------------
# checkout.parse_callback

NONCE = "4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99"
CARDS = {"kind": "cards", "return_url": "fixapp://checkout-callback", "nonce": NONCE}
CARDS_LENIENT = {**CARDS, "accept_unverified": True}
CARDS_NO_NONCE = {"kind": "cards", "return_url": "fixapp://checkout-callback", "accept_unverified": True}
PAYMENTS = {"kind": "payments", "return_url": "https://shop.example.com/return", "nonce": NONCE}
OWN_QUERY = {"kind": "cards", "return_url": "fixapp://checkout-callback?src=app", "nonce": NONCE}
CB = "fixapp://checkout-callback/ph_" + NONCE + "?"  # the redirect to the URL PayHandoff sent
PLAIN = "fixapp://checkout-callback?"  # a callback without the nonce
PB = "https://shop.example.com/return/ph_" + NONCE + "?"


def checkout_callback_cases() -> Suite:
    s = Suite("checkout.parse_callback", "hostile-cb", lambda i: co.parse_callback(i["url"], i["options"]), detach=True)

    def add(id_, note, url, error=None, options=CARDS):
        s.add("hostile-cb-" + id_, note, {"url": url, "options": options}, error)

    ok = "status=completed&card_id=card_xyz"
    add("verified", "the genuine verified callback (control case)", CB + ok)
    # Spoofing the address.
    add("scheme-foreign", "another scheme", "evilapp://checkout-callback/ph_" + NONCE + "?" + ok, (C, "scheme"))
    add("scheme-upper", "the scheme compares ignoring case", "FIXAPP://checkout-callback/ph_" + NONCE + "?" + ok)
    add("host-foreign", "another host", "fixapp://checkout-callback-evil/ph_" + NONCE + "?" + ok, (C, "host"))
    add("host-case", "hosts compare ignoring case (RFC 3986)", "fixapp://Checkout-Callback/ph_" + NONCE + "?" + ok)
    add("host-userinfo", "userinfo in front of our host is refused", "fixapp://evil@checkout-callback/ph_" + NONCE + "?" + ok,
        (M, "url"))
    add("path-extra", "an extra path segment", "fixapp://checkout-callback/x?" + ok, (C, "path"))
    add("path-extra-after-nonce", "an extra segment after the nonce segment", "fixapp://checkout-callback/ph_" + NONCE + "/x?" + ok,
        (C, "path"))
    add("path-dot-segments", "dot segments are not resolved",
        "fixapp://checkout-callback/../checkout-callback/ph_" + NONCE + "?" + ok, (C, "path"))
    add("path-dot-segment-nonce", "a dot segment after the nonce is not resolved either",
        "fixapp://checkout-callback/ph_" + NONCE + "/.?" + ok, (C, "path"))
    add("port-added", "a port the return URL does not have", "fixapp://checkout-callback:8080/ph_" + NONCE + "?" + ok, (C, "port"))
    add("https-host-lookalike", "https return URL: our host as a subdomain of another",
        "https://shop.example.com.evil.com/return/ph_" + NONCE + "?status=completed&payment_id=pay_1", (C, "host"), PAYMENTS)
    add("https-userinfo", "https return URL: our host as userinfo",
        "https://shop.example.com@evil.com/return/ph_" + NONCE + "?status=completed&payment_id=pay_1", (M, "url"), PAYMENTS)
    add("https-default-port", "https: port 443 is the default port",
        "https://shop.example.com:443/return/ph_" + NONCE + "?status=completed&payment_id=pay_1", None, PAYMENTS)
    add("https-http", "http instead of https", "http://shop.example.com/return/ph_" + NONCE + "?status=completed&payment_id=pay_1",
        (C, "scheme"), PAYMENTS)
    # Correlation: the nonce segment.
    add("nonce-missing", "no nonce: refused by default (anyone can send it)", PLAIN + ok, (C, "nonce"))
    add("nonce-missing-failed", "a forged failed callback without nonce: refused, it cannot close the payment page",
        PLAIN + "status=failed&reason=x", (C, "nonce"))
    add("nonce-missing-lenient", "no nonce with accept_unverified: accepted, unverified", PLAIN + ok, None, CARDS_LENIENT)
    add("nonce-wrong", "another session's nonce", "fixapp://checkout-callback/ph_0123456789abcdef0123456789abcdef?" + ok, (C, "nonce"))
    add("nonce-wrong-lenient", "accept_unverified never accepts a wrong nonce",
        "fixapp://checkout-callback/ph_0123456789abcdef0123456789abcdef?" + ok, (C, "nonce"), CARDS_LENIENT)
    add("nonce-case", "nonces compare exactly (case)", "fixapp://checkout-callback/ph_" + NONCE.upper() + "?" + ok, (C, "nonce"))
    add("nonce-prefix", "a prefix of the nonce", "fixapp://checkout-callback/ph_" + NONCE[:-1] + "?" + ok, (C, "nonce"))
    add("nonce-extended", "the nonce with one more character", "fixapp://checkout-callback/ph_" + NONCE + "0?" + ok, (C, "nonce"))
    add("nonce-empty", "an empty nonce segment", "fixapp://checkout-callback/ph_?" + ok, (C, "path"))
    add("nonce-without-session-nonce", "a nonce when the session has none", CB + ok, (C, "nonce"), CARDS_NO_NONCE)
    add("nonce-percent-encoded", "the echoed nonce is raw text: %34 is not '4'",
        "fixapp://checkout-callback/ph_%34" + NONCE[1:] + "?" + ok, (C, "nonce"))
    add("nonce-nul-suffix", "the nonce followed by %00 is another nonce", "fixapp://checkout-callback/ph_" + NONCE + "%00?" + ok,
        (C, "nonce"))
    add("nonce-encoded-question", "an encoded '?' glued to the nonce", "fixapp://checkout-callback/ph_" + NONCE + "%3F?" + ok,
        (C, "nonce"))
    add("nonce-in-query-only", "the old placement (ph_nonce in the query) does not verify", PLAIN + ok + "&ph_nonce=" + NONCE,
        (C, "nonce"))
    add("nonce-in-query-is-extra", "ph_nonce next to the path nonce is an ordinary parameter", CB + ok + "&ph_nonce=x")
    add("nonce-in-query-twice", "ph_nonce twice in the query is a duplicate key like any other",
        CB + ok + "&ph_nonce=" + NONCE + "&ph_nonce=" + NONCE, (M, "ph_nonce"))
    add("nonce-key-case", "PH_nonce segment prefix case: not the nonce segment", "fixapp://checkout-callback/PH_" + NONCE + "?" + ok,
        (C, "path"))
    add("nonce-in-fragment", "a nonce in the fragment is not in the path", PLAIN + ok + "#/ph_" + NONCE, (C, "nonce"))
    add("nonce-wrong-bad-query", "a wrong nonce is reported before a bad query", "fixapp://checkout-callback/ph_x?status=%C0%AF",
        (C, "nonce"))
    # Gateways and a return URL with its own query.
    add("own-query-append-ampersand", "the gateway appends &status=…: the own parameter is extra",
        "fixapp://checkout-callback/ph_" + NONCE + "?src=app&" + ok, None, OWN_QUERY)
    add("own-query-blind-append", "the gateway appends ?status=… blindly: read after the second '?'",
        "fixapp://checkout-callback/ph_" + NONCE + "?src=app?" + ok, None, OWN_QUERY)
    add("own-query-replaced", "the gateway replaces the query: the nonce in the path survives",
        "fixapp://checkout-callback/ph_" + NONCE + "?" + ok, None, OWN_QUERY)
    add("own-query-blind-append-duplicate", "after the repair the parameters are read as usual: status twice is refused",
        "fixapp://checkout-callback/ph_" + NONCE + "?src=app?status=failed&status=completed", (M, "status"), OWN_QUERY)
    add("own-query-lookalike-prefix", "a query that only starts like the own query: no repair, '?' is data",
        "fixapp://checkout-callback/ph_" + NONCE + "?src=apple?" + ok, (V, "status"), OWN_QUERY)
    add("own-query-three-question-marks", "after the repair a further '?' is data",
        "fixapp://checkout-callback/ph_" + NONCE + "?src=app??" + ok, (V, "status"), OWN_QUERY)
    # Delimiters a combining mark follows: one grapheme cluster, still the ASCII delimiter. A parser
    # that splits on Characters (Swift's String.firstIndex(of: "#"), grapheme-aware libraries)
    # reads these differently; found by FuzzCheckoutCallback against URLSearchParams (issue 20).
    add("fragment-combining-mark", "'#' followed by U+059B U+035C still starts the fragment: note is empty",
        CB + ok + "&note=#\u059b\u035c1b0a99")
    add("fragment-combining-mark-hides-status", "'#' + U+0301 before status=completed: the status is in the fragment",
        CB + "card_id=card_xyz#\u0301&status=completed", (V, "status"))
    add("query-combining-mark", "'?' followed by U+0301 still starts the query; the key is U+0301 + 'status'",
        "fixapp://checkout-callback/ph_" + NONCE + "?\u0301status=completed&card_id=card_xyz", (V, "status"))
    add("nonce-combining-mark", "the nonce followed by U+0301 is another nonce",
        "fixapp://checkout-callback/ph_" + NONCE + "\u0301?" + ok, (C, "nonce"))
    # Fields.
    add("card-id-on-payments", "card_id in a payments callback", PB + "status=completed&card_id=card_1", (C, "card_id"), PAYMENTS)
    add("payment-id-on-cards", "payment_id in a cards callback", CB + "status=completed&payment_id=pay_1", (C, "payment_id"))
    add("expected-id-other", "another card than the session's", CB + "status=completed&card_id=card_other", (C, "card_id"),
        {**CARDS, "expected_id": "card_xyz"})
    add("id-without-prefix", "an id without the card_ prefix", CB + "status=completed&card_id=xyz", (V, "card_id"))
    add("id-prefix-case", "CARD_ is not card_", CB + "status=completed&card_id=CARD_xyz", (V, "card_id"))
    add("id-twice", "two card ids", CB + "status=completed&card_id=card_a&card_id=card_b", (M, "card_id"))
    add("completed-no-id", "completed without card_id", CB + "status=completed", (V, "card_id"))
    add("status-upper", "COMPLETED is not a status", CB + "status=COMPLETED&card_id=card_xyz", (V, "status"))
    add("status-unknown", "status=approved is not a status", CB + "status=approved&card_id=card_xyz", (V, "status"))
    add("status-missing", "no status", CB + "card_id=card_xyz", (V, "status"))
    add("status-twice", "completed and failed", CB + "status=failed&status=completed&card_id=card_xyz", (M, "status"))
    add("status-padded-plus", "'completed+' decodes to 'completed '", CB + "status=completed+&card_id=card_xyz", (V, "status"))
    add("status-smuggled", "an encoded '&status=completed' inside reason", CB + "status=failed&reason=x%26status%3Dcompleted")
    # Encoding attacks.
    add("plus-is-space", "'+' is a space in checkout callbacks", CB + "status=failed&reason=card+declined")
    add("encoded-plus", "%2B is a literal '+'", CB + "status=failed&reason=a%2Bb")
    add("double-encoded", "%2526 decodes once to %26", CB + "status=failed&reason=a%2526b")
    add("mixed-case-escape", "mixed-case hex digits", CB + "status=failed&reason=%c3%A9t%C3%a9")
    add("nul-reason", "%00 in reason", CB + "status=failed&reason=a%00b", (M, "reason"))
    add("overlong-slash", "%C0%AF in an extra parameter", CB + ok + "&x=%C0%AF", (M, "x"))
    add("overlong-dot", "overlong '.' (%C0%AE)", CB + ok + "&x=%C0%AE%C0%AE", (M, "x"))
    add("lone-surrogate", "UTF-8-encoded lone surrogate in reason", CB + "status=failed&reason=%ED%B2%80", (M, "reason"))
    add("above-max", "a code point above U+10FFFF", CB + ok + "&x=%F5%80%80%80", (M, "x"))
    add("bad-escape", "%G0", CB + ok + "&x=%G0", (M, "x"))
    add("bad-escape-key", "a bad escape in a key", CB + ok + "&%G0=x", (M, None))
    add("encoded-status-key", "an encoded key: %73tatus is status", CB + "%73tatus=completed&card_id=card_xyz")
    add("raw-space", "a raw space", CB + "status=failed&reason=a b", (M, "url"))
    add("raw-control", "a raw control character", CB + "status=failed&reason=a\x01b", (M, "url"))
    add("raw-non-ascii", "raw non-ASCII (UTF-8) in the query is read as its UTF-8 bytes", CB + "status=failed&reason=\u00e9")
    add("empty-key", "a piece with an empty key", CB + ok + "&=x", (M, None))
    add("no-equals", "a piece without '='", CB + ok + "&flag", (M, None))
    add("no-query", "no query at all", "fixapp://checkout-callback/ph_" + NONCE, (V, "status"))
    # Options an attacker-controlled host layer might pass.
    add("options-nonce-empty", "an empty nonce option would verify 'ph_' alone: refused",
        "fixapp://checkout-callback/ph_?" + ok, (V, "nonce"), {**CARDS, "nonce": ""})
    add("options-nonce-short", "a guessable nonce option", CB + ok, (V, "nonce"), {**CARDS, "nonce": "short"})
    add("options-nonce-slash", "a nonce option with '/' could never be echoed in one segment", CB + ok, (V, "nonce"),
        {**CARDS, "nonce": NONCE + "/x"})
    add("options-no-nonce", "no nonce and no accept_unverified", PLAIN + ok, (V, "nonce"), {"kind": "cards",
                                                                                          "return_url": "fixapp://checkout-callback"})
    add("options-return-url-catches-pos", "a return URL myapp:// would swallow Billpocket answers to myapp",
        "myapp://result=aprobada&identifier=ord-1", (V, "return_url"), {"kind": "cards", "return_url": "myapp://", "nonce": NONCE})
    add("options-return-url-answer-host", "a return URL whose host reads like a Billpocket answer",
        "myapp://result=aprobada&identifier=ord-1", (V, "return_url"),
        {"kind": "cards", "return_url": "myapp://result=aprobada&identifier=ord-1", "nonce": NONCE})
    return s


# ---------------------------------------------------------------------------------------
# Sizes (own files, so the big ones stay apart)

def size_pos_cases() -> Suite:
    s = Suite("pos.parse_response", "hostile-size", lambda i: pos.parse_response(i["url"], i["options"]))
    head = answer("result=aprobada", "identifier=ord-1", OK_TAIL) + "&pad="
    s.add("hostile-size-pos-1mb-url", "a 1 MiB answer URL: limit_exceeded, never parsed",
          {"url": head + "x" * (1024 * 1024 - len(head)), "options": POS_OPTS}, (L, "url"))
    params = "&".join(f"k{i}=v" for i in range(10_000))
    s.add("hostile-size-pos-10000-params", "10 000 parameters (over 8 KiB): limit_exceeded",
          {"url": answer("result=aprobada", "identifier=ord-1", OK_TAIL, params), "options": POS_OPTS}, (L, "url"))
    many = "&".join(f"{i:x}=" for i in range(1200))
    s.add("hostile-size-pos-1200-params-fit", "1 200 empty parameters within 8 KiB are accepted (empty extras kept)",
          {"url": answer("result=aprobada", "identifier=ord-1", OK_TAIL, many), "options": POS_OPTS})
    amps = "&" * (8192 - len(answer("result=aprobada", "identifier=ord-1", OK_TAIL)) - 1)
    s.add("hostile-size-pos-8192-ampersands", "an answer padded with '&' to exactly 8192 bytes",
          {"url": answer("result=aprobada", "identifier=ord-1", OK_TAIL) + "&" + amps[:-0 or None], "options": POS_OPTS})
    s.add("hostile-size-pos-8193-ampersands", "one more '&': 8193 bytes",
          {"url": answer("result=aprobada", "identifier=ord-1", OK_TAIL) + "&" + amps + "&", "options": POS_OPTS}, (L, "url"))
    return s


def size_checkout_cases() -> Suite:
    s = Suite("checkout.parse_callback", "hostile-size", lambda i: co.parse_callback(i["url"], i["options"]), detach=True)
    params = "&".join(f"k{i}=v" for i in range(10_000))
    s.add("hostile-size-cb-10000-params", "10 000 parameters (over 8 KiB): limit_exceeded",
          {"url": CB + "status=cancelled&" + params, "options": CARDS}, (L, "url"))
    s.add("hostile-size-cb-100k-url", "a 100 KiB callback URL", {"url": CB + "status=cancelled&pad=" + "x" * 100_000, "options": CARDS}, (L, "url"))
    head = CB + "status=cancelled&pad="
    s.add("hostile-size-cb-8192-escapes", "8192 bytes of which most are %41 escapes: accepted",
          {"url": head + "%41" * ((8192 - len(head)) // 3) + "x" * ((8192 - len(head)) % 3), "options": CARDS})
    s.add("hostile-size-cb-8193-escapes", "the same plus one byte", {"url": head + "%41" * ((8192 - len(head)) // 3) + "x" * ((8192 - len(head)) % 3 + 1), "options": CARDS}, (L, "url"))
    return s


# ---------------------------------------------------------------------------------------
# pos.build_url: field limits off by one and type confusion

SALE = {"transaction": "venta", "usertoken": "tok_1", "identifier": "ord-1", "amount": "100.00", "urlScheme": "myapp"}
with_ = vectorlib.make_with(deep_copy=True)


def pos_build_cases() -> Suite:
    s = Suite("pos.build_url", "hostile-build", lambda i: pos.build_url(i["request"]))

    def add(id_, note, request, error=None):
        s.add("hostile-build-" + id_, note, {"request": request}, error)

    for key, limit in [("identifier", 256), ("reference", 256), ("email", 150), ("phone", 14)]:
        fill = "5" if key == "phone" else "a"
        value = lambda n: ("a@" + "b" * (n - 2)) if key == "email" else fill * n
        add(f"{key}-at-limit", f"{key} of exactly {limit} characters", with_(SALE, **{key: value(limit)}))
        add(f"{key}-over-limit", f"{key} of {limit + 1} characters", with_(SALE, **{key: value(limit + 1)}), (V, key))
    add("urlscheme-at-limit", "urlScheme of exactly 50 characters", with_(SALE, urlScheme="a" * 50))
    add("urlscheme-over-limit", "urlScheme of 51 characters", with_(SALE, urlScheme="a" * 51), (V, "urlScheme"))
    add("amount-zero", "amount 0.00 (must be > 0)", with_(SALE, amount="0.00"), (V, "amount"))
    add("amount-one-centavo", "amount 0.01 is the smallest", with_(SALE, amount="0.01"))
    add("amount-integer-units", "an integer amount is minor units", with_(SALE, amount=10000))
    add("amount-string-units", "a numeric string is decimal text, not minor units", with_(SALE, amount="10000"))
    add("amount-bool", "amount true", with_(SALE, amount=True), (J, "amount"))
    add("amount-array", "amount as an array", with_(SALE, amount=["100.00"]), (J, "amount"))
    add("amount-object", "amount as an object", with_(SALE, amount={"value": "100.00"}), (J, "amount"))
    add("amount-negative-units", "negative minor units", with_(SALE, amount=-1), (V, "amount"))
    add("amount-max-units", "2^53-1 minor units", with_(SALE, amount=vectorlib.MAX_MINOR_UNITS))
    add("identifier-number", "identifier as a number", with_(SALE, identifier=1), (J, "identifier"))
    add("identifier-null", "identifier null is missing", with_(SALE, identifier=None), (V, "identifier"))
    add("usertoken-array", "usertoken as an array", with_(SALE, usertoken=["tok_1"]), (J, "usertoken"))
    add("msi-string", "msi as a string", with_(SALE, msi="3"), (J, "msi"))
    add("msi-not-allowed", "msi 4", with_(SALE, msi=4), (V, "msi"))
    add("photo-string", "showPhotoButton as the string 'true'", with_(SALE, showPhotoButton="true"), (J, "showPhotoButton"))
    add("photo-number", "showPhotoButton as 1", with_(SALE, showPhotoButton=1), (J, "showPhotoButton"))
    add("transaction-upper", "VENTA is not an operation", with_(SALE, transaction="VENTA"), (V, "transaction"))
    add("unknown-key", "an unknown key is refused, not dropped", with_(SALE, callback="evil://"), (V, "callback"))
    add("usertoken-case-variant", "userToken next to usertoken", with_(SALE, userToken="tok_2"), (V, "userToken"))
    add("refund-with-tip", "a refund with a sale-only field", {"transaction": "devolucion", "usertoken": "tok_1", "identifier": "r-1",
                                                                 "urlScheme": "myapp", "transactionId": "720371", "tip": "1.00"}, (V, "tip"))
    # U+0000 in text fields: pos/build_url.json (pos_vectors.py) has those cases.
    add("scheme-with-colon", "a urlScheme with '://' inside", with_(SALE, urlScheme="my://app"), (V, "urlScheme"))
    add("token-injects-parameter", "a token with '&usertoken=' cannot inject a parameter: refused",
        with_(SALE, token="abcdefghijklmnop&usertoken=x"), (V, "token"))
    add("token-injects-identifier", "a token with '=' and '&'", with_(SALE, token="abcdefghijklmnop&identifier=ord-2"),
        (V, "token"))
    add("token-tildes", "a token of 16 '~' is refused: the identifier sent splits at its last '~', so a token has none "
        "(else ord~1 with token A and ord with token 1~A would be sent the same text)", with_(SALE, token="~" * 16), (V, "token"))
    add("token-identifier-256", "an identifier of 256 units leaves no room for the token",
        with_(SALE, identifier="a" * 256, token="-" * 16), (V, "identifier"))
    add("token-string-true", "token 'true' (text) is a 4-character token, not a request for a fresh one",
        with_(SALE, token="true"), (V, "token"))
    return s


# ---------------------------------------------------------------------------------------
# checkout documents: type confusion

def checkout_build_cases() -> Suite:
    s = Suite("checkout.build_request", "hostile-req", lambda i: co.build_request(i["request"]), detach=True)
    base = {"kind": "payments", "api_key": "sk_test_1", "return_url": "fixapp://checkout-callback", "nonce": NONCE}

    def add(id_, note, request, error=None):
        s.add("hostile-req-" + id_, note, {"request": request}, error)

    add("kind-array", "kind as an array", {**base, "kind": ["payments"]}, (J, "kind"))
    add("kind-upper", "PAYMENTS is not a kind", {**base, "kind": "PAYMENTS"}, (V, "kind"))
    add("api-key-number", "api_key as a number", {**base, "api_key": 12345}, (J, "api_key"))
    add("return-url-object", "return_url as an object", {**base, "return_url": {"url": "fixapp://x"}}, (J, "return_url"))
    add("return-url-javascript", "a javascript: return URL", {**base, "return_url": "javascript:alert(1)"}, (V, "return_url"))
    add("return-url-nul", "U+0000 in the return URL", {**base, "return_url": "fixapp://cb\u0000evil"}, (V, "return_url"))
    add("nonce-short", "a 15-character nonce", {**base, "nonce": "a" * 15}, (V, "nonce"))
    add("nonce-min", "a 16-character nonce", {**base, "nonce": "a" * 16})
    add("nonce-max", "a 128-character nonce", {**base, "nonce": "a" * 128})
    add("nonce-long", "a 129-character nonce", {**base, "nonce": "a" * 129}, (V, "nonce"))
    add("nonce-reserved-char", "a nonce with '&'", {**base, "nonce": "a" * 16 + "&x=1"}, (V, "nonce"))
    add("nonce-number", "a nonce as a number", {**base, "nonce": 1234567890123456}, (J, "nonce"))
    add("return-url-empty-host", "myapp:// would catch the POS answers to myapp", {**base, "return_url": "myapp://"}, (V, "return_url"))
    add("return-url-answer-host", "a host that reads like a Billpocket answer",
        {**base, "return_url": "myapp://result=aprobada&amount=100.00"}, (V, "return_url"))
    add("return-url-sent-form", "the URL PayHandoff sent (…/ph_<nonce>) registered again",
        {**base, "return_url": "fixapp://checkout-callback/ph_" + NONCE}, (V, "return_url"))
    add("nonce-slash", "a nonce with '/' would leave its path segment", {**base, "nonce": "a" * 16 + "/x"}, (V, "nonce"))
    return s


def checkout_confirmation_cases() -> Suite:
    s = Suite("checkout.confirmation", "hostile-conf", lambda i: co.confirmation(i["event"]), detach=True)

    def add(id_, note, event, error=None):
        s.add("hostile-conf-" + id_, note, {"event": event}, error)

    add("data-array", "data as an array", {"type": "payment.confirmed", "data": [{"payment_id": "pay_1"}]}, (J, "data"))
    add("id-number", "payment_id as a number", {"type": "payment.confirmed", "data": {"payment_id": 1, "amount": "1.00"}}, (J, "data.payment_id"))
    add("type-unknown", "payment.failed is not a confirmation", {"type": "payment.failed", "data": {"payment_id": "pay_1"}}, (V, "type"))
    add("type-case", "Payment.Confirmed", {"type": "Payment.Confirmed", "data": {"payment_id": "pay_1"}}, (V, "type"))
    add("id-wrong-prefix", "a card id in a payment confirmation", {"type": "payment.confirmed", "data": {"payment_id": "card_1"}}, (V, "data.payment_id"))
    add("amount-bool", "amount true", {"type": "payment.confirmed", "data": {"payment_id": "pay_1", "amount": True}}, (J, "data.amount"))
    return s


def checkout_session_cases() -> Suite:
    s = Suite("checkout.parse_session", "hostile-session", lambda i: co.parse_session(i["session"]), detach=True)

    def add(id_, note, session, error=None):
        s.add("hostile-session-" + id_, note, {"session": session}, error)

    add("http-checkout-url", "a checkout URL that is not https", {"kind": "cards", "checkout_url": "http://pay.example.com/c/1"}, (V, "checkout_url"))
    add("javascript-url", "a javascript: checkout URL", {"kind": "cards", "checkout_url": "javascript:alert(1)"}, (V, "checkout_url"))
    add("status-string", "the gateway status as a string", {"kind": "cards", "status": "201", "body": {}}, (J, "status"))
    add("body-array", "the gateway body as an array",
        {"kind": "cards", "status": 201, "body": [{"data": {"registration": {"checkout_url": "https://pay.example.com/c/1"}}}]},
        (V, "data.registration.checkout_url"))
    add("url-number", "checkout_url as a number", {"kind": "cards", "checkout_url": 1}, (J, "checkout_url"))
    return s


# ---------------------------------------------------------------------------------------
# coordinator.script: callbacks with no pending flow, replays, another sale's identifier

T0, N1, N2 = fl.T0, fl.N1, fl.N2


class FlowSuite(fl.Suite):
    def script(self, id_: str, note: str, steps: list, last: str, error: tuple | None = None, config=None):
        """A model-computed script whose last step must have outcome `last` (and `error`)."""
        model = fl.Model(config or {})
        summaries = [model.step(s) for s in steps]
        final = summaries[-1]
        if final["outcome"] != last or (error is not None and final.get("error") != {"code": error[0], "field": error[1]}):
            raise AssertionError(f"{id_}: table expects {last} {error}, the model says {final}")
        self._add(id_, note, config or {}, steps, summaries)


def bad(event: dict, code: str, field: str | None) -> fl.Bad:
    return fl.Bad(event, code, field)


def coordinator_cases() -> FlowSuite:
    s = FlowSuite(fl.SUITE)
    start = [fl.c_start(T0), fl.c_session(T0 + 1000), fl.c_opened(T0 + 2000)]
    sold = [fl.p_start(T0), fl.p_launched(T0 + 1000)]
    cb = fl.CB_COMPLETED
    s.script("flow-hostile-callback-no-flow", "a completed callback when no flow is pending: not ours", [fl.at(cb, T0)], "not_ours")
    s.script("flow-hostile-answer-no-flow", "an approved POS answer when no sale is pending: not ours", [fl.at(fl.ANS_APPROVED, T0)], "not_ours")
    s.script("flow-hostile-callback-wrong-nonce", "a callback with another nonce: rejected, nothing changes",
             start + [fl.at(fl.callback_url("completed", nonce=N2), T0 + 3000)], "rejected", (C, "nonce"))
    s.script("flow-hostile-callback-foreign-host", "a callback to another host of our scheme: not ours",
             start + [fl.at(fl.callback_url("completed", base="fixapp://evil"), T0 + 3000)], "not_ours")
    s.script("flow-hostile-callback-foreign-scheme", "a callback to another scheme: not ours",
             start + [fl.at(fl.callback_url("completed", base="evil://checkout-callback"), T0 + 3000)], "not_ours")
    s.script("flow-hostile-callback-replay", "the same verified callback twice: the second is a duplicate",
             start + [fl.at(cb, T0 + 3000), fl.at(cb, T0 + 4000)], "duplicate")
    s.script("flow-hostile-callback-replay-after-restore", "a replay after process death is still a duplicate",
             start + [fl.at(cb, T0 + 3000), fl.RESTORE, fl.at(cb, T0 + 4000)], "duplicate")
    # Found by FuzzCoordinator (issue 20): a callback whose stored copy is cut (4 long unknown
    # parameters pass the 768-byte bound of a kept callback) lost its "truncated" list in the
    # snapshot, so after process death the same callback again was `ignored`, not `duplicate`.
    long_cb = cb + "".join(f"&k{i}{'x' * 98}={'v' * 100}" for i in range(4))
    s.script("flow-hostile-callback-cut-replay", "a verified callback whose kept copy is cut, sent twice: duplicate",
             start + [fl.at(long_cb, T0 + 3000), fl.at(long_cb, T0 + 4000)], "duplicate")
    s.script("flow-hostile-callback-cut-replay-after-restore", "the same after process death: the snapshot keeps what "
             "was cut, so it is still a duplicate",
             start + [fl.at(long_cb, T0 + 3000), fl.RESTORE, fl.at(long_cb, T0 + 4000)], "duplicate")
    s.script("flow-hostile-callback-after-removal", "a callback for a flow the host gave up and removed: not ours",
             start + [fl.ev("flow.remove", T0 + 3000, flow_id="c1", give_up=True), fl.at(cb, T0 + 4000)], "not_ours")
    s.script("flow-hostile-callback-wrong-kind-id", "payment_id in a cards flow's callback: rejected",
             start + [fl.at(fl.callback_url("completed", object_id="pay_1", id_key="payment_id"), T0 + 3000)], "rejected", (C, "payment_id"))
    s.script("flow-hostile-callback-malformed", "a callback with %C0%AF for a pending flow: rejected",
             start + [fl.at(cb + "&x=%C0%AF", T0 + 3000)], "rejected", (M, "x"))
    s.script("flow-hostile-unverified-then-verified", "accept_unverified_callbacks: an unverified claim is replaced by "
             "the verified callback",
             start + [fl.at(fl.callback_url("failed", nonce=None, object_id=None), T0 + 3000), fl.at(cb, T0 + 4000)], "accepted",
             config={"accept_unverified_callbacks": True})
    assert s.vectors[-1]["expect"]["ok"]["steps"][-2] == {"outcome": "accepted", "flows": {"c1": "in_browser"},
                                                          "effects": ["c1:persist"]}
    s.script("flow-hostile-forged-failed-callback", "any app sends fixapp://checkout-callback?status=failed&reason=x while "
             "the 3-D Secure tab is open: refused, no close_browser, the flow still waits",
             start + [fl.at("fixapp://checkout-callback?status=failed&reason=x", T0 + 3000)], "rejected", (C, "nonce"))
    assert s.vectors[-1]["expect"]["ok"]["steps"][-1]["flows"] == {"c1": "in_browser"}
    s.script("flow-hostile-forged-completed-callback", "a forged completed callback without nonce: refused",
             start + [fl.at(fl.CB_NO_NONCE, T0 + 3000)], "rejected", (C, "nonce"))
    s.script("flow-hostile-forged-callbacks-then-genuine", "forged callbacks change nothing: the genuine one still resolves",
             start + [fl.at(fl.CB_NO_NONCE, T0 + 3000), fl.at(fl.CB_FAILED_NO_NONCE, T0 + 3100),
                      fl.at(fl.callback_url("completed", nonce=N2), T0 + 3200), fl.at(cb, T0 + 4000)], "accepted")
    s.script("flow-hostile-old-nonce-placement", "a callback with the nonce in the query (the old placement) is a callback "
             "without nonce: refused",
             start + [fl.at("fixapp://checkout-callback?status=completed&card_id=card_xyz&ph_nonce=" + N1, T0 + 3000)],
             "rejected", (C, "nonce"))
    s.script("flow-hostile-claim-cannot-end", "accept_unverified_callbacks: forged failed and cancelled callbacks are "
             "only claims: the flow never ends and the browser stays open; each is answered accepted, the latest kept",
             start + [fl.at(fl.CB_FAILED_NO_NONCE, T0 + 3000), fl.at(fl.CB_CANCELLED_NO_NONCE, T0 + 3100)], "accepted",
             config={"accept_unverified_callbacks": True})
    assert s.vectors[-1]["expect"]["ok"]["steps"][-1]["flows"] == {"c1": "in_browser"}
    s.script("flow-hostile-session-without-nonce", "checkout.start of an existing session without nonce: refused unless "
             "the setting accepts unverified callbacks",
             [fl.c_start(T0, nonce=None, session=fl.SESSION_CARDS)], "rejected", (V, "nonce"))
    s.script("flow-hostile-return-url-catches-answers", "a checkout whose return URL is myapp:// would swallow the POS "
             "answers to myapp: refused",
             [bad(fl.c_start(T0, return_url="myapp://")["event"], V, "return_url")], "invalid_event", (V, "return_url"))
    s.script("flow-hostile-answer-other-sale", "an approval carrying another sale's identifier",
             sold + [fl.at(fl.ANS_OTHER_ID, T0 + 2000)], "rejected", (C, "identifier"))
    s.script("flow-hostile-answer-forged", "myapp://result=aprobada&amount=100.00&transactionid=…&identifier=ord-1 sent "
             "by any app: without the flow's token it is refused and the sale stays launched",
             sold + [fl.at(fl.ANS_FORGED, T0 + 2000)], "rejected", (C, "identifier"))
    assert s.vectors[-1]["expect"]["ok"]["steps"][-1]["flows"] == {"p1": "launched"}
    s.script("flow-hostile-answer-forged-other-sale-no-amount", "a forged approval for another sale without amount: "
             "not for this sale, first",
             sold + [fl.at("myapp://result=aprobada&identifier=ord-2", T0 + 2000)], "rejected", (C, "identifier"))
    s.script("flow-hostile-result-forged", "pos.result extras with the bare order reference: refused",
             sold + [fl.p_result(T0 + 2000, fl.result_extras("aprobada", flow=None))], "rejected", (C, "identifier"))
    s.script("flow-hostile-result-nul", "pos.result with U+0000 in the identifier",
             sold + [fl.p_result(T0 + 2000, {**fl.RES_APPROVED, "identifier": "ord-1\x00~" + fl.pos_token("p1")})],
             "rejected", (V, "extras.identifier"))
    s.script("flow-hostile-answer-replay-later-sale", "a genuine approval replayed after its flow was removed never "
             "approves a later sale with the same reference",
             sold + [fl.at(fl.ANS_APPROVED, T0 + 2000), fl.ev("flow.remove", T0 + 3000, flow_id="p1"),
                     fl.p_start(T0 + 4000, flow_id="p2"), fl.at(fl.ANS_APPROVED, T0 + 5000)], "rejected", (C, "identifier"))
    s.script("flow-hostile-answer-transactionid-reused", "another sale's approval reusing a booked transactionid",
             sold + [fl.at(fl.ANS_APPROVED, T0 + 2000), fl.p_start(T0 + 3000, flow_id="p2", request=fl.sale_request("ord-2")),
                     fl.at(fl.answer_url("aprobada", identifier="ord-2", flow="p2"), T0 + 4000)],
             "rejected", ("duplicate", "transactionid"))
    s.script("flow-hostile-second-start-same-identifier", "a second pos.start for the same pending order reference "
             "with the same token: one answer would fit both",
             sold + [fl.p_start(T0 + 2000, flow_id="p2", token=fl.pos_token("p1"))], "rejected", ("conflict", "token"))
    s.script("flow-hostile-second-start-same-identifier-own-token", "a second pos.start for the same pending order "
             "reference with its own token: accepted, an answer names exactly one of them",
             sold + [fl.p_start(T0 + 2000, flow_id="p2"), fl.at(fl.ANS_APPROVED, T0 + 3000)], "accepted")
    assert s.vectors[-1]["expect"]["ok"]["steps"][-1]["flows"] == {"p1": "approved", "p2": "ready"}
    s.script("flow-hostile-remove-pending-sale", "removing a pending sale would lose its answer: refused without give_up",
             sold + [fl.ev("flow.remove", T0 + 2000, flow_id="p1")], "rejected", ("invalid_state", "flow_id"))
    s.script("flow-hostile-answer-replay", "the same approval twice: duplicate",
             sold + [fl.at(fl.ANS_APPROVED, T0 + 2000), fl.at(fl.ANS_APPROVED, T0 + 3000)], "duplicate")
    s.script("flow-hostile-answer-flip", "a declined answer after the approval (same identifier): ignored, the approval stands",
             sold + [fl.at(fl.ANS_APPROVED, T0 + 2000), fl.at(fl.ANS_DECLINED, T0 + 3000)], "ignored")
    s.script("flow-hostile-answer-other-amount", "an approval for another amount than requested: approved_amount_mismatch and reconcile, never approved",
             sold + [fl.at(fl.ANS_OTHER_AMOUNT, T0 + 2000)], "accepted")
    assert s.vectors[-1]["expect"]["ok"]["steps"][-1]["flows"] == {"p1": "approved_amount_mismatch"}
    # Found by FuzzCoordinator (issue 26's round): an approval answered with 0.00 books a sale of
    # 0 (min(requested, answered)), which restore refused, so that snapshot could not be read back.
    s.script("flow-hostile-answer-zero-amount-restore", "an approval of 0.00 for a 100.00 sale: approved_amount_mismatch, "
             "a sale of 0 booked; the snapshot restores, and a refund of that sale then finds nothing left",
             sold + [fl.at(fl.answer_url("aprobada", amount="0.00"), T0 + 2000), fl.RESTORE,
                     fl.p_refund(T0 + 3000, "p2", "ref-1", amount="10.00")], "rejected")
    assert s.vectors[-1]["expect"]["ok"]["steps"][-3]["flows"] == {"p1": "approved_amount_mismatch"}
    s.script("flow-hostile-answer-nul", "an answer with %00 in the identifier for a pending sale",
             sold + [fl.at("myapp://result=aprobada&identifier=ord-1%00&amount=100.00&transactionid=720371", T0 + 2000)], "rejected", (M, "identifier"))
    s.script("flow-hostile-confirmation-unknown-flow", "a confirmation for a flow that does not exist",
             [fl.c_confirm(T0, flow_id="c9")], "rejected", ("unknown_flow", "flow_id"))
    s.script("flow-hostile-event-now-string", "now as a string", [bad({"type": "tick", "now": str(T0)}, J, "now")], "invalid_event", (J, "now"))
    s.script("flow-hostile-event-now-negative", "now before 1970", [bad({"type": "tick", "now": -1}, V, "now")], "invalid_event", (V, "now"))
    s.script("flow-hostile-event-type-unknown", "an unknown event type", [bad({"type": "pos.approve", "now": T0}, V, "type")], "invalid_event", (V, "type"))
    s.script("flow-hostile-flow-id-129", "a flow id of 129 bytes", [bad(fl.c_start(T0, flow_id="c" * 129)["event"], V, "flow_id")],
             "invalid_event", (V, "flow_id"))
    s.script("flow-hostile-flow-id-128", "a flow id of exactly 128 bytes is accepted", [fl.c_start(T0, flow_id="c" * 128)], "accepted")
    s.script("flow-hostile-flow-id-space", "a flow id with a space", [bad(fl.c_start(T0, flow_id="c 1")["event"], V, "flow_id")],
             "invalid_event", (V, "flow_id"))
    s.script("flow-hostile-extra-member", "an unknown member in an event", [bad({"type": "tick", "now": T0, "approve": True}, V, "approve")],
             "invalid_event", (V, "approve"))
    return s


# ---------------------------------------------------------------------------------------
# Host strings: lone UTF-16 surrogates (issue 24)
#
# A string of the host language (Kotlin, JavaScript) may hold a lone UTF-16 surrogate, which has
# no UTF-8 form. The glue that turns host strings into UTF-8 refuses it, naming the C parameter
# (`invalid_argument`), before any C call: one answer in Kotlin, React Native and the web, instead
# of '?' in one, U+FFFD in another and invalid bytes in a third. Swift and C strings cannot hold
# one, so their runners skip these vectors, with the reason written in each (vectorlib.LONE_SURROGATE_SKIPS).

HIGH, LOW = "\ud800", "\udfff"


def host_check(parameters: list[tuple[str, object]]) -> None:
    """The glue's rule: the first parameter, in the C function's order, holding a lone surrogate
    anywhere (keys of JSON objects included) is `invalid_argument` naming that parameter."""
    for name, value in parameters:
        if vectorlib.has_lone_surrogate(value):
            raise vectorlib.Fail("invalid_argument", name)


def host_skip(input_) -> dict | None:
    return vectorlib.LONE_SURROGATE_SKIPS if vectorlib.has_lone_surrogate(input_) else None


def host_pos_parse_cases() -> Suite:
    def oracle(i):
        host_check([("url", i["url"]), ("options_json", i["options"])])
        return pos.parse_response(i["url"], i["options"])

    s = Suite("pos.parse_response", "hostile-host", oracle)

    def add(id_, note, url, options=POS_OPTS, error=None):
        input_ = {"url": url, "options": options}
        s.add("hostile-host-" + id_, note, input_, error, skip=host_skip(input_))

    ok = answer("result=aprobada", "identifier=ord-1", OK_TAIL)
    add("url-lone-high", "a lone high surrogate in the URL (a value): refused by the glue, naming url",
        ok + "&name=x" + HIGH + "y", error=("invalid_argument", "url"))
    add("url-lone-low-at-end", "a lone low surrogate as the URL's last code unit", ok + "&name=x" + LOW,
        error=("invalid_argument", "url"))
    add("url-reversed-pair", "a low surrogate before a high one is two lone surrogates, not a pair",
        ok + "&name=" + LOW + HIGH, error=("invalid_argument", "url"))
    add("url-lone-high-in-key", "a lone high surrogate in a parameter name", ok + "&k" + HIGH + "=v",
        error=("invalid_argument", "url"))
    add("options-lone-surrogate", "a lone surrogate in the options document (identifier): names options_json",
        ok, {"urlScheme": "myapp", "identifier": "ord-1" + HIGH}, error=("invalid_argument", "options_json"))
    add("options-key-lone-surrogate", "a lone surrogate in a key of the options document",
        ok, {"urlScheme": "myapp", "identifier": "ord-1", "x" + LOW: "y"}, error=("invalid_argument", "options_json"))
    add("both-parameters", "both parameters hold one: the first parameter (url) is named", ok + "&name=" + HIGH,
        {"urlScheme": "myapp", "identifier": "ord-1" + LOW}, error=("invalid_argument", "url"))
    add("url-pair-is-fine", "a surrogate pair (U+1F600 written raw) is one character: it crosses as 4 UTF-8 bytes "
        "and the core reads it (every runner runs this control)", ok + "&name=\U0001F600")
    assert s.vectors[-1]["expect"]["ok"]["name"] == "\U0001F600"
    assert "skip" not in s.vectors[-1] and all("skip" in v for v in s.vectors[:-1])
    return s


class HostFlowSuite(FlowSuite):
    """coordinator.script with steps the glue refuses: an event or URL holding a lone surrogate is
    `invalid_event` with `invalid_argument` naming `event_json` or `url` (nothing is sent); the
    model runs every other step."""

    def script(self, id_: str, note: str, steps: list, last: str, error: tuple | None = None, config=None):
        model = fl.Model(config or {})
        summaries = []
        for step in steps:
            parameter = "url" if "url" in step else "event_json"
            if not step.get("restore") and vectorlib.has_lone_surrogate(step.get("url", step.get("event"))):
                summaries.append(model.summary("invalid_event", error=("invalid_argument", parameter)))
            else:
                summaries.append(model.step(step))
        final = summaries[-1]
        if final["outcome"] != last or (error is not None and final.get("error") != {"code": error[0], "field": error[1]}):
            raise AssertionError(f"{id_}: table expects {last} {error}, the model says {final}")
        self._add(id_, note, config or {}, steps, summaries)
        vectorlib.with_skip(self.vectors[-1], host_skip(self.vectors[-1]["input"]))


def host_coordinator_cases() -> HostFlowSuite:
    s = HostFlowSuite(fl.SUITE)
    sold = [fl.p_start(T0), fl.p_launched(T0 + 1000)]
    s.script("flow-hostile-host-event-lone-surrogate", "a pos.start whose identifier holds a lone surrogate: refused "
             "before it is sent (invalid_argument, event_json), nothing changes; the same start without it is accepted",
             [fl.p_start(T0, request=fl.sale_request("ord-1" + HIGH)), fl.p_start(T0 + 1)], "accepted")
    assert s.vectors[-1]["expect"]["ok"]["steps"][0] == {
        "outcome": "invalid_event", "flows": {}, "effects": [], "error": {"code": "invalid_argument", "field": "event_json"}}
    s.script("flow-hostile-host-extras-key-lone-surrogate", "pos.result extras with a lone surrogate in a key: "
             "refused as event_json, the sale still launched",
             sold + [fl.p_result(T0 + 2000, {**fl.RES_APPROVED, "x" + LOW: "1"})], "invalid_event",
             ("invalid_argument", "event_json"))
    assert s.vectors[-1]["expect"]["ok"]["steps"][-1]["flows"] == {"p1": "launched"}
    s.script("flow-hostile-host-url-lone-surrogate", "the genuine approval with a lone surrogate appended: refused as "
             "url before routing; the genuine approval still approves after it",
             sold + [fl.at(fl.ANS_APPROVED + "&name=" + HIGH, T0 + 2000), fl.at(fl.ANS_APPROVED, T0 + 3000)], "accepted")
    assert s.vectors[-1]["expect"]["ok"]["steps"][-2]["error"] == {"code": "invalid_argument", "field": "url"}
    assert all("skip" in v for v in s.vectors)
    return s


# ---------------------------------------------------------------------------------------
# Issue 39: hostile answers of the other terminal apps (Square's iOS data= and Android extras,
# SumUp's callback, Clip's PAYMENT_RESPONSE), read by their oracles (pos_square.py, pos_sumup.py,
# pos_clip.py through pos_apps_vectors.py's dispatch), each vector naming its source.

SQ_TOKEN = "9f86d081884c7d659a2feaa0c55ad015"
SQ_SENT = "ord-1~" + SQ_TOKEN
SQ_CALLBACK = "myapp://square-callback"
SU_CALLBACK = "myapp://sumup-result"
SRC_JSON_RULE = ("PayHandoff's one JSON rule (docs/abi.md, Sources/PayHandoffABI/JSONText+Reader.swift): duplicate keys, "
                 "numbers other than integers and U+0000 are refused in every JSON text it reads")


def _app_suite(name: str, prefix: str):
    if name == "pos.parse_response":
        return Suite(name, prefix, lambda i: apps.parse_response(i["url"], i["options"]), detach=True)
    return Suite(name, prefix, lambda i: apps.parse_result(i["extras"], i["options"]), detach=True)


def _compact(document) -> str:
    return json.dumps(document, separators=(",", ":"))


def square_ios_cases() -> Suite:
    s = _app_suite("pos.parse_response", "hostile-square")
    opts = {"pos_app": "square", "callback_url": SQ_CALLBACK, "identifier": "ord-1", "token": SQ_TOKEN}

    def add(id_, note, url, error=None, source=square.SRC_IOS_RESPONSE):
        s.add("hostile-square-" + id_, note, {"url": url, "options": opts}, error)
        s.vectors[-1]["source"] = source

    def data(text: str) -> str:
        return SQ_CALLBACK + "?data=" + vectorlib.percent_encode(text)

    ok = {"status": "ok", "state": SQ_SENT, "transaction_id": "TX-SQ-1"}
    add("control-approved", "control: the genuine answer is approved (every other vector here changes one thing)", data(_compact(ok)))
    # JSON text that is not an object.
    add("data-array", "data= holds a JSON array (with the echo inside): not Square's answer object",
        data(_compact(["ok", SQ_SENT])), (J, "data"))
    add("data-string", "data= holds a JSON string that is the echo", data(_compact(SQ_SENT)), (J, "data"))
    add("data-number", "data= holds a JSON number", data("7"), (J, "data"))
    add("data-null", "data= holds JSON null", data("null"), (J, "data"))
    add("data-true", "data= holds JSON true", data("true"), (J, "data"))
    add("data-not-json", "data= holds text that is not JSON", data("status=ok&state=" + SQ_SENT), (J, "data"))
    add("data-trailing-text", "the answer object followed by more text", data(_compact(ok) + " x"), (J, "data"))
    add("data-two-objects", "two answer objects one after the other", data(_compact(ok) + _compact(ok)), (J, "data"))
    add("data-nan", "NaN is not JSON", data('{"status":"ok","state":"' + SQ_SENT + '","transaction_id":"TX-SQ-1","n":NaN}'), (J, "data"))
    add("data-bom", "a byte order mark before the object is ignored (cJSON's rule, RFC 8259 8.1): the one reader every runner shares", data("\ufeff" + _compact(ok)), source=SRC_JSON_RULE)
    assert s.vectors[-1]["expect"]["ok"]["result"] == "approved"
    add("data-empty", "data= empty", SQ_CALLBACK + "?data=", (V, "data"))
    # Duplicated keys: two readers would disagree on which one counts.
    add("data-duplicate-state", "state twice, a bare identifier first and the genuine echo last",
        data('{"status":"ok","state":"ord-1","state":"' + SQ_SENT + '","transaction_id":"TX-SQ-1"}'), (J, "data.state"), SRC_JSON_RULE)
    add("data-duplicate-status", "status twice: error, then ok",
        data('{"status":"error","error_code":"payment_canceled","status":"ok","state":"' + SQ_SENT + '","transaction_id":"TX-SQ-1"}'),
        (J, "data.status"), SRC_JSON_RULE)
    add("data-key-twice", "data twice in the query (a genuine and a forged answer)", data(_compact(ok)) + "&data=" +
        vectorlib.percent_encode(_compact({**ok, "state": "ord-1"})), (M, "data"))
    # Numbers: only integers.
    add("data-exponent-number", "a member holding an exponent number (1e7)",
        data('{"status":"ok","state":"' + SQ_SENT + '","transaction_id":"TX-SQ-1","amount":1e7}'), (J, "data.amount"), SRC_JSON_RULE)
    add("data-fraction-number", "a member holding a number with a fraction (100.5)",
        data('{"status":"ok","state":"' + SQ_SENT + '","transaction_id":"TX-SQ-1","amount":100.5}'), (J, "data.amount"), SRC_JSON_RULE)
    add("data-nested-duplicate", "a duplicate key inside a nested object is refused too, named by its path",
        data('{"status":"ok","state":"' + SQ_SENT + '","transaction_id":"TX-SQ-1","options":{"auto_return":true,"auto_return":false}}'),
        (J, "data.options.auto_return"), SRC_JSON_RULE)
    add("data-nested-fraction", "a number with a fraction inside an array of a nested object, named by its path",
        data('{"status":"ok","state":"' + SQ_SENT + '","transaction_id":"TX-SQ-1","amount_money":{"amount":[1,100.5]}}'),
        (J, "data.amount_money.amount[1]"), SRC_JSON_RULE)
    add("data-integer-beyond-2-53", "an integer beyond 2^53 - 1 (what a double cannot carry exactly)",
        data('{"status":"ok","state":"' + SQ_SENT + '","transaction_id":"TX-SQ-1","amount":9007199254740993}'),
        (J, "data.amount"), SRC_JSON_RULE)
    # NUL.
    add("data-percent-nul", "a percent-encoded NUL inside data= (C string truncation)",
        SQ_CALLBACK + "?data=" + vectorlib.percent_encode(_compact(ok)[:-1]) + "%00" + vectorlib.percent_encode("}"), (M, "data"))
    add("state-escaped-nul", "the echo followed by an escaped U+0000 (\\u0000) inside the JSON text is not the echo",
        data('{"status":"ok","state":"' + SQ_SENT + '\\u0000x","transaction_id":"TX-SQ-1"}'), (C, "identifier"), SRC_JSON_RULE)
    # The token elsewhere, members of another type.
    add("token-in-transaction-id", "the genuine echo in transaction_id, a bare identifier in state",
        data(_compact({"status": "ok", "state": "ord-1", "transaction_id": SQ_SENT})), (C, "identifier"))
    add("token-in-other-member", "the genuine echo under another member, no state",
        data(_compact({"status": "ok", "request_state": SQ_SENT, "transaction_id": "TX-SQ-1"})), (V, "state"))
    add("state-number", "state is a number", data(_compact({"status": "ok", "state": 7, "transaction_id": "TX-SQ-1"})), (J, "state"))
    add("state-object", "state is an object holding the echo",
        data(_compact({"status": "ok", "state": {"state": SQ_SENT}, "transaction_id": "TX-SQ-1"})), (J, "state"))
    add("status-array", "status is an array", data(_compact({"status": ["ok"], "state": SQ_SENT, "transaction_id": "TX-SQ-1"})), (J, "status"))
    add("status-upper", "OK is not ok: an unknown status is never an approval",
        data(_compact({"status": "OK", "state": SQ_SENT, "transaction_id": "TX-SQ-1"})))
    assert s.vectors[-1]["expect"]["ok"]["result"] == "unrecognized"
    # Oversized.
    add("transaction-id-129", "a transaction_id of 129 bytes", data(_compact({**ok, "transaction_id": "T" * 129})), (V, "transaction_id"))
    add("url-over-limit", "an answer URL of more than 8 KiB", data(_compact({**ok, "pad": "x" * 9000})), (L, "url"))
    return s


def square_android_cases() -> Suite:
    s = _app_suite("pos.parse_result", "hostile-square-result")
    opts = {"pos_app": "square", "identifier": "ord-1", "token": SQ_TOKEN}
    meta, server, client, code = square.R_METADATA, square.R_SERVER_ID, square.R_CLIENT_ID, square.R_ERROR_CODE

    def add(id_, note, extras, error=None, source=square.SRC_ANDROID):
        s.add("hostile-square-result-" + id_, note, {"extras": extras, "options": opts}, error)
        s.vectors[-1]["source"] = source

    add("control-approved", "control: the genuine result is approved", {meta: SQ_SENT, server: "TX-SQ-1"})
    add("metadata-nul", "U+0000 after the genuine echo", {meta: SQ_SENT + "\x00x", server: "TX-SQ-1"}, (V, meta))
    add("token-in-client-id", "the genuine echo in CLIENT_TRANSACTION_ID, a bare identifier as metadata",
        {meta: "ord-1", client: SQ_SENT, server: "TX-SQ-1"}, (C, "identifier"))
    add("token-without-metadata", "the genuine echo under another key, no REQUEST_METADATA",
        {server: "TX-SQ-1", "REQUEST_METADATA": SQ_SENT}, (V, meta))
    add("metadata-key-lowercase", "Bundle keys are case-sensitive: a lowercase metadata key is not the echo",
        {meta.lower(): SQ_SENT, server: "TX-SQ-1"}, (V, meta))
    add("metadata-number", "REQUEST_METADATA as a number", {meta: 7, server: "TX-SQ-1"}, (J, meta))
    add("metadata-list", "REQUEST_METADATA as a list holding the echo", {meta: [SQ_SENT], server: "TX-SQ-1"}, (J, meta))
    add("extras-array", "the extras are an array", [SQ_SENT, "TX-SQ-1"], (J, None))
    add("server-id-129", "a SERVER_TRANSACTION_ID of 129 bytes", {meta: SQ_SENT, server: "T" * 129}, (V, server))
    add("unknown-error-code", "an ERROR_CODE PosApi.java does not list: unclear, so reconcile (never approved, never declined)",
        {meta: SQ_SENT, code: square.NS + "ERROR_FROM_THE_FUTURE"})
    assert s.vectors[-1]["expect"]["ok"]["result"] == "unrecognized"
    add("error-code-and-server-id", "an ERROR_CODE beside a SERVER_TRANSACTION_ID: the error decides (never approved)",
        {meta: SQ_SENT, server: "TX-SQ-1", code: square.NS + "ERROR_NO_NETWORK"})
    assert s.vectors[-1]["expect"]["ok"]["result"] == "error"
    return s


def sumup_cases() -> Suite:
    s = _app_suite("pos.parse_response", "hostile-sumup")
    opts = {"pos_app": "sumup", "callback_url": SU_CALLBACK, "identifier": "ord-1", "token": SQ_TOKEN}

    def add(id_, note, query, error=None, source=sumup.SRC_ANDROID):
        s.add("hostile-sumup-" + id_, note, {"url": SU_CALLBACK + "?" + query, "options": opts}, error)
        s.vectors[-1]["source"] = source

    ok = "smp-status=success&smp-tx-code=TX-SU-1&foreign-tx-id=" + SQ_SENT
    add("control-approved", "control: the genuine answer is approved", ok)
    add("foreign-tx-id-twice", "foreign-tx-id twice, a bare identifier and the genuine echo", ok + "&foreign-tx-id=ord-1", (M, "foreign-tx-id"))
    add("status-twice", "smp-status twice (failed, then success)", "smp-status=failed&" + ok, (M, "smp-status"))
    add("foreign-tx-id-percent-nul", "a percent-encoded NUL after the genuine echo (C string truncation)", ok + "%00x", (M, "foreign-tx-id"))
    add("foreign-tx-id-overlong-nul", "an overlong UTF-8 NUL (%C0%80) after the genuine echo", ok + "%C0%80", (M, "foreign-tx-id"))
    add("foreign-tx-id-plus", "a '+' after the genuine echo is a '+', not a space, and not the echo", ok + "+", (C, "identifier"))
    add("foreign-tx-id-escaped", "the genuine echo fully percent-encoded is the echo",
        "smp-status=success&smp-tx-code=TX-SU-1&foreign-tx-id=" + "".join("%%%02X" % b for b in SQ_SENT.encode()))
    assert s.vectors[-1]["expect"]["ok"]["result"] == "approved"
    add("token-in-tx-code", "the genuine echo in smp-tx-code, a bare identifier as foreign-tx-id",
        "smp-status=success&smp-tx-code=" + SQ_SENT + "&foreign-tx-id=ord-1", (C, "identifier"))
    add("token-in-other-key", "the genuine echo under another key, no foreign-tx-id",
        "smp-status=success&smp-tx-code=TX-SU-1&foreign_tx_id=" + SQ_SENT, (V, "foreign-tx-id"))
    add("status-upper", "SUCCESS is not success: an unknown status is never an approval",
        "smp-status=SUCCESS&smp-tx-code=TX-SU-1&foreign-tx-id=" + SQ_SENT)
    assert s.vectors[-1]["expect"]["ok"]["result"] == "unrecognized"
    add("tx-code-129", "an smp-tx-code of 129 bytes", "smp-status=success&smp-tx-code=" + "T" * 129 + "&foreign-tx-id=" + SQ_SENT,
        (V, "smp-tx-code"))
    add("url-over-limit", "an answer URL of more than 8 KiB", ok + "&smp-message=" + "x" * 9000, (L, "url"))
    add("json-in-query", "a JSON object where the query should be", vectorlib.percent_encode(
        _compact({"smp-status": "success", "foreign-tx-id": SQ_SENT})), (M, None))
    return s


def clip_cases() -> Suite:
    s = _app_suite("pos.parse_result", "hostile-clip")
    opts = {"pos_app": "clip", "identifier": "ord-1", "token": SQ_TOKEN}
    R, E = clip.RESPONSE, clip.ERROR

    def add(id_, note, extras, error=None, source=clip.SRC_ANSWER):
        s.add("hostile-clip-" + id_, note, {"extras": extras, "options": opts}, error)
        s.vectors[-1]["source"] = source

    ok = {"reference": SQ_SENT, "status": "approved", "amount": "100.0", "receiptNumber": "R-77"}

    def response(text: str, **extras) -> dict:
        return {R: text, **extras}

    add("control-approved", "control: the genuine result is approved", response(_compact(ok)))
    # JSON text that is not an object.
    add("response-array", "PAYMENT_RESPONSE holds a JSON array with the echo", response(_compact([SQ_SENT, "approved"])), (J, R))
    add("response-string", "PAYMENT_RESPONSE holds a JSON string", response(_compact("approved")), (J, R))
    add("response-null", "PAYMENT_RESPONSE holds JSON null", response("null"), (J, R))
    add("response-number", "PAYMENT_RESPONSE holds a JSON number", response("100.0"), (J, R))
    add("response-not-json", "PAYMENT_RESPONSE holds Kotlin's toString of PaymentResult, not JSON",
        response("PaymentResult(reference=" + SQ_SENT + ", status=approved, amount=100.0)"), (J, R))
    add("response-trailing-text", "the object followed by more text", response(_compact(ok) + "]"), (J, R))
    add("response-bom", "a byte order mark before the object is ignored (cJSON's rule, RFC 8259 8.1)", response("\ufeff" + _compact(ok)), source=SRC_JSON_RULE)
    assert s.vectors[-1]["expect"]["ok"]["result"] == "approved"
    # Duplicated keys.
    add("response-duplicate-reference", "reference twice: a bare identifier first, the genuine echo last",
        response('{"reference":"ord-1","reference":"' + SQ_SENT + '","status":"approved","amount":"100.0","receiptNumber":"R-77"}'),
        (J, R + ".reference"), SRC_JSON_RULE)
    add("response-duplicate-status", "status twice: error, then approved",
        response('{"reference":"' + SQ_SENT + '","status":"error","status":"approved","amount":"100.0","receiptNumber":"R-77"}',
                 **{E: "CANCELLED"}), (J, R + ".status"), SRC_JSON_RULE)
    # Amounts.
    add("amount-exponent-number", "amount as a JSON number in exponent form (1.0E7), not Double.toString()'s text",
        response('{"reference":"' + SQ_SENT + '","status":"approved","amount":1.0E7,"receiptNumber":"R-77"}'), (J, R + ".amount"),
        SRC_JSON_RULE)
    add("amount-integer-number", "amount as a JSON integer", response(_compact({**ok, "amount": 100})), (J, R + ".amount"))
    add("amount-exponent-text", "amount 1.0E7 as text is Double.toString()'s 10^7: read exactly",
        response(_compact({**ok, "amount": "1.0E7"})), source=clip.SRC_DOUBLE)
    assert s.vectors[-1]["expect"]["ok"]["amount"] == "10000000.00"
    add("amount-huge-exponent", "amount 1.0E400: more than any sale, never approved (reconcile)",
        response(_compact({**ok, "amount": "1.0E400"})), source=clip.SRC_DOUBLE)
    assert s.vectors[-1]["expect"]["ok"]["result"] == "unrecognized"
    add("amount-nan", "amount NaN (Double.toString of NaN): never approved",
        response(_compact({**ok, "amount": "NaN"})), source=clip.SRC_DOUBLE)
    assert s.vectors[-1]["expect"]["ok"]["result"] == "unrecognized"
    add("amount-negative", "a negative amount: never approved", response(_compact({**ok, "amount": "-100.0"})))
    assert s.vectors[-1]["expect"]["ok"]["result"] == "unrecognized"
    # NUL, the token elsewhere, oversized.
    add("reference-escaped-nul", "the echo followed by an escaped U+0000 (\\u0000) inside the JSON text is not the echo",
        response('{"reference":"' + SQ_SENT + '\\u0000x","status":"approved","amount":"100.0","receiptNumber":"R-77"}'),
        (C, "identifier"), SRC_JSON_RULE)
    add("payment-error-nul", "U+0000 in PAYMENT_ERROR", response(_compact({**ok, "status": "error"}), **{E: "CANCELLED\x00"}), (V, E))
    add("token-in-receipt", "the genuine echo in receiptNumber, a bare identifier as reference",
        response(_compact({**ok, "reference": "ord-1", "receiptNumber": SQ_SENT})), (C, "identifier"))
    add("token-in-payment-error", "no PAYMENT_RESPONSE, the genuine echo as PAYMENT_ERROR", {E: SQ_SENT}, (V, R))
    add("token-outside-response", "the genuine echo as its own extra, a response without reference",
        {R: _compact({k: v for k, v in ok.items() if k != "reference"}), "reference": SQ_SENT}, (V, R + ".reference"))
    add("reference-object", "reference is an object holding the echo", response(_compact({**ok, "reference": {"reference": SQ_SENT}})),
        (J, R + ".reference"))
    add("receipt-129", "a receiptNumber of 129 bytes", response(_compact({**ok, "receiptNumber": "R" * 129})), (V, R + ".receiptNumber"))
    add("status-upper", "APPROVED is not approved: an unknown status is never an approval",
        response(_compact({**ok, "status": "APPROVED"})))
    assert s.vectors[-1]["expect"]["ok"]["result"] == "unrecognized"
    return s


def main(argv: list[str]) -> int:
    suites = {
        "host_strings_pos_parse_response.json": host_pos_parse_cases(),
        "host_strings_coordinator_script.json": host_coordinator_cases(),
        "pos_parse_response.json": pos_parse_cases(),
        "pos_parse_result.json": pos_result_cases(),
        "checkout_parse_callback.json": checkout_callback_cases(),
        "pos_build_url.json": pos_build_cases(),
        "checkout_build_request.json": checkout_build_cases(),
        "checkout_confirmation.json": checkout_confirmation_cases(),
        "checkout_parse_session.json": checkout_session_cases(),
        "coordinator_script.json": coordinator_cases(),
        "size_pos_parse_response.json": size_pos_cases(),
        "size_checkout_parse_callback.json": size_checkout_cases(),
        "square_parse_response.json": square_ios_cases(),
        "square_parse_result.json": square_android_cases(),
        "sumup_parse_response.json": sumup_cases(),
        "clip_parse_result.json": clip_cases(),
    }
    others: set[str] = set()
    for path in sorted(HOSTILE_DIR.parent.glob("*/*.json")):
        if path.parent != HOSTILE_DIR:
            others.update(v["id"] for v in json.loads(path.read_text(encoding="utf-8")).get("vectors", []))
    total = sum(len(x.vectors) for x in suites.values())
    assert total >= 150, total
    return vectorlib.main(argv, HOSTILE_DIR, suites, other_ids=others)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
