# `payhandoff doctor` (issue 18): the integration checker of Sources/PayHandoffDoctor.
#   make doctor-test     its XCTest target alone: every rule against a passing and a failing
#                        fixture (Tests/PayHandoffDoctorTests/Fixtures), bad input, the CLI as a
#                        process, the run shown in docs/doctor.md (also part of `make test`'s XCTest run)
#   make doctor-readme   reruns docs/doctor.md's `payhandoff doctor` examples and pastes their output
# Foundation's XMLParser (FoundationXML) loads libxml2 at run time; the --fix-diff test applies diffs with patch.
APT_PACKAGES += libxml2 patch
BINDING_TESTS += doctor-test

.PHONY: doctor-test doctor-readme

doctor-test: bootstrap
	@$(SWIFT) test --disable-swift-testing --filter PayHandoffDoctorTests 2>&1 \
	  | grep -E 'error: |Test Case .* failed|Executed [0-9]+ tests' | sed 's/^/doctor-test: /' | tail -n 40

doctor-readme: bootstrap
	@$(SWIFT) build --product payhandoff >/dev/null
	@scripts/update-readme-doctor-run.py $$($(SWIFT) build --show-bin-path)/payhandoff
