#!/usr/bin/env python3
"""Writes the shared coordinator state-machine vectors (Tests/Vectors/flows/*.json).

    python3 Tests/Vectors/tools/flow_vectors.py          # (re)write the three files
    python3 Tests/Vectors/tools/flow_vectors.py --check  # fail if the files on disk differ

Python 3.11, standard library only (the helpers the generators share are in vectorlib.py next to
this file). Every vector is a `coordinator.script` (Tests/Vectors/README.md):
a coordinator is created from `config`, fed the steps, and each step is summarised as
`{"outcome", "flows": {id: state}, "effects": ["id:type", ...], "error"?: {"code", "field"}}`.

Where the expected summaries come from (nothing here runs or imports PayHandoff):

- `checkout_table.json` and `pos_table.json`: every state x every event. The expected summaries
  are computed by a small model of the coordinator (class `Model`) whose decisions are the
  transition tables below (`CHECKOUT_*`, `POS_*`), written from docs/architecture.md ("Flows", "Hosted
  checkout", "Billpocket POS"), the documentation comments of the flow types and the rules of
  issues 15 and 16 (the nonce in a path segment, nonce-less callbacks refused unless
  `accept_unverified_callbacks`, the POS token, `pos.result`, unique pending correlation keys,
  the refund ledger); a deep link is read by the stateless oracles' own functions
  (checkout_vectors.py, pos_vectors.py), the model adds the routing;
- `races.json`: short scripts of races and rules, each step with its expected summary written
  out by hand next to it; the generator also runs them through the model and stops when the
  two disagree, so a typo in a table or a script cannot produce a wrong vector silently;
- the checkout, POS and invalid-event extras of the two table files are hand-written the same way.

Not modelled: the snapshot byte budget and the bounded stored forms (spec G: scripts keep every
stored text short, which the model asserts) and restore consistency (spec H: a script restores
only its coordinator's own snapshot). Those are the Swift tests' part.

Fixed values: nonces are passed in `checkout.start` (32 hex digits) and tokens in `pos.start`
(`pos_token(flow_id)`, 32 hex digits) so callbacks and answers can echo them; times are epoch
milliseconds around T0 = 1796054400000 (2026-11-30T10:00:00-06:00, Mexico City); refund windows
are computed in milliseconds with the fixed UTC-6 offset.

Output is deterministic: same tables, same bytes.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import sys
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

sys.dont_write_bytecode = True  # importing vectorlib leaves no __pycache__ folder in the tree
import vectorlib  # noqa: E402  (the helpers the generators share, next to this file)
import checkout_vectors as co  # noqa: E402  (the checkout oracle: return URLs, addressing, callbacks)
import pos_vectors as pos  # noqa: E402  (the POS oracle: answers from URLs and from result extras)
from vectorlib import Fail  # noqa: E402

VECTORS_DIR = Path(__file__).resolve().parent.parent
FLOWS_DIR = VECTORS_DIR / "flows"
SUITE = "coordinator.script"

# ---------------------------------------------------------------------------------------
# Fixed values

T0 = 1_796_054_400_000  # 2026-11-30T10:00:00-06:00
SECOND = 1000
MINUTE = 60 * SECOND
HOUR = 60 * MINUTE

DEFAULT_TIMEOUT = 30 * MINUTE  # checkout_timeout_ms default
DEFAULT_GRACE = 3 * SECOND  # pos_grace_ms default
MX_OFFSET_S = -6 * 3600  # Mexico City, UTC-6 all year

N1 = "0123456789abcdef0123456789abcdef"
N2 = "fedcba9876543210fedcba9876543210"
N_WRONG = "ffffffffffffffffffffffffffffffff"

RETURN_URL = "fixapp://checkout-callback"
CHECKOUT_URL = "https://pay.example.com/c/1"
SESSION_CARDS = {"kind": "cards", "checkout_url": CHECKOUT_URL}
SESSION_PAYMENTS = {"kind": "payments", "checkout_url": "https://pay.example.com/p/1", "payment_id": "pay_123"}
GATEWAY_CARDS_201 = {"kind": "cards", "status": 201,
                     "body": {"data": {"registration": {"id": "reg_1", "checkout_url": CHECKOUT_URL}}}}
GATEWAY_CARDS_422 = {"kind": "cards", "status": 422,
                     "body": {"error": {"code": "invalid_customer", "message": "customer.email is invalid"}}}
CARD_REQUEST = {
    "kind": "cards", "api_key": "sk_test_51flowvectors", "return_url": RETURN_URL, "provider": "dinelco",
    "customer_id": "cus_1", "target_origin": ["https://fix.example.com"],
    "customer": {"name": "Juan", "lastname": "Pérez", "email": "juan@example.com"},
}

CONF_VISA = {"type": "card.registered",
             "data": {"card_id": "card_xyz", "brand": "visa", "last_four": "4242", "token": "tok_1",
                      "created_at": "2026-11-30T16:01:00Z"}}
CONF_VISA_RETRY = {"type": "card.registered",  # the same webhook re-sent later: other timestamp, same facts
                   "data": {"card_id": "card_xyz", "brand": "visa", "last_four": "4242", "token": "tok_1",
                            "created_at": "2026-11-30T16:05:00Z"}}
CONF_MASTERCARD = {"type": "card.registered",
                   "data": {"card_id": "card_xyz", "brand": "mastercard", "last_four": "4242", "token": "tok_1",
                            "created_at": "2026-11-30T16:01:00Z"}}
CONF_OTHER_CARD = {"type": "card.registered",
                   "data": {"card_id": "card_abc", "brand": "visa", "last_four": "4242", "token": "tok_1"}}
CONF_PAY_123 = {"type": "payment.confirmed", "data": {"payment_id": "pay_123", "amount": "100.00",
                                                      "confirmed_at": "2026-11-30T16:02:00Z"}}
CONF_PAY_123_90 = {"type": "payment.confirmed", "data": {"payment_id": "pay_123", "amount": "90.00"}}
CONF_PAY_456 = {"type": "payment.confirmed", "data": {"payment_id": "pay_456", "amount": "100.00"}}

POS_SCHEME = "myapp"
USER_TOKEN = "tok-pos-secret-1"
SALE_TXN = "720371"

# ---------------------------------------------------------------------------------------
# The rules as tables.


@dataclass(frozen=True)
class Rule:
    """What one event does to one flow: the answer's outcome, the next state (None: unchanged),
    the flow's effects in order, and the error of a rejected event."""
    outcome: str
    next: str | None = None
    effects: tuple[str, ...] = ()
    error: tuple[str, str | None] | None = None


def go(state: str, *effects: str) -> Rule:
    """Accepted: the flow moves to `state`; its effects, then `persist` (the snapshot changed)."""
    return Rule("accepted", state, effects + ("persist",))


UNCHANGED = Rule("accepted")  # valid, nothing to do (a tick before any deadline)
RECORDED = Rule("accepted", None, ("persist",))  # same state, but the flow noted something (persist)
DUP = Rule("duplicate")  # the same thing again: nothing changes
IGN = Rule("ignored")  # valid, but the flow is past it: reported, nothing changes
NOT_NOW = Rule("rejected", error=("invalid_state", "type"))  # not allowed in this waiting state
CONSUMED = "consumed"  # the hand-off was consumed: the same callback/answer again is DUP, another IGN

# -- Hosted checkout (docs/architecture.md "Hosted checkout" and "Flows"; CheckoutFlow's diagram and rules)

C_WAITING = ("awaiting_session", "ready", "in_browser", "returned_without_result", "awaiting_confirmation")
C_ENDED = ("confirmed", "failed", "cancelled", "expired")
C_STATES = C_WAITING + C_ENDED
# the hand-off is not consumed yet: a callback may still arrive
C_TAKES_CALLBACK = ("awaiting_session", "ready", "in_browser", "returned_without_result")

CHECKOUT_HOST_EVENTS = {
    #                         checkout.session              checkout.session_failed  checkout.browser_opened  checkout.browser_dismissed
    "awaiting_session":        (go("ready", "open_browser"), go("failed"),           NOT_NOW,                 NOT_NOW),
    "ready":                   (NOT_NOW,                     NOT_NOW,                go("in_browser"),        go("returned_without_result")),
    "in_browser":              (NOT_NOW,                     NOT_NOW,                DUP,                     go("returned_without_result")),
    "returned_without_result": (NOT_NOW,                     NOT_NOW,                go("in_browser"),        DUP),
    "awaiting_confirmation":   (NOT_NOW,                     NOT_NOW,                IGN,                     IGN),
    "confirmed":               (IGN,                         IGN,                    IGN,                     IGN),
    "failed":                  (IGN,                         IGN,                    IGN,                     IGN),
    "cancelled":               (IGN,                         IGN,                    IGN,                     IGN),
    "expired":                 (IGN,                         IGN,                    IGN,                     IGN),
}
HOST_EVENT_COLUMN = {"checkout.session": 0, "checkout.session_failed": 1,
                     "checkout.browser_opened": 2, "checkout.browser_dismissed": 3}

# A routed callback whose nonce matched (verified): the first verified callback of the hand-off
# (it replaces a claim the flow holds, if any).
_VERIFIED = (go("awaiting_confirmation", "close_browser", "show_pending"), go("failed", "close_browser"),
             go("cancelled", "close_browser"))
CHECKOUT_CALLBACK = {
    #                         (status=completed, status=failed, status=cancelled)
    "awaiting_session":        _VERIFIED,
    "ready":                   _VERIFIED,
    "in_browser":              _VERIFIED,
    "returned_without_result": _VERIFIED,
    "awaiting_confirmation":   CONSUMED,  # reached only by a verified callback
    "confirmed":               CONSUMED,
    "failed":                  CONSUMED,
    "cancelled":               CONSUMED,
    "expired":                 CONSUMED,
}
# A callback without nonce (routed only with accept_unverified_callbacks) is a claim (issue 24): it
# never moves the flow. While the hand-off waits for its verified callback the flow keeps the latest
# claim (persist when it changed) and answers each one `accepted`, a claimed `completed` with
# show_pending; the host's own events go on as if there were none.
CHECKOUT_UNVERIFIED_CALLBACK = {state: ("claim" if state in C_TAKES_CALLBACK else CONSUMED) for state in C_STATES}
CALLBACK_COLUMN = {"completed": 0, "failed": 1, "cancelled": 2}

# The first confirmation (the webhook, relayed) wins over any deep-link status, in any state;
# the tab is closed when it may still be open. Later ones: duplicate when they agree, else conflict.
CHECKOUT_FIRST_CONFIRMATION = {
    "awaiting_session":        go("confirmed"),
    "ready":                   go("confirmed", "close_browser"),
    "in_browser":              go("confirmed", "close_browser"),
    "returned_without_result": go("confirmed"),
    "awaiting_confirmation":   go("confirmed"),
    "failed":                  go("confirmed"),
    "cancelled":               go("confirmed"),
    "expired":                 go("confirmed"),
}
CONFIRMATION_CHECKED_FIELDS = ("brand", "last_four", "token", "amount")  # after kind and id

# checkout.browser_result (issue 38): `ok` is the deep link (routed to the named flow by its URL,
# the same nonce check and once-only rule); `canceled` is checkout.browser_dismissed (column 3 of
# CHECKOUT_HOST_EVENTS); verification_failed / verification_timed_out / unknown: the browser returned
# without the URL, the payment may have happened: reconcile, never a failure, and the flow waits as
# returned_without_result does (there, again: reconcile once more, nothing stored).
CHECKOUT_BROWSER_UNVERIFIED = {
    "awaiting_session":        NOT_NOW,
    "ready":                   go("returned_without_result", "reconcile"),
    "in_browser":              go("returned_without_result", "reconcile"),
    "returned_without_result": Rule("accepted", None, ("reconcile",)),
    "awaiting_confirmation":   IGN,
    "confirmed":               IGN,
    "failed":                  IGN,
    "cancelled":               IGN,
    "expired":                 IGN,
}
# Which codes each channel can give (others are refused with the event document: Bad steps).
BROWSER_CODES = {
    "auth_tab": ("ok", "canceled", "verification_failed", "verification_timed_out", "unknown"),
    "web_authentication_session": ("ok", "canceled", "unknown"),
    "custom_tab": ("canceled",),
    "safari_view_controller": ("canceled",),
}

# tick at or after the flow's deadline; before it every state is UNCHANGED
CHECKOUT_TICK_DUE = {state: go("expired", "close_browser", "reconcile") for state in C_WAITING}
CHECKOUT_TICK_DUE.update({state: UNCHANGED for state in C_ENDED})

# -- Billpocket POS (docs/architecture.md "Billpocket POS" and "Flows"; POSFlow's diagram and rules)

P_STATES = ("ready", "launched", "launch_failed", "approved", "approved_amount_mismatch", "declined", "error",
            "returned_without_response", "unrecognized_result")
# unrecognized_result (issue 30): the answer's word was unknown; a genuine answer with a known word may still come.
P_TAKES_ANSWER = ("ready", "launched", "launch_failed", "returned_without_response", "unrecognized_result")
# "open" for single_pending_per_kind: an answer may still come and the POS app did open (or may have)
P_OPEN = ("ready", "launched", "returned_without_response")

POS_HOST_EVENTS = {
    #                           pos.launched      pos.launch_failed
    "ready":                     (go("launched"),  go("launch_failed", "show_hint")),
    "launched":                  (DUP,             go("launch_failed", "show_hint")),
    "launch_failed":             (IGN,             DUP),
    "approved":                  (IGN,             IGN),
    "approved_amount_mismatch":  (IGN,             IGN),
    "declined":                  (IGN,             IGN),
    "error":                     (IGN,             IGN),
    "returned_without_response": (IGN,             IGN),
    "unrecognized_result":       (IGN,             IGN),
}
POS_HOST_COLUMN = {"pos.launched": 0, "pos.launch_failed": 1}
# pos.result without extras (absent, null or {}): onActivityResult brought no data, the user backed
# out of the POS app (issue 30): unknown at once, never declined; a late genuine answer still resolves it.
POS_NO_DATA = {state: IGN for state in P_STATES}
POS_NO_DATA.update({"ready": go("returned_without_response", "reconcile"), "launched": go("returned_without_response", "reconcile"),
                    "returned_without_response": DUP})

# An answer whose identifier is the flow's.
_RESOLVES = (go("approved"), go("approved_amount_mismatch", "reconcile"), go("declined"), go("error"),
             go("unrecognized_result", "reconcile"))
POS_ANSWER = {
    #                            aprobada (amount as requested), aprobada (other amount), rechazada, error
    "ready":                     _RESOLVES,
    "launched":                  _RESOLVES,
    "launch_failed":             _RESOLVES,
    "returned_without_response": _RESOLVES,  # a late answer still resolves the flow
    # a later answer with a known word resolves it; another unknown one is consumed (dup / ignored)
    "unrecognized_result":       _RESOLVES[:4] + (CONSUMED,),
    "approved":                  CONSUMED,
    "approved_amount_mismatch":  CONSUMED,
    "declined":                  CONSUMED,
    "error":                     CONSUMED,
}
ANSWER_COLUMN = {"approved": 0, "approved_amount_mismatch": 1, "declined": 2, "error": 3, "unrecognized": 4}

# app.foregrounded: a launched flow notes when the app came back (first time only); others: nothing.
POS_FOREGROUNDED = {state: UNCHANGED for state in P_STATES}
POS_FOREGROUNDED["launched"] = RECORDED
# tick once the grace period after coming back is over (launched and foregrounded); otherwise UNCHANGED.
POS_TICK_GRACE_OVER = {state: UNCHANGED for state in P_STATES}
POS_TICK_GRACE_OVER["launched"] = go("returned_without_response", "reconcile")

# Refunds (docs/architecture.md "Billpocket POS"; spec F): approved >= 60 000 ms ago, before 23:00 Mexico
# City time on the sale's day, amount <= what is left of the sale, POS app >= 4.3.24 when its
# version is known. All in epoch milliseconds.
REFUND_MIN_DELAY_MS = MINUTE
REFUND_DEADLINE_HOUR = 23
MIN_POS_VERSION = (4, 3, 24)

# ---------------------------------------------------------------------------------------
# What the model reads. Callbacks and answers are read by the stateless oracles' functions
# (checkout_vectors.py, pos_vectors.py: the same rules, in the same order), so the coordinator
# model only adds routing: which flow a deep link is for.


def amount_units(value) -> int:
    return vectorlib.amount_from_json(value, "amount")


SCHEME_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*")


def check_incoming(url: str) -> str:
    """Size and characters of any incoming URL; returns its lowercased scheme."""
    if len(url.encode()) > 8192:
        raise Fail("limit_exceeded", "url")
    if any(ord(c) <= 0x20 or ord(c) == 0x7F for c in url):
        raise Fail("malformed_url", "url")
    scheme, colon, _ = url.partition(":")
    if not colon or not SCHEME_RE.fullmatch(scheme):
        raise Fail("malformed_url", "url")
    return scheme.lower()


def split_or_none(url: str):
    """The URL's parts, or None when it is no hierarchical URL a return URL could address."""
    try:
        return co.split_url(url, "malformed_url", "url")
    except Fail:
        return None


KIND_ID = {"cards": ("card_id", "card_"), "payments": ("payment_id", "pay_")}
CONFIRMATION_KIND = {"card.registered": "cards", "payment.confirmed": "payments"}


@dataclass(frozen=True)
class Confirmation:
    kind: str
    object_id: str
    brand: str | None
    last_four: str | None
    token: str | None
    amount: int | None


def parse_confirmation(event: dict) -> Confirmation:
    kind = CONFIRMATION_KIND[event["type"]]
    data = event["data"]
    id_key = KIND_ID[kind][0]
    amount = data.get("amount")
    return Confirmation(kind, data.get(id_key) or data["id"], data.get("brand"), data.get("last_four"),
                        data.get("token"), None if amount is None else amount_units(amount))


MAX_EPOCH_MS = 253_402_300_799_999  # 9999-12-31T23:59:59.999Z, the last time the library accepts


KEY_HORIZON = 3 * 24 * HOUR  # issue 35: the gateway's webhook retry window (Stripe: up to three days)
# Issue 35 (B6): the horizons' clock moves on by at most this much in one event (a longer jump —
# a clock corrected forwards or ahead, an app closed overnight — counts as this much).
KEY_LARGEST_STEP = 12 * HOUR


def confirmation_horizon(flow) -> int:
    """Until when a checkout that failed or was cancelled by its callback still takes its confirmation."""
    return min(flow.deadline, MAX_EPOCH_MS - KEY_HORIZON) + KEY_HORIZON


def mx_deadline_ms(approved_at_ms: int) -> int:
    """23:00 Mexico City (UTC-6) on the local day of `approved_at_ms`: the refund deadline."""
    local_day_start = (approved_at_ms + MX_OFFSET_S * 1000) // (24 * HOUR) * (24 * HOUR) - MX_OFFSET_S * 1000
    # Clamped to the last time the library accepts (9999-12-31T23:59:59.999Z): what it computes it
    # can store and read back (issue 24).
    return min(local_day_start + REFUND_DEADLINE_HOUR * HOUR, MAX_EPOCH_MS)


def refund_reasons(approved_at: int, remaining: int, requested: int, now: int, version: str | None) -> list[str]:
    reasons = []
    if now < approved_at + REFUND_MIN_DELAY_MS:
        reasons.append("too_soon")
    if now >= mx_deadline_ms(approved_at):
        reasons.append("past_deadline")
    if requested > remaining:
        reasons.append("amount_exceeds_original")
    if version is not None:
        parts = tuple(int(p) for p in re.match(r"[0-9]+(?:\.[0-9]+)*", version)[0].split("."))
        if parts < MIN_POS_VERSION:
            reasons.append("pos_app_too_old")
    return reasons


# ---------------------------------------------------------------------------------------
# The model: a coordinator that decides with the tables above.


class Fresh:
    """A nonce or token the coordinator made itself: no script can know it, so it equals nothing."""

    def __repr__(self) -> str:
        return "<fresh>"


@dataclass
class CheckoutFlow:
    id: str
    kind: str
    registered: co.URLParts  # the return URL as registered (the nonce segment is added when sent)
    nonce: str | Fresh | None
    deadline: int
    state: str
    session_object_id: str | None = None
    callback: dict | None = None  # the stored callback (checkout_vectors.callback_document)
    confirmation: Confirmation | None = None
    type: str = "checkout"
    session_failed: bool = False  # failed because the session could not be created (no gateway session)


@dataclass
class Sale:
    """What a refund refers to: the sale's transactionid, and when the sale was given as a `sale`
    document (not a flow), its amount and approval time, for the ledger entry its first refund adds."""
    transaction_id: str
    expires_at: int
    document_amount: int | None = None
    document_approved_at: int | None = None


@dataclass
class POSFlow:
    id: str
    operation: str
    identifier: str  # the app's part
    token: str | Fresh
    scheme: str
    amount: int  # requested (a refund's request always carries it)
    sale: Sale | None  # refunds only
    grace: int
    state: str = "ready"
    foregrounded_at: int | None = None
    answer: dict | None = None  # the stored answer (pos_vectors.answer_document)
    answered_at: int | None = None
    type: str = "pos"

    @property
    def sent_identifier(self) -> str | None:
        """`<identifier>~<token>`; None when the token is fresh (no script answer can echo it)."""
        return None if isinstance(self.token, Fresh) else pos.sent_identifier(self.identifier, self.token)


@dataclass
class Entry:
    """One refund-ledger entry per booked approval (spec F); `refunded` is a venta's only."""
    operation: str
    amount: int  # venta: what can be refunded (its cap); devolucion: what it booked
    approved_at: int
    expires_at: int
    refunded: int = 0


class Bad:
    """A step whose event document itself is refused (`invalid_event`): the error is stated here."""

    def __init__(self, event: dict, code: str, field: str | None):
        self.event, self.code, self.field = event, code, field

    def step(self) -> dict:
        return {"event": self.event}


