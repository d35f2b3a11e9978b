# The binding surface from one table (issue 21): abi/payhandoff.json, tools/abigen.
#   make abi-generate   rewrites every generated file from the table (after editing the table)
#   make abigen-check   fails when a generated file differs from what tools/abigen writes now,
#                       naming the file with a short diff, or when the header, the @_cdecl exports
#                       or a version mention disagree with the table; then tools/abigen's own test
#                       proves that check fails on changed copies (in a temporary directory)
# Python 3 standard library only. Part of `make test`.
BINDING_TESTS += abigen-check

.PHONY: abi-generate abigen-check

abi-generate:
	@python3 tools/abigen/abigen.py --write

abigen-check:
	@python3 tools/abigen/abigen.py --check
	@mkdir -p .build
	@python3 tools/abigen/test_abigen.py > .build/abigen-test.log 2>&1 && status=0 || status=$$?; \
	  test $$status -eq 0 || cat .build/abigen-test.log; \
	  echo "abigen-check: the check itself, on changed copies in a temporary directory: $$(grep -E '^Ran ' .build/abigen-test.log): $$(tail -1 .build/abigen-test.log)"; \
	  test $$status -eq 0
