"""The Python oracle of the shared vectors (Tests/Vectors/tools), as a long-lived child of the
fuzz targets (Fuzz/FuzzSupport/Oracle.swift): one JSON request per line on stdin, one JSON
answer per line on stdout, in order.

Requests:
    {"suite": "pos.parse_response", "url": "...", "options": {...}}
    {"suite": "pos.parse_result", "extras": {...}, "options": {...}}
    {"suite": "amount", "text": "..."}
Answers: {"ok": <document>} or {"error": {"code": ..., "field": ...}} (the oracle's Fail), or
{"oracle_error": "..."} when the oracle itself raised something else (a bug on one side).

It imports the oracle's functions (pos_apps_vectors.parse_response, parse_result, which dispatch
on `pos_app` to Billpocket's pos_vectors or the Square/SumUp/Clip oracles;
vectorlib.amount_from_text); no rule is written here.
"""
import json
import sys
import traceback
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "Tests" / "Vectors" / "tools"))
import pos_apps_vectors  # noqa: E402
from vectorlib import Fail, amount_from_text  # noqa: E402


def answer(request: dict) -> dict:
    suite = request["suite"]
    try:
        if suite == "pos.parse_response":
            return {"ok": pos_apps_vectors.parse_response(request["url"], request["options"])}
        if suite == "pos.parse_result":
            return {"ok": pos_apps_vectors.parse_result(request["extras"], request["options"])}
        if suite == "amount":
            return {"ok": amount_from_text(request["text"], "amount")}
        return {"oracle_error": "unknown suite " + suite}
    except Fail as failure:
        return {"error": {"code": failure.code, "field": failure.field}}
    except Exception:  # a crash of the oracle is a finding too: report it with the input
        return {"oracle_error": traceback.format_exc(limit=3)}


def main() -> int:
    for line in sys.stdin:
        sys.stdout.write(json.dumps(answer(json.loads(line)), ensure_ascii=True) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