class Model:
    def __init__(self, config: dict):
        self.single = config.get("single_pending_per_kind", False)
        self.timeout = config.get("checkout_timeout_ms", DEFAULT_TIMEOUT)
        self.grace = config.get("pos_grace_ms", DEFAULT_GRACE)
        self.accept_unverified = config.get("accept_unverified_callbacks", False)
        self.flows: list = []
        self.ledger: dict[str, Entry] = {}
        # Every entry whose window closed at or before this was dropped (issue 24: entries are
        # dropped after an accepted event only, behind this watermark, kept in the snapshot).
        self.pruned_through = 0
        # Issue 35, item 5: the host-given keys of forgotten flows, until their horizon.
        self.remembered: dict[tuple, int] = {}
        # The latest time an accepted event carried while a key is remembered (0: none, or unknown).
        self.latest_event = 0
        # Issue 35, G1: sales whose entries left after refunds, txn -> [amount, refunded], first
        # recorded first (at most 256; the model's scripts never come near), never pruned by time.
        self.refunded_sales: dict[str, list] = {}

    # -- summaries
    def summary(self, outcome: str, effects=(), error=None) -> dict:
        s = {"outcome": outcome, "flows": {f.id: f.state for f in self.flows}, "effects": list(effects)}
        if error is not None:
            s["error"] = {"code": error[0], "field": error[1]}
        return s

    def step(self, step) -> dict:
        if isinstance(step, Bad):
            return self.summary("invalid_event", error=(step.code, step.field))
        if step.get("restore"):
            # A restored coordinator behaves exactly like the original: the model keeps its state.
            return self.summary("restored")
        event = {"type": "url", "url": step["url"], "now": step["now"]} if "url" in step else step["event"]
        saved = copy.deepcopy((self.flows, self.ledger, self.pruned_through, self.remembered, self.latest_event,
                               self.refunded_sales))
        is_start = event["type"] in ("checkout.start", "pos.start")
        try:
            if is_start:
                # A start is judged on what its event's prune leaves (issue 35, B5 and B6).
                self.prune(event["now"])
            outcome, effects = self.apply(event)
        except Fail as r:
            # a rejected event changes nothing
            self.flows, self.ledger, self.pruned_through, self.remembered, self.latest_event, self.refunded_sales = saved
            return self.summary("rejected", error=(r.code, r.field))
        if outcome == "accepted":
            self.prune(event["now"])
            if is_start:
                self.forget_ended_beyond_32(event["now"])  # after the prune, as the core's makeRoom
        return self.summary(outcome, effects)

    def prune(self, now: int):
        """What an accepted event at `now` lets go of (and what a start is judged on)."""
        # Only an accepted event drops the entries whose window closed by its time, and the
        # watermark remembers how far (an event of another outcome changes nothing).
        # Issue 35, item 3: a sale whose balance matters (refunds paid some back, or a refund
        # flow still held names it) is kept as balance unknown until 23:00 of this event's
        # day — a clock that was behind closed its window early — or, when that has passed,
        # the watermark moves to it.
        named = {f.sale.transaction_id for f in self.flows if f.type == "pos" and f.sale is not None}
        latest_window = mx_deadline_ms(now)
        kept = {}
        for txn, e in self.ledger.items():
            if now < e.expires_at:
                kept[txn] = e
                continue
            self.pruned_through = max(self.pruned_through, e.expires_at)
            if e.operation == "venta" and e.refunded > 0:
                self.record(txn, e.amount, e.refunded)  # what it refunded outlives any clock (G1)
            if e.operation == "venta" and (e.refunded > 0 or txn in named):
                if latest_window > now:
                    kept[txn] = Entry("unknown", 0, latest_window, latest_window)
                else:
                    self.pruned_through = max(self.pruned_through, latest_window)
        self.ledger = kept
        # Issue 35 (B6): the keys' horizons count the time seen pass, a jump as 12 hours.
        if not self.remembered:
            self.latest_event = 0
            return
        if self.latest_event > 0 and now - self.latest_event > KEY_LARGEST_STEP:
            jump = now - self.latest_event - KEY_LARGEST_STEP
            self.remembered = {k: min(u, MAX_EPOCH_MS - jump) + jump for k, u in self.remembered.items()}
        self.latest_event = max(self.latest_event, now)
        self.remembered = {k: until for k, until in self.remembered.items() if now < until}
        if not self.remembered:
            self.latest_event = 0

    def record(self, txn: str, amount: int, refunded: int):
        """Issue 35, G1: a refunded sale's record (merged: the smaller amount, the larger refunded)."""
        if txn in self.refunded_sales:
            old_amount, old_refunded = self.refunded_sales[txn]
            amount = min(amount, old_amount)
            refunded = max(refunded, old_refunded)
        elif len(self.refunded_sales) >= 256:
            del self.refunded_sales[next(iter(self.refunded_sales))]
        self.refunded_sales[txn] = [amount, min(refunded, amount)]

    def book_sale(self, txn: str, entry: Entry):
        """A sale entry booked (an approval, a refund's sale document): it takes its record back."""
        if txn in self.refunded_sales:
            amount, refunded = self.refunded_sales.pop(txn)
            entry.amount = min(entry.amount, amount)
            entry.refunded = min(max(entry.refunded, refunded), entry.amount)
        self.ledger[txn] = entry

    def live(self, txn: str | None, now: int) -> Entry | None:
        """The entry of `txn` whose window is still open at `now` (a closed one counts as gone)."""
        entry = self.ledger.get(txn) if txn is not None else None
        return entry if entry is not None and now < entry.expires_at else None

    # -- helpers
    def find(self, flow_id: str):
        return next((f for f in self.flows if f.id == flow_id), None)

    def flow_of(self, flow_id: str, type_: str):
        flow = self.find(flow_id)
        if flow is None:
            raise Fail("unknown_flow", "flow_id")
        if flow.type != type_:
            raise Fail("invalid_state", "flow_id")
        return flow

    @staticmethod
    def use(flow, rule: Rule):
        if rule.error is not None:
            raise Fail(*rule.error)
        if rule.next is not None:
            flow.state = rule.next
        return rule.outcome, [flow.id + ":" + e for e in rule.effects]

    @staticmethod
    def pending(flow, now: int) -> bool:
        """Its result may still arrive (removing it needs give_up; no start forgets it): a POS flow
        that takes an answer; a checkout that waits, has expired (its confirmation may still come),
        or failed or was cancelled by its callback within the webhook retry window after its
        deadline (issue 35, item 5)."""
        if flow.type == "pos":
            return flow.state in P_TAKES_ANSWER
        if flow.state in C_WAITING or flow.state == "expired":
            return True
        return flow.state in ("failed", "cancelled") and not flow.session_failed and now < confirmation_horizon(flow)

    @staticmethod
    def key_of(flow):
        """A flow's correlation key when the host gave it (None for a fresh one, or no nonce)."""
        if flow.type == "pos":
            return None if isinstance(flow.token, Fresh) else ("pos", flow.scheme.lower(), flow.sent_identifier)
        return ("checkout", flow.nonce) if isinstance(flow.nonce, str) else None

    def forget(self, flow, now: int):
        """Forgets `flow` (flow.remove, or a start's 32-ended rule), remembering a host-given key."""
        self.flows.remove(flow)
        key = self.key_of(flow)
        if key is not None:
            seen = max(now, self.latest_event)  # counted from the latest time seen (issue 35, B6)
            base = max(seen, flow.deadline) if flow.type == "checkout" else seen
            self.remembered[key] = min(base, MAX_EPOCH_MS - KEY_HORIZON) + KEY_HORIZON
            if self.latest_event == 0:
                self.latest_event = now

    def remembers(self, key, now: int) -> bool:
        return key in self.remembered and now < self.remembered[key]

    def forget_ended_beyond_32(self, now: int):
        """A start keeps the 32 most recent ended flows (Coordinator+Budget.swift), forgetting older ones."""
        ended = [f for f in self.flows if not self.pending(f, now)]
        for flow in ended[:max(0, len(ended) - 32)]:
            self.forget(flow, now)

    def check_new_flow(self, flow_id: str, is_checkout: bool):
        if self.find(flow_id) is not None:
            raise Fail("duplicate", "flow_id")
        if self.single:
            for f in self.flows:
                if is_checkout and f.type == "checkout" and f.state in C_WAITING:
                    raise Fail("invalid_state", "flow_id")
                if not is_checkout and f.type == "pos" and f.state in P_OPEN:
                    raise Fail("invalid_state", "flow_id")

    # -- events
    def apply(self, e: dict):
        t, now = e["type"], e["now"]
        if t == "checkout.start":
            return self.checkout_start(e)
        if t in HOST_EVENT_COLUMN:
            flow = self.flow_of(e["flow_id"], "checkout")
            rule = CHECKOUT_HOST_EVENTS[flow.state][HOST_EVENT_COLUMN[t]]
            if t == "checkout.session":
                session = e["session"]
                if "status" in session and not 200 <= session["status"] <= 299:
                    # The gateway refused: the session could not be created (as session_failed).
                    rule = CHECKOUT_HOST_EVENTS[flow.state][1]
                    if rule.next == "failed":
                        flow.session_failed = True
                    return self.use(flow, rule)
                if rule.next is not None:
                    if session["kind"] != flow.kind:
                        raise Fail("validation", "session.kind")
                    flow.session_object_id = session_object_id(session)
            if t == "checkout.session_failed" and rule.next == "failed":
                flow.session_failed = True
            return self.use(flow, rule)
        if t == "checkout.confirmation":
            return self.confirm(self.flow_of(e["flow_id"], "checkout"), parse_confirmation(e["event"]))
        if t == "checkout.browser_result":
            return self.browser_result(e)
        if t == "pos.start":
            return self.pos_start(e)
        if t in POS_HOST_COLUMN:
            flow = self.flow_of(e["flow_id"], "pos")
            return self.use(flow, POS_HOST_EVENTS[flow.state][POS_HOST_COLUMN[t]])
        if t == "pos.result":
            return self.pos_result(e)
        if t == "app.foregrounded":
            effects = []
            for f in self.flows:
                if f.type == "pos" and f.foregrounded_at is None and POS_FOREGROUNDED[f.state] is RECORDED:
                    f.foregrounded_at = now
                    effects += self.use(f, RECORDED)[1]
            return "accepted", effects
        if t == "tick":
            effects = []
            for f in self.flows:
                if f.type == "checkout" and now >= f.deadline:
                    effects += self.use(f, CHECKOUT_TICK_DUE[f.state])[1]
                elif f.type == "pos" and f.foregrounded_at is not None and now >= f.foregrounded_at + f.grace:
                    effects += self.use(f, POS_TICK_GRACE_OVER[f.state])[1]
            return "accepted", effects
        if t == "url":
            return self.route(e["url"], now)
        if t == "flow.remove":
            return self.remove(e)
        raise AssertionError("event type not modelled: " + t)

    # -- checkout
    def checkout_start(self, e: dict):
        flow_id, now = e["flow_id"], e["now"]
        self.check_new_flow(flow_id, True)
        deadline = e.get("deadline", now + self.timeout)
        nonce = e.get("nonce")
        session_id = None
        if "request" in e:
            kind, return_url = e["request"]["kind"], e["request"].get("return_url")
            if return_url is None:
                raise Fail("validation", "request.return_url")
            state, effects = "awaiting_session", ("send_request", "persist")
        elif "session" in e:
            # The session exists already: without PayHandoff's nonce its callbacks can never be verified.
            kind, return_url = e["kind"], e["return_url"]
            if nonce is None and not self.accept_unverified:
                raise Fail("validation", "nonce")
            state, effects = "ready", ("open_browser", "persist")
            session_id = session_object_id(e["session"])
        else:
            kind, return_url = e["kind"], e["return_url"]
            state, effects = "awaiting_session", ("create_session", "persist")
        if nonce is None and "session" not in e:
            nonce = Fresh()  # `request` and backend starts always get a nonce
        if isinstance(nonce, str) and any(f.type == "checkout" and f.nonce == nonce for f in self.flows):
            raise Fail("conflict", "nonce")  # no callback may fit two checkouts, ended ones included (issue 24)
        if isinstance(nonce, str) and self.remembers(("checkout", nonce), now):
            raise Fail("conflict", "nonce")  # nor a forgotten one's, within its horizon (issue 35)
        try:
            registered = co.check_return_url(return_url)
        except Fail:
            raise AssertionError("an invalid return_url is refused with the event document: use a Bad step") from None
        self.flows.append(CheckoutFlow(flow_id, kind, registered, nonce, deadline, state, session_id))
        return "accepted", [flow_id + ":" + x for x in effects]

    def route(self, url: str, now: int):
        scheme = check_incoming(url)
        parts = split_or_none(url)
        candidates = []  # (flow, the nonce its return URL reads from the URL, or None)
        for f in self.flows:
            if f.type == "checkout" and parts is not None:
                try:
                    candidates.append((f, co.addressed_nonce(parts, f.registered)))
                except Fail:
                    pass
        if candidates:
            return self.route_callback(parts, candidates)
        pos_flows = [f for f in self.flows if f.type == "pos" and f.scheme.lower() == scheme]
        if pos_flows:
            return self.route_answer(pos_flows, pos.url_answer_pairs(url, scheme), now)
        return "not_ours", []

    def route_callback(self, parts, candidates: list):
        echoed = next((x for _, x in candidates if x is not None), None)
        if echoed is not None:
            # The first (oldest) checkout with that nonce: a late callback for an ended flow never
            # reaches a newer one that reuses the nonce (this oracle's reading of spec E).
            target = next((f for f, x in candidates if x is not None and f.nonce == x), None)
            if target is None:
                raise Fail("callback_mismatch", "nonce")
        else:
            if not self.accept_unverified:
                raise Fail("callback_mismatch", "nonce")  # carries no nonce; anyone can send it
            waiting = [f for f, _ in candidates if f.state in C_TAKES_CALLBACK]
            if len(waiting) > 1:
                raise Fail("callback_mismatch", "nonce")  # ambiguous
            target = waiting[0] if waiting else candidates[-1][0]
        document = co.callback_document(target.kind, co.callback_query(parts, target.registered), echoed is not None,
                                        target.session_object_id)
        return self.callback(target, document)

    def browser_result(self, e: dict):
        assert e["code"] in BROWSER_CODES[e["channel"]] and ("url" in e) == (e["code"] == "ok"), \
            "a refused browser_result is refused with the event document: use a Bad step"
        flow = self.flow_of(e["flow_id"], "checkout")
        if e["code"] == "canceled":
            return self.use(flow, CHECKOUT_HOST_EVENTS[flow.state][HOST_EVENT_COLUMN["checkout.browser_dismissed"]])
        if e["code"] != "ok":
            return self.use(flow, CHECKOUT_BROWSER_UNVERIFIED[flow.state])
        # The URL is checked against the named flow alone, as checkout.parse_callback checks it
        # (a URL of another return URL or with another flow's nonce: callback_mismatch).
        assert not isinstance(flow.nonce, Fresh), "scripts give the nonce a browser result echoes"
        parts = co.split_callback(e["url"])
        echoed = co.addressed_nonce(parts, flow.registered)
        verified = co.check_echoed_nonce(echoed, flow.nonce, self.accept_unverified)
        return self.callback(flow, co.callback_document(flow.kind, co.callback_query(parts, flow.registered), verified,
                                                        flow.session_object_id))

    def callback(self, flow: CheckoutFlow, cb: dict):
        assert_bounded_callback(cb)
        stored = flow.callback
        if stored is not None and stored["verified"]:
            rule = CONSUMED  # a verified callback consumed the hand-off
        elif cb["verified"]:
            rule = CHECKOUT_CALLBACK[flow.state]
        else:
            rule = CHECKOUT_UNVERIFIED_CALLBACK[flow.state]
        if rule == CONSUMED:
            return ("duplicate" if cb == stored else "ignored"), []
        if rule == "claim":
            changed = cb != stored
            flow.callback = cb
            effects = (["show_pending"] if cb["status"] == "completed" else []) + (["persist"] if changed else [])
            return "accepted", [flow.id + ":" + e for e in effects]
        flow.callback = cb
        return self.use(flow, rule[CALLBACK_COLUMN[cb["status"]]])

    def confirm(self, flow: CheckoutFlow, c: Confirmation):
        id_key = KIND_ID[flow.kind][0]
        if c.kind != flow.kind:
            raise Fail("conflict", "type")
        if flow.confirmation is not None:
            first = flow.confirmation
            if c.object_id != first.object_id:
                raise Fail("conflict", id_key)
            for name in CONFIRMATION_CHECKED_FIELDS:
                if getattr(c, name) != getattr(first, name):
                    raise Fail("conflict", name)
            return "duplicate", []
        # only a verified callback's id binds the webhook (an unverified one is a claim)
        verified = flow.callback is not None and flow.callback["verified"]
        if verified and flow.callback.get(id_key) not in (None, c.object_id):
            raise Fail("conflict", id_key)
        if flow.session_object_id not in (None, c.object_id):
            raise Fail("conflict", id_key)
        flow.confirmation = c
        return self.use(flow, CHECKOUT_FIRST_CONFIRMATION[flow.state])

    # -- POS
    def pos_start(self, e: dict):
        flow_id, now, req = e["flow_id"], e["now"], e["request"]
        self.check_new_flow(flow_id, False)
        token = e.get("token") or Fresh()
        scheme = req["urlScheme"].removesuffix("://")
        if not isinstance(token, Fresh):
            assert pos.utf16_len(pos.sent_identifier(req["identifier"], token)) <= 256, "a Bad step: too long"
            assert "~" not in token, "a Bad step: a token has no '~'"
        for f in self.flows:
            # The full identifier sent (it splits at its last '~'), on any POS flow, ended ones
            # included: an answer replayed from an ended hand-off must not reach the new one.
            if (f.type == "pos" and not isinstance(token, Fresh) and f.token == token and f.identifier == req["identifier"]
                    and f.scheme.lower() == scheme.lower()):
                raise Fail("conflict", "token")
        if not isinstance(token, Fresh) and self.remembers(("pos", scheme.lower(), pos.sent_identifier(req["identifier"], token)), now):
            raise Fail("conflict", "token")  # a forgotten hand-off's replayed answer could resolve it (issue 35)
        sale, amount = None, amount_units(req.get("amount"))
        if "sale_flow_id" in e or "sale" in e:
            sale, amount = self.check_refund(e, req, now)
            if sale.document_amount is not None and self.live(sale.transaction_id, now) is None and now < sale.expires_at:
                # A sale known only from its document is booked when its refund starts, so that the
                # next refund of it finds what this one took.
                self.book_sale(sale.transaction_id, Entry("venta", sale.document_amount, sale.document_approved_at,
                                                          sale.expires_at))
        self.flows.append(POSFlow(flow_id, req["transaction"], req["identifier"], token, scheme, amount, sale,
                                  e.get("grace_ms", self.grace)))
        return "accepted", [flow_id + ":open_pos_app", flow_id + ":persist"]

    def check_refund(self, e: dict, req: dict, now: int) -> tuple[Sale, int]:
        """The refund rules of spec F, in order; returns the sale and the amount requested."""
        if "sale_flow_id" in e:
            flow = self.find(e["sale_flow_id"])
            if flow is None or flow.type != "pos" or flow.operation != "venta":
                raise Fail("unknown_flow", "sale_flow_id")
            txn = flow.answer.get("transactionid") if flow.answer else None
            if flow.state not in ("approved", "approved_amount_mismatch") or txn is None:
                raise Fail("invalid_state", "sale_flow_id")
            entry = self.live(txn, now)
            if entry is None or entry.operation != "venta":
                # The window closed (past_deadline), or the entry was dropped behind the watermark
                # while a clock ran ahead, or kept as balance unknown (ledger_pruned): the same code and field.
                raise Fail("not_eligible", "sale")
            sale = Sale(txn, entry.expires_at)
            cap, refunded, approved_at, version = entry.amount, entry.refunded, entry.approved_at, \
                flow.answer.get("bp_version")
        else:
            doc = e["sale"]
            txn, doc_amount, version = doc["transactionid"], amount_units(doc["amount"]), doc.get("bp_version")
            entry = self.live(txn, now)
            if entry is not None and entry.operation == "venta":
                cap, refunded, approved_at = min(entry.amount, doc_amount), entry.refunded, entry.approved_at
                sale = Sale(txn, entry.expires_at)
            else:
                # A sale whose entry left after refunds is bounded by its record, whatever the clock (G1).
                rec_amount, rec_refunded = self.refunded_sales.get(txn, [doc_amount, 0])
                cap, refunded, approved_at = min(doc_amount, rec_amount), rec_refunded, doc["approved_at"] * 1000
                sale = Sale(txn, mx_deadline_ms(approved_at), doc_amount, approved_at)
                held_refund = any(f.type == "pos" and f.sale is not None and f.sale.transaction_id == txn
                                  and f.state in ("approved", "approved_amount_mismatch") for f in self.flows)
                if now < sale.expires_at and (sale.expires_at <= self.pruned_through
                                              or (entry is not None and entry.operation == "unknown") or held_refund):
                    # Its entry may have been dropped behind the watermark, kept as balance unknown, or
                    # a refund flow still held paid some back (issue 35): never a second refund.
                    raise Fail("not_eligible", "sale")  # ledger_pruned
        if req["transactionId"] != txn:
            raise Fail("validation", "transactionId")
        if any(f.type == "pos" and f.sale is not None and f.sale.transaction_id == txn and f.state in P_TAKES_ANSWER
               for f in self.flows):
            raise Fail("invalid_state", "transactionId")  # another refund of this sale waits for its answer
        remaining = cap - refunded
        if remaining == 0:
            raise Fail("invalid_state", "transactionId")  # fully refunded
        requested = amount_units(req["amount"]) if "amount" in req else remaining
        if refund_reasons(approved_at, remaining, requested, now, version):
            raise Fail("not_eligible", "sale")
        return sale, requested

    def route_answer(self, pos_flows: list, pairs: list, now: int):
        """An answer URL: the flows on its scheme; the identifier must be one flow's `<identifier>~<token>`."""
        identifier = pos.answer_identifier(pairs)
        matching = [f for f in pos_flows if f.sent_identifier == identifier]
        if not matching:
            raise Fail("callback_mismatch", "identifier")
        target = next((f for f in matching if f.state in P_TAKES_ANSWER), matching[-1])
        return self.answer(target, pos.answer_document(pairs, target.sent_identifier), now)

    def pos_result(self, e: dict):
        """`pos.result`: the Android result extras for one named POS flow, then as a URL answer."""
        flow = self.flow_of(e["flow_id"], "pos")
        extras = e.get("extras")
        if not extras:  # absent, null or {}: no data came back
            rule = POS_NO_DATA[flow.state]
            if rule is not DUP and rule is not IGN and flow.foregrounded_at is None:
                flow.foregrounded_at = e["now"]
            return self.use(flow, rule)
        assert isinstance(extras, dict) and all(isinstance(v, str) for v in extras.values()), "a Bad step"
        pairs = pos.extras_answer_pairs(extras, prefix="extras.")
        if pos.answer_identifier(pairs, prefix="extras.") != flow.sent_identifier:
            raise Fail("callback_mismatch", "identifier")
        return self.answer(flow, pos.answer_document(pairs, flow.sent_identifier, prefix="extras."), now=e["now"])

    def answer(self, flow: POSFlow, doc: dict, now: int):
        assert_bounded_answer(doc)
        rule = POS_ANSWER[flow.state]
        column = doc["result"]
        if rule != CONSUMED and rule[ANSWER_COLUMN[column]] == CONSUMED:
            rule = CONSUMED
        if rule == CONSUMED:
            return ("duplicate" if doc == flow.answer else "ignored"), []
        answered = amount_units(doc["amount"]) if "amount" in doc else None
        if column == "approved" and answered != flow.amount:
            column = "approved_amount_mismatch"
        txn = doc.get("transactionid")
        if doc["result"] == "approved" and self.live(txn, now) is not None:
            raise Fail("duplicate", "transactionid")  # booked already: never booked twice
        flow.answer, flow.answered_at = doc, now
        outcome, effects = self.use(flow, rule[ANSWER_COLUMN[column]])
        if doc["result"] == "approved":
            self.book(flow, column, answered, now)
        return outcome, effects

    def book(self, flow: POSFlow, column: str, answered: int, now: int):
        txn = flow.answer.get("transactionid")
        if flow.operation == "venta":
            if txn is not None:
                cap = flow.amount if column == "approved" else min(flow.amount, answered)
                if now < mx_deadline_ms(now):  # approved after 23:00: never refundable, not booked
                    self.book_sale(txn, Entry("venta", cap, now, mx_deadline_ms(now)))
            return
        sale = self.sale_entry(flow.sale, now)
        # What is left bounds a mismatch only when the sale still has its sale entry; without it (balance
        # unknown, recorded, gone) the larger of answered and requested, which the record caps (X8).
        remaining = sale.amount - sale.refunded if sale and sale.operation == "venta" else max(answered, flow.amount)
        booked = flow.amount if column == "approved" else min(max(answered, flow.amount), remaining)
        # What it took goes to its sale's entry, expired or not (the core's addRefund); with none (it
        # left while this refund waited), to the sale's record — as refunded in full when there is none (G1).
        held = self.ledger.get(flow.sale.transaction_id)
        if held is not None and held.operation == "venta":
            held.refunded = min(held.amount, held.refunded + booked)
        elif booked > 0:
            rec_amount, rec_refunded = self.refunded_sales.get(flow.sale.transaction_id, [booked, 0])
            self.record(flow.sale.transaction_id, rec_amount, min(rec_refunded + booked, rec_amount))
        if sale:
            if txn is not None and booked > 0:
                self.ledger[txn] = Entry("devolucion", booked, now, mx_deadline_ms(now))

    def sale_entry(self, sale: Sale, now: int) -> Entry | None:
        """The ledger entry a refund books against, if its window is still open (a sale known
        from a `sale` document got one when the refund started)."""
        entry = self.live(sale.transaction_id, now)
        assert entry is None or entry.operation != "devolucion", "not modelled: a sale document naming a refund's transactionid"
        return entry  # a balance-unknown record too: it refunds nothing, as the core's addRefund

    def remove(self, e: dict):
        flow = self.find(e["flow_id"])
        if flow is None:
            raise Fail("unknown_flow", "flow_id")
        if self.pending(flow, e["now"]):
            if not e.get("give_up", False):
                raise Fail("invalid_state", "flow_id")  # its late answer would be lost
            if flow.type == "pos" and flow.sale is not None:
                entry = self.ledger.get(flow.sale.transaction_id)  # the refund may have happened
                if entry is not None and entry.operation == "venta":
                    entry.refunded = min(entry.amount, entry.refunded + flow.amount)
        self.forget(flow, e["now"])
        return "accepted", []


def assert_bounded_callback(cb: dict):
    """The model compares callbacks in full; the core compares their stored (bounded) form (spec G,
    not modelled). Scripts stay within the bounds, where the two are the same."""
    texts = [cb.get("reason") or ""] + [t for pair in (cb.get("extra") or {}).items() for t in pair]
    assert len(cb.get("extra") or {}) <= 4 and all(len(t.encode()) <= 100 for t in texts), cb


def assert_bounded_answer(doc: dict):
    """identifier and transactionid are never cut (their own rules bound them)."""
    texts = [v for k, v in doc.items() if isinstance(v, str) and k not in ("identifier", "transactionid")]
    texts += [t for pair in (doc.get("extra") or {}).items() for t in pair]
    assert all(len(t.encode()) <= 100 for t in texts) and len(json.dumps(doc)) <= 1500, doc


def session_object_id(session: dict) -> str | None:
    kind = session["kind"]
    id_key = KIND_ID[kind][0]
    if "checkout_url" in session:
        return session.get(id_key)
    data = session["body"].get("data", {})
    inner = data.get("registration" if kind == "cards" else "checkout", {})
    return inner.get(id_key) or data.get(id_key)


# ---------------------------------------------------------------------------------------
# Steps


def ev(type_: str, now: int, **members) -> dict:
    return {"event": {"type": type_, **members, "now": now}}


def at(url: str, now: int) -> dict:
    return {"url": url, "now": now}


RESTORE = {"restore": True}


def c_start(now: int, flow_id="c1", nonce=N1, kind="cards", return_url=RETURN_URL, **extra) -> dict:
    members = {"flow_id": flow_id, "kind": kind, "return_url": return_url}
    if nonce is not None:
        members["nonce"] = nonce
    return ev("checkout.start", now, **members, **extra)


def c_session(now: int, flow_id="c1", session=SESSION_CARDS) -> dict:
    return ev("checkout.session", now, flow_id=flow_id, session=session)


def c_session_failed(now: int, flow_id="c1") -> dict:
    return ev("checkout.session_failed", now, flow_id=flow_id, reason="network unreachable")


def c_opened(now: int, flow_id="c1") -> dict:
    return ev("checkout.browser_opened", now, flow_id=flow_id)


def c_dismissed(now: int, flow_id="c1") -> dict:
    return ev("checkout.browser_dismissed", now, flow_id=flow_id)


def c_confirm(now: int, event=CONF_VISA, flow_id="c1") -> dict:
    return ev("checkout.confirmation", now, flow_id=flow_id, event=event)


def callback_url(status: str, nonce: str | None = N1, object_id: str | None = "card_xyz", reason=None,
                 id_key="card_id", base=RETURN_URL, extra=()) -> str:
    """The gateway's redirect to the URL PayHandoff sent: `base` + `/ph_<nonce>` (nonce None: a
    callback to the registered URL itself, carrying no nonce), then `?status=…`."""
    params = [("status", status)]
    if object_id is not None:
        params.append((id_key, object_id))
    if reason is not None:
        params.append(("reason", reason))
    params += list(extra)
    address = base if nonce is None else base + "/ph_" + nonce
    return address + "?" + "&".join(k + "=" + urllib.parse.quote(v, safe="-._~") for k, v in params)


CB_COMPLETED = callback_url("completed")
CB_FAILED = callback_url("failed", object_id=None, reason="insufficient_funds")
CB_CANCELLED = callback_url("cancelled", object_id=None)
CB_WRONG_NONCE = callback_url("completed", nonce=N_WRONG)
CB_NO_NONCE = callback_url("completed", nonce=None)
CB_FAILED_NO_NONCE = callback_url("failed", nonce=None, object_id=None, reason="insufficient_funds")
CB_CANCELLED_NO_NONCE = callback_url("cancelled", nonce=None, object_id=None)


def c_result(now: int, code: str, channel="auth_tab", url: str | None = None, flow_id="c1") -> dict:
    members = {"flow_id": flow_id, "channel": channel, "code": code}
    if url is not None:
        members["url"] = url
    return ev("checkout.browser_result", now, **members)


def tick(now: int) -> dict:
    return ev("tick", now)


def foregrounded(now: int) -> dict:
    return ev("app.foregrounded", now)


def sale_request(identifier="ord-1", amount="100.00", scheme=POS_SCHEME) -> dict:
    return {"transaction": "venta", "usertoken": USER_TOKEN, "identifier": identifier, "amount": amount,
            "urlScheme": scheme}


def refund_request(identifier: str, transaction_id=SALE_TXN, amount: str | None = None) -> dict:
    r = {"transaction": "devolucion", "usertoken": USER_TOKEN, "identifier": identifier, "urlScheme": POS_SCHEME,
         "transactionId": transaction_id}
    if amount is not None:
        r["amount"] = amount
    return r


def pos_token(flow_id: str) -> str:
    """The fixed token a script's pos.start passes for `flow_id` (32 lowercase hex digits, the shape
    of a fresh one), so that its answers can echo `<identifier>~<token>`."""
    return hashlib.sha256(("pos token " + flow_id).encode()).hexdigest()[:32]


FRESH = object()  # p_start(token=FRESH): no token member, the coordinator makes one no script knows


def p_start(now: int, flow_id="p1", request=None, token=None, **extra) -> dict:
    if token is None:
        token = pos_token(flow_id)
    members = {} if token is FRESH else {"token": token}
    return ev("pos.start", now, flow_id=flow_id, request=request or sale_request(), **members, **extra)


