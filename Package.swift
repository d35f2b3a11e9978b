// swift-tools-version:6.0
//
// PayHandoff: hand a payment to the system browser tab (hosted checkout) or to the
// Billpocket POS app, and get the result back through a deep link, once and correctly.
//
// Layers (see docs/architecture.md): the core `PayHandoff` imports only the Swift standard library and
// stays inside the Embedded Swift subset; `CcJSON` is the system libcjson, used only by the
// layers that turn JSON text into `JSONValue` (the C ABI, the CLI, the C test harness).
import PackageDescription

let package = Package(
    name: "PayHandoff",
    products: [
        .library(name: "PayHandoff", targets: ["PayHandoff"]),
        // Foundation conveniences for Apple platforms and server Swift (URL, Date, Data, a saving
        // coordinator); never imported by the core, never part of the Embedded library.
        .library(name: "PayHandoffFoundation", targets: ["PayHandoffFoundation"]),
        .executable(name: "payhandoff", targets: ["PayHandoffCLI"]),
        // The C ABI of include/payhandoff.h as a shared library (`make lib` builds it with the
        // static Swift runtime into dist/full/libpayhandoff.so).
        .library(name: "PayHandoffABI", type: .dynamic, targets: ["PayHandoffABI"]),
    ],
    targets: [
        .target(name: "PayHandoff"),
        .target(name: "PayHandoffFoundation", dependencies: ["PayHandoff"]),
        .systemLibrary(
            name: "CcJSON",
            pkgConfig: "libcjson",
            providers: [.apt(["libcjson-dev"])]
        ),
        .target(name: "PayHandoffABI", dependencies: ["PayHandoff", "CcJSON"]),
        .executableTarget(name: "PayHandoffCLI", dependencies: ["PayHandoff", "PayHandoffABI", "PayHandoffDoctor"]),
        // `payhandoff doctor` (issue 18): checks an app's AndroidManifest.xml, Info.plist, Expo
        // config and association files against the return URL and POS scheme. Uses Foundation
        // (XMLParser, PropertyListSerialization, JSONSerialization): it never ships inside an app.
        .target(name: "PayHandoffDoctor", dependencies: ["PayHandoff"]),
        // Benchmarks (issue 10, `make bench`): may import Foundation for its baselines; the
        // library targets never do.
        .executableTarget(name: "PayHandoffBenchmarks", dependencies: ["PayHandoff", "PayHandoffABI"], path: "Benchmarks", exclude: ["callgrind.sh", "node-overhead.js", "jvm-overhead"],
                          swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "PayHandoffTests",
            // FoundationJSONText for the typed Clip/Square tests; PayHandoffABI for the vector runners,
            // which hand the core the C ABI's cJSON codec (`JSONText.codec`) so Square's and Clip's JSON
            // text is read by the same rules in Swift as in C, Kotlin and JS.
            dependencies: ["PayHandoff", "PayHandoffFoundation", "PayHandoffABI"]
        ),
        .testTarget(name: "PayHandoffFoundationTests", dependencies: ["PayHandoffFoundation"]),
        // Runs the built `payhandoff` binary as a user would (depends on it so it is built), and
        // feeds what `pos answer`/`checkout answer` compose to the coordinator in Swift and the C ABI.
        .testTarget(
            name: "PayHandoffCLITests",
            dependencies: ["PayHandoffCLI", "PayHandoff", "PayHandoffABI"]
        ),
        // The doctor's checks against its fixtures, and the `payhandoff doctor` process (so it
        // is built); runs alone with `make doctor-test`.
        .testTarget(
            name: "PayHandoffDoctorTests",
            dependencies: ["PayHandoffDoctor", "PayHandoffCLI"],
            exclude: ["Fixtures"]
        ),
        // The C harness of include/payhandoff.h as a library, so XCTest can drive it in-process
        // (make c-harness also builds it as a plain C program against each dist/ library).
        .target(
            name: "CHarness",
            dependencies: ["PayHandoffABI"],
            path: "Tests/CHarness",
            exclude: ["valgrind.supp"],
            cSettings: [
                .headerSearchPath("../../include"),
                .define("PAYHANDOFF_HARNESS_NO_MAIN"),
                .unsafeFlags(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic"]),
            ],
            linkerSettings: [.linkedLibrary("cjson")]
        ),
        .testTarget(
            name: "CHarnessTests",
            dependencies: ["CHarness"]
        ),
        // libFuzzer targets (issues 9 and 20; mk/fuzz.mk builds them with --sanitize=fuzzer).
        .target(name: "FuzzSupport", dependencies: ["PayHandoff", "PayHandoffABI", "CcJSON"], path: "Fuzz/FuzzSupport"),
        .executableTarget(name: "FuzzPOSAnswer", dependencies: ["FuzzSupport"], path: "Fuzz/FuzzPOSAnswer"),
        .executableTarget(name: "FuzzCheckoutCallback", dependencies: ["FuzzSupport"], path: "Fuzz/FuzzCheckoutCallback"),
        .executableTarget(name: "FuzzAmount", dependencies: ["FuzzSupport"], path: "Fuzz/FuzzAmount"),
        .executableTarget(name: "FuzzABIJSON", dependencies: ["FuzzSupport"], path: "Fuzz/FuzzABIJSON"),
        .executableTarget(name: "FuzzCoordinator", dependencies: ["FuzzSupport"], path: "Fuzz/FuzzCoordinator"),
        // Issue 35: salvage, restore, forgetting and clocks never widen a refund or reopen an answer.
        .executableTarget(name: "FuzzSalvage", dependencies: ["FuzzSupport"], path: "Fuzz/FuzzSalvage"),
        // The exhaustive small-scope check of the coordinator (issue 20; mk/fuzz.mk runs it),
        // over the alphabet FuzzCoordinator also draws from.
        .executableTarget(name: "PayHandoffModelCheck", dependencies: ["FuzzSupport"], path: "Fuzz/ModelCheck"),
        // Hostile inputs that cannot be vector files, the C ABI's table, and the thread check run as
        // a process (issue 9), straight against the C ABI functions.
        .testTarget(name: "PayHandoffABITests", dependencies: ["PayHandoffABI", "PayHandoffThreadCheck"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // The thread-safety scenario as a program of its own (ThreadTests runs it; `make tsan` builds only
        // it, the core and the C ABI with ThreadSanitizer).
        .executableTarget(name: "PayHandoffThreadCheck", dependencies: ["PayHandoffABI"], path: "Tests/Sanitizers/ThreadCheck",
                          swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
