#!/usr/bin/env python3
"""Writes Tests/Vectors/flows/recovery.json: coordinator scripts that start from a snapshot
(issue 35, part A: restore, salvage and the conversion of formats 3 and 2 never widen a refund).

A `coordinator.script` input with `"snapshot"` restores its coordinator from that document
instead of creating one from `config`; with `"salvage": true` it salvages it, and the result
gains `"dropped"`: the members the salvage left out, in its order (Tests/Vectors/README.md).

The snapshots are written here from the format of docs/abi.md, or taken from the fixtures older
versions wrote (Tests/Snapshots: 0.2 at 30db348, 0.3.0 at d862cce). The expected answers follow
from the rules docs/abi.md states for restore, salvage and conversion — what salvage cannot read
whole counts as possibly refunded; restore refuses missing money; conversions keep the waiting
flows — and from the ordinary refund rules (flow_vectors.py's model states them for events);
never from running PayHandoff. Each vector's note names its finding.

    python3 Tests/Vectors/tools/recovery_vectors.py [--check]
"""
import copy
import json
import sys
from pathlib import Path

import vectorlib

ROOT = Path(__file__).resolve().parents[3]
FLOWS_DIR = ROOT / "Tests" / "Vectors" / "flows"
FIXTURES = ROOT / "Tests" / "Snapshots"

T0 = 1796054400000  # 2026-11-30T10:00:00-06:00
DAY = 86_400_000
TK1 = "00000000000000000000000000000001"
TKR = "0000000000000000000000000000000a"
LATER = T0 + 600_000  # when the scripts ask for a second refund


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


# The sale 720371 of 100.00 approved at T0 + 1 min (flow p1) and a full refund of it (flow r1):
# waiting in the POS app (0.3.0 wrote it: v3/waiting-refund.json), or approved (0.2 wrote r1 in
# v2/pruned-ahead.json). As this version writes them: format 4.
WAITING = fixture("v3/waiting-refund.json")
WAITING["version"] = 4
P1 = WAITING["flows"][0]
R1_WAITING = WAITING["flows"][1]
R1_APPROVED = fixture("v2/pruned-ahead.json")["flows"][1]
REFUNDED = {"version": 4, "config": WAITING["config"], "flows": [P1, R1_APPROVED],
            "ledger": {"pruned_through": 0, "sales": [["720371", 10000, 10000, T0 + 60_000]],
                       "refunds": [["820371", 10000, T0 + 200_000]], "unknown": []}}


def edited(document: dict, path: list, value=None, *, delete=False, rename=None) -> dict:
    """A copy of `document` with the member at `path` replaced, deleted or renamed."""
    result = copy.deepcopy(document)
    node = result
    for key in path[:-1]:
        node = node[key]
    last = path[-1]
    if rename is not None:
        node[rename] = node.pop(last)
    elif delete:
        del node[last]
    else:
        node[last] = value
    return result