def p_refund(now: int, flow_id: str, identifier: str, sale_flow_id="p1", amount=None, transaction_id=SALE_TXN,
             sale=None) -> dict:
    extra = {"sale": sale} if sale is not None else {"sale_flow_id": sale_flow_id}
    return ev("pos.start", now, flow_id=flow_id, request=refund_request(identifier, transaction_id, amount),
              token=pos_token(flow_id), **extra)


def p_launched(now: int, flow_id="p1") -> dict:
    return ev("pos.launched", now, flow_id=flow_id)


def p_launch_failed(now: int, flow_id="p1") -> dict:
    return ev("pos.launch_failed", now, flow_id=flow_id, reason="canOpenURL returned false: app not installed")


def answer_url(result: str, identifier="ord-1", amount: str | None = "100.00", txn: str | None = SALE_TXN,
               scheme=POS_SCHEME, extra=(), flow: str | None = "p1") -> str:
    """The POS app's answer to the hand-off of `flow`: it echoes `<identifier>~<token>`; with
    flow None the identifier is the app's reference alone (what a forger knows)."""
    params = [("result", result)]
    if amount is not None:
        params.append(("amount", amount))
    params.append(("identifier", identifier if flow is None else identifier + "~" + pos_token(flow)))
    if txn is not None:
        params.append(("transactionid", txn))
    params += list(extra)
    return scheme + "://" + "&".join(k + "=" + v for k, v in params)


ANS_APPROVED = answer_url("aprobada")
ANS_DECLINED = answer_url("rechazada", amount=None, txn=None, extra=[("statusinfo", "Fondos%20insuficientes")])
ANS_ERROR = answer_url("error", amount=None, txn=None, extra=[("statusinfo", "Lector%20desconectado")])
ANS_OTHER_ID = answer_url("aprobada", identifier="ord-999")
ANS_OTHER_AMOUNT = answer_url("aprobada", amount="90.00")
ANS_FORGED = answer_url("aprobada", flow=None)  # the app's reference without the token: any app can send it
ANS_OTHER_TOKEN = answer_url("aprobada", flow="p9")  # ord-1 with a token that is not p1's


def result_extras(result: str, identifier="ord-1", amount: str | None = "100.00", txn: str | None = SALE_TXN,
                  extra=(), flow: str | None = "p1") -> dict:
    """The same answer as `answer_url` as Android result extras (decoded text, keys as the POS app writes them)."""
    extras = {"result": result}
    if amount is not None:
        extras["amount"] = amount
    extras["identifier"] = identifier if flow is None else identifier + "~" + pos_token(flow)
    if txn is not None:
        extras["transactionid"] = txn
    extras.update(dict(extra))
    return extras


def p_result(now: int, extras: dict, flow_id="p1") -> dict:
    return ev("pos.result", now, flow_id=flow_id, extras=extras)


RES_APPROVED = result_extras("aprobada")
RES_DECLINED = result_extras("rechazada", amount=None, txn=None, extra=[("statusinfo", "Fondos insuficientes")])


# ---------------------------------------------------------------------------------------
# Suites


class Suite:
    def __init__(self, name: str):
        self.name = name
        self.vectors: list[dict] = []

    def add_model(self, id_: str, note: str, steps: list, config: dict | None = None):
        """A vector whose expected summaries all come from the model (the tables)."""
        config = config or {}
        model = Model(config)
        summaries = [model.step(s) for s in steps]
        self._add(id_, note, config, steps, summaries)

    def add_checked(self, id_: str, note: str, rows: list, config: dict | None = None):
        """A vector whose steps carry hand-written expected summaries; the model must agree."""
        config = config or {}
        model = Model(config)
        steps, summaries = [], []
        for index, row in enumerate(rows):
            step, expected = row
            actual = model.step(step)
            if actual != expected:
                raise SystemExit(f"{id_} step {index}: the hand-written expectation and the model disagree\n"
                                 f"  step:     {json.dumps(step if not isinstance(step, Bad) else step.event)}\n"
                                 f"  written:  {json.dumps(expected)}\n  model:    {json.dumps(actual)}")
            steps.append(step)
            summaries.append(expected)
        self._add(id_, note, config, steps, summaries)

    def _add(self, id_, note, config, steps, summaries):
        assert re.fullmatch(r"flow-[a-z0-9]+(?:-[a-z0-9]+)*", id_), id_
        self.vectors.append({
            "id": id_,
            "note": note,
            "input": {"config": config, "steps": [s.step() if isinstance(s, Bad) else s for s in steps]},
            "expect": {"ok": {"steps": summaries}},
        })


def S(step, outcome: str, flows: str = "", effects: str = "", error: tuple | None = None):
    """A step with its expected summary: flows as "c1=ready p1=launched", effects as "c1:open_browser c1:persist"."""
    summary = {"outcome": outcome,
               "flows": dict(pair.split("=", 1) for pair in flows.split()),
               "effects": effects.split()}
    if error is not None:
        summary["error"] = {"code": error[0], "field": error[1]}
    return (step, summary)


def bad(event: dict, code: str, field: str | None, flows: str = ""):
    return S(Bad(event, code, field), "invalid_event", flows, "", (code, field))


def kebab(name: str) -> str:
    return name.replace("_", "-").replace(".", "-")


# -- checkout: every state x every event

# How each state is reached (c1, cards, nonce N1, default deadline T0 + 30 min) and when it got there.
CHECKOUT_PREFIX = {
    "awaiting_session": ([c_start(T0)], T0),
    "ready": ([c_start(T0), c_session(T0 + 2000)], T0 + 2000),
    "in_browser": ([c_start(T0), c_session(T0 + 2000), c_opened(T0 + 3000)], T0 + 3000),
    "returned_without_result": ([c_start(T0), c_session(T0 + 2000), c_opened(T0 + 3000), c_dismissed(T0 + 40000)],
                                T0 + 40000),
    "awaiting_confirmation": ([c_start(T0), c_session(T0 + 2000), c_opened(T0 + 3000), at(CB_COMPLETED, T0 + 60000)],
                              T0 + 60000),
    "confirmed": ([c_start(T0), c_session(T0 + 2000), c_opened(T0 + 3000), at(CB_COMPLETED, T0 + 60000),
                   c_confirm(T0 + 65000)], T0 + 65000),
    "failed": ([c_start(T0), c_session(T0 + 2000), c_opened(T0 + 3000), at(CB_FAILED, T0 + 60000)], T0 + 60000),
    "cancelled": ([c_start(T0), c_session(T0 + 2000), c_opened(T0 + 3000), at(CB_CANCELLED, T0 + 60000)],
                  T0 + 60000),
    "expired": ([c_start(T0), c_session(T0 + 2000), c_opened(T0 + 3000), tick(T0 + DEFAULT_TIMEOUT)],
                T0 + DEFAULT_TIMEOUT),
}
C_DEADLINE = T0 + DEFAULT_TIMEOUT

CHECKOUT_EVENTS = [
    ("session", "checkout.session with a cards session (checkout_url)", lambda t: [c_session(t)]),
    ("session-failed", "checkout.session_failed", lambda t: [c_session_failed(t)]),
    ("browser-opened", "checkout.browser_opened", lambda t: [c_opened(t)]),
    ("browser-dismissed", "checkout.browser_dismissed (tab closed by the user)", lambda t: [c_dismissed(t)]),
    ("callback-completed", "deep link status=completed with card_id and the right nonce",
     lambda t: [at(CB_COMPLETED, t)]),
    ("callback-failed", "deep link status=failed (reason) with the right nonce", lambda t: [at(CB_FAILED, t)]),
    ("callback-cancelled", "deep link status=cancelled with the right nonce", lambda t: [at(CB_CANCELLED, t)]),
    ("callback-completed-twice", "the same completed deep link delivered twice",
     lambda t: [at(CB_COMPLETED, t), at(CB_COMPLETED, t + 500)]),
    ("callback-wrong-nonce", "a completed deep link with another nonce: rejected, nothing changes",
     lambda t: [at(CB_WRONG_NONCE, t)]),
    ("callback-no-nonce", "a completed deep link without the nonce (anyone can send it): rejected by default, nothing changes",
     lambda t: [at(CB_NO_NONCE, t)]),
    ("callback-failed-no-nonce", "a failed deep link without the nonce: rejected by default, the tab stays open",
     lambda t: [at(CB_FAILED_NO_NONCE, t)]),
    ("confirmation", "card.registered for card_xyz", lambda t: [c_confirm(t)]),
    ("confirmation-twice", "the same webhook relayed twice (a retry with a later created_at)",
     lambda t: [c_confirm(t), c_confirm(t + 1000, CONF_VISA_RETRY)]),
    ("confirmation-conflict", "a second webhook for the same card with another brand: a conflict, not merged",
     lambda t: [c_confirm(t), c_confirm(t + 1000, CONF_MASTERCARD)]),
]


# With accept_unverified_callbacks a callback without the nonce is a claim (same prefixes: they use
# verified callbacks only).
ACCEPT_UNVERIFIED = {"accept_unverified_callbacks": True}
UNVERIFIED_EVENTS = [
    ("unverified-completed", "a completed deep link without the nonce (a claim: no close_browser)",
     lambda t: [at(CB_NO_NONCE, t)]),
    ("unverified-failed", "a failed deep link without the nonce (a claim: the flow does not end)",
     lambda t: [at(CB_FAILED_NO_NONCE, t)]),
    ("unverified-cancelled", "a cancelled deep link without the nonce (a claim: the flow does not end)",
     lambda t: [at(CB_CANCELLED_NO_NONCE, t)]),
    ("unverified-twice", "the same claim twice", lambda t: [at(CB_NO_NONCE, t), at(CB_NO_NONCE, t + 500)]),
    ("unverified-then-verified", "a completed claim, then the genuine (verified) completed callback",
     lambda t: [at(CB_NO_NONCE, t), at(CB_COMPLETED, t + 500)]),
    ("unverified-failed-then-verified", "a failed claim, then the genuine (verified) cancelled callback",
     lambda t: [at(CB_FAILED_NO_NONCE, t), at(CB_CANCELLED, t + 500)]),
    ("unverified-then-confirmation", "a completed claim naming another card, then the webhook for card_xyz",
     lambda t: [at(callback_url("completed", nonce=None, object_id="card_evil"), t), c_confirm(t + 500)]),
]


def checkout_table() -> Suite:
    s = Suite(SUITE)
    for state in C_STATES:
        prefix, reached = CHECKOUT_PREFIX[state]
        t = reached + 10 * SECOND
        for name, what, make in CHECKOUT_EVENTS:
            s.add_model(f"flow-checkout-{kebab(state)}-{name}", f"checkout in {state}: {what}", prefix + make(t))
        for name, what, make in UNVERIFIED_EVENTS:
            s.add_model(f"flow-checkout-{kebab(state)}-{name}",
                        f"checkout in {state}, accept_unverified_callbacks: {what}", prefix + make(t), ACCEPT_UNVERIFIED)
        if state == "expired":
            s.add_model("flow-checkout-expired-tick-later", "checkout in expired: a later tick changes nothing",
                        prefix + [tick(C_DEADLINE + MINUTE)])
            s.add_model("flow-checkout-expired-tick-at-deadline-again",
                        "checkout in expired: another tick at the deadline changes nothing",
                        prefix + [tick(C_DEADLINE)])
        else:
            s.add_model(f"flow-checkout-{kebab(state)}-tick-before-deadline",
                        f"checkout in {state}: a tick 1 ms before the deadline changes nothing",
                        prefix + [tick(C_DEADLINE - 1)])
            s.add_model(f"flow-checkout-{kebab(state)}-tick-at-deadline",
                        f"checkout in {state}: a tick exactly at the deadline (expires only while waiting)",
                        prefix + [tick(C_DEADLINE)])
    checkout_extras(s)
    return s


def checkout_extras(s: Suite):
    """Unknown flows, wrong flow types, start forms and invalid event documents (checkout side)."""
    start = S(c_start(T0), "accepted", "c1=awaiting_session", "c1:create_session c1:persist")
    ready = S(c_session(T0 + 2000), "accepted", "c1=ready", "c1:open_browser c1:persist")
    p_ready = S(p_start(T0 + 1000), "accepted", "c1=awaiting_session p1=ready", "p1:open_pos_app p1:persist")
    uf = ("unknown_flow", "flow_id")

    for name, step in [("session", c_session(T0 + 5000, flow_id="c9")),
                       ("session-failed", c_session_failed(T0 + 5000, flow_id="c9")),
                       ("browser-opened", c_opened(T0 + 5000, flow_id="c9")),
                       ("browser-dismissed", c_dismissed(T0 + 5000, flow_id="c9")),
                       ("confirmation", c_confirm(T0 + 5000, flow_id="c9"))]:
        s.add_checked(f"flow-checkout-unknown-flow-{name}", f"{step['event']['type']} names a flow that does not exist",
                      [start, S(step, "rejected", "c1=awaiting_session", "", uf)])
    s.add_checked("flow-checkout-unknown-flow-empty-coordinator", "an event for a flow of an empty coordinator",
                  [S(c_opened(T0), "rejected", "", "", uf)])

    wrong = ("invalid_state", "flow_id")
    for name, step in [("session", c_session(T0 + 5000, flow_id="p1")),
                       ("session-failed", c_session_failed(T0 + 5000, flow_id="p1")),
                       ("browser-opened", c_opened(T0 + 5000, flow_id="p1")),
                       ("browser-dismissed", c_dismissed(T0 + 5000, flow_id="p1")),
                       ("confirmation", c_confirm(T0 + 5000, flow_id="p1"))]:
        s.add_checked(f"flow-checkout-event-on-pos-flow-{name}",
                      f"{step['event']['type']} sent to a POS flow: wrong flow type",
                      [start, p_ready, S(step, "rejected", "c1=awaiting_session p1=ready", "", wrong)])
    s.add_checked("flow-checkout-start-id-of-pos-flow", "checkout.start with the id of an existing POS flow",
                  [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
                   S(c_start(T0 + 1000, flow_id="p1"), "rejected", "p1=ready", "", ("duplicate", "flow_id"))])
    s.add_checked("flow-checkout-start-duplicate-id", "checkout.start twice with the same flow id",
                  [start, S(c_start(T0 + 1000, nonce=N2), "rejected", "c1=awaiting_session", "", ("duplicate", "flow_id"))])

    # start forms
    s.add_checked("flow-checkout-start-with-request",
                  "PayHandoff builds the HTTP request (send_request), the gateway answers 201, the callback echoes the given nonce",
                  [S(ev("checkout.start", T0, flow_id="c1", request=CARD_REQUEST, nonce=N1), "accepted",
                     "c1=awaiting_session", "c1:send_request c1:persist"),
                   S(c_session(T0 + 2000, session=GATEWAY_CARDS_201), "accepted", "c1=ready", "c1:open_browser c1:persist"),
                   S(c_opened(T0 + 3000), "accepted", "c1=in_browser", "c1:persist"),
                   S(at(CB_COMPLETED, T0 + 60000), "accepted", "c1=awaiting_confirmation",
                     "c1:close_browser c1:show_pending c1:persist"),
                   S(c_confirm(T0 + 61000), "accepted", "c1=confirmed", "c1:persist")])
    fresh_request = [S(ev("checkout.start", T0, flow_id="c1", request=CARD_REQUEST), "accepted",
                       "c1=awaiting_session", "c1:send_request c1:persist"),
                     S(c_session(T0 + 2000, session=GATEWAY_CARDS_201), "accepted", "c1=ready",
                       "c1:open_browser c1:persist")]
    s.add_checked("flow-checkout-start-with-request-fresh-nonce",
                  "without a nonce PayHandoff makes one (no script knows it): a callback with another nonce and a "
                  "callback without any are both refused, nothing changes",
                  fresh_request + [
                      S(at(CB_WRONG_NONCE, T0 + 50000), "rejected", "c1=ready", "", ("callback_mismatch", "nonce")),
                      S(at(CB_NO_NONCE, T0 + 60000), "rejected", "c1=ready", "", ("callback_mismatch", "nonce")),
                      S(c_opened(T0 + 61000), "accepted", "c1=in_browser", "c1:persist")])
    s.add_checked("flow-checkout-start-with-request-fresh-nonce-accept-unverified",
                  "accept_unverified_callbacks: a callback without the (fresh) nonce is a claim: it shows pending but "
                  "never moves the flow (issue 24), the browser stays open; a wrong nonce is still refused",
                  fresh_request + [
                      S(at(CB_WRONG_NONCE, T0 + 50000), "rejected", "c1=ready", "", ("callback_mismatch", "nonce")),
                      S(at(CB_NO_NONCE, T0 + 60000), "accepted", "c1=ready", "c1:show_pending c1:persist")],
                  config={"accept_unverified_callbacks": True})
    iframe = {**{k: v for k, v in CARD_REQUEST.items() if k != "return_url"}, "integration": "iframe"}
    s.add_checked("flow-checkout-start-iframe-request",
                  "a valid iframe request (no return_url) has no deep link: a checkout flow refuses it (nothing is created)",
                  [S(ev("checkout.start", T0, flow_id="c1", request=iframe), "rejected", "", "",
                     ("validation", "request.return_url"))])
    s.add_checked("flow-checkout-start-with-session",
                  "the backend already created the session (with the nonce in its return URL): ready at once",
                  [S(c_start(T0, session=SESSION_CARDS), "accepted", "c1=ready", "c1:open_browser c1:persist"),
                   S(at(CB_COMPLETED, T0 + 60000), "accepted", "c1=awaiting_confirmation",
                     "c1:close_browser c1:show_pending c1:persist")])
    s.add_checked("flow-checkout-start-with-session-no-nonce-refused",
                  "a session created without PayHandoff's nonce could never be verified: refused by default",
                  [S(c_start(T0, nonce=None, session=SESSION_CARDS), "rejected", "", "", ("validation", "nonce")),
                   S(c_start(T0 + 1000, session=SESSION_CARDS), "accepted", "c1=ready", "c1:open_browser c1:persist")])
    s.add_checked("flow-checkout-start-with-session-no-nonce",
                  "accept_unverified_callbacks: a session without nonce is accepted; a callback carrying a nonce is "
                  "refused, one without is a claim (no close_browser)",
                  [S(c_start(T0, nonce=None, session=SESSION_CARDS), "accepted", "c1=ready", "c1:open_browser c1:persist"),
                   S(at(CB_COMPLETED, T0 + 50000), "rejected", "c1=ready", "", ("callback_mismatch", "nonce")),
                   S(at(CB_NO_NONCE, T0 + 60000), "accepted", "c1=ready", "c1:show_pending c1:persist"),
                   S(c_confirm(T0 + 61000), "accepted", "c1=confirmed", "c1:close_browser c1:persist")],
                  config={"accept_unverified_callbacks": True})
    s.add_checked("flow-checkout-start-without-session-fresh-nonce",
                  "the backend start (create_session) always gets a nonce: no nonce member is fine without the setting",
                  [S(c_start(T0, nonce=None), "accepted", "c1=awaiting_session", "c1:create_session c1:persist"),
                   S(at(CB_NO_NONCE, T0 + 60000), "rejected", "c1=awaiting_session", "", ("callback_mismatch", "nonce"))])
    s.add_checked("flow-checkout-session-gateway-refused",
                  "checkout.session carries the gateway's refusal (HTTP 422): the session could not be created, the flow fails",
                  [start, S(c_session(T0 + 2000, session=GATEWAY_CARDS_422), "accepted", "c1=failed", "c1:persist")])
    s.add_checked("flow-checkout-session-of-other-kind", "a payments session for a cards flow is refused",
                  [start, S(c_session(T0 + 2000, session=SESSION_PAYMENTS), "rejected", "c1=awaiting_session", "",
                            ("validation", "session.kind"))])
    s.add_checked("flow-checkout-explicit-deadline", "checkout.start with its own deadline (10 minutes)",
                  [S(c_start(T0, deadline=T0 + 10 * MINUTE), "accepted", "c1=awaiting_session", "c1:create_session c1:persist"),
                   S(tick(T0 + 10 * MINUTE - 1), "accepted", "c1=awaiting_session"),
                   S(tick(T0 + 10 * MINUTE), "accepted", "c1=expired", "c1:close_browser c1:reconcile c1:persist")])
    s.add_checked("flow-checkout-config-timeout", "checkout_timeout_ms in the config sets the default deadline",
                  [S(c_start(T0), "accepted", "c1=awaiting_session", "c1:create_session c1:persist"),
                   S(tick(T0 + MINUTE - 1), "accepted", "c1=awaiting_session"),
                   S(tick(T0 + MINUTE), "accepted", "c1=expired", "c1:close_browser c1:reconcile c1:persist")],
                  config={"checkout_timeout_ms": MINUTE})
    s.add_checked("flow-checkout-url-event", "a deep link sent as a `url` event is the same as a url step",
                  [start, ready,
                   S(ev("url", T0 + 60000, url=CB_COMPLETED), "accepted", "c1=awaiting_confirmation",
                     "c1:close_browser c1:show_pending c1:persist"),
                   S(ev("url", T0 + 61000, url=CB_COMPLETED), "duplicate", "c1=awaiting_confirmation")])

    # payments: the id kind must fit the flow and match what the session named
    pay_start = S(c_start(T0, kind="payments", session=SESSION_PAYMENTS), "accepted", "c1=ready",
                  "c1:open_browser c1:persist")
    pay_cb = lambda pid, **kw: callback_url("completed", object_id=pid, id_key="payment_id", **kw)  # noqa: E731
    s.add_checked("flow-checkout-payments-callback-other-payment-id",
                  "the session named pay_123: a callback for pay_999 is not this session's",
                  [pay_start, S(at(pay_cb("pay_999"), T0 + 60000), "rejected", "c1=ready", "",
                                ("callback_mismatch", "payment_id"))])
    s.add_checked("flow-checkout-payments-callback-with-card-id", "a payments callback cannot carry card_id",
                  [pay_start, S(at(callback_url("completed"), T0 + 60000), "rejected", "c1=ready", "",
                                ("callback_mismatch", "card_id"))])
    s.add_checked("flow-checkout-payments-completed-without-id", "a completed callback must carry payment_id",
                  [pay_start, S(at(callback_url("completed", object_id=None), T0 + 60000), "rejected", "c1=ready", "",
                                ("validation", "payment_id"))])
    s.add_checked("flow-checkout-callback-unknown-status", "status must be completed, failed or cancelled",
                  [start, ready, S(at(callback_url("done"), T0 + 60000), "rejected", "c1=ready", "",
                                   ("validation", "status"))])
    s.add_checked("flow-checkout-payments-confirmations",
                  "payment.confirmed: another kind or id is a conflict; the right one confirms; a later one with another amount conflicts",
                  [pay_start,
                   S(at(pay_cb("pay_123"), T0 + 60000), "accepted", "c1=awaiting_confirmation",
                     "c1:close_browser c1:show_pending c1:persist"),
                   S(c_confirm(T0 + 61000, CONF_VISA), "rejected", "c1=awaiting_confirmation", "", ("conflict", "type")),
                   S(c_confirm(T0 + 62000, CONF_PAY_456), "rejected", "c1=awaiting_confirmation", "",
                     ("conflict", "payment_id")),
                   S(c_confirm(T0 + 63000, CONF_PAY_123), "accepted", "c1=confirmed", "c1:persist"),
                   S(c_confirm(T0 + 64000, CONF_PAY_123_90), "rejected", "c1=confirmed", "", ("conflict", "amount"))])
    s.add_checked("flow-checkout-confirmation-other-card-than-callback",
                  "the callback named card_xyz: a webhook for card_abc is a conflict",
                  [start, ready, S(at(CB_COMPLETED, T0 + 60000), "accepted", "c1=awaiting_confirmation",
                                   "c1:close_browser c1:show_pending c1:persist"),
                   S(c_confirm(T0 + 61000, CONF_OTHER_CARD), "rejected", "c1=awaiting_confirmation", "",
                     ("conflict", "card_id"))])

    # invalid event documents: refused before anything is sent
    V, J = "validation", "invalid_json"
    cases = [
        ("unknown-type", {"type": "checkout.teleport", "flow_id": "c1", "now": T0}, V, "type"),
        ("missing-type", {"flow_id": "c1", "now": T0}, V, "type"),
        ("missing-now", {"type": "checkout.browser_opened", "flow_id": "c1"}, V, "now"),
        ("now-text", {"type": "checkout.browser_opened", "flow_id": "c1", "now": str(T0)}, J, "now"),
        ("now-negative", {"type": "checkout.browser_opened", "flow_id": "c1", "now": -1}, V, "now"),
        ("now-after-9999", {"type": "checkout.browser_opened", "flow_id": "c1", "now": 253402300800000}, V, "now"),
        ("missing-flow-id", {"type": "checkout.browser_opened", "now": T0}, V, "flow_id"),
        ("empty-flow-id", {"type": "checkout.browser_opened", "flow_id": "", "now": T0}, V, "flow_id"),
        ("flow-id-with-space", {"type": "checkout.browser_opened", "flow_id": "c 1", "now": T0}, V, "flow_id"),
        ("flow-id-too-long", {"type": "checkout.browser_opened", "flow_id": "c" * 129, "now": T0}, V, "flow_id"),
        ("flow-id-number", {"type": "checkout.browser_opened", "flow_id": 1, "now": T0}, J, "flow_id"),
        ("unknown-member", {"type": "checkout.browser_opened", "flow_id": "c1", "url": CHECKOUT_URL, "now": T0},
         V, "url"),
        ("session-failed-without-reason", {"type": "checkout.session_failed", "flow_id": "c1", "now": T0}, V, "reason"),
        ("start-short-nonce", {"type": "checkout.start", "flow_id": "c2", "kind": "cards", "return_url": RETURN_URL,
                               "nonce": "abc123", "now": T0}, V, "nonce"),
        ("start-request-and-kind", {"type": "checkout.start", "flow_id": "c2", "request": CARD_REQUEST,
                                    "kind": "cards", "now": T0}, V, "kind"),
        ("start-nonce-inside-request", {"type": "checkout.start", "flow_id": "c2",
                                        "request": {**CARD_REQUEST, "nonce": N2}, "now": T0}, V, "request.nonce"),
        ("start-session-of-other-kind", {"type": "checkout.start", "flow_id": "c2", "kind": "cards",
                                         "return_url": RETURN_URL, "session": SESSION_PAYMENTS, "now": T0},
         V, "session.kind"),
        ("start-unknown-kind", {"type": "checkout.start", "flow_id": "c2", "kind": "wallet", "return_url": RETURN_URL,
                                "now": T0}, V, "kind"),
        ("start-javascript-return-url", {"type": "checkout.start", "flow_id": "c2", "kind": "cards",
                                         "return_url": "javascript:alert(1)", "now": T0}, V, "return_url"),
        ("start-return-url-sent-form", {"type": "checkout.start", "flow_id": "c2", "kind": "cards",
                                        "return_url": RETURN_URL + "/ph_" + N2, "now": T0}, V, "return_url"),
        ("start-return-url-empty-host", {"type": "checkout.start", "flow_id": "c2", "kind": "cards",
                                         "return_url": "myapp://", "now": T0}, V, "return_url"),
        ("start-return-url-host-like-answer", {"type": "checkout.start", "flow_id": "c2", "kind": "cards",
                                               "return_url": "myapp://result=aprobada&identifier=ord-1", "now": T0},
         V, "return_url"),
        ("start-request-return-url-empty-host", {"type": "checkout.start", "flow_id": "c2",
                                                 "request": {**CARD_REQUEST, "return_url": "myapp://"}, "now": T0},
         V, "request.return_url"),
        ("start-nonce-with-slash", {"type": "checkout.start", "flow_id": "c2", "kind": "cards", "return_url": RETURN_URL,
                                    "nonce": N2[:16] + "/" + N2[17:], "now": T0}, V, "nonce"),
        ("start-negative-deadline", {"type": "checkout.start", "flow_id": "c2", "kind": "cards",
                                     "return_url": RETURN_URL, "deadline": -5, "now": T0}, V, "deadline"),
        ("session-http-checkout-url", {"type": "checkout.session", "flow_id": "c1",
                                       "session": {"kind": "cards", "checkout_url": "http://pay.example.com/c/1"},
                                       "now": T0}, V, "session.checkout_url"),
        ("confirmation-unknown-type", {"type": "checkout.confirmation", "flow_id": "c1",
                                       "event": {"type": "charge.succeeded", "data": {"id": "ch_1"}}, "now": T0},
         V, "event.type"),
        ("url-without-url", {"type": "url", "now": T0}, V, "url"),
        ("url-number", {"type": "url", "url": 5, "now": T0}, J, "url"),
        ("tick-with-flow-id", {"type": "tick", "flow_id": "c1", "now": T0}, V, "flow_id"),
        ("event-not-an-object", "tick", J, None),
    ]
    for name, event, code, field_ in cases:
        s.add_checked(f"flow-checkout-invalid-event-{name}", f"invalid event document: {code} naming {field_}",
                      [start, bad(event, code, field_, "c1=awaiting_session"),
                       S(c_session(T0 + 2000), "accepted", "c1=ready", "c1:open_browser c1:persist")])


