"""Seed corpora for the libFuzzer targets in Fuzz/, generated from the shared vectors.

    python3 Fuzz/seeds.py OUT_DIR      writes OUT_DIR/<Target>/seed-<n> (not in git: mk/fuzz.mk
                                       uses .build/fuzz/seeds, and keeps new corpus entries
                                       under .build/fuzz/corpus)

Input formats (see each target's header comment):
- FuzzPOSAnswer, FuzzCheckoutCallback: options JSON, LF, URL (from pos.parse_response and
  checkout.parse_callback vectors, hostile ones included);
- FuzzAmount: amount text (every amount string found in the vectors, and their JSON values);
- FuzzABIJSON: one selector byte, then a JSON document (requests, sessions, events, configs,
  refund checks of every suite, plus snapshots written by hand);
- FuzzCoordinator: operation bytes; a few fixed byte strings for the happy paths and random
  ones from a fixed seed (the vectors' scripts cannot be mapped onto its operation bytes).
"""
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "Tests" / "Vectors"
SELECTOR = {"config": 0, "snapshot": 1, "event": 2, "event_fixture": 3, "pos.build_url": 4,
            "pos.refund_check": 5, "checkout.build_request": 6, "checkout.parse_session": 7,
            "checkout.confirmation": 8, "url": 9}


def vectors():
    for path in sorted(ROOT.glob("*/*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        for vector in document.get("vectors", []):
            yield document["suite"], vector["input"]


def dump(value) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


def amounts(value, out):
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("amount", "tip") and isinstance(item, (str, int)) and not isinstance(item, bool):
                out.add(dump(item) if isinstance(item, int) else item.encode("utf-8", "surrogatepass"))
            amounts(item, out)
    elif isinstance(value, list):
        for item in value:
            amounts(item, out)


def main() -> int:
    out = Path(sys.argv[1])
    seeds = {name: set() for name in ["FuzzPOSAnswer", "FuzzCheckoutCallback", "FuzzAmount", "FuzzABIJSON", "FuzzCoordinator"]}
    found_amounts: set[bytes] = {b"100", b"100.5", b"100.00", b"0", b"0.01", b"90071992547409.91", b"1e3", b"-1", b" 1"}
    for suite, data in vectors():
        amounts(data, found_amounts)
        if suite == "pos.parse_response":
            seeds["FuzzPOSAnswer"].add(dump(data.get("options")) + b"\n" + data.get("url", "").encode("utf-8", "surrogatepass"))
        elif suite == "checkout.parse_callback":
            seeds["FuzzCheckoutCallback"].add(dump(data.get("options")) + b"\n" + data.get("url", "").encode("utf-8", "surrogatepass"))
        elif suite == "coordinator.script":
            seeds["FuzzABIJSON"].add(bytes([SELECTOR["config"]]) + dump(data.get("config", {})))
            for step in data.get("steps", []):
                if "event" in step:
                    seeds["FuzzABIJSON"].add(bytes([SELECTOR["event"]]) + dump(step["event"]))
                    seeds["FuzzABIJSON"].add(bytes([SELECTOR["event_fixture"]]) + dump(step["event"]))
                elif "url" in step:
                    seeds["FuzzABIJSON"].add(bytes([SELECTOR["url"]]) + step["url"].encode("utf-8", "surrogatepass"))
        elif suite in SELECTOR:
            key = {"pos.build_url": "request", "pos.refund_check": "check", "checkout.build_request": "request",
                   "checkout.parse_session": "session", "checkout.confirmation": "event"}[suite]
            if key in data:
                seeds["FuzzABIJSON"].add(bytes([SELECTOR[suite]]) + dump(data[key]))
    snapshot = {"version": 1, "config": {"single_pending_per_kind": False, "checkout_timeout_ms": 1800000, "pos_grace_ms": 3000},
                "flows": [{"id": "p1", "type": "pos", "state": "approved", "operation": "venta", "identifier": "ord-1",
                           "answer_scheme": "myapp", "amount": "100.00", "grace_ms": 3000,
                           "response": {"version": 1, "result": "approved", "identifier": "ord-1", "amount": "100.00",
                                        "transactionid": "720371"},
                           "answered_at": 1796054460000}], "refunded": {}}
    seeds["FuzzABIJSON"].add(bytes([SELECTOR["snapshot"]]) + dump(snapshot))
    seeds["FuzzABIJSON"].add(bytes([SELECTOR["snapshot"]]) + dump({**snapshot, "flows": []}))
    seeds["FuzzAmount"] = found_amounts
    rng = random.Random(9)
    seeds["FuzzCoordinator"].update([
        bytes([0, 0, 0, 0, 1, 1, 0, 1, 0, 2, 0, 0, 0, 5, 0, 0, 0, 0, 0, 1, 0, 4, 0, 0, 0, 10]),  # checkout: start, session, callback, confirm, restart
        bytes([0, 6, 0, 0, 0, 0, 7, 0, 1, 0, 8, 0, 0, 0, 0, 0, 10, 0, 9, 1]),                   # POS sale: start, launched, answer, restart, tick
    ])
    for _ in range(40):
        seeds["FuzzCoordinator"].add(bytes(rng.randrange(256) for _ in range(rng.randrange(4, 160))))
    for name, items in seeds.items():
        directory = out / name
        directory.mkdir(parents=True, exist_ok=True)
        for old in directory.glob("seed-*"):
            old.unlink()
        for i, item in enumerate(sorted(items)):
            (directory / f"seed-{i:04d}").write_bytes(item)
        print(f"seeds: {name}: {len(items)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
