#!/usr/bin/env python3
"""Writes the hostile-input corpus (Tests/Vectors/hostile/*.json).

    python3 Tests/Vectors/tools/hostile_vectors.py          # (re)write the files
    python3 Tests/Vectors/tools/hostile_vectors.py --check  # fail if the files on disk differ

Inputs an attacker controls: any URL handed to the app (any app can claim or call the scheme)
and any JSON a compromised or buggy host layer passes. The cases use the existing suite names
(`pos.parse_response`, `checkout.parse_callback`, `pos.build_url`, `checkout.build_request`,
`checkout.parse_session`, `checkout.confirmation`, `coordinator.script`), so every runner that
runs the shared vectors runs them once it scans this folder.

Every case states the error it is written to provoke; the expected documents are computed by the
independent Python oracles of the other generators (pos_vectors.py, checkout_vectors.py and the
coordinator model of flow_vectors.py, all written from the rules in DESIGN.md), and the generator
stops when a table and an oracle disagree. Nothing here runs PayHandoff.

Not expressible as vector files (the runners read them with Foundation's JSONDecoder and with
cJSON, which refuse them, or JSON cannot carry them): 10 000-deep JSON, JSON numbers with a
fraction ("floats as amounts"), lone-surrogate `\\ud800` escapes in JSON text, raw invalid UTF-8
bytes, JSON text over 64 KiB. Those are tested directly against the C ABI in
Tests/CHarness/harness.c (`hostile_direct`) and in Tests/PayHandoffABITests/HostileABITests.swift.
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
    add("scheme-only", "nothing after scheme://", "myapp://", (V, "result"))
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
    add("result-twice", "aprobada and rechazada in one answer", answer("result=rechazada", "result=aprobada", "identifier=ord-1", OK_TAIL), (M, "result"))
    add("result-missing", "no result", answer("identifier=ord-1", OK_TAIL), (V, "result"))
    add("result-unknown", "an unknown result", answer("result=approved", "identifier=ord-1", OK_TAIL), (V, "result"))
    add("result-padded", "a result with an encoded space", answer("result=aprobada%20", "identifier=ord-1", OK_TAIL), (V, "result"))
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
# checkout.parse_callback

NONCE = "4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99"
CARDS = {"kind": "cards", "return_url": "fixapp://checkout-callback", "nonce": NONCE}
CARDS_NO_NONCE = {"kind": "cards", "return_url": "fixapp://checkout-callback"}
PAYMENTS = {"kind": "payments", "return_url": "https://shop.example.com/return", "nonce": NONCE}
CB = "fixapp://checkout-callback?"
PB = "https://shop.example.com/return?"


def checkout_callback_cases() -> Suite:
    s = Suite("checkout.parse_callback", "hostile-cb", lambda i: co.parse_callback(i["url"], i["options"]), detach=True)

    def add(id_, note, url, error=None, options=CARDS):
        s.add("hostile-cb-" + id_, note, {"url": url, "options": options}, error)

    ok = "status=completed&card_id=card_xyz&ph_nonce=" + NONCE
    add("verified", "the genuine verified callback (control case)", CB + ok)
    # Spoofing the address.
    add("scheme-foreign", "another scheme", "evilapp://checkout-callback?" + ok, (C, "scheme"))
    add("scheme-upper", "the scheme compares ignoring case", "FIXAPP://checkout-callback?" + ok)
    add("host-foreign", "another host", "fixapp://checkout-callback-evil?" + ok, (C, "host"))
    add("host-case", "hosts compare ignoring case (RFC 3986)", "fixapp://Checkout-Callback?" + ok)
    add("host-userinfo", "userinfo in front of our host is refused", "fixapp://evil@checkout-callback?" + ok, (M, "url"))
    add("path-extra", "an extra path segment", "fixapp://checkout-callback/x?" + ok, (C, "path"))
    add("path-dot-segments", "dot segments are not resolved", "fixapp://checkout-callback/../checkout-callback?" + ok, (C, "path"))
    add("port-added", "a port the return URL does not have", "fixapp://checkout-callback:8080?" + ok, (C, "port"))
    add("https-host-lookalike", "https return URL: our host as a subdomain of another",
        "https://shop.example.com.evil.com/return?status=completed&payment_id=pay_1&ph_nonce=" + NONCE, (C, "host"), PAYMENTS)
    add("https-userinfo", "https return URL: our host as userinfo", "https://shop.example.com@evil.com/return?status=completed&payment_id=pay_1&ph_nonce=" + NONCE,
        (M, "url"), PAYMENTS)
    add("https-default-port", "https: port 443 is the default port", "https://shop.example.com:443/return?status=completed&payment_id=pay_1&ph_nonce=" + NONCE,
        None, PAYMENTS)
    add("https-http", "http instead of https", "http://shop.example.com/return?status=completed&payment_id=pay_1&ph_nonce=" + NONCE, (C, "scheme"), PAYMENTS)
    # Correlation.
    add("nonce-wrong", "another session's nonce", CB + "status=completed&card_id=card_xyz&ph_nonce=0123456789abcdef0123456789abcdef", (C, "ph_nonce"))
    add("nonce-case", "nonces compare exactly (case)", CB + "status=completed&card_id=card_xyz&ph_nonce=" + NONCE.upper(), (C, "ph_nonce"))
    add("nonce-prefix", "a prefix of the nonce", CB + "status=completed&card_id=card_xyz&ph_nonce=" + NONCE[:-1], (C, "ph_nonce"))
    add("nonce-extended", "the nonce with one more character", CB + "status=completed&card_id=card_xyz&ph_nonce=" + NONCE + "0", (C, "ph_nonce"))
    add("nonce-empty", "an empty nonce", CB + "status=completed&card_id=card_xyz&ph_nonce=", (C, "ph_nonce"))
    add("nonce-missing", "no nonce: accepted but unverified", CB + "status=completed&card_id=card_xyz")
    add("nonce-without-session-nonce", "a nonce when the session has none", CB + ok, (C, "ph_nonce"), CARDS_NO_NONCE)
    add("nonce-twice", "the nonce twice", CB + ok + "&ph_nonce=" + NONCE, (M, "ph_nonce"))
    add("nonce-twice-wrong-first", "a wrong nonce, then the right one", CB + "status=completed&card_id=card_xyz&ph_nonce=x&ph_nonce=" + NONCE, (M, "ph_nonce"))
    add("nonce-percent-encoded", "percent-encoded nonce characters decode to the nonce", CB + "status=completed&card_id=card_xyz&ph_nonce=%34" + NONCE[1:])
    add("nonce-nul-suffix", "the nonce followed by %00", CB + "status=completed&card_id=card_xyz&ph_nonce=" + NONCE + "%00", (M, "ph_nonce"))
    add("nonce-key-case", "PH_NONCE is not ph_nonce: no nonce, so unverified", CB + "status=completed&card_id=card_xyz&PH_NONCE=" + NONCE)
    add("nonce-in-fragment", "a nonce in the fragment is not in the query", CB + "status=completed&card_id=card_xyz#ph_nonce=" + NONCE)
    add("card-id-on-payments", "card_id in a payments callback", PB + "status=completed&card_id=card_1&ph_nonce=" + NONCE, (C, "card_id"), PAYMENTS)
    add("payment-id-on-cards", "payment_id in a cards callback", CB + "status=completed&payment_id=pay_1&ph_nonce=" + NONCE, (C, "payment_id"))
    add("expected-id-other", "another card than the session's", CB + "status=completed&card_id=card_other&ph_nonce=" + NONCE, (C, "card_id"),
        {**CARDS, "expected_id": "card_xyz"})
    add("id-without-prefix", "an id without the card_ prefix", CB + "status=completed&card_id=xyz&ph_nonce=" + NONCE, (V, "card_id"))
    add("id-prefix-case", "CARD_ is not card_", CB + "status=completed&card_id=CARD_xyz&ph_nonce=" + NONCE, (V, "card_id"))
    add("id-twice", "two card ids", CB + "status=completed&card_id=card_a&card_id=card_b&ph_nonce=" + NONCE, (M, "card_id"))
    add("completed-no-id", "completed without card_id", CB + "status=completed&ph_nonce=" + NONCE, (V, "card_id"))
    add("status-upper", "COMPLETED is not a status", CB + "status=COMPLETED&card_id=card_xyz&ph_nonce=" + NONCE, (V, "status"))
    add("status-unknown", "status=approved is not a status", CB + "status=approved&card_id=card_xyz&ph_nonce=" + NONCE, (V, "status"))
    add("status-missing", "no status", CB + "card_id=card_xyz&ph_nonce=" + NONCE, (V, "status"))
    add("status-twice", "completed and failed", CB + "status=failed&status=completed&card_id=card_xyz&ph_nonce=" + NONCE, (M, "status"))
    add("status-padded-plus", "'completed+' decodes to 'completed '", CB + "status=completed+&card_id=card_xyz&ph_nonce=" + NONCE, (V, "status"))
    add("status-smuggled", "an encoded '&status=completed' inside reason", CB + "status=failed&reason=x%26status%3Dcompleted&ph_nonce=" + NONCE)
    # Encoding attacks.
    add("plus-is-space", "'+' is a space in checkout callbacks", CB + "status=failed&reason=card+declined&ph_nonce=" + NONCE)
    add("encoded-plus", "%2B is a literal '+'", CB + "status=failed&reason=a%2Bb&ph_nonce=" + NONCE)
    add("double-encoded", "%2526 decodes once to %26", CB + "status=failed&reason=a%2526b&ph_nonce=" + NONCE)
    add("mixed-case-escape", "mixed-case hex digits", CB + "status=failed&reason=%c3%A9t%C3%a9&ph_nonce=" + NONCE)
    add("nul-reason", "%00 in reason", CB + "status=failed&reason=a%00b&ph_nonce=" + NONCE, (M, "reason"))
    add("overlong-slash", "%C0%AF in an extra parameter", CB + ok + "&x=%C0%AF", (M, "x"))
    add("overlong-dot", "overlong '.' (%C0%AE)", CB + ok + "&x=%C0%AE%C0%AE", (M, "x"))
    add("lone-surrogate", "UTF-8-encoded lone surrogate in reason", CB + "status=failed&reason=%ED%B2%80&ph_nonce=" + NONCE, (M, "reason"))
    add("above-max", "a code point above U+10FFFF", CB + ok + "&x=%F5%80%80%80", (M, "x"))
    add("bad-escape", "%G0", CB + ok + "&x=%G0", (M, "x"))
    add("bad-escape-key", "a bad escape in a key", CB + ok + "&%G0=x", (M, None))
    add("encoded-status-key", "an encoded key: %73tatus is status", CB + "%73tatus=completed&card_id=card_xyz&ph_nonce=" + NONCE)
    add("raw-space", "a raw space", CB + "status=failed&reason=a b&ph_nonce=" + NONCE, (M, "url"))
    add("raw-control", "a raw control character", CB + "status=failed&reason=a\x01b&ph_nonce=" + NONCE, (M, "url"))
    add("raw-non-ascii", "raw non-ASCII (UTF-8) in the query is read as its UTF-8 bytes", CB + "status=failed&reason=\u00e9&ph_nonce=" + NONCE)
    add("empty-key", "a piece with an empty key", CB + ok + "&=x", (M, None))
    add("no-equals", "a piece without '='", CB + ok + "&flag", (M, None))
    add("no-query", "no query at all", "fixapp://checkout-callback", (V, "status"))
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
    head = CB + "status=cancelled&ph_nonce=" + NONCE + "&pad="
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


# The coordinator model of flow_vectors.py decodes queries with urllib, which does not refuse bad
# escapes, NUL or invalid UTF-8 the way the rules do; the hostile scripts use the rule-exact
# decoder of vectorlib.py (the one the POS and checkout oracles use) instead.
fl.decode_query = lambda query, plus_is_space, case_insensitive: vectorlib.decode_query(
    query.encode("utf-8"), plus_is_space=plus_is_space, case_insensitive=case_insensitive)


class FlowSuite(fl.Suite):
    def script(self, id_: str, note: str, steps: list, last: str, error: tuple | None = None, config=None):
        """A model-computed script whose last step must have outcome `last` (and `error`)."""
        model = fl.Model(config or {})
        summaries = [model.step(s) for s in steps]
        final = summaries[-1]
        if final["outcome"] != last or (error is not None and final.get("error") != {"code": error[0], "field": error[1]}):
            raise AssertionError(f"{id_}: table expects {last} {error}, the model says {final}")
        self._add(id_, note, config or {}, steps, summaries)


def coordinator_cases() -> FlowSuite:
    s = FlowSuite(fl.SUITE)
    start = [fl.c_start(T0), fl.c_session(T0 + 1000), fl.c_opened(T0 + 2000)]
    sold = [fl.p_start(T0), fl.p_launched(T0 + 1000)]
    cb = fl.CB_COMPLETED
    s.script("flow-hostile-callback-no-flow", "a completed callback when no flow is pending: not ours", [fl.at(cb, T0)], "not_ours")
    s.script("flow-hostile-answer-no-flow", "an approved POS answer when no sale is pending: not ours", [fl.at(fl.ANS_APPROVED, T0)], "not_ours")
    s.script("flow-hostile-callback-wrong-nonce", "a callback with another nonce: rejected, nothing changes",
             start + [fl.at(fl.callback_url("completed", nonce=N2), T0 + 3000)], "rejected", (C, "ph_nonce"))
    s.script("flow-hostile-callback-foreign-host", "a callback to another host of our scheme: not ours",
             start + [fl.at(fl.callback_url("completed", base="fixapp://evil"), T0 + 3000)], "not_ours")
    s.script("flow-hostile-callback-foreign-scheme", "a callback to another scheme: not ours",
             start + [fl.at(fl.callback_url("completed", base="evil://checkout-callback"), T0 + 3000)], "not_ours")
    s.script("flow-hostile-callback-replay", "the same verified callback twice: the second is a duplicate",
             start + [fl.at(cb, T0 + 3000), fl.at(cb, T0 + 4000)], "duplicate")
    s.script("flow-hostile-callback-replay-after-restore", "a replay after process death is still a duplicate",
             start + [fl.at(cb, T0 + 3000), fl.RESTORE, fl.at(cb, T0 + 4000)], "duplicate")
    s.script("flow-hostile-callback-after-removal", "a callback for a removed flow: not ours",
             start + [fl.ev("flow.remove", T0 + 3000, flow_id="c1"), fl.at(cb, T0 + 4000)], "not_ours")
    s.script("flow-hostile-callback-wrong-kind-id", "payment_id in a cards flow's callback: rejected",
             start + [fl.at(fl.callback_url("completed", object_id="pay_1", id_key="payment_id"), T0 + 3000)], "rejected", (C, "payment_id"))
    s.script("flow-hostile-callback-malformed", "a callback with %C0%AF for a pending flow: rejected",
             start + [fl.at(cb + "&x=%C0%AF", T0 + 3000)], "rejected", (M, "x"))
    s.script("flow-hostile-unverified-then-verified", "an unverified claim is replaced by the verified callback",
             start + [fl.at(fl.callback_url("failed", nonce=None, object_id=None), T0 + 3000), fl.at(cb, T0 + 4000)], "accepted")
    s.script("flow-hostile-answer-other-sale", "an approval carrying another sale's identifier",
             sold + [fl.at(fl.ANS_OTHER_ID, T0 + 2000)], "rejected", (C, "identifier"))
    s.script("flow-hostile-answer-replay", "the same approval twice: duplicate",
             sold + [fl.at(fl.ANS_APPROVED, T0 + 2000), fl.at(fl.ANS_APPROVED, T0 + 3000)], "duplicate")
    s.script("flow-hostile-answer-flip", "a declined answer after the approval (same identifier): ignored, the approval stands",
             sold + [fl.at(fl.ANS_APPROVED, T0 + 2000), fl.at(fl.ANS_DECLINED, T0 + 3000)], "ignored")
    s.script("flow-hostile-answer-other-amount", "an approval for another amount than requested: approved_amount_mismatch and reconcile, never approved",
             sold + [fl.at(fl.ANS_OTHER_AMOUNT, T0 + 2000)], "accepted")
    assert s.vectors[-1]["expect"]["ok"]["steps"][-1]["flows"] == {"p1": "approved_amount_mismatch"}
    s.script("flow-hostile-answer-nul", "an answer with %00 in the identifier for a pending sale",
             sold + [fl.at("myapp://result=aprobada&identifier=ord-1%00&amount=100.00&transactionid=720371", T0 + 2000)], "rejected", (M, "identifier"))
    s.script("flow-hostile-confirmation-unknown-flow", "a confirmation for a flow that does not exist",
             [fl.c_confirm(T0, flow_id="c9")], "rejected", ("unknown_flow", "flow_id"))
    bad = lambda event, code, field: fl.Bad(event, code, field)
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


def main(argv: list[str]) -> int:
    suites = {
        "pos_parse_response.json": pos_parse_cases(),
        "checkout_parse_callback.json": checkout_callback_cases(),
        "pos_build_url.json": pos_build_cases(),
        "checkout_build_request.json": checkout_build_cases(),
        "checkout_confirmation.json": checkout_confirmation_cases(),
        "checkout_parse_session.json": checkout_session_cases(),
        "coordinator_script.json": coordinator_cases(),
        "size_pos_parse_response.json": size_pos_cases(),
        "size_checkout_parse_callback.json": size_checkout_cases(),
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