# -- POS: every state x every event

POS_PREFIX = {
    "ready": ([p_start(T0)], T0),
    "launched": ([p_start(T0), p_launched(T0 + 1000)], T0 + 1000),
    "launch_failed": ([p_start(T0), p_launch_failed(T0 + 1000)], T0 + 1000),
    "approved": ([p_start(T0), p_launched(T0 + 1000), at(ANS_APPROVED, T0 + MINUTE)], T0 + MINUTE),
    "approved_amount_mismatch": ([p_start(T0), p_launched(T0 + 1000), at(ANS_OTHER_AMOUNT, T0 + MINUTE)], T0 + MINUTE),
    "declined": ([p_start(T0), p_launched(T0 + 1000), at(ANS_DECLINED, T0 + MINUTE)], T0 + MINUTE),
    "error": ([p_start(T0), p_launched(T0 + 1000), at(ANS_ERROR, T0 + MINUTE)], T0 + MINUTE),
    "returned_without_response": ([p_start(T0), p_launched(T0 + 1000), foregrounded(T0 + 30000),
                                   tick(T0 + 30000 + DEFAULT_GRACE)], T0 + 30000 + DEFAULT_GRACE),
    "unrecognized_result": ([p_start(T0), p_launched(T0 + 1000), at(answer_url("pendiente"), T0 + MINUTE)], T0 + MINUTE),
}

POS_EVENTS = [
    ("launched", "pos.launched", lambda t: [p_launched(t)]),
    ("launch-failed", "pos.launch_failed (the POS app could not be opened)", lambda t: [p_launch_failed(t)]),
    ("app-foregrounded", "app.foregrounded", lambda t: [foregrounded(t)]),
    ("tick-before-grace", "app.foregrounded, then a tick 1 ms before the grace period is over",
     lambda t: [foregrounded(t), tick(t + DEFAULT_GRACE - 1)]),
    ("tick-after-grace", "app.foregrounded, then a tick when the grace period is over",
     lambda t: [foregrounded(t), tick(t + DEFAULT_GRACE)]),
    ("answer-approved", "answer aprobada for the requested amount, matching identifier", lambda t: [at(ANS_APPROVED, t)]),
    ("answer-declined", "answer rechazada, matching identifier", lambda t: [at(ANS_DECLINED, t)]),
    ("answer-error", "answer error, matching identifier", lambda t: [at(ANS_ERROR, t)]),
    ("answer-approved-twice", "the same aprobada answer delivered twice",
     lambda t: [at(ANS_APPROVED, t), at(ANS_APPROVED, t + 500)]),
    ("answer-other-identifier", "an aprobada answer for identifier ord-999: no flow has it",
     lambda t: [at(ANS_OTHER_ID, t)]),
    ("answer-other-amount", "an aprobada answer for 90.00 when 100.00 was requested", lambda t: [at(ANS_OTHER_AMOUNT, t)]),
    ("answer-forged-without-token", "a forged aprobada answer with identifier=ord-1 and no token: refused, nothing changes",
     lambda t: [at(ANS_FORGED, t)]),
    ("answer-other-token", "an aprobada answer with ord-1 and another flow's token: refused, nothing changes",
     lambda t: [at(ANS_OTHER_TOKEN, t)]),
    ("result-approved", "pos.result (Android extras) aprobada for the requested amount, the flow's identifier~token",
     lambda t: [p_result(t, RES_APPROVED)]),
    ("result-declined", "pos.result rechazada", lambda t: [p_result(t, RES_DECLINED)]),
    ("result-other-amount", "pos.result aprobada for 90.00 when 100.00 was requested",
     lambda t: [p_result(t, result_extras("aprobada", amount="90.00"))]),
    ("result-forged-without-token", "pos.result with identifier=ord-1 and no token: refused, nothing changes",
     lambda t: [p_result(t, result_extras("aprobada", flow=None))]),
    ("result-then-url", "the approval as pos.result, then the same answer as a URL: a duplicate",
     lambda t: [p_result(t, RES_APPROVED), at(ANS_APPROVED, t + 500)]),
    # Issue 30: the words real integrations send and onActivityResult without data.
    ("answer-declinada", "answer declinada (Billpocket's own plugin's word): a decline",
     lambda t: [at(answer_url("declinada"), t)]),
    ("answer-unknown-word", "answer with a result word PayHandoff does not know: unrecognized, reconcile, never approved",
     lambda t: [at(answer_url("pendiente"), t)]),
    ("answer-unknown-word-twice", "the same unknown answer twice",
     lambda t: [at(answer_url("pendiente"), t), at(answer_url("pendiente"), t + 500)]),
    ("result-capitalized", "pos.result Rechazada (a word compared ignoring case)",
     lambda t: [p_result(t, result_extras("Rechazada"))]),
    ("result-no-data", "pos.result without extras (onActivityResult with no data: the user backed out)",
     lambda t: [ev("pos.result", t, flow_id="p1")]),
    ("result-null-extras", "pos.result with extras null", lambda t: [ev("pos.result", t, flow_id="p1", extras=None)]),
    ("result-empty-extras-then-url", "pos.result with extras {}, then the genuine approval by URL: the late answer resolves it",
     lambda t: [ev("pos.result", t, flow_id="p1", extras={}), at(ANS_APPROVED, t + 500)]),
]


def pos_table() -> Suite:
    s = Suite(SUITE)
    for state in P_STATES:
        prefix, reached = POS_PREFIX[state]
        t = reached + 10 * SECOND
        for name, what, make in POS_EVENTS:
            s.add_model(f"flow-pos-{kebab(state)}-{name}", f"POS sale in {state}: {what}", prefix + make(t))
    pos_extras(s)
    return s


