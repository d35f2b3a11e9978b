# The first five minutes on every platform (issue 36): included by the main Makefile.
#   make consumer-check   each guide's first example, taken from the markdown as written, built and
#                         run in a fresh folder outside the repository (scripts/consumer_check.sh):
#                         docs/swift.md's manifest fragment and first integration as a SwiftPM package
#                         depending on this checkout by path (its build folder kept in /tmp between
#                         runs: CONSUMER_SWIFT_CACHE), run; docs/c.md's app.c built and run with the
#                         guide's exact commands; the Android guide's Kotlin and Java Activities
#                         compiled against the AAR's classes.jar (android.* / androidx.* stand-ins:
#                         Tests/Android/stubs), and its Auth Tab block against androidx.browser's;
#                         the React Native and web first examples under tsc --strict against the
#                         packed tarballs (moduleResolution node, node16, nodenext); the web one also
#                         as a page in Chromium, WebKitGTK and Firefox (WEB_ENGINES). One line per part
#                         with its time. CONSUMER_PARTS="swift c" runs some of them.
# Debian packages: those of android.mk (kotlin, javac), react-native.mk and ios.mk (tsc, npm) and
# web.mk (the engines); nothing of its own.
BINDING_TESTS += consumer-check
CONSUMER_PARTS ?= swift c android react-native web

.PHONY: consumer-check

# react-native-pack as a prerequisite: make test packs once for this, react-native-test and
# ios-check. The two .wasm build side by side (-j2), as web-test builds them.
consumer-check: lib android react-native-pack
	@start=$$(date +%s); \
	$(if $(filter web,$(CONSUMER_PARTS)),$(MAKE) --no-print-directory -j2 web >/dev/null && $(MAKE) --no-print-directory web-pack;) \
	WEB_ENGINES="$(WEB_ENGINES)" WEB_PYTHON=$(WEB_PYTHON) KOTLIN_STDLIB=$(ANDROID_KOTLIN_STDLIB) \
	  scripts/consumer_check.sh $(CONSUMER_PARTS) && status=0 || status=$$?; \
	echo "consumer-check: $$(( $$(date +%s) - start )) s in all ($(CONSUMER_PARTS))"; \
	test $$status -eq 0
