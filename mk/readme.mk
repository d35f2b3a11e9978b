# README snippets (issue 21): every ```swift block of README.md and docs/*.md type-checks against
# the package (scripts/check-readme-swift.py) with only the imports the block shows (issue 36),
# so the documentation cannot drift from the API. Part of `make test`.
#   make readme-doctor-check   docs/doctor.md (the README's "Integration check" points there)
#                              documents every option of `payhandoff doctor --help` (issue 28); its
#                              example runs are held to the tool's output by DoctorCLITests
#                              (refresh: make doctor-readme)
BINDING_TESTS += readme-swift-check readme-doctor-check

.PHONY: readme-swift-check readme-doctor-check

readme-swift-check: swift-build
	@python3 scripts/check-readme-swift.py "$$($(SWIFT) build --show-bin-path)/Modules" .build/readme-swift

readme-doctor-check: swift-build
	@python3 scripts/update-readme-doctor-run.py --check "$$($(SWIFT) build --show-bin-path)/payhandoff"