def pos_extras(s: Suite):
    start = S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist")
    launched = S(p_launched(T0 + 1000), "accepted", "p1=launched", "p1:persist")
    c_ready = S(c_start(T0 + 500, session=SESSION_CARDS), "accepted", "p1=ready c1=ready", "c1:open_browser c1:persist")
    uf = ("unknown_flow", "flow_id")
    for name, step in [("launched", p_launched(T0 + 5000, flow_id="p9")),
                       ("launch-failed", p_launch_failed(T0 + 5000, flow_id="p9")),
                       ("remove", ev("flow.remove", T0 + 5000, flow_id="p9"))]:
        s.add_checked(f"flow-pos-unknown-flow-{name}", f"{step['event']['type']} names a flow that does not exist",
                      [start, S(step, "rejected", "p1=ready", "", uf)])
    wrong = ("invalid_state", "flow_id")
    for name, step in [("launched", p_launched(T0 + 5000, flow_id="c1")),
                       ("launch-failed", p_launch_failed(T0 + 5000, flow_id="c1"))]:
        s.add_checked(f"flow-pos-event-on-checkout-flow-{name}",
                      f"{step['event']['type']} sent to a checkout flow: wrong flow type",
                      [start, c_ready, S(step, "rejected", "p1=ready c1=ready", "", wrong)])
    s.add_checked("flow-pos-start-id-of-checkout-flow", "pos.start with the id of an existing checkout flow",
                  [start, c_ready, S(p_start(T0 + 1000, flow_id="c1", request=sale_request("ord-2")), "rejected",
                                     "p1=ready c1=ready", "", ("duplicate", "flow_id"))])
    s.add_checked("flow-pos-answer-scheme-case", "the answer's scheme is compared ignoring case",
                  [start, launched, S(at(answer_url("aprobada", scheme="MyApp"), T0 + MINUTE), "accepted", "p1=approved",
                                      "p1:persist")])
    s.add_checked("flow-pos-answer-usertoken-echo-and-extras",
                  "an echoed usertoken is dropped; statusinfo= empty counts as absent; unknown keys are kept",
                  [start, launched,
                   S(at(answer_url("aprobada", extra=[("usertoken", USER_TOKEN), ("statusinfo", ""),
                                                      ("creditcard", "XXXX-XXXX-XXXX-4242"), ("campaign", "nov")]),
                        T0 + MINUTE), "accepted", "p1=approved", "p1:persist")])
    s.add_checked("flow-pos-answer-without-identifier", "an answer without identifier cannot be routed: refused",
                  [start, launched, S(at("myapp://result=aprobada&amount=100.00&transactionid=720371", T0 + MINUTE),
                                      "rejected", "p1=launched", "", ("validation", "identifier"))])
    s.add_checked("flow-pos-answer-approved-without-amount", "an approved answer must carry the amount",
                  [start, launched, S(at(answer_url("aprobada", amount=None), T0 + MINUTE), "rejected", "p1=launched",
                                      "", ("validation", "amount"))])
    s.add_checked("flow-pos-answer-unknown-result", "issue 30: a result word PayHandoff does not know ends the wait at "
                  "once (unrecognized_result, reconcile), never an approval and nothing booked",
                  [start, launched, S(at(answer_url("pendiente"), T0 + MINUTE), "accepted", "p1=unrecognized_result",
                                      "p1:reconcile p1:persist")])
    s.add_checked("flow-pos-answer-duplicate-key", "a key that appears twice is refused",
                  [start, launched, S(at(ANS_APPROVED + "&Result=rechazada", T0 + MINUTE), "rejected", "p1=launched",
                                      "", ("malformed_url", "Result"))])
    s.add_checked("flow-pos-answer-with-question-mark", "a leading '?' after scheme:// is tolerated",
                  [start, launched, S(at(ANS_APPROVED.replace("://", "://?"), T0 + MINUTE), "accepted", "p1=approved",
                                      "p1:persist")])
    s.add_checked("flow-pos-config-grace", "pos_grace_ms in the config: 10 s before the outcome is unknown",
                  [start, launched, S(foregrounded(T0 + 20000), "accepted", "p1=launched", "p1:persist"),
                   S(tick(T0 + 23000), "accepted", "p1=launched"),
                   S(tick(T0 + 30000), "accepted", "p1=returned_without_response", "p1:reconcile p1:persist")],
                  config={"pos_grace_ms": 10000})
    s.add_checked("flow-pos-start-grace-ms", "grace_ms on pos.start overrides the config for that flow",
                  [S(p_start(T0, grace_ms=0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"), launched,
                   S(foregrounded(T0 + 20000), "accepted", "p1=launched", "p1:persist"),
                   S(tick(T0 + 20000), "accepted", "p1=returned_without_response", "p1:reconcile p1:persist")])
    s.add_checked("flow-pos-foregrounded-twice", "only the first return to the foreground counts for the grace period",
                  [start, launched, S(foregrounded(T0 + 20000), "accepted", "p1=launched", "p1:persist"),
                   S(foregrounded(T0 + 22000), "accepted", "p1=launched"),
                   S(tick(T0 + 23000), "accepted", "p1=returned_without_response", "p1:reconcile p1:persist")])
    s.add_checked("flow-pos-tick-without-foreground", "ticks alone never make a launched flow unknown",
                  [start, launched, S(tick(T0 + HOUR), "accepted", "p1=launched")])

    V, J = "validation", "invalid_json"
    sale_doc = {"transactionid": "555001", "amount": "100.00", "approved_at": T0 // 1000 - 600}
    cases = [
        ("start-missing-request", {"type": "pos.start", "flow_id": "p2", "now": T0}, V, "request"),
        ("start-refund-without-sale", {"type": "pos.start", "flow_id": "p2", "request": refund_request("ref-1"),
                                       "now": T0}, V, "sale_flow_id"),
        ("start-sale-with-sale-flow-id", {"type": "pos.start", "flow_id": "p2", "request": sale_request("ord-2"),
                                          "sale_flow_id": "p1", "now": T0}, V, "sale_flow_id"),
        ("start-sale-with-sale", {"type": "pos.start", "flow_id": "p2", "request": sale_request("ord-2"),
                                  "sale": sale_doc, "now": T0}, V, "sale"),
        ("start-refund-with-both", {"type": "pos.start", "flow_id": "p2", "request": refund_request("ref-1", "555001"),
                                    "sale_flow_id": "p1", "sale": sale_doc, "now": T0}, V, "sale"),
        ("start-sale-unknown-member", {"type": "pos.start", "flow_id": "p2", "request": refund_request("ref-1", "555001"),
                                       "sale": {**sale_doc, "approvedAt": 1}, "now": T0}, V, "sale.approvedAt"),
        ("start-sale-missing-amount", {"type": "pos.start", "flow_id": "p2", "request": refund_request("ref-1", "555001"),
                                       "sale": {k: v for k, v in sale_doc.items() if k != "amount"}, "now": T0},
         V, "sale.amount"),
        ("start-sale-approved-at-ms", {"type": "pos.start", "flow_id": "p2", "request": refund_request("ref-1", "555001"),
                                       "sale": {**sale_doc, "approved_at": T0 * 1000}, "now": T0},
         V, "sale.approved_at"),
        ("start-grace-too-long", {"type": "pos.start", "flow_id": "p2", "request": sale_request("ord-2"),
                                  "grace_ms": 3600001, "now": T0}, V, "grace_ms"),
        ("start-grace-text", {"type": "pos.start", "flow_id": "p2", "request": sale_request("ord-2"),
                              "grace_ms": "3000", "now": T0}, J, "grace_ms"),
        ("start-tip-on-refund", {"type": "pos.start", "flow_id": "p2",
                                 "request": {**refund_request("ref-1"), "tip": "5.00"}, "sale_flow_id": "p1",
                                 "now": T0}, V, "request.tip"),
        ("start-zero-amount", {"type": "pos.start", "flow_id": "p2", "request": sale_request("ord-2", "0.00"),
                               "now": T0}, V, "request.amount"),
        ("launch-failed-reason-number", {"type": "pos.launch_failed", "flow_id": "p1", "reason": 404, "now": T0},
         J, "reason"),
        ("launched-with-reason", {"type": "pos.launched", "flow_id": "p1", "reason": "ok", "now": T0}, V, "reason"),
        ("foregrounded-with-flow-id", {"type": "app.foregrounded", "flow_id": "p1", "now": T0}, V, "flow_id"),
        ("remove-without-flow-id", {"type": "flow.remove", "now": T0}, V, "flow_id"),
    ]
    for name, event, code, field_ in cases:
        s.add_checked(f"flow-pos-invalid-event-{name}", f"invalid event document: {code} naming {field_}",
                      [start, bad(event, code, field_, "p1=ready"), launched])


# -- races and rules

def c_in_browser(flow_id="c1", nonce=N1, others: str = "", t=T0) -> list:
    """c1 started (backend form), session, tab open: the usual prefix, with its expected summaries."""
    pre = (others + " ") if others else ""
    return [
        S(c_start(t, flow_id=flow_id, nonce=nonce), "accepted", f"{pre}{flow_id}=awaiting_session",
          f"{flow_id}:create_session {flow_id}:persist"),
        S(c_session(t + 2000, flow_id=flow_id), "accepted", f"{pre}{flow_id}=ready", f"{flow_id}:open_browser {flow_id}:persist"),
        S(c_opened(t + 3000, flow_id=flow_id), "accepted", f"{pre}{flow_id}=in_browser", f"{flow_id}:persist"),
    ]


COMPLETED_EFFECTS = "c1:close_browser c1:show_pending c1:persist"
A = T0 + MINUTE  # when the sale of the refund scripts is approved (a whole second)


def p_sold(others: str = "", answer=ANS_APPROVED) -> list:
    """p1: a 100.00 sale approved at A (transactionid 720371)."""
    pre = (others + " ") if others else ""
    return [
        S(p_start(T0), "accepted", f"{pre}p1=ready", "p1:open_pos_app p1:persist"),
        S(p_launched(T0 + 1000), "accepted", f"{pre}p1=launched", "p1:persist"),
        S(at(answer, A), "accepted", f"{pre}p1=approved", "p1:persist"),
    ]


def refund_answer(identifier: str, amount: str, txn: str, flow: str) -> str:
    return answer_url("aprobada", identifier=identifier, amount=amount, txn=txn, flow=flow)


def races() -> Suite:
    s = Suite(SUITE)
    r = s.add_checked

    # -- checkout races
    r("flow-race-confirmation-before-deep-link",
      "the webhook arrives while the tab is still open: confirmed (tab closed); the deep link after it is ignored",
      c_in_browser() + [
          S(c_confirm(T0 + 50000), "accepted", "c1=confirmed", "c1:close_browser c1:persist"),
          S(at(CB_COMPLETED, T0 + 52000), "ignored", "c1=confirmed"),
          S(c_confirm(T0 + 53000, CONF_VISA_RETRY), "duplicate", "c1=confirmed"),
      ])
    r("flow-race-deep-link-failed-then-confirmation",
      "the deep link says failed but the webhook confirms: the confirmation wins; the failed link again is a duplicate",
      c_in_browser() + [
          S(at(CB_FAILED, T0 + 50000), "accepted", "c1=failed", "c1:close_browser c1:persist"),
          S(c_confirm(T0 + 60000), "accepted", "c1=confirmed", "c1:persist"),
          S(at(CB_FAILED, T0 + 61000), "duplicate", "c1=confirmed"),
      ])
    r("flow-race-deep-link-cancelled-then-confirmation", "cancelled by the deep link, confirmed by the webhook: confirmed",
      c_in_browser() + [
          S(at(CB_CANCELLED, T0 + 50000), "accepted", "c1=cancelled", "c1:close_browser c1:persist"),
          S(c_confirm(T0 + 60000), "accepted", "c1=confirmed", "c1:persist"),
      ])
    r("flow-race-session-failed-then-confirmation",
      "the host reported the request failed, yet a webhook arrives (it had reached the gateway): confirmed",
      [S(c_start(T0), "accepted", "c1=awaiting_session", "c1:create_session c1:persist"),
       S(c_session_failed(T0 + 5000), "accepted", "c1=failed", "c1:persist"),
       S(c_session(T0 + 6000), "ignored", "c1=failed"),
       S(c_confirm(T0 + 90000), "accepted", "c1=confirmed", "c1:persist")])
    r("flow-race-dismissed-then-deep-link-completed",
      "the tab closes before the deep link arrives: returned without a result (not a failure), then the link resolves it",
      c_in_browser() + [
          S(c_dismissed(T0 + 40000), "accepted", "c1=returned_without_result", "c1:persist"),
          S(at(CB_COMPLETED, T0 + 40500), "accepted", "c1=awaiting_confirmation", COMPLETED_EFFECTS),
          S(c_dismissed(T0 + 41000), "ignored", "c1=awaiting_confirmation"),
          S(c_confirm(T0 + 45000), "accepted", "c1=confirmed", "c1:persist"),
      ])
    r("flow-race-dismissed-then-confirmation",
      "the tab closes and no deep link ever comes; the webhook still confirms; a late deep link is ignored",
      c_in_browser() + [
          S(c_dismissed(T0 + 40000), "accepted", "c1=returned_without_result", "c1:persist"),
          S(c_confirm(T0 + 45000), "accepted", "c1=confirmed", "c1:persist"),
          S(at(CB_COMPLETED, T0 + 46000), "ignored", "c1=confirmed"),
      ])
    r("flow-race-dismissed-reopened-then-deep-link",
      "the user closes the tab, reopens it and finishes: the flow is still resolved by the deep link",
      c_in_browser() + [
          S(c_dismissed(T0 + 40000), "accepted", "c1=returned_without_result", "c1:persist"),
          S(c_opened(T0 + 50000), "accepted", "c1=in_browser", "c1:persist"),
          S(at(CB_COMPLETED, T0 + 90000), "accepted", "c1=awaiting_confirmation", COMPLETED_EFFECTS),
      ])
    r("flow-race-deep-link-after-cancelled",
      "a deep link after the flow ended is reported and ignored; the same cancelled link again is a duplicate",
      c_in_browser() + [
          S(at(CB_CANCELLED, T0 + 50000), "accepted", "c1=cancelled", "c1:close_browser c1:persist"),
          S(at(CB_COMPLETED, T0 + 51000), "ignored", "c1=cancelled"),
          S(at(CB_CANCELLED, T0 + 52000), "duplicate", "c1=cancelled"),
      ])
    r("flow-race-deep-link-after-expiry",
      "no confirmation by the deadline: expired (reconcile); a late deep link is ignored, a late confirmation still wins",
      c_in_browser() + [
          S(tick(C_DEADLINE), "accepted", "c1=expired", "c1:close_browser c1:reconcile c1:persist"),
          S(at(CB_COMPLETED, C_DEADLINE + 1000), "ignored", "c1=expired"),
          S(c_confirm(C_DEADLINE + 2000), "accepted", "c1=confirmed", "c1:persist"),
      ])
    r("flow-race-awaiting-confirmation-expires",
      "the deep link said completed but no webhook came by the deadline: expired with reconcile",
      c_in_browser() + [
          S(at(CB_COMPLETED, T0 + 60000), "accepted", "c1=awaiting_confirmation", COMPLETED_EFFECTS),
          S(tick(C_DEADLINE - 1), "accepted", "c1=awaiting_confirmation"),
          S(tick(C_DEADLINE), "accepted", "c1=expired", "c1:close_browser c1:reconcile c1:persist"),
      ])
    r("flow-race-spoofed-callback-refused",
      "a forged callback without the nonce while the 3-D Secure tab is open: refused by default, nothing changes "
      "(no close_browser); the genuine link then resolves the flow",
      c_in_browser() + [
          S(at(CB_NO_NONCE, T0 + 20000), "rejected", "c1=in_browser", "", ("callback_mismatch", "nonce")),
          S(at(callback_url("failed", nonce=None, object_id=None, reason="x"), T0 + 21000), "rejected", "c1=in_browser", "",
            ("callback_mismatch", "nonce")),
          S(at(callback_url("cancelled", nonce=None, object_id=None), T0 + 22000), "rejected", "c1=in_browser", "",
            ("callback_mismatch", "nonce")),
          S(at(CB_COMPLETED, T0 + 60000), "accepted", "c1=awaiting_confirmation", COMPLETED_EFFECTS),
          S(c_confirm(T0 + 65000), "accepted", "c1=confirmed", "c1:persist"),
      ])
    r("flow-race-spoofed-callback-one-waiting",
      "accept_unverified_callbacks: a callback without the nonce while one checkout waits is a claim: it shows "
      "pending, never moves the flow or closes the browser, and is answered accepted each time (issue 24); the "
      "genuine (verified) link then replaces the claim and closes it; only the webhook confirms",
      c_in_browser() + [
          S(at(CB_NO_NONCE, T0 + 20000), "accepted", "c1=in_browser", "c1:show_pending c1:persist"),
          S(at(CB_NO_NONCE, T0 + 20500), "accepted", "c1=in_browser", "c1:show_pending"),
          S(at(CB_COMPLETED, T0 + 60000), "accepted", "c1=awaiting_confirmation", COMPLETED_EFFECTS),
          S(at(CB_COMPLETED, T0 + 60500), "duplicate", "c1=awaiting_confirmation"),
          S(at(CB_NO_NONCE, T0 + 60600), "ignored", "c1=awaiting_confirmation"),
          S(tick(T0 + 60001), "accepted", "c1=awaiting_confirmation"),
          S(c_confirm(T0 + 65000), "accepted", "c1=confirmed", "c1:persist"),
      ], config={"accept_unverified_callbacks": True})
    r("flow-race-unverified-failed-claim-kept",
      "accept_unverified_callbacks: an unverified failed or cancelled callback never ends the flow: the state stays, "
      "the latest claim is kept (persist when it changes) and each is answered accepted (issue 24: the first claim "
      "does not suppress later ones); the verified callback replaces the claim",
      c_in_browser() + [
          S(at(callback_url("failed", nonce=None, object_id=None, reason="x"), T0 + 20000), "accepted", "c1=in_browser",
            "c1:persist"),
          S(at(callback_url("failed", nonce=None, object_id=None, reason="x"), T0 + 20500), "accepted", "c1=in_browser"),
          S(at(callback_url("cancelled", nonce=None, object_id=None), T0 + 21000), "accepted", "c1=in_browser", "c1:persist"),
          S(at(CB_NO_NONCE, T0 + 21500), "accepted", "c1=in_browser", "c1:show_pending c1:persist"),
          S(c_dismissed(T0 + 30000), "accepted", "c1=returned_without_result", "c1:persist"),
          S(RESTORE, "restored", "c1=returned_without_result"),
          S(at(CB_COMPLETED, T0 + 60000), "accepted", "c1=awaiting_confirmation", COMPLETED_EFFECTS),
          S(c_confirm(T0 + 65000), "accepted", "c1=confirmed", "c1:persist"),
      ], config={"accept_unverified_callbacks": True})
    r("flow-race-unverified-cancelled-then-verified-failed",
      "accept_unverified_callbacks: a cancelled claim, then the verified failed callback ends the flow",
      c_in_browser() + [
          S(at(callback_url("cancelled", nonce=None, object_id=None), T0 + 20000), "accepted", "c1=in_browser", "c1:persist"),
          S(at(callback_url("failed", object_id=None, reason="OTP"), T0 + 21000), "accepted", "c1=failed",
            "c1:close_browser c1:persist"),
          S(at(callback_url("cancelled", nonce=None, object_id=None), T0 + 22000), "ignored", "c1=failed"),
      ], config={"accept_unverified_callbacks": True})
    r("flow-race-unverified-claim-then-expiry",
      "accept_unverified_callbacks: a completed claim does not stop the deadline; once expired, even the verified "
      "callback is only ignored, the webhook still confirms",
      c_in_browser() + [
          S(at(CB_NO_NONCE, T0 + 20000), "accepted", "c1=in_browser", "c1:show_pending c1:persist"),
          S(tick(C_DEADLINE), "accepted", "c1=expired", "c1:close_browser c1:reconcile c1:persist"),
          S(at(CB_COMPLETED, C_DEADLINE + 1000), "ignored", "c1=expired"),
          S(c_confirm(C_DEADLINE + 2000), "accepted", "c1=confirmed", "c1:persist"),
      ], config={"accept_unverified_callbacks": True})
    r("flow-race-spoofed-callback-two-waiting",
      "accept_unverified_callbacks: two checkouts wait on the same return URL: a callback without nonce is ambiguous "
      "and refused; the nonce picks one",
      c_in_browser() + c_in_browser("c2", N2, others="c1=in_browser", t=T0 + 10000) + [
          S(at(CB_NO_NONCE, T0 + 30000), "rejected", "c1=in_browser c2=in_browser", "",
            ("callback_mismatch", "nonce")),
          S(at(callback_url("completed", nonce=N2), T0 + 40000), "accepted",
            "c1=in_browser c2=awaiting_confirmation", "c2:close_browser c2:show_pending c2:persist"),
          S(at(CB_WRONG_NONCE, T0 + 41000), "rejected", "c1=in_browser c2=awaiting_confirmation", "",
            ("callback_mismatch", "nonce")),
          S(at(CB_COMPLETED, T0 + 50000), "accepted", "c1=awaiting_confirmation c2=awaiting_confirmation",
            COMPLETED_EFFECTS),
      ], config={"accept_unverified_callbacks": True})
    r("flow-race-unverified-callback-after-other-consumed",
      "accept_unverified_callbacks: of two checkouts on one return URL only c1 still takes a callback (c2 awaits its "
      "confirmation): a callback without nonce goes to c1, as a claim",
      c_in_browser() + c_in_browser("c2", N2, others="c1=in_browser", t=T0 + 10000) + [
          S(at(callback_url("completed", nonce=N2), T0 + 40000), "accepted",
            "c1=in_browser c2=awaiting_confirmation", "c2:close_browser c2:show_pending c2:persist"),
          S(at(CB_NO_NONCE, T0 + 50000), "accepted", "c1=in_browser c2=awaiting_confirmation",
            "c1:show_pending c1:persist"),
      ], config={"accept_unverified_callbacks": True})
    r("flow-race-unverified-callback-none-waiting",
      "accept_unverified_callbacks: no checkout on the return URL takes a callback any more: a callback without nonce "
      "goes to the last one, which answers ignored",
      c_in_browser() + [
          S(at(CB_CANCELLED, T0 + 40000), "accepted", "c1=cancelled", "c1:close_browser c1:persist"),
          S(at(CB_NO_NONCE, T0 + 50000), "ignored", "c1=cancelled"),
      ], config={"accept_unverified_callbacks": True})
    r("flow-race-spoofed-failed-callback",
      "accept_unverified_callbacks: an unverified failed callback keeps the flow waiting with the tab open (it is "
      "only a claim); the webhook still wins and closes the tab",
      c_in_browser() + [
          S(at(callback_url("failed", nonce=None, object_id=None), T0 + 20000), "accepted", "c1=in_browser",
            "c1:persist"),
          S(c_confirm(T0 + 65000), "accepted", "c1=confirmed", "c1:close_browser c1:persist"),
      ], config={"accept_unverified_callbacks": True})
    r("flow-race-url-of-no-flow",
      "URLs no flow claims are not_ours (another part of the app may handle them); malformed ones are rejected",
      [S(at(CB_COMPLETED, T0 - 1000), "not_ours"),
       S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist")] + [
          S(c_start(T0 + 100), "accepted", "p1=ready c1=awaiting_session", "c1:create_session c1:persist"),
          S(at("otherapp://hello?status=completed", T0 + 5000), "not_ours", "p1=ready c1=awaiting_session"),
          S(at("fixapp://other-path?status=completed&card_id=card_xyz&ph_nonce=" + N1, T0 + 5100), "not_ours",
            "p1=ready c1=awaiting_session"),
          S(at("fixapp://checkout-callback/extra?status=completed&card_id=card_xyz&ph_nonce=" + N1, T0 + 5200),
            "not_ours", "p1=ready c1=awaiting_session"),
          S(at("fixapp://checkout-callback:8080?status=completed&card_id=card_xyz&ph_nonce=" + N1, T0 + 5300),
            "not_ours", "p1=ready c1=awaiting_session"),
          S(at("https://fix.example.com/checkout-callback?status=completed", T0 + 5400), "not_ours",
            "p1=ready c1=awaiting_session"),
          S(at("FIXAPP://Checkout-Callback?status=cancelled&ph_nonce=" + N1, T0 + 5450), "rejected",
            "p1=ready c1=awaiting_session", "", ("callback_mismatch", "nonce")),
          S(at("fixapp://checkout-callback/ph_" + N_WRONG + "?status=cancelled", T0 + 5460), "rejected",
            "p1=ready c1=awaiting_session", "", ("callback_mismatch", "nonce")),
          S(at("fixapp://checkout-callback/ph_" + N1 + "/x?status=cancelled", T0 + 5470), "not_ours",
            "p1=ready c1=awaiting_session"),
          S(at("FIXAPP://Checkout-Callback/ph_" + N1 + "?status=cancelled", T0 + 5500), "accepted",
            "p1=ready c1=cancelled", "c1:close_browser c1:persist"),
          S(at("fixapp://checkout callback?status=completed", T0 + 5600), "rejected", "p1=ready c1=cancelled", "",
            ("malformed_url", "url")),
          S(at("checkout-callback?status=completed", T0 + 5700), "rejected", "p1=ready c1=cancelled", "",
            ("malformed_url", "url")),
      ])

    # -- POS races
    r("flow-race-pos-answer-unknown-identifier",
      "an answer on our scheme for an identifier no hand-off has is rejected; the right one then resolves the flow",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(p_launched(T0 + 1000), "accepted", "p1=launched", "p1:persist"),
       S(at(ANS_OTHER_ID, T0 + 30000), "rejected", "p1=launched", "", ("callback_mismatch", "identifier")),
       S(at(ANS_APPROVED, T0 + MINUTE), "accepted", "p1=approved", "p1:persist")])
    r("flow-race-pos-two-sales-routed-by-identifier",
      "two POS hand-offs on the same scheme: each answer goes to the flow with its identifier",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(p_start(T0 + 100, flow_id="p2", request=sale_request("ord-2", "250.50")), "accepted", "p1=ready p2=ready",
         "p2:open_pos_app p2:persist"),
       S(at(answer_url("aprobada", identifier="ord-2", amount="250.50", txn="720372", flow="p2"), T0 + MINUTE), "accepted",
         "p1=ready p2=approved", "p2:persist"),
       S(at(ANS_DECLINED, T0 + MINUTE + 1000), "accepted", "p1=declined p2=approved", "p1:persist")])
    r("flow-race-pos-back-without-answer-then-late-answer",
      "the user comes back without an answer: unknown (never declined) after the grace period, reconcile; "
      "a late answer still resolves the flow",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(p_launched(T0 + 1000), "accepted", "p1=launched", "p1:persist"),
       S(foregrounded(T0 + 40000), "accepted", "p1=launched", "p1:persist"),
       S(tick(T0 + 41000), "accepted", "p1=launched"),
       S(tick(T0 + 43000), "accepted", "p1=returned_without_response", "p1:reconcile p1:persist"),
       S(tick(T0 + 50000), "accepted", "p1=returned_without_response"),
       S(at(ANS_APPROVED, T0 + 70000), "accepted", "p1=approved", "p1:persist"),
       S(at(ANS_APPROVED, T0 + 71000), "duplicate", "p1=approved")])
    r("flow-race-pos-answer-within-grace",
      "the answer arrives right after the app comes back, within the grace period: approved, no reconcile",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(p_launched(T0 + 1000), "accepted", "p1=launched", "p1:persist"),
       S(foregrounded(T0 + 40000), "accepted", "p1=launched", "p1:persist"),
       S(at(ANS_APPROVED, T0 + 40300), "accepted", "p1=approved", "p1:persist"),
       S(tick(T0 + 43000), "accepted", "p1=approved")])
    r("flow-race-pos-answer-before-launched",
      "the answer arrives before the host reported pos.launched: resolved; the late pos.launched is ignored",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_APPROVED, T0 + 30000), "accepted", "p1=approved", "p1:persist"),
       S(p_launched(T0 + 30001), "ignored", "p1=approved")])
    r("flow-race-pos-app-missing",
      "the POS app is not installed: launch_failed with a hint to install it and log in; reported twice is a duplicate",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(p_launch_failed(T0 + 500), "accepted", "p1=launch_failed", "p1:show_hint p1:persist"),
       S(p_launch_failed(T0 + 600), "duplicate", "p1=launch_failed"),
       S(foregrounded(T0 + 1000), "accepted", "p1=launch_failed"),
       S(tick(T0 + 10000), "accepted", "p1=launch_failed")])
    r("flow-race-pos-amount-mismatch",
      "the POS app approved another amount than requested: approved_amount_mismatch with reconcile, never approved",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(p_launched(T0 + 1000), "accepted", "p1=launched", "p1:persist"),
       S(at(ANS_OTHER_AMOUNT, T0 + MINUTE), "accepted", "p1=approved_amount_mismatch", "p1:reconcile p1:persist"),
       S(at(ANS_APPROVED, T0 + MINUTE + 1000), "ignored", "p1=approved_amount_mismatch")])

    # -- mixed
    r("flow-race-tick-reaches-every-flow",
      "one tick expires the checkout and ends the POS grace period: effects in flow order (oldest first)",
      c_in_browser() + [
          S(p_start(T0 + 4000), "accepted", "c1=in_browser p1=ready", "p1:open_pos_app p1:persist"),
          S(p_launched(T0 + 5000), "accepted", "c1=in_browser p1=launched", "p1:persist"),
          S(foregrounded(C_DEADLINE - 1000), "accepted", "c1=in_browser p1=launched", "p1:persist"),
          S(tick(C_DEADLINE + 5000), "accepted", "c1=expired p1=returned_without_response",
            "c1:close_browser c1:reconcile c1:persist p1:reconcile p1:persist"),
      ])
    r("flow-race-foregrounded-reaches-every-pos-flow",
      "app.foregrounded is noted by every launched POS flow; checkouts are not touched",
      c_in_browser() + [
          S(p_start(T0 + 4000), "accepted", "c1=in_browser p1=ready", "p1:open_pos_app p1:persist"),
          S(p_launched(T0 + 5000), "accepted", "c1=in_browser p1=launched", "p1:persist"),
          S(p_start(T0 + 6000, flow_id="p2", request=sale_request("ord-2")), "accepted",
            "c1=in_browser p1=launched p2=ready", "p2:open_pos_app p2:persist"),
          S(p_launched(T0 + 7000, flow_id="p2"), "accepted", "c1=in_browser p1=launched p2=launched", "p2:persist"),
          S(foregrounded(T0 + 20000), "accepted", "c1=in_browser p1=launched p2=launched", "p1:persist p2:persist"),
      ])
    r("flow-race-pos-and-checkout-share-a-scheme",
      "a checkout and a POS hand-off on the same scheme: the return URL's host/path picks the checkout, "
      "anything else on the scheme is a POS answer",
      [S(c_start(T0, return_url="myapp://checkout-callback", session=SESSION_CARDS), "accepted", "c1=ready",
         "c1:open_browser c1:persist"),
       S(p_start(T0 + 100), "accepted", "c1=ready p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_APPROVED, T0 + MINUTE), "accepted", "c1=ready p1=approved", "p1:persist"),
       S(at(callback_url("completed", base="myapp://checkout-callback"), T0 + MINUTE + 1000), "accepted",
         "c1=awaiting_confirmation p1=approved", COMPLETED_EFFECTS)])

    # -- restore (process death) in the middle of each flow
    r("flow-restore-checkout-midway",
      "restored from its snapshot at every stage, the checkout goes on exactly as before "
      "(nonce, consumed callback, confirmation and deadline survive)",
      [S(c_start(T0), "accepted", "c1=awaiting_session", "c1:create_session c1:persist"),
       S(RESTORE, "restored", "c1=awaiting_session"),
       S(c_session(T0 + 2000), "accepted", "c1=ready", "c1:open_browser c1:persist"),
       S(c_opened(T0 + 3000), "accepted", "c1=in_browser", "c1:persist"),
       S(RESTORE, "restored", "c1=in_browser"),
       S(at(CB_WRONG_NONCE, T0 + 50000), "rejected", "c1=in_browser", "", ("callback_mismatch", "nonce")),
       S(at(CB_COMPLETED, T0 + 60000), "accepted", "c1=awaiting_confirmation", COMPLETED_EFFECTS),
       S(RESTORE, "restored", "c1=awaiting_confirmation"),
       S(at(CB_COMPLETED, T0 + 61000), "duplicate", "c1=awaiting_confirmation"),
       S(at(CB_CANCELLED, T0 + 62000), "ignored", "c1=awaiting_confirmation"),
       S(c_confirm(T0 + 65000), "accepted", "c1=confirmed", "c1:persist"),
       S(RESTORE, "restored", "c1=confirmed"),
       S(c_confirm(T0 + 66000, CONF_VISA_RETRY), "duplicate", "c1=confirmed"),
       S(c_confirm(T0 + 67000, CONF_MASTERCARD), "rejected", "c1=confirmed", "", ("conflict", "brand")),
       S(at(CB_COMPLETED, T0 + 68000), "duplicate", "c1=confirmed")])
    r("flow-restore-checkout-unverified-callback-with-extras",
      "accept_unverified_callbacks: an unverified callback with the host's own parameters, restored: the same URL "
      "again changes nothing (accepted, no persist: the kept claim is the same); the verified one replaces the claim",
      c_in_browser() + [
          S(at(callback_url("completed", nonce=None, extra=[("order", "A 1/2"), ("lang", "es")]), T0 + 60000),
            "accepted", "c1=in_browser", "c1:show_pending c1:persist"),
          S(RESTORE, "restored", "c1=in_browser"),
          S(at(callback_url("completed", nonce=None, extra=[("order", "A 1/2"), ("lang", "es")]), T0 + 61000),
            "accepted", "c1=in_browser", "c1:show_pending"),
          S(at(CB_COMPLETED, T0 + 62000), "accepted", "c1=awaiting_confirmation", COMPLETED_EFFECTS),
      ], config={"accept_unverified_callbacks": True})
    r("flow-race-unverified-callback-cannot-block-webhook",
      "accept_unverified_callbacks: a spoofed callback without nonce naming another card moves the UI but cannot make "
      "the genuine webhook a conflict; the confirmation closes the tab the claim left open",
      c_in_browser() + [
          S(at(callback_url("completed", nonce=None, object_id="card_evil"), T0 + 20000), "accepted",
            "c1=in_browser", "c1:show_pending c1:persist"),
          S(c_confirm(T0 + 30000), "accepted", "c1=confirmed", "c1:close_browser c1:persist"),
      ], config={"accept_unverified_callbacks": True})
    r("flow-race-verified-failed-replaces-unverified-completed",
      "accept_unverified_callbacks: an unverified completed claim is replaced by the verified failed callback; "
      "a later claim is ignored",
      c_in_browser() + [
          S(at(CB_NO_NONCE, T0 + 20000), "accepted", "c1=in_browser", "c1:show_pending c1:persist"),
          S(at(callback_url("failed", object_id=None, reason="OTP"), T0 + 21000), "accepted", "c1=failed",
            "c1:close_browser c1:persist"),
          S(at(CB_NO_NONCE, T0 + 22000), "ignored", "c1=failed"),
      ], config={"accept_unverified_callbacks": True})
    r("flow-restore-checkout-deadline",
      "the deadline survives a restore: expired exactly at it",
      c_in_browser() + [
          S(RESTORE, "restored", "c1=in_browser"),
          S(tick(C_DEADLINE - 1), "accepted", "c1=in_browser"),
          S(tick(C_DEADLINE), "accepted", "c1=expired", "c1:close_browser c1:reconcile c1:persist"),
      ])
    r("flow-restore-checkout-session-ids",
      "the session's payment_id survives a restore: a callback for another payment is still refused",
      [S(c_start(T0, kind="payments", session=SESSION_PAYMENTS), "accepted", "c1=ready", "c1:open_browser c1:persist"),
       S(RESTORE, "restored", "c1=ready"),
       S(at(callback_url("completed", object_id="pay_999", id_key="payment_id"), T0 + 60000), "rejected", "c1=ready",
         "", ("callback_mismatch", "payment_id")),
       S(at(callback_url("completed", object_id="pay_123", id_key="payment_id"), T0 + 61000), "accepted",
         "c1=awaiting_confirmation", COMPLETED_EFFECTS),
       S(RESTORE, "restored", "c1=awaiting_confirmation"),
       S(c_confirm(T0 + 62000, CONF_PAY_456), "rejected", "c1=awaiting_confirmation", "", ("conflict", "payment_id")),
       S(c_confirm(T0 + 63000, CONF_PAY_123), "accepted", "c1=confirmed", "c1:persist")])
    rich = answer_url("aprobada", extra=[("tip", "15.00"), ("msi", "3"), ("authorization", "A1B2C3"),
                                         ("creditcard", "XXXX-XXXX-XXXX-4242"), ("cardtype", "VISA"),
                                         ("accountType", "CREDIT"), ("reference", "Pago%20%26%20m%C3%A1s+uno"),
                                         ("statusinfo", ""), ("bp_version", "4.3.30"), ("promo", "nov")])
    r("flow-restore-pos-midway",
      "restored at every stage, the POS hand-off goes on exactly as before "
      "(foreground time, grace period, consumed answer with all its fields survive)",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(RESTORE, "restored", "p1=ready"),
       S(p_launched(T0 + 1000), "accepted", "p1=launched", "p1:persist"),
       S(foregrounded(T0 + 40000), "accepted", "p1=launched", "p1:persist"),
       S(RESTORE, "restored", "p1=launched"),
       S(foregrounded(T0 + 42000), "accepted", "p1=launched"),
       S(tick(T0 + 42999), "accepted", "p1=launched"),
       S(tick(T0 + 43000), "accepted", "p1=returned_without_response", "p1:reconcile p1:persist"),
       S(RESTORE, "restored", "p1=returned_without_response"),
       S(at(rich, T0 + 70000), "accepted", "p1=approved", "p1:persist"),
       S(RESTORE, "restored", "p1=approved"),
       S(at(rich, T0 + 71000), "duplicate", "p1=approved"),
       S(at(ANS_APPROVED, T0 + 72000), "ignored", "p1=approved")])
    r("flow-restore-pos-launch-failed",
      "a launch failure survives a restore",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(p_launch_failed(T0 + 500), "accepted", "p1=launch_failed", "p1:show_hint p1:persist"),
       S(RESTORE, "restored", "p1=launch_failed"),
       S(p_launch_failed(T0 + 600), "duplicate", "p1=launch_failed"),
       S(at(ANS_APPROVED, T0 + MINUTE), "accepted", "p1=approved", "p1:persist")])
    r("flow-restore-keeps-config",
      "the configuration survives a restore: single_pending_per_kind still refuses, pos_grace_ms still applies to new flows",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(RESTORE, "restored", "p1=ready"),
       S(p_start(T0 + 1000, flow_id="p2", request=sale_request("ord-2")), "rejected", "p1=ready", "",
         ("invalid_state", "flow_id")),
       S(at(ANS_DECLINED, T0 + 2000), "accepted", "p1=declined", "p1:persist"),
       S(p_start(T0 + 3000, flow_id="p2", request=sale_request("ord-2")), "accepted", "p1=declined p2=ready",
         "p2:open_pos_app p2:persist"),
       S(p_launched(T0 + 4000, flow_id="p2"), "accepted", "p1=declined p2=launched", "p2:persist"),
       S(foregrounded(T0 + 10000), "accepted", "p1=declined p2=launched", "p2:persist"),
       S(tick(T0 + 14999), "accepted", "p1=declined p2=launched"),
       S(tick(T0 + 15000), "accepted", "p1=declined p2=returned_without_response", "p2:reconcile p2:persist")],
      config={"single_pending_per_kind": True, "pos_grace_ms": 5000})
    r("flow-restore-both-flows",
      "one snapshot holds a checkout and a POS hand-off; both go on after the restore",
      c_in_browser() + [
          S(p_start(T0 + 4000), "accepted", "c1=in_browser p1=ready", "p1:open_pos_app p1:persist"),
          S(p_launched(T0 + 5000), "accepted", "c1=in_browser p1=launched", "p1:persist"),
          S(RESTORE, "restored", "c1=in_browser p1=launched"),
          S(at(CB_COMPLETED, T0 + 60000), "accepted", "c1=awaiting_confirmation p1=launched", COMPLETED_EFFECTS),
          S(at(ANS_APPROVED, T0 + 61000), "accepted", "c1=awaiting_confirmation p1=approved", "p1:persist"),
          S(RESTORE, "restored", "c1=awaiting_confirmation p1=approved"),
          S(c_confirm(T0 + 62000), "accepted", "c1=confirmed p1=approved", "c1:persist"),
      ])

    # -- refunds
    sold = "p1=approved"
    r("flow-refund-sale-flow-window",
      "refund of an approved sale flow: refused less than 60 s after approval (not_eligible), accepted from 60 s; "
      "once approved for the whole amount a second refund is refused (invalid_state)",
      p_sold() + [
          S(p_refund(A + 30000, "p2", "ref-1"), "rejected", sold, "", ("not_eligible", "sale")),
          S(p_refund(A + 59999, "p2", "ref-1"), "rejected", sold, "", ("not_eligible", "sale")),
          S(p_refund(A + 60000, "p2", "ref-1"), "accepted", sold + " p2=ready", "p2:open_pos_app p2:persist"),
          S(p_launched(A + 61000, "p2"), "accepted", sold + " p2=launched", "p2:persist"),
          S(at(refund_answer("ref-1", "100.00", "990001", "p2"), A + 90000), "accepted", sold + " p2=approved", "p2:persist"),
          S(p_refund(A + 100000, "p3", "ref-2"), "rejected", sold + " p2=approved", "",
            ("invalid_state", "transactionId")),
      ])
    r("flow-refund-partial-amounts-add-up",
      "40.00 then 60.00 of a 100.00 sale: 70.00 after the first is more than is left (not_eligible); "
      "after both nothing is left (invalid_state)",
      p_sold() + [
          S(p_refund(A + MINUTE, "p2", "ref-1", amount="40.00"), "accepted", sold + " p2=ready",
            "p2:open_pos_app p2:persist"),
          S(at(refund_answer("ref-1", "40.00", "990001", "p2"), A + 2 * MINUTE), "accepted", sold + " p2=approved",
            "p2:persist"),
          S(p_refund(A + 3 * MINUTE, "p3", "ref-2", amount="70.00"), "rejected", sold + " p2=approved", "",
            ("not_eligible", "sale")),
          S(RESTORE, "restored", sold + " p2=approved"),
          S(p_refund(A + 4 * MINUTE, "p3", "ref-2", amount="60.00"), "accepted", sold + " p2=approved p3=ready",
            "p3:open_pos_app p3:persist"),
          S(at(refund_answer("ref-2", "60.00", "990002", "p3"), A + 5 * MINUTE), "accepted",
            sold + " p2=approved p3=approved", "p3:persist"),
          S(p_refund(A + 6 * MINUTE, "p4", "ref-3", amount="0.01"), "rejected", sold + " p2=approved p3=approved", "",
            ("invalid_state", "transactionId")),
      ])
    r("flow-refund-declined-does-not-count",
      "a declined refund refunds nothing: the whole amount can still be refunded",
      p_sold() + [
          S(p_refund(A + MINUTE, "p2", "ref-1"), "accepted", sold + " p2=ready", "p2:open_pos_app p2:persist"),
          S(at(answer_url("rechazada", identifier="ref-1", amount=None, txn=None, flow="p2"), A + 2 * MINUTE), "accepted",
            sold + " p2=declined", "p2:persist"),
          S(p_refund(A + 3 * MINUTE, "p3", "ref-2"), "accepted", sold + " p2=declined p3=ready",
            "p3:open_pos_app p3:persist"),
      ])
    r("flow-refund-one-pending-at-a-time",
      "while a refund of the sale waits for its answer a second one is refused",
      p_sold() + [
          S(p_refund(A + MINUTE, "p2", "ref-1", amount="10.00"), "accepted", sold + " p2=ready",
            "p2:open_pos_app p2:persist"),
          S(p_refund(A + MINUTE + 1000, "p3", "ref-2", amount="10.00"), "rejected", sold + " p2=ready", "",
            ("invalid_state", "transactionId")),
      ])
    doc_of_p1 = {"transactionid": SALE_TXN, "amount": "100.00", "approved_at": A // 1000, "bp_version": "4.3.24"}
    r("flow-refund-one-pending-any-route",
      "one pending refund per sale, however the sale is named: a refund given the sale as a document is refused while "
      "a refund through sale_flow_id waits, and the other way round",
      p_sold() + [
          S(p_refund(A + MINUTE, "p2", "ref-1", amount="10.00"), "accepted", sold + " p2=ready", "p2:open_pos_app p2:persist"),
          S(p_refund(A + MINUTE + 100, "p3", "ref-2", amount="10.00", sale=doc_of_p1), "rejected", sold + " p2=ready", "",
            ("invalid_state", "transactionId")),
          S(at(refund_answer("ref-1", "10.00", "990001", "p2"), A + MINUTE + 200), "accepted", sold + " p2=approved",
            "p2:persist"),
          S(p_refund(A + MINUTE + 300, "p3", "ref-2", amount="10.00", sale=doc_of_p1), "accepted",
            sold + " p2=approved p3=ready", "p3:open_pos_app p3:persist"),
          S(p_refund(A + MINUTE + 400, "p4", "ref-3", amount="10.00"), "rejected", sold + " p2=approved p3=ready", "",
            ("invalid_state", "transactionId")),
      ])
    r("flow-refund-sale-flow-not-approved",
      "only an approved sale can be refunded; an unknown or non-sale flow is not a sale",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_DECLINED, T0 + 30000), "accepted", "p1=declined", "p1:persist"),
       S(p_refund(T0 + 2 * MINUTE, "p2", "ref-1"), "rejected", "p1=declined", "", ("invalid_state", "sale_flow_id")),
       S(p_refund(T0 + 2 * MINUTE, "p2", "ref-1", sale_flow_id="p7"), "rejected", "p1=declined", "",
         ("unknown_flow", "sale_flow_id")),
       S(c_start(T0 + 3 * MINUTE), "accepted", "p1=declined c1=awaiting_session", "c1:create_session c1:persist"),
       S(p_refund(T0 + 4 * MINUTE, "p2", "ref-1", sale_flow_id="c1"), "rejected", "p1=declined c1=awaiting_session",
         "", ("unknown_flow", "sale_flow_id"))])
    r("flow-refund-other-transaction-id",
      "the refund's transactionId must be the sale's",
      p_sold() + [S(p_refund(A + MINUTE, "p2", "ref-1", transaction_id="720999"), "rejected", sold, "",
                    ("validation", "transactionId"))])
    r("flow-refund-old-pos-app",
      "the sale was approved by POS app 4.3.20 (bp_version): too old to refund",
      p_sold(answer=answer_url("aprobada", extra=[("bp_version", "4.3.20")])) + [
          S(p_refund(A + MINUTE, "p2", "ref-1"), "rejected", sold, "", ("not_eligible", "sale"))])
    r("flow-refund-deadline-23h",
      "a sale approved at 10:01 Mexico City time can be refunded until 22:59:59 that day, not at 23:00",
      p_sold() + [
          S(p_refund(T0 + 13 * HOUR, "p2", "ref-1"), "rejected", sold, "", ("not_eligible", "sale")),
          S(p_refund(T0 + 13 * HOUR - 1000, "p2", "ref-1"), "accepted", sold + " p2=ready",
            "p2:open_pos_app p2:persist"),
      ])
    yesterday = {"transactionid": "555001", "amount": "100.00", "approved_at": T0 // 1000 - 86400,
                 "bp_version": "4.3.24"}
    today = dict(yesterday, approved_at=T0 // 1000 - HOUR // 1000)
    r("flow-refund-sale-document",
      "a refund of a sale known from elsewhere (`sale`): yesterday's sale is past its deadline, today's can be refunded",
      [S(ev("pos.start", T0, flow_id="p2", token=pos_token("p2"), request=refund_request("ref-1", "555001"), sale=yesterday), "rejected",
         "", "", ("not_eligible", "sale")),
       S(ev("pos.start", T0, flow_id="p2", token=pos_token("p2"), request=refund_request("ref-1", "555001", "120.00"), sale=today),
         "rejected", "", "", ("not_eligible", "sale")),
       S(ev("pos.start", T0, flow_id="p2", token=pos_token("p2"), request=refund_request("ref-1", "555001"), sale=today), "accepted",
         "p2=ready", "p2:open_pos_app p2:persist"),
       S(at(refund_answer("ref-1", "100.00", "990001", "p2"), T0 + MINUTE), "accepted", "p2=approved", "p2:persist"),
       S(ev("pos.start", T0 + 2 * MINUTE, flow_id="p3", token=pos_token("p3"), request=refund_request("ref-2", "555001"), sale=today),
         "rejected", "p2=approved", "", ("invalid_state", "transactionId"))])

    # -- single pending per kind
    r("flow-single-pending-checkout",
      "single_pending_per_kind: a second checkout is refused while one waits; a POS hand-off is another kind; "
      "once the first ended a new checkout starts",
      [S(c_start(T0), "accepted", "c1=awaiting_session", "c1:create_session c1:persist"),
       S(c_start(T0 + 1000, flow_id="c2", nonce=N2), "rejected", "c1=awaiting_session", "",
         ("invalid_state", "flow_id")),
       S(p_start(T0 + 2000), "accepted", "c1=awaiting_session p1=ready", "p1:open_pos_app p1:persist"),
       S(c_session(T0 + 3000), "accepted", "c1=ready p1=ready", "c1:open_browser c1:persist"),
       S(at(CB_COMPLETED, T0 + 60000), "accepted", "c1=awaiting_confirmation p1=ready", COMPLETED_EFFECTS),
       S(c_start(T0 + 61000, flow_id="c2", nonce=N2), "rejected", "c1=awaiting_confirmation p1=ready", "",
         ("invalid_state", "flow_id")),
       S(c_confirm(T0 + 62000), "accepted", "c1=confirmed p1=ready", "c1:persist"),
       S(c_start(T0 + 63000, flow_id="c2", nonce=N2), "accepted", "c1=confirmed p1=ready c2=awaiting_session",
         "c2:create_session c2:persist")],
      config={"single_pending_per_kind": True})
    r("flow-single-pending-pos",
      "single_pending_per_kind: a second POS hand-off is refused while one is open, also when the outcome is unknown "
      "(ask Billpocket before charging again); a failed launch does not block a retry",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(p_start(T0 + 100, flow_id="p2", request=sale_request("ord-2")), "rejected", "p1=ready", "",
         ("invalid_state", "flow_id")),
       S(p_launch_failed(T0 + 500), "accepted", "p1=launch_failed", "p1:show_hint p1:persist"),
       S(p_start(T0 + 20000, flow_id="p2", request=sale_request("ord-2")), "accepted", "p1=launch_failed p2=ready",
         "p2:open_pos_app p2:persist"),
       S(p_launched(T0 + 21000, flow_id="p2"), "accepted", "p1=launch_failed p2=launched", "p2:persist"),
       S(foregrounded(T0 + 40000), "accepted", "p1=launch_failed p2=launched", "p2:persist"),
       S(tick(T0 + 43000), "accepted", "p1=launch_failed p2=returned_without_response", "p2:reconcile p2:persist"),
       S(p_start(T0 + 50000, flow_id="p3", request=sale_request("ord-3")), "rejected",
         "p1=launch_failed p2=returned_without_response", "", ("invalid_state", "flow_id"))],
      config={"single_pending_per_kind": True})
    r("flow-several-pending-by-default",
      "without single_pending_per_kind several checkouts and POS hand-offs may wait at once",
      [S(c_start(T0), "accepted", "c1=awaiting_session", "c1:create_session c1:persist"),
       S(c_start(T0 + 1000, flow_id="c2", nonce=N2), "accepted", "c1=awaiting_session c2=awaiting_session",
         "c2:create_session c2:persist"),
       S(p_start(T0 + 2000), "accepted", "c1=awaiting_session c2=awaiting_session p1=ready",
         "p1:open_pos_app p1:persist"),
       S(p_start(T0 + 3000, flow_id="p2", request=sale_request("ord-2")), "accepted",
         "c1=awaiting_session c2=awaiting_session p1=ready p2=ready", "p2:open_pos_app p2:persist")])

    # -- flow.remove
    r("flow-remove-ended-flow",
      "flow.remove forgets an ended flow: its deep links are then not ours, its id can be used again",
      c_in_browser() + [
          S(at(CB_COMPLETED, T0 + 60000), "accepted", "c1=awaiting_confirmation", COMPLETED_EFFECTS),
          S(c_confirm(T0 + 61000), "accepted", "c1=confirmed", "c1:persist"),
          S(ev("flow.remove", T0 + 62000, flow_id="c1"), "accepted", ""),
          S(at(CB_COMPLETED, T0 + 63000), "not_ours", ""),
          S(ev("flow.remove", T0 + 64000, flow_id="c1"), "rejected", "", "", ("unknown_flow", "flow_id")),
          S(c_start(T0 + 65000, nonce=N2), "accepted", "c1=awaiting_session", "c1:create_session c1:persist"),
      ])
    r("flow-remove-keeps-other-flows",
      "removing one flow leaves the others and the refund bookkeeping alone",
      p_sold() + [
          S(p_refund(A + MINUTE, "p2", "ref-1", amount="40.00"), "accepted", sold + " p2=ready",
            "p2:open_pos_app p2:persist"),
          S(at(refund_answer("ref-1", "40.00", "990001", "p2"), A + 2 * MINUTE), "accepted", sold + " p2=approved",
            "p2:persist"),
          S(ev("flow.remove", A + 3 * MINUTE, flow_id="p2"), "accepted", sold),
          S(p_refund(A + 4 * MINUTE, "p3", "ref-2", amount="70.00"), "rejected", sold, "", ("not_eligible", "sale")),
          S(p_refund(A + 5 * MINUTE, "p3", "ref-2", amount="60.00"), "accepted", sold + " p3=ready",
            "p3:open_pos_app p3:persist"),
      ])
    r("flow-remove-pending-flow",
      "a flow that still waits is not removed unless the host says it gives it up (give_up: true); then its late "
      "deep link is not ours",
      c_in_browser() + [
          S(ev("flow.remove", T0 + 20000, flow_id="c1"), "rejected", "c1=in_browser", "", ("invalid_state", "flow_id")),
          S(ev("flow.remove", T0 + 21000, flow_id="c1", give_up=False), "rejected", "c1=in_browser", "",
            ("invalid_state", "flow_id")),
          S(ev("flow.remove", T0 + 22000, flow_id="c1", give_up=True), "accepted", ""),
          S(at(CB_COMPLETED, T0 + 60000), "not_ours", ""),
      ])
    issue_rules(s)
    issue24_rules(s)
    issue35_rules(s)
    return s


