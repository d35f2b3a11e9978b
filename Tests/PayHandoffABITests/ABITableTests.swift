import Foundation
@testable import PayHandoff
@testable import PayHandoffABI
import XCTest

/// abi/payhandoff.json is the table every binding's forwarding code and word lists are generated
/// from (tools/abigen); the core is where the words are defined. These tests hold the table to the
/// core, so a word added, renamed or renumbered in one and not the other fails here.
final class ABITableTests: XCTestCase {
    /// The table's `vocabularies` section.
    private static let table: [String: Any] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../abi/payhandoff.json").standardized
        guard let data = try? Data(contentsOf: url),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            fatalError("cannot read \(url.path)")
        }
        return object
    }()

    private func words(_ vocabulary: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let vocabularies = Self.table["vocabularies"] as? [String: Any]
        guard let entry = vocabularies?[vocabulary] as? [String: Any], let words = entry["words"] as? [String] else {
            XCTFail("abi/payhandoff.json has no vocabulary \(vocabulary) with words", file: file, line: line)
            return []
        }
        let bindingOnly = Set(entry["binding_only"] as? [String] ?? [])
        return words.filter { !bindingOnly.contains($0) }
    }

    func testErrorCodesAreTheCoresInOrder() {
        XCTAssertEqual(words("ErrorCode"), PayHandoffError.Code.allCases.map(\.rawValue))
    }

    func testStatusNumbersAreStatusSwifts() throws {
        let entry = try XCTUnwrap((Self.table["vocabularies"] as? [String: Any])?["Status"] as? [String: Any])
        let codes = try XCTUnwrap(entry["codes"] as? [String: Int])
        var core = ["ok": 0]
        for code in PayHandoffError.Code.allCases { core[code.rawValue] = Int(code.status) }
        XCTAssertEqual(codes, core)
    }

    func testEventTypesAreTheOnesCoordinatorEventReads() {
        XCTAssertEqual(words("EventType"), CoordinatorEvent.TypeName.allCases.map(\.text))
    }

    func testEffectTypesAreFlowEffectsTypes() {
        let request = HTTPRequest(method: "POST", url: "https://api.example/v1/cards", headers: [], body: .object([:]))
        let effects: [FlowEffect] = [
            .sendRequest(request), .createSession(kind: .cards, returnURL: "fixapp://cb"), .openBrowser(url: "https://x", returnTo: nil),
            .closeBrowser, .showPending, .openPOSApp(url: "billpocket://x"), .showHint(message: "m"),
            .reconcile(reason: "r"), .persist,
        ]
        // One example of every case: this switch stops compiling when FlowEffect gains a case, until
        // the case has an example above (and its word a place in the table).
        for effect in effects {
            switch effect {
            case .sendRequest, .createSession, .openBrowser, .closeBrowser, .showPending, .openPOSApp, .showHint,
                 .reconcile, .persist:
                break
            case .openPOSIntent:
                XCTFail("openPOSIntent writes open_pos_app too: checked below")
            }
        }
        // The other terminal apps' open_pos_app (issue 39) is the same word, with pos_app and intent.
        let intent = FlowEffect.openPOSIntent(posApp: .clip, url: nil, intent: POSIntent(
            action: "android.intent.action.MAIN", package: nil, component: ClipRequest.defaultComponent, data: nil, extras: []))
        XCTAssertEqual(intent.json.value(at: "type"), .string("open_pos_app"))
        XCTAssertEqual(words("EffectType"), effects.map { effect -> String in
            guard case .string(let type)? = effect.json.value(at: "type") else { return "?" }
            return type
        })
    }

    func testStateAndWordListsAreTheCoresEnums() {
        XCTAssertEqual(words("EventOutcome"), EventOutcome.allCases.map(\.rawValue))
        XCTAssertEqual(words("BrowserChannel"), BrowserResult.Channel.allCases.map(\.rawValue))
        XCTAssertEqual(words("BrowserResultCode"), BrowserResult.Code.allCases.map(\.rawValue))
        XCTAssertEqual(words("CheckoutState"), CheckoutFlow.State.allCases.map(\.rawValue))
        XCTAssertEqual(words("PosState"), POSFlow.State.allCases.map(\.rawValue))
        XCTAssertEqual(words("CheckoutKind"), CheckoutKind.allCases.map(\.rawValue))
        XCTAssertEqual(words("CheckoutStatus"), CheckoutCallback.Status.allCases.map(\.rawValue))
        XCTAssertEqual(words("CheckoutIntegration"), CheckoutRequest.Integration.allCases.map(\.rawValue))
        XCTAssertEqual(words("ConfirmationType"), CheckoutKind.allCases.map(\.confirmationType))
        XCTAssertEqual(words("PosResult"), POSResponse.Result.allCases.map(\.rawValue))
        XCTAssertEqual(words("AccountType"), POSResponse.AccountType.allCases.map(\.rawValue))
        XCTAssertEqual(words("PosOperation"), POSRequest.Operation.allCases.map(\.rawValue))
        XCTAssertEqual(words("PosApp"), POSApp.allCases.map(\.rawValue))
        XCTAssertEqual(words("PosAndroidAction"), POSRequest.AndroidAction.allCases.map(\.rawValue))
        XCTAssertEqual(words("RefundReason"), RefundEligibility.Reason.allCases.map(\.rawValue))
        XCTAssertEqual(words("RefundWarning"), RefundEligibility.Warning.allCases.map(\.rawValue))
    }

    /// The table's `limits` (generated into the bindings, checked against the header's #defines by
    /// tools/abigen) are the ones the ABI layer enforces.
    func testLimitsAreTheABILayers() throws {
        let limits = try XCTUnwrap(Self.table["limits"] as? [String: Any])
        func value(_ name: String) -> Int? { (limits[name] as? [String: Any])?["value"] as? Int }
        XCTAssertEqual(value("PAYHANDOFF_MAX_JSON_BYTES"), JSONText.maxJSONBytes)
        XCTAssertEqual(value("PAYHANDOFF_MAX_URL_BYTES"), JSONText.maxURLBytes)
        XCTAssertEqual(value("PAYHANDOFF_MAX_SNAPSHOT_BYTES"), JSONText.maxSnapshotBytes)
        XCTAssertEqual(value("PAYHANDOFF_MAX_SNAPSHOT_BYTES"), Coordinator.maxSnapshotBytes)
        XCTAssertEqual(value("PAYHANDOFF_MAX_JSON_DEPTH"), JSONText.maxDepth)
        XCTAssertEqual(limits.keys.filter { $0 != "//" }.count, 4, "a new limit needs its line here")
    }

    func testFlowTypesAreTheCoordinatorsFlows() throws {
        // One flow of each kind, started through the C ABI; the snapshot names their types.
        var handle: OpaquePointer?
        XCTAssertEqual(call { payhandoff_coordinator_new(nil, &handle, $0) }.status, 0)
        defer { payhandoff_coordinator_free(handle) }
        let events = [
            #"{"type":"checkout.start","flow_id":"c1","now":1773174600000,"kind":"cards","return_url":"fixapp://checkout-callback"}"#,
            #"{"type":"pos.start","flow_id":"p1","now":1773174600000,"request":{"transaction":"venta","usertoken":"tok_1","identifier":"ord-1","amount":"1.00","urlScheme":"myapp"}}"#,
        ]
        for event in events { XCTAssertEqual(call { payhandoff_coordinator_send(handle, event, $0) }.status, 0, event) }
        let snapshot = call { payhandoff_coordinator_snapshot(handle, $0) }.text
        let flows = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(snapshot.utf8)) as? [String: Any])?["flows"] as? [[String: Any]])
        XCTAssertEqual(flows.compactMap { $0["type"] as? String }.sorted(), words("FlowType").sorted())
    }

    func testEveryVocabularyIsChecked() throws {
        let names = try XCTUnwrap((Self.table["vocabularies"] as? [String: Any])?.keys).sorted()
        // The vocabularies the tests above hold to the core; a new one needs its test.
        XCTAssertEqual(names, [
            "AccountType", "BrowserChannel", "BrowserResultCode", "CheckoutIntegration", "CheckoutKind", "CheckoutState", "CheckoutStatus", "ConfirmationType",
            "EffectType", "ErrorCode", "EventOutcome", "EventType", "FlowType", "PosAndroidAction", "PosApp", "PosOperation", "PosResult", "PosState",
            "RefundReason", "RefundWarning", "Status",
        ])
    }

    func testTheLibraryReportsTheTablesVersions() throws {
        XCTAssertEqual(Int(payhandoff_abi_version()), try XCTUnwrap(Self.table["abi_version"] as? Int))
        XCTAssertEqual(String(cString: payhandoff_version()), try XCTUnwrap(Self.table["library_version"] as? String))
    }
}
