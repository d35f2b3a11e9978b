#!/usr/bin/env python3
"""Writes the shared vectors of the POS apps beside Billpocket (issue 39): Square, SumUp, Clip.

    python3 Tests/Vectors/tools/pos_apps_vectors.py          # (re)write the files
    python3 Tests/Vectors/tools/pos_apps_vectors.py --check  # fail if the files on disk differ

Python 3.11, standard library only; `make vectors-check` runs it with every `*_vectors.py`. One
oracle per provider, each written from that provider's own documented requests and answers
(its SDK sources and READMEs, cited in the module and in every vector's `source` member), never
from PayHandoff's code: pos_square.py, pos_sumup.py, pos_clip.py, with the rules they share in
vectorlib.py. This file adds what is not one provider's:

- `pos/pos_apps_*.json`: the `pos_app` word (absent or null is `billpocket`; Mercado Pago Point is
  left out), a Billpocket request naming itself (its documents are pos_vectors.py's, with
  `"pos_app": "billpocket"`), a provider asked for a suite it has no transport for (Clip answers
  by activity result only, SumUp by URL only), and `pos.refund_check` of sales of other POS apps
  (refunds only through Billpocket: `not_eligible` reasons `square_server_refund`,
  `sumup_server_refund`, `clip_server_refund`);
- `flows/pos_apps.json`: coordinator scripts per provider, their expected summaries from a small
  model (`Model`) that reads every answer with the provider oracles: a documented sale round
  trip, a forged answer without the token, a replay, unknown words, cancellation, no data, process
  death (restore) in the middle, the amount limits, SumUp's retry with the same foreign-tx-id, and
  refunds of those sales.

Output is deterministic: same tables, same bytes.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

sys.dont_write_bytecode = True  # importing vectorlib leaves no __pycache__ folder in the tree
import vectorlib  # noqa: E402
import pos_vectors as bp  # noqa: E402  (Billpocket's oracle: a request naming billpocket gives its documents)
import pos_square as square  # noqa: E402
import pos_sumup as sumup  # noqa: E402
import pos_clip as clip  # noqa: E402
from vectorlib import DROP, Fail, Suite, check_currency, check_pos_app, make_with  # noqa: E402

VECTORS_DIR = Path(__file__).resolve().parent.parent
POS_DIR = VECTORS_DIR / "pos"
FLOWS_DIR = VECTORS_DIR / "flows"
SRC_SPEC = "PayHandoff issue 39 spec (/work/notes/39-spec.md): shapes and decisions"
SRC_BILLPOCKET = "docs/architecture.md \"Billpocket POS\" (pos_vectors.py), with pos_app named (issue 39)"
with_ = make_with(deep_copy=True)

# ---------------------------------------------------------------------------------------
# Dispatch by pos_app (a request, options, a sale)


def with_app(doc: dict, app: str) -> dict:
    """`doc` with `pos_app` after `version` (the key order of the files does not depend on where
    pos_vectors.py puts it)."""
    rest = {k: v for k, v in doc.items() if k not in ("version", "pos_app")}
    return {"version": doc["version"], "pos_app": app, **rest}


def build_url(request) -> dict:
    if not isinstance(request, dict):
        raise Fail("invalid_json", None)
    app = check_pos_app(request.get("pos_app"))
    if app == "square":
        return square.build_url(request)
    if app == "sumup":
        return sumup.build_url(request)
    if app == "clip":
        return clip.build_url(request)
    rest = {k: v for k, v in request.items() if k not in ("pos_app", "currency")}
    if request.get("currency") is not None and check_currency(request["currency"]) != "MXN":
        raise Fail("validation", "currency")  # Billpocket charges in MXN only
    return with_app(bp.build_url(rest), "billpocket")


def parse_response(url: str, options) -> dict:
    if not isinstance(options, dict):
        raise Fail("invalid_json", None)
    app = check_pos_app(options.get("pos_app"))
    if app == "square":
        return square.parse_response(url, options)
    if app == "sumup":
        return sumup.parse_response(url, options)
    if app == "clip":
        raise Fail("validation", "pos_app")  # Clip answers by activity result only
    # Answers name their app only when it is not Billpocket: every 0.3 answer document stays as it was.
    return bp.parse_response(url, {k: v for k, v in options.items() if k != "pos_app"})


def parse_result(extras, options) -> dict:
    if not isinstance(options, dict):
        raise Fail("invalid_json", None)
    app = check_pos_app(options.get("pos_app"))
    if app == "square":
        return square.parse_result(extras, options)
    if app == "clip":
        return clip.parse_result(extras, options)
    if app == "sumup":
        raise Fail("validation", "pos_app")  # SumUp answers by URL only
    rest = {k: v for k, v in options.items() if k != "pos_app"}
    bp.expected_identifier(rest, ("identifier", "token"))
    if extras is None:
        vectorlib.no_data_answer(app)  # pos_app billpocket means what no pos_app means: null is invalid_json
    return bp.parse_result(extras, rest)


SERVER_REFUND = {
    "square": ("square_server_refund", "Square sales are refunded through Square's server API (Refunds API), not through "
                                       "the Point of Sale app"),
    "sumup": ("sumup_server_refund", "SumUp sales are refunded through SumUp's server API, not through the SumUp app"),
    "clip": ("clip_server_refund", "Clip sales are refunded through Clip's server API, not through the Clip terminal app"),
}


def refund_check(check) -> dict:
    """Billpocket's verdict (pos_vectors.refund_check); a sale of another POS app (`sale.pos_app`)
    is never eligible: its one reason names the provider's server API, no warning (bp_version is
    Billpocket's: refused on another app's sale)."""
    if not isinstance(check, dict):
        raise Fail("invalid_json", None)
    sale = check.get("sale")
    if not isinstance(sale, dict):
        return bp.refund_check(check)
    try:
        app = check_pos_app(sale.get("pos_app"))
    except Fail as failure:
        raise Fail(failure.code, "sale.pos_app") from None
    stripped = dict(check, sale={k: v for k, v in sale.items() if k != "pos_app"})
    if app == "billpocket":
        return bp.refund_check(stripped)
    if sale.get("bp_version") is not None:
        raise Fail("validation", "sale.bp_version")
    verdict = bp.refund_check(stripped)
    code, message = SERVER_REFUND[app]
    return dict(verdict, eligible=False, reasons=[{"code": code, "message": message}], warnings=[])


# ---------------------------------------------------------------------------------------
# pos/pos_apps_*.json

BP_SALE = {"pos_app": "billpocket", "transaction": "venta", "usertoken": "tok_live_123", "identifier": "ord-1",
           "amount": "100.00", "urlScheme": "myapp"}
V, J = "validation", "invalid_json"


def sourced(suite: Suite, source: str):
    suite.vectors[-1]["source"] = source


def cross_build_cases() -> Suite:
    s = Suite("pos.build_url", "pos-apps-build", lambda i: build_url(i["request"]), detach=True)

    def add(id_, note, request, error=None, source=SRC_SPEC):
        s.add(id_, note, {"request": request}, error)
        sourced(s, source)

    add("pos-apps-build-billpocket-named", "pos_app billpocket names the default: Billpocket's document, with pos_app",
        BP_SALE, source=SRC_BILLPOCKET)
    add("pos-apps-build-billpocket-null", "a null pos_app counts as absent: Billpocket", with_(BP_SALE, pos_app=None))
    add("pos-apps-build-billpocket-absent", "without pos_app (every 0.3 request) the answer names billpocket",
        with_(BP_SALE, pos_app=DROP))
    add("pos-apps-build-billpocket-mxn", "currency MXN is accepted on Billpocket (MXN only)", with_(BP_SALE, currency="MXN"))
    add("pos-apps-build-billpocket-refund-named", "a Billpocket refund naming its app", {
        "pos_app": "billpocket", "transaction": "devolucion", "usertoken": "tok_live_123", "identifier": "ref-1",
        "urlScheme": "myapp", "transactionId": "720371234"}, source=SRC_BILLPOCKET)
    add("pos-apps-build-billpocket-usd", "Billpocket charges in MXN only", with_(BP_SALE, currency="USD"), (V, "currency"))
    add("pos-apps-build-mercado-pago", "Mercado Pago Point is left out (its app integration echoes nothing)",
        with_(BP_SALE, pos_app="mercadopago"), (V, "pos_app"))
    add("pos-apps-build-app-case", "pos_app words are exact: 'Square' is refused", with_(BP_SALE, pos_app="Square"),
        (V, "pos_app"))
    add("pos-apps-build-app-empty", "an empty pos_app", with_(BP_SALE, pos_app=""), (V, "pos_app"))
    add("pos-apps-build-app-number", "pos_app of the wrong JSON type", with_(BP_SALE, pos_app=1), (J, "pos_app"))
    add("pos-apps-build-app-array", "pos_app as an array", with_(BP_SALE, pos_app=["square"]), (J, "pos_app"))
    return s


def cross_parse_cases() -> Suite:
    s = Suite("pos.parse_response", "pos-apps-parse", lambda i: parse_response(i["url"], i["options"]), detach=True)

    def add(id_, note, url, options, error=None, source=SRC_SPEC):
        s.add(id_, note, {"url": url, "options": options}, error)
        sourced(s, source)

    url = "myapp://result=aprobada&amount=100.00&identifier=ord-1"
    add("pos-apps-parse-billpocket-named", "options naming billpocket: Billpocket's answer document as before (answers name "
        "their app only when it is not billpocket)", url, {"pos_app": "billpocket", "urlScheme": "myapp", "identifier": "ord-1"}, source=SRC_BILLPOCKET)
    add("pos-apps-parse-clip", "Clip has no URL answer (activity results only)", "myapp://clip?x=1",
        {"pos_app": "clip", "identifier": "ord-1"}, (V, "pos_app"))
    add("pos-apps-parse-unknown-app", "an unknown pos_app", url, {"pos_app": "zettle", "urlScheme": "myapp"}, (V, "pos_app"))
    add("pos-apps-parse-app-number", "pos_app of the wrong JSON type", url, {"pos_app": 2, "urlScheme": "myapp"}, (J, "pos_app"))
    return s


def cross_result_cases() -> Suite:
    s = Suite("pos.parse_result", "pos-apps-result", lambda i: parse_result(i["extras"], i["options"]), detach=True)

    def add(id_, note, extras, options, error=None, source=SRC_SPEC):
        s.add(id_, note, {"extras": extras, "options": options}, error)
        sourced(s, source)

    extras = {"result": "aprobada", "amount": "100.00", "identifier": "ord-1"}
    add("pos-apps-result-billpocket-named", "options naming billpocket: Billpocket's answer document as before (no pos_app)",
        extras, {"pos_app": "billpocket", "identifier": "ord-1"}, source=SRC_BILLPOCKET)
    add("pos-apps-result-billpocket-no-data", "Billpocket's activity result without data (extras null) with pos_app named: "
        "invalid_json, as without pos_app (hostile-result-extras-null); a flow's pos.result makes it reconcile",
        None, {"pos_app": "billpocket", "identifier": "ord-1"}, ("invalid_json", vectorlib.ANY_FIELD))
    add("pos-apps-result-sumup", "SumUp answers by URL only: no result extras", {"smp-status": "success"},
        {"pos_app": "sumup", "identifier": "ord-1"}, (V, "pos_app"))
    add("pos-apps-result-unknown-app", "an unknown pos_app", extras, {"pos_app": "mercadopago"}, (V, "pos_app"))
    return s


def cross_refund_cases() -> Suite:
    s = Suite("pos.refund_check", "pos-apps-refund", lambda i: refund_check(i["check"]), detach=True)
    t0 = bp.mx_local(2026, 3, 10, 14, 30, 0)

    def add(id_, note, check, error=None, source=SRC_SPEC):
        s.add(id_, note, {"check": check}, error)
        sourced(s, source)

    def chk(app, **sale):
        doc = {"transactionid": "T-1", "amount": "100.00", "approved_at": t0, **sale}
        if app is not None:
            doc["pos_app"] = app
        return {"sale": doc, "now": t0 + 3600}

    for app, why in (("square", "Square refunds through its Refunds API"), ("sumup", "SumUp's URL scheme has no refund"),
                     ("clip", "Clip's SDK has no refund intent")):
        add(f"pos-apps-refund-{app}", f"a {app} sale inside Billpocket's window is never eligible: {why}; one reason, "
            "no warning", chk(app))
        add(f"pos-apps-refund-{app}-amount-over", f"a {app} sale and a refund over its amount: the server reason alone",
            dict(chk(app), amount="150.00"))
    add("pos-apps-refund-billpocket-named", "a Billpocket sale naming its app: Billpocket's verdict",
        chk("billpocket", bp_version="4.3.24"), source=SRC_BILLPOCKET)
    add("pos-apps-refund-square-bp-version", "bp_version is Billpocket's: refused on a Square sale",
        chk("square", bp_version="4.3.24"), (V, "sale.bp_version"))
    add("pos-apps-refund-unknown-app", "an unknown pos_app on the sale", chk("mercadopago"), (V, "sale.pos_app"))
    add("pos-apps-refund-app-number", "sale.pos_app of the wrong JSON type", chk(3), (J, "sale.pos_app"))
    add("pos-apps-refund-square-bad-amount", "a Square sale's amount is read by the same rule", chk("square", amount="1e2"),
        (V, "sale.amount"))
    return s


# ---------------------------------------------------------------------------------------
# flows/pos_apps.json: the coordinator with every provider

T0 = 1_796_054_400_000  # 2026-11-30T10:00:00-06:00
SECOND, MINUTE = 1000, 60_000
DEFAULT_GRACE = 3 * SECOND
SQ_CALLBACK = square.CALLBACK
SU_CALLBACK = sumup.CALLBACK

TAKES_ANSWER = ("ready", "launched", "launch_failed", "returned_without_response", "unrecognized_result")
ANSWER_STATE = {"approved": "approved", "declined": "declined", "error": "error", "cancelled": "cancelled",
                "unrecognized": "unrecognized_result"}


def token_of(flow_id: str) -> str:
    return hashlib.sha256(("pos app token " + flow_id).encode()).hexdigest()[:32]


@dataclass
class Flow:
    id: str
    app: str
    sent: str
    callback: str | None
    amount: int
    grace: int
    state: str = "ready"
    answer: dict | None = None
    foregrounded_at: int | None = None


class Model:
    """The coordinator's POS rules (docs/abi.md, the Billpocket tables of flow_vectors.py) for the
    other providers: an answer is read by its provider's oracle and must echo the flow's
    `<identifier>~<token>`; the first answer with a known word ends the wait, the same answer again
    is `duplicate`, another one `ignored`; an unknown word (or no data) is reconcile, and a later
    genuine answer still resolves the flow; approvals of these apps are not booked (refunds go
    through their server APIs), so a Billpocket refund naming one is `not_eligible`."""

    def __init__(self):
        self.flows: list[Flow] = []

    def summary(self, outcome, effects=(), error=None):
        s = {"outcome": outcome, "flows": {f.id: f.state for f in self.flows}, "effects": list(effects)}
        if error is not None:
            s["error"] = {"code": error[0], "field": error[1]}
        return s

    def step(self, step) -> dict:
        if isinstance(step, Bad):
            if step.event["type"] == "pos.start":  # the request itself is refused: the oracle's error, under request.
                try:
                    build_url(dict(step.event["request"], token=step.event["token"]))
                    raise AssertionError("a Bad pos.start whose request the oracle accepts")
                except Fail as failure:
                    assert (step.code, step.field) == (failure.code, "request." + failure.field), (step.field, failure.field)
            return self.summary("invalid_event", error=(step.code, step.field))
        if step.get("restore"):
            return self.summary("restored")
        event = {"type": "url", "url": step["url"], "now": step["now"]} if "url" in step else step["event"]
        saved = copy.deepcopy(self.flows)
        try:
            outcome, effects = self.apply(event)
        except Fail as failure:
            self.flows = saved
            return self.summary("rejected", error=(failure.code, failure.field))
        return self.summary(outcome, effects)

    def find(self, flow_id):
        flow = next((f for f in self.flows if f.id == flow_id), None)
        if flow is None:
            raise Fail("unknown_flow", "flow_id")
        return flow

    def apply(self, e: dict):
        t, now = e["type"], e["now"]
        if t == "pos.start":
            return self.start(e)
        if t == "pos.launched":
            flow = self.find(e["flow_id"])
            if flow.state == "ready":
                flow.state = "launched"
                return "accepted", [flow.id + ":persist"]
            return ("duplicate" if flow.state == "launched" else "ignored"), []
        if t == "pos.result":
            return self.result(e)
        if t == "url":
            return self.url(e["url"])
        if t == "app.foregrounded":
            effects = []
            for f in self.flows:
                if f.state == "launched" and f.foregrounded_at is None:
                    f.foregrounded_at = now
                    effects.append(f.id + ":persist")
            return "accepted", effects
        if t == "tick":
            effects = []
            for f in self.flows:
                if f.state == "launched" and f.foregrounded_at is not None and now >= f.foregrounded_at + f.grace:
                    f.state = "returned_without_response"
                    effects += [f.id + ":reconcile", f.id + ":persist"]
            return "accepted", effects
        raise AssertionError("event not modelled: " + t)

    def start(self, e: dict):
        req = e["request"]
        if req.get("transaction") == "devolucion":
            # A Billpocket refund naming a sale of another POS app: refunds go through its server API.
            if "sale_flow_id" in e:
                sale = self.find(e["sale_flow_id"])
                assert sale.app != "billpocket" and sale.state == "approved", "only other apps' sales are modelled"
            else:
                assert e["sale"].get("pos_app") not in (None, "billpocket"), "only other apps' sales are modelled"
            raise Fail("not_eligible", "sale")
        if any(f.id == e["flow_id"] for f in self.flows):
            raise Fail("duplicate", "flow_id")
        try:
            built = build_url(dict(req, token=e["token"]))
        except Fail:
            raise AssertionError("a refused request is refused with the event document: use a Bad step") from None
        app = built["pos_app"]
        for f in self.flows:
            if f.app == app and f.sent == built["identifier"]:
                raise Fail("conflict", "token")  # the same foreign-tx-id / state / reference again
        callback = req.get("callback_url")
        amount = vectorlib.amount_from_json(req["amount"], "amount")
        self.flows.append(Flow(e["flow_id"], app, built["identifier"], callback, amount, e.get("grace_ms", DEFAULT_GRACE)))
        return "accepted", [e["flow_id"] + ":open_pos_app", e["flow_id"] + ":persist"]

    def url(self, url: str):
        candidates = []
        for f in self.flows:
            if f.callback is None:
                continue
            try:
                vectorlib.answer_query(url, f.callback)
            except Fail as failure:
                if failure.code == "callback_mismatch":
                    continue
                raise
            candidates.append(f)
        if not candidates:
            return "not_ours", []
        first = candidates[0]
        reader = square.parse_response if first.app == "square" else sumup.parse_response
        doc = reader(url, {"pos_app": first.app, "callback_url": first.callback})
        target = next((f for f in candidates if f.sent == doc["identifier"]), None)
        if target is None:
            raise Fail("callback_mismatch", "identifier")
        return self.answer(target, doc)

    def result(self, e: dict):
        flow = self.find(e["flow_id"])
        extras = e.get("extras")
        no_result = (flow.app == "square" and isinstance(extras, dict) and extras.get(square.R_ERROR_CODE) == square.ERROR_NO_RESULT
                     and not extras.get(square.R_METADATA))
        # null, absent or {}: no data came back; Square's ERROR_NO_RESULT without REQUEST_METADATA (its one
        # documented answer without the echo) says the same: Square could not tell.
        if not extras or no_result:
            if flow.state in ("ready", "launched"):
                flow.state = "returned_without_response"
                if flow.foregrounded_at is None:
                    flow.foregrounded_at = e["now"]
                return "accepted", [flow.id + ":reconcile", flow.id + ":persist"]
            return ("duplicate" if flow.state == "returned_without_response" else "ignored"), []
        reader = {"square": square.parse_result, "clip": clip.parse_result}[flow.app]
        assert isinstance(extras, dict) and all(isinstance(v, str) for v in extras.values()), "a Bad step"
        try:
            doc = reader(extras, {"pos_app": flow.app})
        except Fail as failure:
            # Inside the event, errors name `extras.<key>` (as Billpocket's pos.result does).
            raise Fail(failure.code, None if failure.field is None else "extras." + failure.field) from None
        if doc["identifier"] != flow.sent:
            raise Fail("callback_mismatch", "identifier")
        return self.answer(flow, doc)

    def answer(self, flow: Flow, doc: dict):
        consumed = flow.state not in TAKES_ANSWER or (flow.state == "unrecognized_result" and doc["result"] == "unrecognized")
        if consumed:
            return ("duplicate" if doc == flow.answer else "ignored"), []
        flow.answer = doc
        state = ANSWER_STATE[doc["result"]]
        effects = [flow.id + ":persist"]
        if state == "unrecognized_result":
            effects.insert(0, flow.id + ":reconcile")
        if state == "approved" and "amount" in doc and vectorlib.amount_from_text(doc["amount"], "amount") != flow.amount:
            state = "approved_amount_mismatch"  # Clip answered another amount: reconcile
            effects.insert(0, flow.id + ":reconcile")
        flow.state = state
        return "accepted", effects


class Bad:
    """A step whose event document itself is refused (`invalid_event`)."""

    def __init__(self, event: dict, code: str, field: str | None):
        self.event, self.code, self.field = event, code, field

    def step(self) -> dict:
        return {"event": self.event}


def ev(type_: str, now: int, **members) -> dict:
    return {"event": {"type": type_, **members, "now": now}}


def at(url: str, now: int) -> dict:
    return {"url": url, "now": now}


RESTORE = {"restore": True}


def sq_request(identifier="ord-1", amount="100.00") -> dict:
    return with_(square.SALE, identifier=identifier, amount=amount)


def su_request(identifier="ord-1", amount="10.00") -> dict:
    return with_(sumup.SALE, identifier=identifier, amount=amount)


def cl_request(identifier="ord-1", amount="100.00") -> dict:
    return with_(clip.SALE, identifier=identifier, amount=amount)


def start(now, request, flow_id="p1", token=None) -> dict:
    return ev("pos.start", now, flow_id=flow_id, request=request, token=token or token_of(flow_id))


def launched(now, flow_id="p1") -> dict:
    return ev("pos.launched", now, flow_id=flow_id)


def result(now, extras, flow_id="p1", result_code=None) -> dict:
    members = {"flow_id": flow_id, "extras": extras}
    if result_code is not None:
        members["result_code"] = result_code
    return ev("pos.result", now, **members)


def echo(flow_id="p1", identifier="ord-1") -> str:
    return identifier + "~" + token_of(flow_id)


def sq_url(status="ok", flow_id="p1", state=None, **members) -> str:
    data = {"status": status, **members, "state": state if state is not None else echo(flow_id)}
    if status == "ok" and "transaction_id" not in members:
        data["transaction_id"] = "TX-SQ-1"
    return square._data_url(data, SQ_CALLBACK)


def sq_extras(flow_id="p1", metadata=None, **extras) -> dict:
    out = {square.R_METADATA: metadata if metadata is not None else echo(flow_id)}
    if not extras:
        out[square.R_SERVER_ID] = "TX-SQ-1"
    out.update({square.NS + k: v for k, v in extras.items()})
    return out


def su_url(status="success", flow_id="p1", foreign=None, **params) -> str:
    pairs = [("smp-status", status)]
    pairs += [(k.replace("_", "-"), v) for k, v in params.items()]
    if status == "success" and "smp_tx_code" not in params:
        pairs.append(("smp-tx-code", "TX-SU-1"))
    pairs.append(("foreign-tx-id", foreign if foreign is not None else echo(flow_id)))
    return SU_CALLBACK + "?" + "&".join(k + "=" + v for k, v in pairs)


def cl_extras(status="approved", flow_id="p1", reference=None, amount="100.0", error=None, **members) -> dict:
    response = {"reference": reference if reference is not None else echo(flow_id), "status": status, "amount": amount,
                **members}
    if status == "approved" and "receiptNumber" not in members:
        response["receiptNumber"] = "R-77"
    out = {clip.RESPONSE: json.dumps(response, separators=(",", ":"))}
    if error is not None:
        out[clip.ERROR] = error
    return out


class FlowSuite:
    def __init__(self):
        self.name = "coordinator.script"
        self.vectors: list[dict] = []

    def add(self, id_: str, note: str, source: str, rows: list):
        """Each row: (step, expected summary) written by hand; the model must agree."""
        assert id_.startswith("flow-posapp-") and id_ not in {v["id"] for v in self.vectors}, id_
        model = Model()
        steps, summaries = [], []
        for index, (step, expected) in enumerate(rows):
            actual = model.step(step)
            if actual != expected:
                raise SystemExit(f"{id_} step {index}: the hand-written expectation and the model disagree\n"
                                 f"  written: {json.dumps(expected)}\n  model:   {json.dumps(actual)}")
            steps.append(step.step() if isinstance(step, Bad) else step)
            summaries.append(expected)
        self.vectors.append({"id": id_, "note": note, "input": {"config": {}, "steps": steps},
                             "expect": {"ok": {"steps": summaries}}, "source": source})


def S(step, outcome: str, flows: str = "", effects: str = "", error: tuple | None = None):
    summary = {"outcome": outcome, "flows": dict(pair.split("=", 1) for pair in flows.split()), "effects": effects.split()}
    if error is not None:
        summary["error"] = {"code": error[0], "field": error[1]}
    return (step, summary)


def bad(event: dict, code: str, field: str | None, flows: str = ""):
    return S(Bad(event["event"], code, field), "invalid_event", flows, "", (code, field))


OPENED = "p1:open_pos_app p1:persist"
RECONCILE = "p1:reconcile p1:persist"


def provider_scripts(s: FlowSuite, name: str, source: str, request, approved, replayable, forged, unknown, cancelled,
                     declined_or_error, error_state: str):
    """The same guarantees for one provider: `approved` etc. make the step delivering that answer at a time."""
    begin = [S(start(T0, request), "accepted", "p1=ready", OPENED), S(launched(T0 + 1000), "accepted", "p1=launched", "p1:persist")]
    t = T0 + MINUTE
    s.add(f"flow-posapp-{name}-sale", f"{name}: the documented sale round trip; the same answer again is duplicate", source,
          begin + [S(approved(t), "accepted", "p1=approved", "p1:persist"), S(replayable(t + 5000), "duplicate", "p1=approved")])
    s.add(f"flow-posapp-{name}-forged", f"{name}: a forged approval without the token changes nothing; the genuine one "
          "then approves", source,
          begin + [S(forged(t), "rejected", "p1=launched", "", ("callback_mismatch", "identifier")),
                   S(approved(t + 1000), "accepted", "p1=approved", "p1:persist")])
    s.add(f"flow-posapp-{name}-unknown-word", f"{name}: an unknown status is never an approval (unrecognized_result, "
          "reconcile); a later genuine approval still resolves it", source,
          begin + [S(unknown(t), "accepted", "p1=unrecognized_result", RECONCILE),
                   S(approved(t + 1000), "accepted", "p1=approved", "p1:persist")])
    s.add(f"flow-posapp-{name}-cancelled", f"{name}: cancelled in the terminal app ends the flow cancelled; the replay is "
          "duplicate and a late approval is ignored", source,
          begin + [S(cancelled(t), "accepted", "p1=cancelled", "p1:persist"), S(cancelled(t + 500), "duplicate", "p1=cancelled"),
                   S(approved(t + 1000), "ignored", "p1=cancelled")])
    s.add(f"flow-posapp-{name}-{error_state}", f"{name}: a {error_state} answer ends the wait", source,
          begin + [S(declined_or_error(t), "accepted", f"p1={error_state}", "p1:persist")])
    s.add(f"flow-posapp-{name}-restore", f"{name}: process death while the terminal app is in front (SquarePointOfSaleSDK-iOS "
          "#11): the restored coordinator takes the answer once", source,
          begin + [S(RESTORE, "restored", "p1=launched"), S(approved(t), "accepted", "p1=approved", "p1:persist"),
                   S(RESTORE, "restored", "p1=approved"), S(replayable(t + 1000), "duplicate", "p1=approved")])
    s.add(f"flow-posapp-{name}-not-refundable", f"{name}: a Billpocket refund of this sale is not_eligible (its server API "
          "refunds)", SRC_SPEC,
          begin + [S(approved(t), "accepted", "p1=approved", "p1:persist"),
                   S(ev("pos.start", t + 2 * MINUTE, flow_id="p2", token=token_of("p2"), sale_flow_id="p1",
                        request={"transaction": "devolucion", "usertoken": "tok-pos-secret-1", "identifier": "ref-1",
                                 "urlScheme": "myapp", "transactionId": "TX-1"}),
                     "rejected", "p1=approved", "", ("not_eligible", "sale"))])


def pos_app_flows() -> FlowSuite:
    s = FlowSuite()
    sq_ios, sq_android = square.SRC_IOS_RESPONSE, square.SRC_ANDROID
    provider_scripts(
        s, "square-ios", sq_ios, sq_request(),
        approved=lambda t: at(sq_url(), t), replayable=lambda t: at(sq_url(), t),
        forged=lambda t: at(sq_url(state="ord-1"), t), unknown=lambda t: at(sq_url("pending"), t),
        cancelled=lambda t: at(sq_url("error", error_code="payment_canceled"), t),
        declined_or_error=lambda t: at(sq_url("error", error_code="could_not_perform"), t), error_state="error")
    provider_scripts(
        s, "square-android", sq_android, sq_request(),
        approved=lambda t: result(t, sq_extras(), result_code=-1), replayable=lambda t: result(t, sq_extras()),
        forged=lambda t: result(t, sq_extras(metadata="ord-1")),
        unknown=lambda t: result(t, sq_extras(SERVER_TRANSACTION_ID="")),
        cancelled=lambda t: result(t, sq_extras(ERROR_CODE=square.ERROR_CANCELED), result_code=0),
        declined_or_error=lambda t: result(t, sq_extras(ERROR_CODE=square.NS + "ERROR_USER_NOT_LOGGED_IN"), result_code=0),
        error_state="error")
    # SumUp has no cancelled answer (sumup-android-url-scheme #1: no abort): its own list.
    begin_su = [S(start(T0, su_request()), "accepted", "p1=ready", OPENED), S(launched(T0 + 1000), "accepted", "p1=launched",
                                                                               "p1:persist")]
    t = T0 + MINUTE
    src = sumup.SRC_ANDROID
    s.add("flow-posapp-sumup-sale", "sumup: the documented sale round trip; the same answer again is duplicate", src,
          begin_su + [S(at(su_url(), t), "accepted", "p1=approved", "p1:persist"), S(at(su_url(), t + 500), "duplicate", "p1=approved")])
    s.add("flow-posapp-sumup-forged", "sumup: foreign-tx-id without the token changes nothing", src,
          begin_su + [S(at(su_url(foreign="ord-1"), t), "rejected", "p1=launched", "", ("callback_mismatch", "identifier")),
                      S(at(su_url(), t + 1000), "accepted", "p1=approved", "p1:persist")])
    s.add("flow-posapp-sumup-failed-no-cause", "sumup: failed without a known cause is never declined (unrecognized_result, "
          "reconcile); the genuine success then resolves it", src,
          begin_su + [S(at(su_url("failed"), t), "accepted", "p1=unrecognized_result", RECONCILE),
                      S(at(su_url(), t + 1000), "accepted", "p1=approved", "p1:persist")])
    s.add("flow-posapp-sumup-declined", "sumup: failed with transaction-failed is declined; a replay is duplicate", src,
          begin_su + [S(at(su_url("failed", smp_failure_cause="transaction-failed"), t), "accepted", "p1=declined", "p1:persist"),
                      S(at(su_url("failed", smp_failure_cause="transaction-failed"), t + 500), "duplicate", "p1=declined")])
    s.add("flow-posapp-sumup-invalidstate", "sumup: invalidstate is error", sumup.SRC_IOS,
          begin_su + [S(at(su_url("invalidstate"), t), "accepted", "p1=error", "p1:persist")])
    s.add("flow-posapp-sumup-lost-callback", "sumup: the callback never comes (sumup-android-url-scheme #8): back in front, "
          "the grace period ends in reconcile; the late genuine answer still resolves it", "sumup/sumup-android-url-scheme #8",
          begin_su + [S(ev("app.foregrounded", t), "accepted", "p1=launched", "p1:persist"),
                      S(ev("tick", t + DEFAULT_GRACE), "accepted", "p1=returned_without_response", RECONCILE),
                      S(at(su_url(), t + MINUTE), "accepted", "p1=approved", "p1:persist")])
    s.add("flow-posapp-sumup-restore", "sumup: process death in the middle; the restored coordinator takes the answer once",
          src, begin_su + [S(RESTORE, "restored", "p1=launched"), S(at(su_url(), t), "accepted", "p1=approved", "p1:persist"),
                           S(RESTORE, "restored", "p1=approved"), S(at(su_url(), t + 1000), "duplicate", "p1=approved")])
    s.add("flow-posapp-sumup-retry-same-foreign-tx-id", "sumup: a retry with the same identifier and token would resend the "
          "spent foreign-tx-id (sumup-android-sdk #47): conflict; a fresh token is a fresh foreign-tx-id", sumup.SRC_ISSUE_DUPLICATE,
          begin_su + [S(at(su_url("failed"), t), "accepted", "p1=unrecognized_result", RECONCILE),
                      S(start(t + 1000, su_request(), flow_id="p2", token=token_of("p1")), "rejected", "p1=unrecognized_result", "",
                        ("conflict", "token")),
                      S(start(t + 2000, su_request(), flow_id="p2"), "accepted", "p1=unrecognized_result p2=ready",
                        "p2:open_pos_app p2:persist")])
    s.add("flow-posapp-sumup-failed-replay", "sumup: the same unclear answer again is duplicate, nothing more to reconcile",
          src, begin_su + [S(at(su_url("failed"), t), "accepted", "p1=unrecognized_result", RECONCILE),
                           S(at(su_url("failed"), t + 500), "duplicate", "p1=unrecognized_result")])
    s.add("flow-posapp-sumup-two-hand-offs", "sumup: two sales on the same callback; each answer reaches the flow whose "
          "foreign-tx-id it echoes, and one flow's answer never resolves the other", src,
          [S(start(T0, su_request("ord-1")), "accepted", "p1=ready", OPENED),
           S(start(T0 + 1000, su_request("ord-2"), flow_id="p2"), "accepted", "p1=ready p2=ready", "p2:open_pos_app p2:persist"),
           S(at(su_url(flow_id="p2", foreign=echo("p2", "ord-2")), t), "accepted", "p1=ready p2=approved", "p2:persist"),
           S(at(su_url(foreign=echo("p2", "ord-1")), t + 500), "rejected", "p1=ready p2=approved", "",
             ("callback_mismatch", "identifier")),
           S(at(su_url(), t + 1000), "accepted", "p1=approved p2=approved", "p1:persist")])
    s.add("flow-posapp-sumup-foreign-tx-id-128", "sumup: an identifier of 95 characters with a 32-character token is a "
          "128-byte foreign-tx-id: started and answered", src,
          [S(start(T0, su_request("i" * 95)), "accepted", "p1=ready", OPENED),
           S(at(su_url(foreign=echo(identifier="i" * 95)), T0 + MINUTE), "accepted", "p1=approved", "p1:persist")])
    s.add("flow-posapp-sumup-foreign-tx-id-129", "sumup: 96 characters and the token are 129 bytes: the start is refused",
          src, [bad(start(T0, su_request("i" * 96)), "validation", "request.identifier")])
    s.add("flow-posapp-sumup-not-refundable", "sumup: a Billpocket refund by sale document naming a SumUp sale is not_eligible",
          SRC_SPEC, [S(ev("pos.start", T0, flow_id="p2", token=token_of("p2"),
                          sale={"transactionid": "TX-SU-1", "amount": "10.00", "approved_at": T0 // 1000 - 600, "pos_app": "sumup"},
                          request={"transaction": "devolucion", "usertoken": "tok-pos-secret-1", "identifier": "ref-1",
                                   "urlScheme": "myapp", "transactionId": "TX-SU-1"}),
                       "rejected", "", "", ("not_eligible", "sale"))])

    provider_scripts(
        s, "clip", clip.SRC_ANSWER, cl_request(),
        approved=lambda t: result(t, cl_extras(), result_code=-1), replayable=lambda t: result(t, cl_extras(), result_code=-1),
        forged=lambda t: result(t, cl_extras(reference="ord-1")), unknown=lambda t: result(t, cl_extras("APPROVED")),
        cancelled=lambda t: result(t, cl_extras("error", error="CANCELLED"), result_code=-1),
        declined_or_error=lambda t: result(t, cl_extras("error", error="TERMINAL_ERROR"), result_code=-1), error_state="error")

    # -- no data, and what only one provider has
    for app, req, src in (("square", sq_request(), sq_android), ("clip", cl_request(), clip.SRC_ANSWER)):
        late = result(T0 + 2 * MINUTE, sq_extras() if app == "square" else cl_extras())
        for slug, extras in (("null", None), ("empty", {})):
            s.add(f"flow-posapp-{app}-no-data-{slug}", f"{app}: an activity result with no data (extras {json.dumps(extras)}: "
                  "the app crashed or was uninstalled) is returned_without_response with reconcile, never declined; the late "
                  "genuine answer still resolves it", src,
                  [S(start(T0, req), "accepted", "p1=ready", OPENED), S(launched(T0 + 1000), "accepted", "p1=launched", "p1:persist"),
                   S(result(T0 + MINUTE, extras, result_code=0), "accepted", "p1=returned_without_response", RECONCILE),
                   S(late, "accepted", "p1=approved", "p1:persist")])
    begin_sq = [S(start(T0, sq_request()), "accepted", "p1=ready", OPENED), S(launched(T0 + 1000), "accepted", "p1=launched", "p1:persist")]
    s.add("flow-posapp-square-android-no-result", "square: ERROR_NO_RESULT (documented without REQUEST_METADATA) is "
          "no data: returned_without_response with reconcile, never declined", sq_android,
          begin_sq + [S(result(T0 + MINUTE, {square.R_ERROR_CODE: square.ERROR_NO_RESULT}, result_code=0), "accepted",
                        "p1=returned_without_response", RECONCILE)])
    s.add("flow-posapp-square-both-ways", "square: the same answer by URL (iOS form) after the Android result is the same "
          "answer document: duplicate, the flow stays approved", SRC_SPEC,
          begin_sq + [S(result(T0 + MINUTE, sq_extras()), "accepted", "p1=approved", "p1:persist"),
                      S(at(sq_url(), T0 + MINUTE + 500), "duplicate", "p1=approved")])
    s.add("flow-posapp-square-int-max", "square: 21474836.47 (2^31-1 cents, Android's int TOTAL_AMOUNT) starts", square.SRC_ANDROID,
          [S(start(T0, sq_request(amount="21474836.47")), "accepted", "p1=ready", OPENED)])
    s.add("flow-posapp-square-int-max-plus-one", "square: one cent more does not fit the int extra: refused", square.SRC_ANDROID,
          [bad(start(T0, sq_request(amount="21474836.48")), "validation", "request.amount")])
    s.add("flow-posapp-square-other-callback", "square: an answer to a URL no flow registered is not ours", sq_ios,
          begin_sq + [S(at(square._data_url({"status": "ok", "state": echo()}, "otherapp://cb"), T0 + MINUTE), "not_ours",
                        "p1=launched")])
    begin_cl = [S(start(T0, cl_request()), "accepted", "p1=ready", OPENED), S(launched(T0 + 1000), "accepted", "p1=launched", "p1:persist")]
    s.add("flow-posapp-clip-15-digits", "clip: 9999999999999.99 (15 significant digits) starts, and Clip's answer "
          "9.99999999999999E12 (Double.toString) reads as exactly that amount: approved", clip.SRC_DOUBLE,
          [S(start(T0, cl_request(amount="9999999999999.99")), "accepted", "p1=ready", OPENED),
           S(result(T0 + MINUTE, cl_extras(amount="9.99999999999999E12")), "accepted", "p1=approved", "p1:persist")])
    s.add("flow-posapp-clip-16-digits", "clip: 10000000000000.00 has 16 significant digits to the cent: refused", SRC_SPEC,
          [bad(start(T0, cl_request(amount="10000000000000.00")), "validation", "request.amount")])
    s.add("flow-posapp-clip-ten-million", "clip: 10,000,000.00 answered as 1.0E7 is the same amount: approved", clip.SRC_DOUBLE,
          [S(start(T0, cl_request(amount="10000000")), "accepted", "p1=ready", OPENED),
           S(result(T0 + MINUTE, cl_extras(amount="1.0E7")), "accepted", "p1=approved", "p1:persist")])
    s.add("flow-posapp-clip-other-amount", "clip: an approval of another amount is approved_amount_mismatch with reconcile",
          SRC_SPEC, begin_cl + [S(result(T0 + MINUTE, cl_extras(amount="90.0")), "accepted", "p1=approved_amount_mismatch",
                                  "p1:reconcile p1:persist")])
    s.add("flow-posapp-clip-float-noise", "clip: an approval whose amount is not a whole number of cents "
          "(0.30000000000000004) is unrecognized_result with reconcile, never approved", clip.SRC_DOUBLE,
          begin_cl + [S(result(T0 + MINUTE, cl_extras(amount="0.30000000000000004")), "accepted", "p1=unrecognized_result",
                        RECONCILE)])
    s.add("flow-posapp-clip-error-without-reference", "clip: a PAYMENT_ERROR without PAYMENT_RESPONSE (no reference) is "
          "refused naming extras.PAYMENT_RESPONSE and moves nothing (an answer without the echo never moves a flow); "
          "the flow then ends like an unanswered hand-off: foreground and grace, reconcile, never approved", SRC_SPEC,
          begin_cl + [S(result(T0 + MINUTE, {clip.ERROR: "TERMINAL_ERROR"}, result_code=-1), "rejected", "p1=launched", "",
                        ("validation", "extras." + clip.RESPONSE))])
    s.add("flow-posapp-clip-garbage-response", "clip: a PAYMENT_RESPONSE that is not JSON is refused (naming "
          "extras.PAYMENT_RESPONSE) and changes nothing; the genuine answer then approves", clip.SRC_ANSWER,
          begin_cl + [S(result(T0 + MINUTE, {clip.RESPONSE: "{reference"}), "rejected", "p1=launched", "",
                        ("invalid_json", "extras." + clip.RESPONSE)),
                      S(result(T0 + MINUTE + 500, cl_extras()), "accepted", "p1=approved", "p1:persist")])
    s.add("flow-posapp-square-android-no-metadata", "square: a success without REQUEST_METADATA is refused (naming "
          "extras.com.squareup.pos.REQUEST_METADATA), nothing changes", sq_android,
          begin_sq + [S(result(T0 + MINUTE, {square.R_SERVER_ID: "TX-SQ-1"}), "rejected", "p1=launched", "",
                        ("validation", "extras." + square.R_METADATA))])
    s.add("flow-posapp-clip-unknown-error", "clip: PAYMENT_ERROR UNKNOWN_ERROR is unrecognized_result with reconcile",
          SRC_SPEC, begin_cl + [S(result(T0 + MINUTE, cl_extras("error", error="UNKNOWN_ERROR")), "accepted",
                                  "p1=unrecognized_result", RECONCILE)])
    return s


# ---------------------------------------------------------------------------------------

def main(argv: list[str]) -> int:
    pos_suites = {
        "square_build_url.json": square.build_cases(), "square_parse_response.json": square.parse_cases(),
        "square_parse_result.json": square.result_cases(),
        "sumup_build_url.json": sumup.build_cases(), "sumup_parse_response.json": sumup.parse_cases(),
        "clip_build_url.json": clip.build_cases(), "clip_parse_result.json": clip.result_cases(),
        "pos_apps_build_url.json": cross_build_cases(), "pos_apps_parse_response.json": cross_parse_cases(),
        "pos_apps_parse_result.json": cross_result_cases(), "pos_apps_refund_check.json": cross_refund_cases(),
    }
    others = {v["id"] for name in ("build_url.json", "parse_response.json", "parse_result.json", "refund_check.json")
              for v in json.loads((POS_DIR / name).read_text())["vectors"]}
    status = vectorlib.main(argv, POS_DIR, pos_suites, min_vectors=200, other_ids=others,
                            describe=lambda name, suite: name + ": " + vectorlib.outcome_counts(name, suite))
    flows = pos_app_flows()
    flow_others = {v["id"] for path in FLOWS_DIR.glob("*.json") if path.name != "pos_apps.json"
                   for v in json.loads(path.read_text())["vectors"]}
    status |= vectorlib.main(argv, FLOWS_DIR, {"pos_apps.json": flows}, other_ids=flow_others,
                             describe=lambda name, suite: f"{name}: {len(suite.vectors)} vectors, "
                                                          f"{sum(len(v['input']['steps']) for v in suite.vectors)} steps")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