def issue35_rules(s: Suite):
    """Issue 35, items 3, 5 and 7: a clock that was behind, forgotten keys, expired and failed
    checkouts kept for their confirmation, details that carry no echoed secret."""
    r = s.add_checked
    day = 24 * HOUR
    c1970 = 57_600_000  # 1970-01-01T10:00:00-06:00: a phone whose clock was reset
    real_doc = {"transactionid": SALE_TXN, "amount": "100.00", "approved_at": (T0 - HOUR) // 1000}

    def refund_all(now: int, flow_id: str, sale=None, sale_flow_id="p1"):
        return p_refund(now, flow_id, flow_id, amount=None, sale=sale, sale_flow_id=sale_flow_id)

    # -- item 3
    r("flow-clock-behind-1970-refund-by-document",
      "issue 35: sale and full refund booked while the clock read 1970 (RTC reset); NTP corrects it (tick at the real "
      "time): the sale is kept as balance unknown until 23:00 of the corrected day, so Billpocket's record of it (its "
      "real approved_at) refunds nothing again, even with both flows forgotten; another sale's document still refunds",
      [S(p_start(c1970), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_APPROVED, c1970 + 1000), "accepted", "p1=approved", "p1:persist"),
       S(refund_all(c1970 + 61000, "p2"), "accepted", "p1=approved p2=ready", "p2:open_pos_app p2:persist"),
       S(at(refund_answer("p2", "100.00", "R-1", "p2"), c1970 + 62000), "accepted", "p1=approved p2=approved", "p2:persist"),
       S(tick(T0), "accepted", "p1=approved p2=approved"),
       S(ev("flow.remove", T0 + 1000, flow_id="p2"), "accepted", "p1=approved"),
       S(ev("flow.remove", T0 + 1000, flow_id="p1"), "accepted", ""),
       S(RESTORE, "restored", ""),
       S(refund_all(T0 + 2000, "p3", sale=real_doc), "rejected", "", "", ("not_eligible", "sale")),
       S(p_refund(T0 + 3000, "p4", "p4", transaction_id="800001",
                  sale={"transactionid": "800001", "amount": "10.00", "approved_at": (T0 - HOUR) // 1000}),
         "accepted", "p4=ready", "p4:open_pos_app p4:persist"),
       S(tick(T0 + 13 * HOUR), "accepted", "p4=ready"),
      ])
    r("flow-clock-behind-1970-flows-removed-refund-first",
      "issue 35 (B5): sale and full refund booked while the clock read 1970, both flows removed before the correction, "
      "and Billpocket's record of the sale is the first event at the real time: the start is judged on what that "
      "event's prune leaves (the refunded sale as balance unknown), not_eligible; nothing changes",
      [S(p_start(c1970), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_APPROVED, c1970 + 1000), "accepted", "p1=approved", "p1:persist"),
       S(refund_all(c1970 + 61000, "p2"), "accepted", "p1=approved p2=ready", "p2:open_pos_app p2:persist"),
       S(at(refund_answer("p2", "100.00", "R-1", "p2"), c1970 + 62000), "accepted", "p1=approved p2=approved", "p2:persist"),
       S(ev("flow.remove", c1970 + 63000, flow_id="p2"), "accepted", "p1=approved"),
       S(ev("flow.remove", c1970 + 64000, flow_id="p1"), "accepted", ""),
       S(refund_all(T0 + 2000, "p3", sale=real_doc), "rejected", "", "", ("not_eligible", "sale")),
       S(RESTORE, "restored", ""),
       S(refund_all(T0 + 3000, "p3", sale=real_doc), "rejected", "", "", ("not_eligible", "sale")),
      ])
    midnight = T0 + 14 * HOUR + 30 * MINUTE  # 2026-12-01T00:30-06:00; the phone says 2026-11-30T22:30
    r("flow-clock-behind-two-hours-across-midnight",
      "issue 35: the phone is 2 h behind at 00:30 Mexico City: the sale and its refund are booked on the day before; "
      "the clock is corrected at 00:45; the sale's document with its real approved_at (00:30) is not_eligible "
      "(ledger_pruned), never a second refund",
      [S(p_start(midnight - 2 * HOUR), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_APPROVED, midnight - 2 * HOUR + 1000), "accepted", "p1=approved", "p1:persist"),
       S(refund_all(midnight - 2 * HOUR + 61000, "p2"), "accepted", "p1=approved p2=ready", "p2:open_pos_app p2:persist"),
       S(at(refund_answer("p2", "100.00", "R-1", "p2"), midnight - 2 * HOUR + 62000), "accepted", "p1=approved p2=approved",
         "p2:persist"),
       S(tick(midnight + 15 * MINUTE), "accepted", "p1=approved p2=approved"),
       S(ev("flow.remove", midnight + 16 * MINUTE, flow_id="p2"), "accepted", "p1=approved"),
       S(refund_all(midnight + 20 * MINUTE, "p3", sale={**real_doc, "approved_at": midnight // 1000}), "rejected",
         "p1=approved", "", ("not_eligible", "sale")),
      ])
    r("flow-clock-behind-pending-refund-keeps-its-sale",
      "issue 35: a refund still waits when the corrected clock drops its sale's entry: the sale stays as balance "
      "unknown (a refund flow names it), the refund's late approval books nothing more, and the sale's document is "
      "not_eligible",
      [S(p_start(c1970), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_APPROVED, c1970 + 1000), "accepted", "p1=approved", "p1:persist"),
       S(refund_all(c1970 + 61000, "p2"), "accepted", "p1=approved p2=ready", "p2:open_pos_app p2:persist"),
       S(tick(T0), "accepted", "p1=approved p2=ready"),
       S(at(refund_answer("p2", "100.00", "R-1", "p2"), T0 + 1000), "accepted", "p1=approved p2=approved", "p2:persist"),
       S(ev("flow.remove", T0 + 1500, flow_id="p2"), "accepted", "p1=approved"),
       S(refund_all(T0 + 2000, "p3", sale=real_doc), "rejected", "p1=approved", "", ("not_eligible", "sale")),
      ])
    r("flow-clock-behind-cross-check-held-refund",
      "issue 35: the wrong clock passes 23:00 of its 1970 day before NTP corrects it, so no record outlives it; the "
      "refund flow still held is cross-checked: the sale's document is not_eligible while it is held",
      [S(p_start(c1970), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_APPROVED, c1970 + 1000), "accepted", "p1=approved", "p1:persist"),
       S(refund_all(c1970 + 61000, "p2"), "accepted", "p1=approved p2=ready", "p2:open_pos_app p2:persist"),
       S(at(refund_answer("p2", "100.00", "R-1", "p2"), c1970 + 62000), "accepted", "p1=approved p2=approved", "p2:persist"),
       S(tick(c1970 + 13 * HOUR + 30 * MINUTE), "accepted", "p1=approved p2=approved"),
       S(tick(T0), "accepted", "p1=approved p2=approved"),
       S(refund_all(T0 + 2000, "p3", sale=real_doc), "rejected", "p1=approved p2=approved", "", ("not_eligible", "sale")),
      ])

    r("flow-clock-behind-two-days-then-one-day-behind",
      "issue 35, second attack G1: sale and full refund booked while the clock is two days behind, one more event a day "
      "behind (past the wrong day's 23:00: the refunded sale leaves the ledger), both flows removed; back at the real "
      "time Billpocket's record of the sale (its real approved_at) finds the sale's refunded_sales record: refunded in "
      "full, invalid_state, never a second refund",
      [S(p_start(T0 - 2 * day - HOUR), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_APPROVED, T0 - 2 * day - HOUR + 1000), "accepted", "p1=approved", "p1:persist"),
       S(refund_all(T0 - 2 * day - HOUR + 61000, "p2"), "accepted", "p1=approved p2=ready", "p2:open_pos_app p2:persist"),
       S(at(refund_answer("p2", "100.00", "R-1", "p2"), T0 - 2 * day - HOUR + 62000), "accepted", "p1=approved p2=approved",
         "p2:persist"),
       S(tick(T0 - day + 3 * MINUTE), "accepted", "p1=approved p2=approved"),
       S(ev("flow.remove", T0 - day + 4 * MINUTE, flow_id="p2"), "accepted", "p1=approved"),
       S(ev("flow.remove", T0 - day + 4 * MINUTE, flow_id="p1"), "accepted", ""),
       S(RESTORE, "restored", ""),
       S(refund_all(T0 + 2000, "p3", sale=real_doc), "rejected", "", "", ("invalid_state", "transactionId")),
      ])
    r("flow-clock-behind-two-days-partial-refund-bounded",
      "issue 35, second attack G1: 40.00 of a 100.00 sale refunded two days behind, the sale pruned at its wrong 23:00 "
      "a day behind; at the real time its document may refund 60.00 but not 60.01",
      [S(p_start(T0 - 2 * day - HOUR), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_APPROVED, T0 - 2 * day - HOUR + 1000), "accepted", "p1=approved", "p1:persist"),
       S(p_refund(T0 - 2 * day - HOUR + 61000, "p2", "p2", amount="40.00"), "accepted", "p1=approved p2=ready",
         "p2:open_pos_app p2:persist"),
       S(at(refund_answer("p2", "40.00", "R-1", "p2"), T0 - 2 * day - HOUR + 62000), "accepted", "p1=approved p2=approved",
         "p2:persist"),
       S(tick(T0 - day + 3 * MINUTE), "accepted", "p1=approved p2=approved"),
       S(ev("flow.remove", T0 - day + 4 * MINUTE, flow_id="p2"), "accepted", "p1=approved"),
       S(ev("flow.remove", T0 - day + 4 * MINUTE, flow_id="p1"), "accepted", ""),
       S(RESTORE, "restored", ""),
       S(p_refund(T0 + 2000, "p3", "p3", amount="60.01", sale=real_doc, sale_flow_id=None), "rejected", "", "",
         ("not_eligible", "sale")),
       S(p_refund(T0 + 3000, "p3", "p3", amount="60.00", sale=real_doc, sale_flow_id=None), "accepted", "p3=ready",
         "p3:open_pos_app p3:persist"),
      ])

    # -- item 5
    sold = "p1=approved"
    r("flow-forgotten-key-pos-token-removed",
      "issue 35: a sale approved with a host-given token is removed: the same identifier and token cannot start a sale "
      "again for 3 days (the captured approval, replayed, would approve it and book a sale that never happened); "
      "then they may",
      p_sold() + [
          S(ev("flow.remove", A + 1000, flow_id="p1"), "accepted", ""),
          S(RESTORE, "restored", ""),
          S(p_start(A + 2000, flow_id="p2", token=pos_token("p1")), "rejected", "", "", ("conflict", "token")),
          S(at(ANS_APPROVED, A + 3000), "not_ours", ""),
          S(p_start(A + 4000, flow_id="p2", request=sale_request("ord-2"), token=pos_token("p1")), "accepted", "p2=ready",
            "p2:open_pos_app p2:persist"),
      ] + [S(tick(A + 1000 + k * KEY_LARGEST_STEP), "accepted", "p2=ready") for k in range(1, 6)] + [
          S(p_start(A + 1000 + KEY_HORIZON - 1, flow_id="p3", token=pos_token("p1")), "rejected", "p2=ready", "",
            ("conflict", "token")),
          S(p_start(A + 1000 + KEY_HORIZON, flow_id="p3", token=pos_token("p1")), "accepted", "p2=ready p3=ready",
            "p3:open_pos_app p3:persist"),
      ])
    r("flow-forgotten-key-pos-token-clock-ahead",
      "issue 35 (B6): a tick 4 days ahead (a clock running ahead) does not end the removed sale's key horizon: it counts "
      "as 12 hours, so back at the real time the same identifier and token are still refused and the captured "
      "approval approves nothing",
      p_sold() + [
          S(ev("flow.remove", A + 1000, flow_id="p1"), "accepted", ""),
          S(tick(A + 4 * 24 * HOUR), "accepted", ""),
          S(p_start(A + 2000, flow_id="p2", token=pos_token("p1")), "rejected", "", "", ("conflict", "token")),
          S(at(ANS_APPROVED, A + 3000), "not_ours", ""),
      ])
    r("flow-forgotten-key-pos-token-clock-1970",
      "issue 35 (B6): a sale removed while the clock read 1970 (an RTC reset): the corrected clock's first events do not "
      "end its key's horizon (the jump counts as 12 hours)",
      [S(p_start(c1970, token=pos_token("p1")), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_APPROVED, c1970 + 1000), "accepted", "p1=approved", "p1:persist"),
       S(ev("flow.remove", c1970 + 2000, flow_id="p1"), "accepted", ""),
       S(tick(A), "accepted", ""),
       S(tick(A + 1000), "accepted", ""),
       S(p_start(A + 2000, flow_id="p2", token=pos_token("p1")), "rejected", "", "", ("conflict", "token")),
       S(at(ANS_APPROVED, A + 3000), "not_ours", ""),
      ])
    ended = []
    flows_after = sold
    for n in range(33):
        cid = "e%d" % n
        ended.append(S(c_start(A + 2000, flow_id=cid, nonce="e%031d" % n), "accepted",
                       " ".join(x for x in [flows_after, cid + "=awaiting_session"] if x), cid + ":create_session " + cid + ":persist"))
        if n == 32:
            flows_after = " ".join("e%d=failed" % k for k in range(32))
            ended[-1] = S(c_start(A + 2000, flow_id=cid, nonce="e%031d" % n), "accepted",
                          flows_after + " " + cid + "=awaiting_session", cid + ":create_session " + cid + ":persist")
        flows_after = " ".join(x for x in [flows_after, cid + "=failed"] if x)
        ended.append(S(c_session_failed(A + 2000, flow_id=cid), "accepted", flows_after, cid + ":persist"))
    r("flow-forgotten-key-32-ended-rule",
      "issue 35: the 33rd ended flow makes a start forget the oldest (p1, a sale approved with a host-given token): "
      "its key stays remembered, so a new sale with that identifier and token is a conflict",
      p_sold() + ended + [
          S(p_start(A + 3000, flow_id="p2", token=pos_token("p1")), "rejected", flows_after, "", ("conflict", "token")),
      ])
    r("flow-forgotten-key-checkout-nonce-removed",
      "issue 35: a confirmed checkout whose nonce the backend gave is removed; its replayed cancelled callback is not "
      "ours, and a new checkout with that nonce is a conflict (the replay would cancel it and close its browser)",
      [S(c_start(T0, session=SESSION_CARDS), "accepted", "c1=ready", "c1:open_browser c1:persist"),
       S(c_confirm(T0 + 1000), "accepted", "c1=confirmed", "c1:close_browser c1:persist"),
       S(ev("flow.remove", T0 + 2000, flow_id="c1"), "accepted", ""),
       S(at(CB_CANCELLED, T0 + 3000), "not_ours", ""),
       S(c_start(T0 + 4000, flow_id="c2", session=SESSION_CARDS), "rejected", "", "", ("conflict", "nonce")),
      ])
    r("flow-checkout-kept-expired-until-confirmation",
      "issue 35: an expired payment checkout waits for its confirmation like a POS hand-off returned without response: "
      "33 ended flows later it is still held, flow.remove needs give_up, and its late payment.confirmed confirms it",
      [S(c_start(T0, kind="payments", session=SESSION_PAYMENTS), "accepted", "c1=ready", "c1:open_browser c1:persist"),
       S(tick(T0 + DEFAULT_TIMEOUT), "accepted", "c1=expired", "c1:close_browser c1:reconcile c1:persist")]
      + [row for n in range(33) for row in (
          S(c_start(T0 + HOUR, flow_id="e%d" % n, nonce="e%031d" % n), "accepted",
            " ".join(["c1=expired"] + ["e%d=failed" % k for k in range(max(0, n - 32), n)] + ["e%d=awaiting_session" % n]),
            "e%d:create_session e%d:persist" % (n, n)),
          S(c_session_failed(T0 + HOUR, flow_id="e%d" % n), "accepted",
            " ".join(["c1=expired"] + ["e%d=failed" % k for k in range(max(0, n - 32), n + 1)]), "e%d:persist" % n))]
      + [S(ev("flow.remove", T0 + HOUR, flow_id="c1"), "rejected",
           " ".join(["c1=expired"] + ["e%d=failed" % k for k in range(33)]), "", ("invalid_state", "flow_id")),
         S(c_confirm(T0 + 2 * HOUR, CONF_PAY_123, flow_id="c1"), "accepted",
           " ".join(["c1=confirmed"] + ["e%d=failed" % k for k in range(33)]), "c1:persist")])
    r("flow-checkout-kept-cancelled-for-webhook-retries",
      "issue 35: a checkout cancelled by its callback still takes the confirmation the gateway may retry for 3 days "
      "after its deadline: removing it needs give_up until then; after that it is an ended flow like any other",
      [S(c_start(T0, session=SESSION_CARDS), "accepted", "c1=ready", "c1:open_browser c1:persist"),
       S(at(CB_CANCELLED, T0 + MINUTE), "accepted", "c1=cancelled", "c1:close_browser c1:persist"),
       S(ev("flow.remove", T0 + day, flow_id="c1"), "rejected", "c1=cancelled", "", ("invalid_state", "flow_id")),
       S(c_confirm(T0 + 2 * day), "accepted", "c1=confirmed", "c1:persist"),
       S(ev("flow.remove", T0 + 2 * day, flow_id="c1"), "accepted", ""),
       S(c_start(T0 + 2 * day + 1000, flow_id="c2", nonce=N2, session=SESSION_CARDS), "accepted", "c2=ready",
         "c2:open_browser c2:persist"),
       S(at(callback_url("cancelled", nonce=N2, object_id=None), T0 + 2 * day + MINUTE), "accepted", "c2=cancelled",
         "c2:close_browser c2:persist"),
       S(ev("flow.remove", T0 + 2 * day + DEFAULT_TIMEOUT + KEY_HORIZON + 1000, flow_id="c2"), "accepted", ""),
      ])

    # -- item 7: the printing runners look for the nonce in everything these steps hand out
    echo = "fixapp%3A%2F%2Fcheckout-callback%2Fph_" + N1
    r("flow-details-gateway-echoes-the-return-url",
      "issue 35: the gateway's checkout_url echoes the return URL with the nonce (percent-encoded): the answers' "
      "details show the checkout URL's origin only, so the nonce is in no answer a host may log (every runner prints "
      "every answer and looks for it)",
      [S(c_start(T0, session={"kind": "cards", "checkout_url": CHECKOUT_URL + "?return_url=" + echo}),
         "accepted", "c1=ready", "c1:open_browser c1:persist"),
       S(c_opened(T0 + 1000), "accepted", "c1=in_browser", "c1:persist"),
       S(at(RETURN_URL + "/ph_" + N1 + "?status=failed", T0 + MINUTE), "accepted", "c1=failed", "c1:close_browser c1:persist")])


