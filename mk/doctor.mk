# `payhandoff doctor` (issue 18): the integration checker of Sources/PayHandoffDoctor.
#   make doctor-test     its XCTest target alone: every rule against a passing and a failing
#                        fixture (Tests/PayHandoffDoctorTests/Fixtures), bad input, the CLI as a
#                        process, the run shown in docs/doctor.md. make test runs these tests once,
#                        inside swift-test's XCTest run (not this target as well).
#   make doctor-readme   reruns docs/doctor.md's `payhandoff doctor` examples and pastes their output
# Foundation's XMLParser (FoundationXML) loads libxml2 at run time; the --fix-diff test applies diffs with patch.
# The debug build's tests need them too (swift-build asks for APT_swift).
APT_swift := $(APT_demo) patch
APT_PACKAGES += $(APT_swift)

.PHONY: doctor-test doctor-readme

doctor-test: swift-build
	@$(SWIFT) test --skip-build --disable-swift-testing --filter PayHandoffDoctorTests 2>&1 \
	  | grep -E 'error: |Test Case .* failed|Executed [0-9]+ tests' | sed 's/^/doctor-test: /' | tail -n 40

doctor-readme: bootstrap-swift
	@$(SWIFT) build --product payhandoff >/dev/null
	@scripts/update-readme-doctor-run.py $$($(SWIFT) build --show-bin-path)/payhandoff