def refund(flow: str, now: int, *, sale_flow=None, amount="100.00", transaction_id="720371", sale=None, token=None,
           fresh=False) -> dict:
    """A refund start; `fresh`: no token given (PayHandoff makes one), so that a salvage that refuses
    every host-given key (a dropped flow's key did not read) still lets the money rule be seen."""
    event = {"type": "pos.start", "flow_id": flow, "now": now,
             "request": {"transaction": "devolucion", "usertoken": "tok_1", "identifier": flow, "urlScheme": "myapp",
                         "transactionId": transaction_id, "amount": amount}}
    if not fresh:
        event["token"] = token or "00000000000000000000000000000f" + flow[-2:].rjust(2, "0")
    if sale_flow is not None:
        event["sale_flow_id"] = sale_flow
    else:
        event["sale"] = sale or {"transactionid": "720371", "amount": "100.00", "approved_at": (T0 + 60_000) // 1000}
    return {"event": event}


def summary(outcome: str, flows: dict, effects=(), error=None) -> dict:
    s = {"outcome": outcome, "flows": flows, "effects": list(effects)}
    if error is not None:
        s["error"] = {"code": error[0], "field": error[1]}
    return s


def flows_of(document: dict, without=()) -> dict:
    return {f["id"]: f["state"] for f in document["flows"] if isinstance(f, dict) and f["id"] not in without}


NOT_ELIGIBLE = ("not_eligible", "sale")


def second_refunds(flows: dict, by_flow_error=NOT_ELIGIBLE) -> tuple[list, list]:
    """A second refund of 720371 by its flow, then by its sale document: both refused (fresh keys)."""
    steps = [refund("r2", LATER, sale_flow="p1", fresh=True), refund("r3", LATER, fresh=True)]
    return steps, [summary("rejected", flows, error=by_flow_error), summary("rejected", flows, error=NOT_ELIGIBLE)]


class Suite:
    name = "coordinator.script"

    def __init__(self):
        self.vectors: list[dict] = []

    def ok(self, id_: str, note: str, snapshot: dict, steps: list, summaries: list, *, salvage=False, dropped=None):
        assert len(steps) == len(summaries)
        input_ = {"snapshot": snapshot, "steps": steps}
        expect = {"steps": summaries}
        if salvage:
            input_["salvage"] = True
            expect["dropped"] = dropped
        self.vectors.append({"id": "flow-recovery-" + id_, "note": note, "input": input_, "expect": {"ok": expect}})

    def error(self, id_: str, note: str, snapshot: dict, code: str, field):
        self.vectors.append({"id": "flow-recovery-" + id_, "note": note, "input": {"snapshot": snapshot, "steps": []},
                             "expect": {"error": {"code": code, "field": field}}})


def suite() -> Suite:
    s = Suite()

    # -- 1a: a format-2 header over a format-3 body
    mixed = dict(REFUNDED, version=2)
    s.error("mixed-header-restore-refused", "1a: \"version\": 2 over a format-3 body: format 2's ledger is a list, restore refuses it",
            mixed, "invalid_json", "ledger")
    steps, summaries = second_refunds(flows_of(REFUNDED), by_flow_error=("invalid_state", "transactionId"))
    summaries[1]["error"] = {"code": "invalid_state", "field": "transactionId"}
    s.ok("mixed-header-salvage-reads-format-3", "1a: salvage reads the body as the format that wrote it (reported as version): "
         "the sale was refunded in full, a second refund by flow or document is refused", mixed, steps, summaries,
         salvage=True, dropped=["version"])

    # -- 1b: a damaged refund waiting in the POS app
    damages = [
        ("sale-id-renamed", edited(WAITING, ["flows", 1, "sale_transactionid"], rename="sale_transactionjd"), "flows[1]"),
        ("sale-id-damaged", edited(WAITING, ["flows", 1, "sale_transactionid"], "720 371"), "flows[1]"),
        ("operation-damaged", edited(WAITING, ["flows", 1, "operation"], "devolucioN"), "flows[1]"),
        ("element-null", edited(WAITING, ["flows", 1], None), "flows[1]"),
        # Issue 35, B1/B2: what the damaged element still shows proves nothing.
        ("operation-reads-venta", edited(WAITING, ["flows", 1, "operation"], "venta"), "flows[1]"),
        ("state-reads-declined", edited(WAITING, ["flows", 1, "state"], "declined"), "flows[1]"),
        ("return-url-added", edited(WAITING, ["flows", 1, "return_url"], "x"), "flows[1]"),
        ("sale-id-reads-another", edited(edited(WAITING, ["flows", 1, "sale_transactionid"], "72037:"),
                                         ["flows", 1, "state"], rename="statB"), "flows[1]"),
    ]
    for name, document, member in damages:
        steps, summaries = second_refunds({"p1": "approved"})
        s.ok("waiting-refund-" + name, "1b: the waiting refund does not read: its sale may have been refunded, so its balance "
             "is unknown (ledger_pruned), by flow and by document", document, steps, summaries, salvage=True, dropped=[member])
    # Issue 35, B9: the dropped flow's key does not read, so every host-given key is refused; a
    # host key the element still shows is remembered (and the others stay open).
    lost_key = edited(WAITING, ["flows", 1], None)
    s.ok("waiting-refund-element-null-host-keys-refused", "B9: the dropped flow's key cannot be read: every host-given key "
         "is refused until 3 days after the next event (its replayed answer could reach a new flow); fresh keys are not",
         lost_key, [refund("r2", LATER, sale_flow="p1")],
         [summary("rejected", {"p1": "approved"}, error=("conflict", "token"))], salvage=True, dropped=["flows[1]"])
    kept_key = edited(WAITING, ["flows", 1, "state"], "launcheD")
    again = {"event": {"type": "pos.start", "flow_id": "r2", "now": LATER, "token": TKR,
                       "request": {"transaction": "venta", "usertoken": "tok_1", "identifier": R1_WAITING["identifier"],
                                   "urlScheme": R1_WAITING["answer_scheme"], "amount": "5.00"}}}
    other = {"event": {"type": "pos.start", "flow_id": "s9", "now": LATER, "token": "0000000000000000000000000000ff09",
                       "request": {"transaction": "venta", "usertoken": "tok_1", "identifier": "ord-9",
                                   "urlScheme": "myapp", "amount": "5.00"}}}
    s.ok("waiting-refund-state-damaged-key-remembered", "B9: the dropped flow's key still reads: it is remembered (its "
         "identifier and token cannot start a flow again); other host keys stay open", kept_key, [again, other],
         [summary("rejected", {"p1": "approved"}, error=("conflict", "token")),
          summary("accepted", {"p1": "approved", "s9": "ready"}, ["s9:open_pos_app", "s9:persist"])],
         salvage=True, dropped=["flows[1]"])
    s.error("waiting-refund-sale-id-damaged-restore-refused", "1b: strict restore names the member",
            damages[1][1], "validation", "flows[1].sale_transactionid")
    s.error("waiting-refund-operation-damaged-restore-refused", "1b: strict restore names the member",
            damages[2][1], "validation", "flows[1].operation")

    # -- 1b and 2: flows lost as a whole
    for name, document in [("flows-not-an-array", edited(WAITING, ["flows"], {"r1": R1_WAITING})),
                           ("flows-null", edited(WAITING, ["flows"], None)),
                           ("flows-absent", edited(WAITING, ["flows"], delete=True))]:
        steps, summaries = second_refunds({}, by_flow_error=("unknown_flow", "sale_flow_id"))
        s.ok("salvage-" + name, "1b/2: no flow reads, any may have been a waiting refund: every sale of the ledger with "
             "something left becomes balance unknown", document, steps, summaries, salvage=True, dropped=["flows"])
    s.error("restore-flows-not-an-array", "2: restore names the member", edited(WAITING, ["flows"], {}), "invalid_json", "flows")
    s.error("restore-flows-null", "2: restore refuses missing flows, naming them", edited(WAITING, ["flows"], None), "validation", "flows")
    s.error("restore-flows-absent", "2: restore refuses missing flows, naming them", edited(WAITING, ["flows"], delete=True),
            "validation", "flows")

    # -- 2: the ledger or one of its members missing. Each base holds what the member guards: the
    # sale refunded in full (ledger, sales, refunds), its balance unknown after an earlier salvage
    # (unknown), its entry pruned behind the watermark (pruned_through).
    unknown = dict(REFUNDED, flows=[P1], ledger={"pruned_through": 0, "sales": [], "refunds": [],
                                                 "unknown": [["720371", T0 + 13 * 3_600_000]]})
    pruned = dict(REFUNDED, flows=[P1], ledger={"pruned_through": T0 + 13 * 3_600_000, "sales": [], "refunds": [], "unknown": []})
    fully = ("invalid_state", "transactionId")
    for member, path, base, refused in [("ledger", ["ledger"], REFUNDED, NOT_ELIGIBLE),
                                        ("ledger.sales", ["ledger", "sales"], REFUNDED, NOT_ELIGIBLE),
                                        ("ledger.refunds", ["ledger", "refunds"], REFUNDED, fully),
                                        ("ledger.unknown", ["ledger", "unknown"], unknown, NOT_ELIGIBLE),
                                        ("ledger.pruned_through", ["ledger", "pruned_through"], pruned, NOT_ELIGIBLE)]:
        slug = member.replace(".", "-").replace("_", "-")
        for how, document in [("null", edited(base, path, None)), ("absent", edited(base, path, delete=True))]:
            s.error(f"restore-{slug}-{how}", "2: restore never reads missing money as none: it names the member",
                    document, "validation", member)
        steps, summaries = second_refunds(flows_of(base), by_flow_error=refused)
        summaries[1]["error"] = {"code": refused[0], "field": refused[1]}
        s.ok(f"salvage-{slug}-absent", "2: salvage counts a lost ledger member as damage: the watermark moves past every "
             "time, so the sale is not refunded again (refused as ledger_pruned, or as fully refunded where its entry reads)",
             edited(base, path, delete=True), steps, summaries, salvage=True, dropped=[member])

    # -- 1c: salvage of what restore accepts is restore (40 ended flows)
    ended = {"version": 4, "config": WAITING["config"],
             "flows": [{"id": f"c{n}", "type": "checkout", "state": "failed", "kind": "cards",
                        "return_url": "fixapp://checkout-callback", "nonce": f"{n + 1:032x}", "deadline": T0 + 1_800_000,
                        "failure_reason": "gateway down"} for n in range(40)],
             "ledger": {"pruned_through": 0, "sales": [], "refunds": [], "unknown": []}}
    states = flows_of(ended)
    s.ok("intact-forty-ended-salvage-is-restore", "1c: salvage of a snapshot restore accepts drops nothing (no 'over its "
         "limit' for 40 ended flows) and restores again the same", ended, [{"restore": True}],
         [summary("restored", states)], salvage=True, dropped=[])
    s.ok("intact-forty-ended-restore", "1c: the same snapshot through restore", ended, [{"restore": True}], [summary("restored", states)])

    # -- 8: the watermark bounded by the times a damaged record still shows
    other = {"transactionid": "990001", "amount": "50.00", "approved_at": (T0 + DAY) // 1000}
    sold = {"version": 4, "config": WAITING["config"], "flows": [P1],
            "ledger": {"pruned_through": 0, "sales": [["720371", 10000, 0, T0 + 60_000]], "refunds": [], "unknown": []}}
    lost_id = edited(sold, ["ledger", "sales", 0, 0], "720 371")
    steps = [refund("r8", T0 + DAY + 120_000, amount="50.00", transaction_id="990001", sale=other)]
    summaries = [summary("accepted", dict(flows_of(sold), r8="ready"), ["r8:open_pos_app", "r8:persist"])]
    s.ok("record-id-lost-watermark-bounded", "8: a sale record showing nothing refunded whose id no longer reads moves the "
         "watermark to its own window (23:00 of its day), not past every time (its document refunds at most its amount, "
         "once): another terminal's sale of the next day is refunded by its document",
         lost_id, steps, summaries, salvage=True, dropped=["ledger.sales[0]"])
    lost_id = edited(REFUNDED, ["ledger", "sales", 0, 0], "720 371")
    steps, summaries = second_refunds(flows_of(REFUNDED))
    steps.append(refund("r8", T0 + DAY + 120_000, amount="50.00", transaction_id="990001", sale=other))
    summaries.append(summary("rejected", flows_of(REFUNDED), error=NOT_ELIGIBLE))
    s.ok("refunded-record-id-lost-locks-documents", "8, FuzzSalvage: a sale record showing a refund whose id no longer "
         "reads may be any sale, and its time is the device's clock, which may have been behind the sale's real approval: "
         "the watermark goes past every time, so no sale document the ledger does not hold refunds (another terminal's "
         "sale of the next day included) — the cost of a damaged refunded record",
         lost_id, steps, summaries, salvage=True, dropped=["ledger.sales[0]"])

    # -- 4: every snapshot 0.2 and 0.3 wrote converts (their own fixtures)
    for version in ("v2", "v3"):
        day = fixture(version + "/ordinary-day.json")
        states = flows_of(day)
        s.ok(f"{version}-ordinary-day", f"4: 0.{version[1]} wrote an ordinary day: it converts; 60.00 of sale 720371 is left "
             "(40.00 refunded), not more", day,
             [refund("r2", LATER, sale_flow="p1", amount="60.01"), refund("r2", LATER, sale_flow="p1", amount="60.00")],
             [summary("rejected", states, error=NOT_ELIGIBLE),
              summary("accepted", dict(states, r2="ready"), ["r2:open_pos_app", "r2:persist"])])
        waiting = fixture(version + "/waiting-refund.json")
        states = flows_of(waiting)
        s.ok(f"{version}-waiting-refund", f"4: 0.{version[1]} wrote a refund waiting in the POS app: kept, no second refund "
             "while it waits, and its answer arrives", waiting,
             [refund("r2", LATER, sale_flow="p1"),
              {"url": f"myapp://result=aprobada&amount=100.00&identifier=ref-1~{TKR}&transactionid=820371", "now": LATER + 1000}],
             [summary("rejected", states, error=("invalid_state", "transactionId")),
              summary("accepted", dict(states, r1="approved"), ["r1:persist"])])
    pruned = fixture("v2/pruned-ahead.json")
    steps, summaries = second_refunds(flows_of(pruned))
    s.ok("v2-pruned-ahead", "4a: 0.2 pruned a fully refunded sale at an event dated ahead and kept no watermark; converted, "
         "the sale its flows still name is balance unknown: no second refund after the clock came back", pruned, steps, summaries)
    tilde = fixture("v2/tilde-token.json")
    s.ok("v2-tilde-token", "4b: 0.2 accepted a token with '~': the waiting sale is kept and its answer arrives", tilde,
         [{"url": "myapp://result=aprobada&amount=100.00&identifier=ord-1~abc~def0123456789abcdef&transactionid=720371",
           "now": T0 + 60_000}],
         [summary("accepted", {"p1": "approved"}, ["p1:persist"])])
    shared = fixture("v2/shared-keys.json")
    steps = [{"url": f"myapp://result=aprobada&amount=50.00&identifier=ord-1~{TK1}&transactionid=720999", "now": T0 + 200_000}]
    summaries = [summary("accepted", {"p2": "approved", "c2": "awaiting_session"}, ["p2:persist"])]
    s.ok("v2-shared-keys", "4c: an ended flow sharing its token or nonce with a waiting one (valid in 0.2) is left out; "
         "the waiting one is kept and takes its answer", shared, steps, summaries)
    s.ok("v2-shared-keys-salvage", "4c: salvage of the same document reports what the conversion left out", shared,
         steps, summaries, salvage=True, dropped=["flows[1]", "flows[3]"])
    checkouts = fixture("v2/waiting-checkouts.json")
    states = flows_of(checkouts)
    s.ok("v2-waiting-checkouts", "4d: 24 checkouts waiting for their session convert whatever they reserve; each still "
         "takes its session", checkouts,
         [{"event": {"type": "checkout.session", "flow_id": "c1", "now": T0 + 61_000,
                     "session": {"kind": "cards", "checkout_url": "https://pay.example.com/c/1"}}}, {"restore": True}],
         [summary("accepted", dict(states, c1="ready"), ["c1:open_browser", "c1:persist"]),
          summary("restored", dict(states, c1="ready"))])
    return s


def main(argv: list[str]) -> int:
    # Ids must not clash with the other flow files'.
    others = {v["id"] for name in ("checkout_table.json", "pos_table.json", "races.json")
              for v in json.loads((FLOWS_DIR / name).read_text())["vectors"]}
    return vectorlib.main(argv, FLOWS_DIR, {"recovery.json": suite()}, other_ids=others)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