def issue24_rules(s: Suite):
    """Issue 24: no clock erases money, claims never block, the correlation grammar, one validation rule."""
    r = s.add_checked
    sold = "p1=approved"
    day = 24 * HOUR
    doc = {"transactionid": SALE_TXN, "amount": "100.00", "approved_at": A // 1000}

    def refund_all(now: int, flow_id: str, sale=None):
        return p_refund(now, flow_id, flow_id, amount=None, sale=sale)

    r("flow-ledger-clock-two-days-ahead-then-back",
      "issue 24: a sale refunded in full; one event dated two days ahead drops the day's ledger behind the watermark; "
      "once the clock is back, a full refund of it again — by its flow or by its sale document — is not_eligible "
      "(ledger_pruned), never 200.00 refunded on a 100.00 sale",
      p_sold() + [
          S(refund_all(A + MINUTE, "p2"), "accepted", sold + " p2=ready", "p2:open_pos_app p2:persist"),
          S(at(refund_answer("p2", "100.00", "R-1", "p2"), A + 2 * MINUTE), "accepted", sold + " p2=approved", "p2:persist"),
          S(tick(A + 2 * day), "accepted", sold + " p2=approved"),
          S(RESTORE, "restored", sold + " p2=approved"),
          S(refund_all(A + 3 * MINUTE, "p3"), "rejected", sold + " p2=approved", "", ("not_eligible", "sale")),
          S(refund_all(A + 3 * MINUTE, "p3", sale=doc), "rejected", sold + " p2=approved", "", ("not_eligible", "sale")),
      ])
    r("flow-ledger-clock-hour-back-across-deadline",
      "issue 24: a sale at 22:30 refunded in part; a tick at 23:00 drops its entry; the clock goes back to 22:45: the "
      "rest is not refunded on the document's word (ledger_pruned), a sale of the next day still is",
      [S(p_start(T0 + 12 * HOUR + 30 * MINUTE), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_APPROVED, T0 + 12 * HOUR + 30 * MINUTE), "accepted", sold, "p1:persist"),
       S(p_refund(T0 + 12 * HOUR + 32 * MINUTE, "p2", "p2", amount="60.00"), "accepted", sold + " p2=ready",
         "p2:open_pos_app p2:persist"),
       S(at(refund_answer("p2", "60.00", "R-1", "p2"), T0 + 12 * HOUR + 33 * MINUTE), "accepted", sold + " p2=approved", "p2:persist"),
       S(tick(T0 + 13 * HOUR), "accepted", sold + " p2=approved"),
       S(refund_all(T0 + 12 * HOUR + 45 * MINUTE, "p3",
                    sale={"transactionid": SALE_TXN, "amount": "100.00", "approved_at": (T0 + 12 * HOUR + 30 * MINUTE) // 1000}),
         "rejected", sold + " p2=approved", "", ("not_eligible", "sale")),
       S(p_refund(T0 + day + HOUR, "p3", "p3", transaction_id="800001",
                  sale={"transactionid": "800001", "amount": "10.00", "approved_at": (T0 + day) // 1000}),
         "accepted", sold + " p2=approved p3=ready", "p3:open_pos_app p3:persist"),
      ])
    r("flow-claim-before-session-never-blocks",
      "issue 24: with accept_unverified_callbacks a completed claim before checkout.session shows pending but leaves "
      "awaiting_session: the genuine session opens the browser, the tab events go on, every claim is answered, and the "
      "verified callback replaces the claim",
      [S(c_start(T0), "accepted", "c1=awaiting_session", "c1:create_session c1:persist"),
       S(at(CB_NO_NONCE, T0 + 1000), "accepted", "c1=awaiting_session", "c1:show_pending c1:persist"),
       S(at(callback_url("failed", nonce=None, object_id=None, reason="x"), T0 + 1100), "accepted", "c1=awaiting_session", "c1:persist"),
       S(c_session(T0 + 2000), "accepted", "c1=ready", "c1:open_browser c1:persist"),
       S(c_opened(T0 + 3000), "accepted", "c1=in_browser", "c1:persist"),
       S(at(CB_NO_NONCE, T0 + 3500), "accepted", "c1=in_browser", "c1:show_pending c1:persist"),
       S(c_dismissed(T0 + 4000), "accepted", "c1=returned_without_result", "c1:persist"),
       S(at(CB_COMPLETED, T0 + 5000), "accepted", "c1=awaiting_confirmation", COMPLETED_EFFECTS),
       S(at(CB_NO_NONCE, T0 + 6000), "ignored", "c1=awaiting_confirmation")],
      config={"accept_unverified_callbacks": True})
    r("flow-callback-ampersand-appended",
      "issue 24: a gateway that appends '&status=…' to a return URL without a query: the nonce segment ends at the "
      "first '&', the genuine callback is verified and consumes the hand-off",
      c_in_browser() + [
          S(at(RETURN_URL + "/ph_" + N1 + "&status=completed&card_id=card_xyz", T0 + 60000), "accepted", "c1=awaiting_confirmation",
            COMPLETED_EFFECTS),
          S(at(RETURN_URL + "/ph_" + N1 + "&status=completed&card_id=card_xyz", T0 + 61000), "duplicate", "c1=awaiting_confirmation"),
          S(at(RETURN_URL + "/ph_" + N2 + "&status=completed&card_id=card_xyz", T0 + 62000), "rejected", "c1=awaiting_confirmation",
            "", ("callback_mismatch", "nonce"))])
    r("flow-hostile-sale-document-ids",
      "issue 24: a refund's sale document whose transactionid breaks the ledger's rule (a space, non-ASCII text, 129 "
      "characters) or whose amount is zero is refused with the event: nothing reaches the ledger",
      p_sold() + [
          bad(refund_all(A + MINUTE, "p2", sale={**doc, "transactionid": "720 371"})["event"], "validation", "sale.transactionid", sold),
          bad(refund_all(A + MINUTE, "p2", sale={**doc, "transactionid": "72037ñ"})["event"], "validation", "sale.transactionid", sold),
          bad(refund_all(A + MINUTE, "p2", sale={**doc, "transactionid": "7" * 129})["event"], "validation", "sale.transactionid", sold),
          bad(refund_all(A + MINUTE, "p2", sale={**doc, "amount": "0.00"})["event"], "validation", "sale.amount", sold),
          S(refund_all(A + MINUTE, "p2", sale=doc), "accepted", sold + " p2=ready", "p2:open_pos_app p2:persist"),
      ])
    r("flow-token-with-tilde-refused",
      "issue 24: a host-given token with '~' is refused (the identifier sent splits at its last '~')",
      [bad(p_start(T0, token="0123456789~abcdef")["event"], "validation", "token"),
       S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist")])
    r("flow-time-last-millisecond",
      "issue 24: one time range everywhere: a deep link at the last millisecond of 9999 is read like any other",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_APPROVED, 253402300799999), "accepted", sold, "p1:persist")])


def issue_rules(s: Suite):
    """The rules of issues 15 and 16 (spec-15-16.md), each with a script that today's core fails."""
    r = s.add_checked
    sold = "p1=approved"

    # -- C: the per-flow token in the POS identifier
    r("flow-token-forged-approval-refused",
      "any app can send myapp://result=aprobada&…&identifier=ord-1: without the flow's token it is refused and "
      "changes nothing; only the answer echoing ord-1~<token> approves",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(p_launched(T0 + 1000), "accepted", "p1=launched", "p1:persist"),
       S(at(ANS_FORGED, T0 + 20000), "rejected", "p1=launched", "", ("callback_mismatch", "identifier")),
       S(at(ANS_OTHER_TOKEN, T0 + 21000), "rejected", "p1=launched", "", ("callback_mismatch", "identifier")),
       S(at(answer_url("aprobada", amount=None, flow=None), T0 + 22000), "rejected", "p1=launched", "",
         ("callback_mismatch", "identifier")),
       S(RESTORE, "restored", "p1=launched"),
       S(at(ANS_FORGED, T0 + 23000), "rejected", "p1=launched", "", ("callback_mismatch", "identifier")),
       S(at(ANS_APPROVED, T0 + MINUTE), "accepted", "p1=approved", "p1:persist")])
    r("flow-token-fresh-unknown-to-forgers",
      "pos.start without token: the coordinator makes one (no script knows it), so an answer with the bare reference "
      "is refused",
      [S(p_start(T0, token=FRESH), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_FORGED, T0 + 20000), "rejected", "p1=ready", "", ("callback_mismatch", "identifier")),
       S(at(ANS_APPROVED, T0 + 21000), "rejected", "p1=ready", "", ("callback_mismatch", "identifier"))])
    r("flow-token-mismatch-before-fields",
      "not for this sale comes first: an approval for another identifier that also lacks amount is callback_mismatch "
      "(identifier), not validation (amount)",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(answer_url("aprobada", identifier="ord-2", amount=None), T0 + 20000), "rejected", "p1=ready", "",
         ("callback_mismatch", "identifier")),
       S(at(answer_url("aprobada", amount=None, flow=None), T0 + 21000), "rejected", "p1=ready", "",
         ("callback_mismatch", "identifier")),
       S(at("myapp://result=aprobada&amount=1e2&identifier=ord-2", T0 + 22000), "rejected", "p1=ready", "",
         ("callback_mismatch", "identifier")),
       S(at(answer_url("aprobada", amount=None), T0 + 23000), "rejected", "p1=ready", "", ("validation", "amount"))])
    r("flow-token-transactionid-rule",
      "an answer's transactionid must be 1 to 128 printable ASCII bytes (it is kept in the refund ledger)",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(answer_url("aprobada", txn="720%20371"), T0 + 20000), "rejected", "p1=ready", "",
         ("validation", "transactionid")),
       S(at(answer_url("aprobada", txn="T" * 129), T0 + 21000), "rejected", "p1=ready", "",
         ("validation", "transactionid")),
       S(at(answer_url("aprobada", txn="T" * 64), T0 + 22000), "accepted", "p1=approved", "p1:persist")])
    r("flow-token-identifier-length",
      "the identifier sent (<identifier>~<token>) must fit 256 UTF-16 units: the app's part may be 256 - 1 - "
      "len(token) units, also with a fresh (32-character) token",
      [bad(p_start(T0, request=sale_request("i" * 224))["event"], "validation", "request.identifier"),
       bad(p_start(T0, request=sale_request("i" * 240), token="0123456789abcdef")["event"], "validation",
           "request.identifier"),
       bad(p_start(T0, request=sale_request("i" * 224), token=FRESH)["event"], "validation", "request.identifier"),
       S(p_start(T0, request=sale_request("i" * 239), token="0123456789abcdef"), "accepted", "p1=ready",
         "p1:open_pos_app p1:persist"),
       S(p_start(T0, flow_id="p2", request=sale_request("j" * 223), token=FRESH), "accepted", "p1=ready p2=ready",
         "p2:open_pos_app p2:persist"),
       S(at(answer_url("rechazada", identifier="i" * 239, amount=None, txn=None, flow=None) + "~0123456789abcdef",
            T0 + 1000), "accepted", "p1=declined p2=ready", "p1:persist")])
    r("flow-token-replayed-sale-approval",
      "a genuine approval delivered again after its flow ended never approves a later sale with the same order "
      "reference: it is a duplicate of the ended flow, or refused once that flow is removed",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_APPROVED, T0 + MINUTE), "accepted", "p1=approved", "p1:persist"),
       S(p_start(T0 + 2 * MINUTE, flow_id="p2"), "accepted", "p1=approved p2=ready", "p2:open_pos_app p2:persist"),
       S(at(ANS_APPROVED, T0 + 3 * MINUTE), "duplicate", "p1=approved p2=ready"),
       S(ev("flow.remove", T0 + 4 * MINUTE, flow_id="p1"), "accepted", "p2=ready"),
       S(at(ANS_APPROVED, T0 + 5 * MINUTE), "rejected", "p2=ready", "", ("callback_mismatch", "identifier")),
       S(RESTORE, "restored", "p2=ready"),
       S(at(ANS_APPROVED, T0 + 6 * MINUTE), "rejected", "p2=ready", "", ("callback_mismatch", "identifier")),
       S(at(answer_url("aprobada", txn="720372", flow="p2"), T0 + 7 * MINUTE), "accepted", "p2=approved",
         "p2:persist")])
    r("flow-token-replayed-refund-approval",
      "a refund's approval delivered again never approves a later refund with the same reference",
      p_sold() + [
          S(p_refund(A + MINUTE, "p2", "ref-1", amount="40.00"), "accepted", sold + " p2=ready", "p2:open_pos_app p2:persist"),
          S(at(refund_answer("ref-1", "40.00", "990001", "p2"), A + 2 * MINUTE), "accepted", sold + " p2=approved",
            "p2:persist"),
          S(p_refund(A + 3 * MINUTE, "p3", "ref-1", amount="40.00"), "accepted", sold + " p2=approved p3=ready",
            "p3:open_pos_app p3:persist"),
          S(at(refund_answer("ref-1", "40.00", "990001", "p2"), A + 4 * MINUTE), "duplicate", sold + " p2=approved p3=ready"),
          S(ev("flow.remove", A + 5 * MINUTE, flow_id="p2"), "accepted", sold + " p3=ready"),
          S(at(refund_answer("ref-1", "40.00", "990001", "p2"), A + 6 * MINUTE), "rejected", sold + " p3=ready", "",
            ("callback_mismatch", "identifier")),
          S(at(refund_answer("ref-1", "40.00", "990002", "p3"), A + 7 * MINUTE), "accepted", sold + " p3=approved",
            "p3:persist"),
      ])

    # -- D: pos.result (Android result extras) moves a POS flow exactly like the URL answer
    r("flow-result-sale",
      "pos.result: keys in any case, an echoed userToken dropped, %41 kept as text; a second identical result is a "
      "duplicate, another one ignored",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(p_launched(T0 + 1000), "accepted", "p1=launched", "p1:persist"),
       S(p_result(T0 + MINUTE, {"Result": "APROBADA", "AMOUNT": "100.00", "Identifier": "ord-1~" + pos_token("p1"),
                                "transactionid": SALE_TXN, "userToken": USER_TOKEN, "reference": "%41 b+c"}),
         "accepted", "p1=approved", "p1:persist"),
       S(RESTORE, "restored", "p1=approved"),
       S(p_result(T0 + MINUTE + 1000, {"Result": "APROBADA", "AMOUNT": "100.00", "Identifier": "ord-1~" + pos_token("p1"),
                                       "transactionid": SALE_TXN, "reference": "%41 b+c"}), "duplicate", "p1=approved"),
       S(p_result(T0 + MINUTE + 2000, RES_APPROVED), "ignored", "p1=approved"),
       S(p_result(T0 + MINUTE + 3000, RES_DECLINED), "ignored", "p1=approved")])
    r("flow-result-correlation",
      "pos.result names its flow; the extras must still carry that flow's identifier~token: another flow's, the bare "
      "reference or another token are refused",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(p_start(T0 + 100, flow_id="p2", request=sale_request("ord-2")), "accepted", "p1=ready p2=ready",
         "p2:open_pos_app p2:persist"),
       S(p_result(T0 + 1000, result_extras("aprobada", identifier="ord-2", flow="p2")), "rejected", "p1=ready p2=ready",
         "", ("callback_mismatch", "identifier")),
       S(p_result(T0 + 2000, result_extras("aprobada", flow=None)), "rejected", "p1=ready p2=ready", "",
         ("callback_mismatch", "identifier")),
       S(p_result(T0 + 3000, result_extras("aprobada", flow="p2")), "rejected", "p1=ready p2=ready", "",
         ("callback_mismatch", "identifier")),
       S(p_result(T0 + 4000, result_extras("aprobada", identifier="ord-2", amount=None, flow=None)), "rejected",
         "p1=ready p2=ready", "", ("callback_mismatch", "identifier")),
       S(p_result(T0 + 5000, result_extras("aprobada", identifier="ord-2", txn="720372", flow="p2"), flow_id="p2"),
         "accepted", "p1=ready p2=approved", "p2:persist")])
    r("flow-result-field-errors",
      "pos.result field errors name extras.<key>; nothing changes",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(p_result(T0 + 1000, {"result": "aprobada", "amount": "100.00"}), "rejected", "p1=ready", "",
         ("validation", "extras.identifier")),
       S(p_result(T0 + 2000, {"amount": "100.00", "identifier": "ord-1~" + pos_token("p1")}), "rejected", "p1=ready", "",
         ("validation", "extras.result")),
       S(p_result(T0 + 3000, result_extras("aprobada", amount=None)), "rejected", "p1=ready", "",
         ("validation", "extras.amount")),
       S(p_result(T0 + 4000, result_extras("aprobada", extra=[("reference", "a\x00b")])), "rejected", "p1=ready", "",
         ("validation", "extras.reference")),
       S(p_result(T0 + 5000, result_extras("aprobada", extra=[("accountType", "prepaid")])), "rejected", "p1=ready", "",
         ("validation", "extras.accountType")),
       S(p_result(T0 + 6000, result_extras("aprobada", amount="1e2")), "rejected", "p1=ready", "",
         ("validation", "extras.amount")),
       S(p_result(T0 + 7000, result_extras("error", amount=None, txn=None, extra=[("statusinfo", "Lector desconectado")])),
         "accepted", "p1=error", "p1:persist")])
    r("flow-result-flow-kinds",
      "pos.result names a flow that does not exist, or a checkout",
      [S(c_start(T0, session=SESSION_CARDS), "accepted", "c1=ready", "c1:open_browser c1:persist"),
       S(p_result(T0 + 1000, RES_APPROVED, flow_id="p1"), "rejected", "c1=ready", "", ("unknown_flow", "flow_id")),
       S(p_result(T0 + 2000, RES_APPROVED, flow_id="c1"), "rejected", "c1=ready", "", ("invalid_state", "flow_id"))])
    r("flow-result-refund",
      "refunds through pos.result: the approval is booked like a URL answer's (what is left shrinks)",
      p_sold() + [
          S(p_refund(A + MINUTE, "p2", "ref-1", amount="40.00"), "accepted", sold + " p2=ready", "p2:open_pos_app p2:persist"),
          S(p_result(A + 2 * MINUTE, result_extras("aprobada", identifier="ref-1", amount="40.00", txn="990001", flow="p2"),
                     flow_id="p2"), "accepted", sold + " p2=approved", "p2:persist"),
          S(p_refund(A + 3 * MINUTE, "p3", "ref-2", amount="60.01"), "rejected", sold + " p2=approved", "",
            ("not_eligible", "sale")),
          S(p_refund(A + 4 * MINUTE, "p3", "ref-2"), "accepted", sold + " p2=approved p3=ready",
            "p3:open_pos_app p3:persist"),
          S(p_result(A + 5 * MINUTE, result_extras("aprobada", identifier="ref-2", amount="60.00", txn="990002", flow="p3"),
                     flow_id="p3"), "accepted", sold + " p2=approved p3=approved", "p3:persist"),
          S(p_refund(A + 6 * MINUTE, "p4", "ref-3", amount="0.01"), "rejected", sold + " p2=approved p3=approved", "",
            ("invalid_state", "transactionId")),
      ])
    res = {"type": "pos.result", "flow_id": "p1", "now": T0}
    r("flow-result-invalid-events",
      "pos.result documents refused before anything is sent: extras not an object, a value that is not text (extras "
      "missing is onActivityResult without data: see flow-pos-*-result-no-data)",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       bad({**res, "extras": [["result", "aprobada"]]}, "invalid_json", "extras", "p1=ready"),
       bad({**res, "extras": {**RES_APPROVED, "amount": 100}}, "invalid_json", "extras.amount", "p1=ready"),
       bad({**res, "extras": {**RES_APPROVED, "promo": True}}, "invalid_json", "extras.promo", "p1=ready"),
       bad({"type": "pos.result", "extras": RES_APPROVED, "now": T0}, "validation", "flow_id", "p1=ready"),
       S(p_result(T0 + 1000, RES_APPROVED), "accepted", "p1=approved", "p1:persist")])

    # -- E: no answer may fit two pending flows
    r("flow-conflict-pos-identifier",
      "a second pos.start sent the identifier and token of a POS flow on its answer scheme (case ignored) is a "
      "conflict, whatever that flow's state (issue 24: the full `<identifier>~<token>` is the key, so one answer or "
      "a replay can never reach two flows); the same identifier with its own token, or another scheme, is fine",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(p_start(T0 + 100, flow_id="p2", token=pos_token("p1")), "rejected", "p1=ready", "", ("conflict", "token")),
       S(p_start(T0 + 200, flow_id="p2", token=pos_token("p1"), request=sale_request(scheme="MyApp")), "rejected",
         "p1=ready", "", ("conflict", "token")),
       S(p_start(T0 + 300, flow_id="p2", token=pos_token("p1"), request=sale_request(scheme="myapp://")), "rejected",
         "p1=ready", "", ("conflict", "token")),
       S(p_start(T0 + 400, flow_id="p2"), "accepted", "p1=ready p2=ready", "p2:open_pos_app p2:persist"),
       S(p_start(T0 + 500, flow_id="p3", token=pos_token("p1"), request=sale_request(scheme="otherapp")), "accepted",
         "p1=ready p2=ready p3=ready", "p3:open_pos_app p3:persist"),
       S(p_launch_failed(T0 + 600), "accepted", "p1=launch_failed p2=ready p3=ready", "p1:show_hint p1:persist"),
       S(at(ANS_DECLINED, T0 + 800), "accepted", "p1=declined p2=ready p3=ready", "p1:persist"),
       S(p_start(T0 + 900, flow_id="p4", token=pos_token("p1")), "rejected", "p1=declined p2=ready p3=ready", "",
         ("conflict", "token")),
       S(at(ANS_DECLINED, T0 + 1000), "duplicate", "p1=declined p2=ready p3=ready"),
       S(at(ANS_APPROVED, T0 + 1100), "ignored", "p1=declined p2=ready p3=ready"),
       S(at(answer_url("aprobada", flow="p2"), T0 + 1200), "accepted", "p1=declined p2=approved p3=ready",
         "p2:persist")])
    r("flow-conflict-pos-unknown-outcome",
      "a POS flow whose outcome is unknown (returned_without_response) still takes an answer: its identifier and "
      "token cannot be sent again; the same identifier with a fresh token can",
      [S(p_start(T0, grace_ms=0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(p_launched(T0 + 1000), "accepted", "p1=launched", "p1:persist"),
       S(foregrounded(T0 + 2000), "accepted", "p1=launched", "p1:persist"),
       S(tick(T0 + 2000), "accepted", "p1=returned_without_response", "p1:reconcile p1:persist"),
       S(p_start(T0 + 3000, flow_id="p2", token=pos_token("p1")), "rejected", "p1=returned_without_response", "",
         ("conflict", "token")),
       S(p_start(T0 + 4000, flow_id="p2"), "accepted", "p1=returned_without_response p2=ready",
         "p2:open_pos_app p2:persist")])
    r("flow-conflict-order",
      "check order in starts: duplicate flow id, then single_pending_per_kind, then the correlation key",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(p_start(T0 + 100), "rejected", "p1=ready", "", ("duplicate", "flow_id")),
       S(p_start(T0 + 200, flow_id="p2"), "rejected", "p1=ready", "", ("invalid_state", "flow_id")),
       S(c_start(T0 + 300), "accepted", "p1=ready c1=awaiting_session", "c1:create_session c1:persist"),
       S(c_start(T0 + 400, flow_id="c2"), "rejected", "p1=ready c1=awaiting_session", "", ("invalid_state", "flow_id"))],
      config={"single_pending_per_kind": True})
    r("flow-conflict-refund-order",
      "a second refund sent the reference and token of a pending one is a conflict before the one-pending-refund rule",
      p_sold() + [
          S(p_refund(A + MINUTE, "p2", "ref-1", amount="10.00"), "accepted", sold + " p2=ready", "p2:open_pos_app p2:persist"),
          S({"event": {**p_refund(A + MINUTE + 100, "p3", "ref-1", amount="10.00")["event"], "token": pos_token("p2")}}, "rejected",
            sold + " p2=ready", "", ("conflict", "token")),
          S(p_refund(A + MINUTE + 150, "p3", "ref-1", amount="10.00"), "rejected", sold + " p2=ready", "",
            ("invalid_state", "transactionId")),
          S(p_refund(A + MINUTE + 200, "p3", "ref-2", amount="10.00"), "rejected", sold + " p2=ready", "",
            ("invalid_state", "transactionId")),
      ])
    r("flow-conflict-checkout-nonce",
      "a checkout.start with the nonce of a checkout of the coordinator is a conflict, whatever its state (issue 24: "
      "a checkout started with an ended flow's nonce would never see its callbacks); once the flow is removed the "
      "nonce is remembered for 3 days after its deadline (issue 35: its late or replayed callback must not reach "
      "another checkout), then may be used again",
      [S(c_start(T0, session=SESSION_CARDS), "accepted", "c1=ready", "c1:open_browser c1:persist"),
       S(c_start(T0 + 100, flow_id="c2"), "rejected", "c1=ready", "", ("conflict", "nonce")),
       S(ev("checkout.start", T0 + 200, flow_id="c2", request=CARD_REQUEST, nonce=N1), "rejected", "c1=ready", "",
         ("conflict", "nonce")),
       S(c_start(T0 + 300, flow_id="c2", nonce=N2, return_url="fixapp://other-callback"), "accepted",
         "c1=ready c2=awaiting_session", "c2:create_session c2:persist"),
       S(at(CB_COMPLETED, T0 + 400), "accepted", "c1=awaiting_confirmation c2=awaiting_session", COMPLETED_EFFECTS),
       S(c_start(T0 + 500, flow_id="c3"), "rejected", "c1=awaiting_confirmation c2=awaiting_session", "",
         ("conflict", "nonce")),
       S(c_confirm(T0 + 600), "accepted", "c1=confirmed c2=awaiting_session", "c1:persist"),
       S(c_start(T0 + 700, flow_id="c3"), "rejected", "c1=confirmed c2=awaiting_session", "", ("conflict", "nonce")),
       S(at(CB_COMPLETED, T0 + 800), "duplicate", "c1=confirmed c2=awaiting_session"),
       S(at(CB_CANCELLED, T0 + 900), "ignored", "c1=confirmed c2=awaiting_session"),
       S(ev("flow.remove", T0 + 950, flow_id="c1"), "accepted", "c2=awaiting_session"),
       S(c_start(T0 + 1000, flow_id="c3"), "rejected", "c2=awaiting_session", "", ("conflict", "nonce"))]
      # The horizon's time passes in steps of at most 12 hours (a longer jump counts as 12 hours: issue 35, B6).
      + [S(tick(T0 + 950 + KEY_LARGEST_STEP), "accepted", "c2=expired", "c2:close_browser c2:reconcile c2:persist")]
      + [S(tick(T0 + 950 + k * KEY_LARGEST_STEP), "accepted", "c2=expired") for k in range(2, 7)]
      + [S(c_start(T0 + DEFAULT_TIMEOUT + KEY_HORIZON - 1, flow_id="c3"), "rejected", "c2=expired", "",
         ("conflict", "nonce")),
       S(c_start(T0 + DEFAULT_TIMEOUT + KEY_HORIZON, flow_id="c3"), "accepted", "c2=expired c3=awaiting_session",
         "c3:create_session c3:persist")])

    # -- F: refunds never exceed what is left; the ledger
    r("flow-ledger-refund-without-amount-after-partial",
      "after 40.00 of a 100.00 sale were refunded, a refund without amount asks for the 60.00 left: its approval for "
      "100.00 is a mismatch to reconcile (never booked as a plain approval), and nothing is left to refund",
      p_sold() + [
          S(p_refund(A + MINUTE, "p2", "ref-1", amount="40.00"), "accepted", sold + " p2=ready", "p2:open_pos_app p2:persist"),
          S(at(refund_answer("ref-1", "40.00", "990001", "p2"), A + 2 * MINUTE), "accepted", sold + " p2=approved",
            "p2:persist"),
          S(p_refund(A + 3 * MINUTE, "p3", "ref-2"), "accepted", sold + " p2=approved p3=ready", "p3:open_pos_app p3:persist"),
          S(at(refund_answer("ref-2", "100.00", "990002", "p3"), A + 4 * MINUTE), "accepted",
            sold + " p2=approved p3=approved_amount_mismatch", "p3:reconcile p3:persist"),
          S(p_refund(A + 5 * MINUTE, "p4", "ref-3", amount="0.01"), "rejected",
            sold + " p2=approved p3=approved_amount_mismatch", "", ("invalid_state", "transactionId")),
      ])
    r("flow-ledger-refund-without-amount-exact",
      "a refund without amount asks for what is left: its approval for exactly that amount (60.00) is a plain approval",
      p_sold() + [
          S(p_refund(A + MINUTE, "p2", "ref-1", amount="40.00"), "accepted", sold + " p2=ready", "p2:open_pos_app p2:persist"),
          S(at(refund_answer("ref-1", "40.00", "990001", "p2"), A + 2 * MINUTE), "accepted", sold + " p2=approved",
            "p2:persist"),
          S(p_refund(A + 3 * MINUTE, "p3", "ref-2"), "accepted", sold + " p2=approved p3=ready", "p3:open_pos_app p3:persist"),
          S(at(refund_answer("ref-2", "60.00", "990002", "p3"), A + 4 * MINUTE), "accepted",
            sold + " p2=approved p3=approved", "p3:persist"),
      ])
    r("flow-ledger-refund-approved-below-request",
      "a refund approved for less than requested is a mismatch; the requested amount is booked (conservative), so "
      "nothing is left",
      p_sold() + [
          S(p_refund(A + MINUTE, "p2", "ref-1"), "accepted", sold + " p2=ready", "p2:open_pos_app p2:persist"),
          S(at(refund_answer("ref-1", "30.00", "990001", "p2"), A + 2 * MINUTE), "accepted",
            sold + " p2=approved_amount_mismatch", "p2:reconcile p2:persist"),
          S(p_refund(A + 3 * MINUTE, "p3", "ref-2", amount="0.01"), "rejected", sold + " p2=approved_amount_mismatch", "",
            ("invalid_state", "transactionId")),
      ])
    mismatched = "p1=approved_amount_mismatch"
    r("flow-ledger-mismatched-sale-cap",
      "a sale answered 1000.00 for 100.00 requested can be refunded only up to min(requested, answered) = 100.00",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(answer_url("aprobada", amount="1000.00"), A), "accepted", mismatched, "p1:reconcile p1:persist"),
       S(p_refund(A + MINUTE, "p2", "ref-1", amount="900.00"), "rejected", mismatched, "", ("not_eligible", "sale")),
       S(p_refund(A + MINUTE, "p2", "ref-1", amount="100.01"), "rejected", mismatched, "", ("not_eligible", "sale")),
       S(p_refund(A + MINUTE, "p2", "ref-1"), "accepted", mismatched + " p2=ready", "p2:open_pos_app p2:persist"),
       S(at(refund_answer("ref-1", "100.00", "990001", "p2"), A + 2 * MINUTE), "accepted", mismatched + " p2=approved",
         "p2:persist"),
       S(p_refund(A + 3 * MINUTE, "p3", "ref-2", amount="0.01"), "rejected", mismatched + " p2=approved", "",
         ("invalid_state", "transactionId"))])
    r("flow-ledger-mismatched-sale-answered-less",
      "a sale answered 90.00 for 100.00 requested can be refunded up to 90.00",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_OTHER_AMOUNT, A), "accepted", mismatched, "p1:reconcile p1:persist"),
       S(p_refund(A + MINUTE, "p2", "ref-1", amount="90.01"), "rejected", mismatched, "", ("not_eligible", "sale")),
       S(p_refund(A + MINUTE, "p2", "ref-1", amount="90.00"), "accepted", mismatched + " p2=ready",
         "p2:open_pos_app p2:persist")])
    r("flow-ledger-transactionid-booked-once",
      "a transactionid booked by one flow is never booked by another (duplicate, transactionid), also not by a refund "
      "repeating its sale's id; a declined answer is not an approval",
      p_sold() + [
          S(p_start(A + 1000, flow_id="p2", request=sale_request("ord-2")), "accepted", sold + " p2=ready",
            "p2:open_pos_app p2:persist"),
          S(at(answer_url("aprobada", identifier="ord-2", flow="p2"), A + 2000), "rejected", sold + " p2=ready", "",
            ("duplicate", "transactionid")),
          S(p_result(A + 3000, result_extras("aprobada", identifier="ord-2", flow="p2"), flow_id="p2"), "rejected",
            sold + " p2=ready", "", ("duplicate", "transactionid")),
          S(at(answer_url("aprobada", identifier="ord-2", txn="720372", flow="p2"), A + 4000), "accepted",
            sold + " p2=approved", "p2:persist"),
          S(p_refund(A + MINUTE, "p3", "ref-1", amount="10.00"), "accepted", sold + " p2=approved p3=ready",
            "p3:open_pos_app p3:persist"),
          S(at(refund_answer("ref-1", "10.00", SALE_TXN, "p3"), A + 2 * MINUTE), "rejected", sold + " p2=approved p3=ready",
            "", ("duplicate", "transactionid")),
          S(at(refund_answer("ref-1", "10.00", "720372", "p3"), A + 2 * MINUTE), "rejected", sold + " p2=approved p3=ready",
            "", ("duplicate", "transactionid")),
          S(at(answer_url("rechazada", identifier="ref-1", amount=None, flow="p3"), A + 3 * MINUTE), "accepted",
            sold + " p2=approved p3=declined", "p3:persist"),
      ])
    deadline = T0 + 13 * HOUR  # 23:00 Mexico City on the day of the sale approved at A (10:01)
    r("flow-ledger-entries-dropped-at-deadline",
      "the ledger keeps a sale until 23:00 Mexico City of its day: a transactionid seen again just before is a "
      "duplicate, from 23:00 it is forgotten (a refund is then not_eligible); a replay is still refused by the token",
      p_sold() + [
          S(p_start(deadline - HOUR, flow_id="p2", request=sale_request("ord-2")), "accepted", sold + " p2=ready",
            "p2:open_pos_app p2:persist"),
          S(at(answer_url("aprobada", identifier="ord-2", flow="p2"), deadline - 1), "rejected", sold + " p2=ready", "",
            ("duplicate", "transactionid")),
          S(p_refund(deadline, "p3", "ref-1"), "rejected", sold + " p2=ready", "", ("not_eligible", "sale")),
          S(at(answer_url("aprobada", identifier="ord-2", flow="p2"), deadline), "accepted", sold + " p2=approved",
            "p2:persist"),
          S(ev("flow.remove", deadline + 1000, flow_id="p1"), "accepted", "p2=approved"),
          S(p_start(deadline + 2000, flow_id="p4"), "accepted", "p2=approved p4=ready", "p4:open_pos_app p4:persist"),
          S(at(ANS_APPROVED, deadline + 3000), "rejected", "p2=approved p4=ready", "", ("callback_mismatch", "identifier")),
      ])
    a_ms = T0 + MINUTE + 500  # an approval at .500 of a second
    r("flow-ledger-refund-minute-in-milliseconds",
      "the one-minute rule keeps milliseconds: 59.999 s after an approval at x.500 s is too soon, 60.000 s is fine",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(at(ANS_APPROVED, a_ms), "accepted", sold, "p1:persist"),
       S(p_refund(a_ms + 59_999, "p2", "ref-1"), "rejected", sold, "", ("not_eligible", "sale")),
       S(p_refund(a_ms + 60_000, "p2", "ref-1"), "accepted", sold + " p2=ready", "p2:open_pos_app p2:persist")])
    r("flow-ledger-remove-pending-refund",
      "flow.remove of a pending refund is refused unless the host gives it up; giving it up books its amount against "
      "the sale (the refund may have happened)",
      p_sold() + [
          S(p_refund(A + MINUTE, "p2", "ref-1", amount="40.00"), "accepted", sold + " p2=ready", "p2:open_pos_app p2:persist"),
          S(ev("flow.remove", A + MINUTE + 1000, flow_id="p2"), "rejected", sold + " p2=ready", "",
            ("invalid_state", "flow_id")),
          S(ev("flow.remove", A + MINUTE + 2000, flow_id="p2", give_up=True), "accepted", sold),
          S(p_refund(A + 2 * MINUTE, "p3", "ref-2", amount="60.01"), "rejected", sold, "", ("not_eligible", "sale")),
          S(RESTORE, "restored", sold),
          S(p_refund(A + 3 * MINUTE, "p3", "ref-2"), "accepted", sold + " p3=ready", "p3:open_pos_app p3:persist"),
          S(at(refund_answer("ref-2", "60.00", "990002", "p3"), A + 4 * MINUTE), "accepted", sold + " p3=approved",
            "p3:persist"),
      ])
    r("flow-remove-pending-pos",
      "a POS hand-off that still takes an answer (ready, launch_failed) is removed only with give_up",
      [S(p_start(T0), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(ev("flow.remove", T0 + 1000, flow_id="p1"), "rejected", "p1=ready", "", ("invalid_state", "flow_id")),
       S(p_launch_failed(T0 + 2000), "accepted", "p1=launch_failed", "p1:show_hint p1:persist"),
       S(ev("flow.remove", T0 + 3000, flow_id="p1"), "rejected", "p1=launch_failed", "", ("invalid_state", "flow_id")),
       S(ev("flow.remove", T0 + 4000, flow_id="p1", give_up=True), "accepted", ""),
       S(at(ANS_APPROVED, T0 + 5000), "not_ours", "")])
    r("flow-remove-give-up-ended-flow",
      "give_up on an ended flow is allowed (nothing to give up)",
      [S(c_start(T0, session=SESSION_CARDS), "accepted", "c1=ready", "c1:open_browser c1:persist"),
       S(at(CB_CANCELLED, T0 + 1000), "accepted", "c1=cancelled", "c1:close_browser c1:persist"),
       S(ev("flow.remove", T0 + 2000, flow_id="c1", give_up=True), "accepted", "")])
    r("flow-remove-awaiting-confirmation",
      "a checkout awaiting its confirmation still waits: removed only with give_up",
      c_in_browser() + [
          S(at(CB_COMPLETED, T0 + 60000), "accepted", "c1=awaiting_confirmation", COMPLETED_EFFECTS),
          S(ev("flow.remove", T0 + 61000, flow_id="c1"), "rejected", "c1=awaiting_confirmation", "",
            ("invalid_state", "flow_id")),
          S(ev("flow.remove", T0 + 62000, flow_id="c1", give_up=True), "accepted", ""),
      ])
    today_doc = {"transactionid": SALE_TXN, "amount": "50.00", "approved_at": T0 // 1000 - 86400, "bp_version": "4.3.24"}
    r("flow-ledger-sale-document-uses-entry",
      "a refund given a sale document whose transactionid is in the ledger uses the entry (approval time, what was "
      "refunded) and the smaller of the two amounts",
      p_sold() + [
          S(ev("pos.start", A + MINUTE, flow_id="p2", token=pos_token("p2"), request=refund_request("ref-1", amount="50.01"),
               sale=today_doc), "rejected", sold, "", ("not_eligible", "sale")),
          S(ev("pos.start", A + MINUTE, flow_id="p2", token=pos_token("p2"), request=refund_request("ref-1"),
               sale=today_doc), "accepted", sold + " p2=ready", "p2:open_pos_app p2:persist"),
          S(at(refund_answer("ref-1", "50.00", "990001", "p2"), A + 2 * MINUTE), "accepted", sold + " p2=approved",
            "p2:persist"),
          S(p_refund(A + 3 * MINUTE, "p3", "ref-2", amount="50.01"), "rejected", sold + " p2=approved", "",
            ("not_eligible", "sale")),
          S(p_refund(A + 3 * MINUTE, "p3", "ref-2"), "accepted", sold + " p2=approved p3=ready", "p3:open_pos_app p3:persist"),
      ])
    doc = {"transactionid": "555001", "amount": "100.00", "approved_at": T0 // 1000 - 3600, "bp_version": "4.3.24"}
    r("flow-ledger-sale-document-entry-added",
      "a refund of a sale known only from a document adds the sale to the ledger when its approval is booked: a "
      "second refund without amount asks for what is left, and a sale answered with that transactionid is refused",
      [S(ev("pos.start", T0, flow_id="p2", token=pos_token("p2"), request=refund_request("ref-1", "555001", "30.00"),
            sale=doc), "accepted", "p2=ready", "p2:open_pos_app p2:persist"),
       S(at(refund_answer("ref-1", "30.00", "990001", "p2"), T0 + MINUTE), "accepted", "p2=approved", "p2:persist"),
       S(ev("pos.start", T0 + 2 * MINUTE, flow_id="p3", token=pos_token("p3"), request=refund_request("ref-2", "555001"),
            sale=doc), "accepted", "p2=approved p3=ready", "p3:open_pos_app p3:persist"),
       S(at(refund_answer("ref-2", "100.00", "990002", "p3"), T0 + 3 * MINUTE), "accepted",
         "p2=approved p3=approved_amount_mismatch", "p3:reconcile p3:persist"),
       S(ev("pos.start", T0 + 4 * MINUTE, flow_id="p4", token=pos_token("p4"),
            request=refund_request("ref-3", "555001", "0.01"), sale=doc), "rejected",
         "p2=approved p3=approved_amount_mismatch", "", ("invalid_state", "transactionId")),
       S(p_start(T0 + 5 * MINUTE, flow_id="p5", request=sale_request("ord-5")), "accepted",
         "p2=approved p3=approved_amount_mismatch p5=ready", "p5:open_pos_app p5:persist"),
       S(at(answer_url("aprobada", identifier="ord-5", txn="555001", flow="p5"), T0 + 6 * MINUTE), "rejected",
         "p2=approved p3=approved_amount_mismatch p5=ready", "", ("duplicate", "transactionid"))])

    # -- A: one rule for flow ids, times and ranges (event documents)
    r("flow-common-rules-event-documents",
      "flow ids are 1 to 128 bytes without control bytes, space or DEL (non-ASCII is fine); now may be the last "
      "millisecond of 9999; deadline and grace_ms in range",
      [bad(c_start(T0, flow_id="c\x7f1")["event"], "validation", "flow_id"),
       bad(c_start(T0, flow_id="ñ" * 64 + "a")["event"], "validation", "flow_id"),
       S(c_start(T0, flow_id="ñ" * 64), "accepted", "ñ" * 64 + "=awaiting_session",
         "ñ" * 64 + ":create_session " + "ñ" * 64 + ":persist"),
       bad(c_start(T0, flow_id="c2", nonce=N2, deadline=253402300800000)["event"], "validation", "deadline",
           "ñ" * 64 + "=awaiting_session"),
       bad(p_refund(T0, "p2", "ref-1", sale_flow_id="p 1")["event"], "validation", "sale_flow_id",
           "ñ" * 64 + "=awaiting_session"),
       bad(p_start(T0, token="short")["event"], "validation", "token", "ñ" * 64 + "=awaiting_session"),
       bad(p_start(T0, token=12345678901234567)["event"], "invalid_json", "token", "ñ" * 64 + "=awaiting_session"),
       bad({"type": "flow.remove", "flow_id": "c1", "give_up": "yes", "now": T0}, "invalid_json", "give_up",
           "ñ" * 64 + "=awaiting_session"),
       S(p_start(T0, grace_ms=3_600_000), "accepted", "ñ" * 64 + "=awaiting_session p1=ready", "p1:open_pos_app p1:persist"),
       S(tick(253402300799999), "accepted", "ñ" * 64 + "=expired p1=ready",
         "ñ" * 64 + ":close_browser " + "ñ" * 64 + ":reconcile " + "ñ" * 64 + ":persist")])


# ---------------------------------------------------------------------------------------
# checkout.browser_result (issue 38): every state x every result a channel can give, then scripts.

BROWSER_EVENTS = [
    ("ok-auth-tab", "an Auth Tab result with the completed return URL (the deep link's URL)",
     lambda t: [c_result(t, "ok", url=CB_COMPLETED)]),
    ("ok-web-authentication-session", "ASWebAuthenticationSession's callback URL (completed)",
     lambda t: [c_result(t, "ok", "web_authentication_session", CB_COMPLETED)]),
    ("ok-failed", "an Auth Tab result whose URL says failed", lambda t: [c_result(t, "ok", url=CB_FAILED)]),
    ("ok-then-deep-link", "the same return as a result, then as a deep link: moves the flow once",
     lambda t: [c_result(t, "ok", url=CB_COMPLETED), at(CB_COMPLETED, t + 500)]),
    ("deep-link-then-ok", "the same return as a deep link, then as a result: moves the flow once",
     lambda t: [at(CB_COMPLETED, t), c_result(t + 500, "ok", url=CB_COMPLETED)]),
    ("ok-wrong-nonce", "a result URL with another nonce: rejected, nothing changes",
     lambda t: [c_result(t, "ok", url=CB_WRONG_NONCE)]),
    ("ok-no-nonce", "a result URL without the nonce: refused as the deep link is",
     lambda t: [c_result(t, "ok", url=CB_NO_NONCE)]),
] + [(f"{kebab(code)}-{kebab(channel)}", f"{channel} reports {code}", (lambda c, k: lambda t: [c_result(t, k, c)])(channel, code))
     for channel, codes in BROWSER_CODES.items() for code in codes if code != "ok"] + [
    ("verification-failed-twice", "the same verification failure reported twice: reconcile each time, stored once",
     lambda t: [c_result(t, "verification_failed"), c_result(t + 500, "verification_failed")]),
]

# Returns an https return URL: launched with return_to {https_host, https_path}.
HTTPS_RETURN = "https://tuapp.com/checkout-callback"
HTTPS_CB = HTTPS_RETURN + "/ph_" + N1 + "?status=completed&card_id=card_xyz"


def browser_results() -> Suite:
    s = Suite(SUITE)
    for state in C_STATES:
        prefix, reached = CHECKOUT_PREFIX[state]
        t = reached + 10 * SECOND
        for name, what, make in BROWSER_EVENTS:
            s.add_model(f"flow-browser-result-{kebab(state)}-{name}", f"checkout in {state}: {what}", prefix + make(t))
        s.add_model(f"flow-browser-result-{kebab(state)}-unverified-ok",
                    f"checkout in {state}, accept_unverified_callbacks: a result URL without the nonce is a claim",
                    prefix + [c_result(t, "ok", url=CB_NO_NONCE)], ACCEPT_UNVERIFIED)
    r = s.add_checked
    started = [S(c_start(T0, session={"kind": "cards", "checkout_url": CHECKOUT_URL}, kind="cards"), "accepted", "c1=ready",
                 "c1:open_browser c1:persist"),
               S(c_opened(T0 + 1000), "accepted", "c1=in_browser", "c1:persist")]
    r("flow-browser-result-ok-restore-deep-link",
      "the app dies while the Auth Tab is open; restored, it takes the result; restored again, the same return as a deep link is a duplicate",
      started + [S({"restore": True}, "restored", "c1=in_browser"),
                 S(c_result(T0 + 30000, "ok", url=CB_COMPLETED), "accepted", "c1=awaiting_confirmation", COMPLETED_EFFECTS),
                 S({"restore": True}, "restored", "c1=awaiting_confirmation"),
                 S(at(CB_COMPLETED, T0 + 31000), "duplicate", "c1=awaiting_confirmation"),
                 S(c_confirm(T0 + 40000), "accepted", "c1=confirmed", "c1:persist")])
    r("flow-browser-result-deep-link-restore-ok",
      "the Custom Tab fallback's deep link first; after a restore the Auth Tab's result for the same return is a duplicate",
      started + [S(at(CB_COMPLETED, T0 + 30000), "accepted", "c1=awaiting_confirmation", COMPLETED_EFFECTS),
                 S({"restore": True}, "restored", "c1=awaiting_confirmation"),
                 S(c_result(T0 + 30500, "ok", url=CB_COMPLETED), "duplicate", "c1=awaiting_confirmation")])
    r("flow-browser-result-verification-failed-restore-genuine-return",
      "verification failed: reconcile, the flow waits; restored, a later genuine return still decides",
      started + [S(c_result(T0 + 30000, "verification_failed"), "accepted", "c1=returned_without_result", "c1:reconcile c1:persist"),
                 S({"restore": True}, "restored", "c1=returned_without_result"),
                 S(c_result(T0 + 31000, "verification_timed_out"), "accepted", "c1=returned_without_result", "c1:reconcile"),
                 S(at(CB_COMPLETED, T0 + 32000), "accepted", "c1=awaiting_confirmation", COMPLETED_EFFECTS)])
    r("flow-browser-result-canceled-then-confirmation",
      "the user closed the Auth Tab, yet the webhook confirms (3-D Secure had finished): confirmed",
      started + [S(c_result(T0 + 30000, "canceled"), "accepted", "c1=returned_without_result", "c1:persist"),
                 S(c_dismissed(T0 + 30100), "duplicate", "c1=returned_without_result"),
                 S(c_confirm(T0 + 40000), "accepted", "c1=confirmed", "c1:persist"),
                 S(c_result(T0 + 41000, "ok", url=CB_COMPLETED), "ignored", "c1=confirmed")])
    r("flow-browser-result-other-flows-nonce",
      "a result for c1 carrying c2's nonce: callback_mismatch, neither flow moves; c2's own deep link still works",
      [S(c_start(T0, session={"kind": "cards", "checkout_url": CHECKOUT_URL}, kind="cards"), "accepted", "c1=ready",
         "c1:open_browser c1:persist"),
       S(c_start(T0, flow_id="c2", nonce=N2, session={"kind": "cards", "checkout_url": CHECKOUT_URL}, kind="cards"), "accepted",
         "c1=ready c2=ready", "c2:open_browser c2:persist"),
       S(c_result(T0 + 1000, "ok", url=callback_url("completed", nonce=N2)), "rejected", "c1=ready c2=ready", "",
         ("callback_mismatch", "nonce")),
       S(c_result(T0 + 1000, "ok", url="otherapp://checkout-callback/ph_" + N1 + "?status=completed&card_id=card_xyz"), "rejected",
         "c1=ready c2=ready", "", ("callback_mismatch", "scheme")),
       S(at(callback_url("completed", nonce=N2), T0 + 2000), "accepted", "c1=ready c2=awaiting_confirmation",
         "c2:close_browser c2:show_pending c2:persist")])
    r("flow-browser-result-https-return",
      "an https return URL: open_browser carries return_to {https_host, https_path}; the Auth Tab's result is its deep link",
      [S(c_start(T0, return_url=HTTPS_RETURN, session={"kind": "cards", "checkout_url": CHECKOUT_URL}, kind="cards"), "accepted",
         "c1=ready", "c1:open_browser c1:persist"),
       S(c_result(T0 + 30000, "ok", url=HTTPS_CB), "accepted", "c1=awaiting_confirmation", COMPLETED_EFFECTS),
       S(at(HTTPS_CB, T0 + 30500), "duplicate", "c1=awaiting_confirmation")])
    r("flow-browser-result-unknown-or-pos-flow", "a result for no flow, or for a POS flow, is refused",
      [S(c_result(T0, "canceled"), "rejected", "", "", ("unknown_flow", "flow_id")),
       S(p_start(T0, token=pos_token("p1")), "accepted", "p1=ready", "p1:open_pos_app p1:persist"),
       S(c_result(T0 + 1000, "canceled", flow_id="p1"), "rejected", "p1=ready", "", ("invalid_state", "flow_id")),
       S(c_result(T0 + 1000, "ok", url=CB_COMPLETED, flow_id="p1"), "rejected", "p1=ready", "", ("invalid_state", "flow_id"))])
    V, J = "validation", "invalid_json"
    doc = lambda **m: {"type": "checkout.browser_result", "flow_id": "c1", "now": T0, **m}  # noqa: E731
    r("flow-browser-result-refused-documents",
      "a pair the channel cannot give, an unknown channel or code, ok without url, another code with one, an unknown member",
      started + [bad(doc(channel="web_authentication_session", code="verification_failed"), V, "code", "c1=in_browser"),
                 bad(doc(channel="custom_tab", code="ok", url=CB_COMPLETED), V, "code", "c1=in_browser"),
                 bad(doc(channel="safari_view_controller", code="unknown"), V, "code", "c1=in_browser"),
                 bad(doc(channel="chrome", code="canceled"), V, "channel", "c1=in_browser"),
                 bad(doc(channel="auth_tab", code="cancelled"), V, "code", "c1=in_browser"),
                 bad(doc(channel="auth_tab", code="OK", url=CB_COMPLETED), V, "code", "c1=in_browser"),
                 bad(doc(channel="auth_tab", code="ok"), V, "url", "c1=in_browser"),
                 bad(doc(channel="auth_tab", code="canceled", url=CB_COMPLETED), V, "url", "c1=in_browser"),
                 bad(doc(channel="auth_tab", code="canceled", reason="x"), V, "reason", "c1=in_browser"),
                 bad(doc(channel="auth_tab"), V, "code", "c1=in_browser"),
                 bad(doc(channel="auth_tab", code=2), J, "code", "c1=in_browser"),
                 bad(doc(code="canceled"), V, "channel", "c1=in_browser")])
    return s


# ---------------------------------------------------------------------------------------

def steps_count(file_name: str, suite: Suite) -> str:
    steps = sum(len(v["input"]["steps"]) for v in suite.vectors)
    return f"{file_name}: {len(suite.vectors)} vectors, {steps} steps"


def main(argv: list[str]) -> int:
    suites = {"checkout_table.json": checkout_table(), "pos_table.json": pos_table(), "races.json": races(),
              "browser_result.json": browser_results()}
    return vectorlib.main(argv, FLOWS_DIR, suites, describe=steps_count)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
