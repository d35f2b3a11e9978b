"""Seed inputs for the libFuzzer targets in Fuzz/, generated from the shared vectors.

    python3 Fuzz/seeds.py OUT_DIR      writes OUT_DIR/<Target>/seed-<n> (not in git: mk/fuzz.mk
                                       writes them to .build/fuzz-work/seeds; the committed,
                                       minimized corpus is Fuzz/Corpus/<Target>)

Input formats (see each target's header comment):
- FuzzPOSAnswer, FuzzCheckoutCallback: options JSON, LF, URL (from pos.parse_response and
  checkout.parse_callback vectors, hostile ones included); a first byte below 0x20 selects the
  structure-aware grammar instead (Fuzz/FuzzSupport/URLGrammar.swift), seeded with a few
  random choice strings;
- FuzzAmount: amount text (every amount string found in the vectors, and their JSON values);
- FuzzABIJSON: one selector byte, then a JSON document (requests, sessions, events, configs,
  refund checks and result extras of every suite; a snapshot of the old format 1, refused);
  snapshots of format 2 come from the exhaustive check (PayHandoffModelCheck --emit-seeds,
  merged into Fuzz/Corpus/FuzzABIJSON);
- FuzzCoordinator: one configuration byte, then one byte per letter of FlowAlphabet; random
  ones from a fixed seed here, the sequences that reach the exhaustive check's states in
  Fuzz/Corpus/FuzzCoordinator.
- FuzzSalvage: one configuration byte, letters as FuzzCoordinator's, 255, then the damage; random
  ones from a fixed seed here, issue 35's findings (scripts/fuzz_salvage_findings.sh) in
  Fuzz/Corpus/FuzzSalvage.
"""
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "Tests" / "Vectors"
SELECTOR = {"config": 0, "snapshot": 1, "event": 2, "event_fixture": 3, "pos.build_url": 4,
            "pos.refund_check": 5, "checkout.build_request": 6, "checkout.parse_session": 7,
            "checkout.confirmation": 8, "url": 9, "pos.parse_result": 10}


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
    seeds = {name: set() for name in ["FuzzPOSAnswer", "FuzzCheckoutCallback", "FuzzAmount", "FuzzABIJSON", "FuzzCoordinator", "FuzzSalvage"]}
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
                   "checkout.parse_session": "session", "checkout.confirmation": "event", "pos.parse_result": "extras"}[suite]
            if key in data:
                seeds["FuzzABIJSON"].add(bytes([SELECTOR[suite]]) + dump(data[key]))
    # The old snapshot format 1 (refused: unsupported_version); format 2 comes from the model check.
    seeds["FuzzABIJSON"].add(bytes([SELECTOR["snapshot"]]) + dump(
        {"version": 1, "config": {"single_pending_per_kind": False, "checkout_timeout_ms": 1800000, "pos_grace_ms": 3000},
         "flows": [], "refunded": {}}))
    seeds["FuzzAmount"] = found_amounts
    rng = random.Random(9)
    for _ in range(40):
        seeds["FuzzCoordinator"].add(bytes(rng.randrange(256) for _ in range(rng.randrange(4, 160))))
    salvage_rng = random.Random(35)  # its own: the other targets' seeds stay as they were
    for _ in range(40):
        letters = bytes(salvage_rng.randrange(255) for _ in range(salvage_rng.randrange(2, 24)))
        seeds["FuzzSalvage"].add(bytes([salvage_rng.randrange(2)]) + letters + b"\xff" + bytes(salvage_rng.randrange(256) for _ in range(31)))
    for target in ("FuzzPOSAnswer", "FuzzCheckoutCallback"):  # grammar choices
        for _ in range(20):
            seeds[target].add(bytes([rng.randrange(0x20)]) + bytes(rng.randrange(256) for _ in range(rng.randrange(8, 64))))
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
