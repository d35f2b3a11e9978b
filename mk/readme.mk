# README snippets (issue 21): every ```swift block of README.md type-checks against the package
# (scripts/check-readme-swift.py), so the README cannot drift from the API. Part of `make test`.
BINDING_TESTS += readme-swift-check

.PHONY: readme-swift-check

readme-swift-check: bootstrap
	@$(SWIFT) build --product PayHandoffFoundation >/dev/null
	@$(SWIFT) build --product PayHandoff >/dev/null
	@python3 scripts/check-readme-swift.py "$$($(SWIFT) build --show-bin-path)/Modules" .build/readme-swift
