import Foundation
import PayHandoff

/// PayHandoff with Foundation's types, for apps on Apple platforms and server-side Swift: `URL`
/// instead of URL strings, `Date` instead of epoch milliseconds or seconds, `Data` for
/// snapshots, and the system's random source by default. The core (`PayHandoff`) stays free of
/// Foundation — this module only converts at the edge and never decides anything itself.
extension Coordinator {
    /// A coordinator restored from a saved snapshot, or a new one when there is none.
    /// - Parameters:
    ///   - snapshot: What ``snapshotData`` saved last time, or `nil` on first launch.
    ///   - configuration: The configuration of a new coordinator (a restored one keeps its own).
    /// - Throws: `PayHandoffError` when the data is not a snapshot this build reads.
    public init(snapshotData snapshot: Data?, configuration: Configuration = Configuration()) throws {
        guard let snapshot, !snapshot.isEmpty else {
            self.init(configuration: configuration)
            return
        }
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: snapshot)
        } catch {
            throw PayHandoffError(.invalidJSON, field: "snapshot", "is not a JSON document: \(error.localizedDescription)")
        }
        try self.init(snapshot: document)
    }

    /// The snapshot as JSON data, to save whenever an answer says so (or let
    /// ``SavedCoordinator`` do it).
    public var snapshotData: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(snapshot)) ?? Data()
    }

    /// Routes a URL the OS handed the app.
    /// - Parameters:
    ///   - url: The URL.
    ///   - date: When it arrived (now by default).
    /// - Returns: What the flow it belongs to made of it (`not_ours` when none).
    public mutating func handle(_ url: URL, at date: Date = Date()) -> CoordinatorAnswer {
        handle(url: url.absoluteString, now: date.epochMilliseconds)
    }

    /// Applies an event, with new nonces and tokens from the system's random source.
    /// - Parameters:
    ///   - kind: What happened.
    ///   - date: When (now by default).
    /// - Returns: What happened, the flows' new states and the effects to perform.
    /// - Throws: `PayHandoffError` when the event itself breaks a rule (an empty flow id, a
    ///   grace period out of range, …); a valid event the coordinator refuses is an answer with
    ///   outcome `rejected`, not a throw.
    public mutating func send(_ kind: CoordinatorEvent.Kind, at date: Date = Date()) throws -> CoordinatorAnswer {
        var random = SystemRandomNumberGenerator()
        return send(try CoordinatorEvent(kind, now: date.epochMilliseconds), using: &random)
    }
}

extension Date {
    /// Epoch milliseconds, the core's time unit (rounded down).
    public var epochMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }

    /// The moment `milliseconds` after the epoch.
    /// - Parameter milliseconds: Epoch milliseconds.
    public init(epochMilliseconds milliseconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }
}

extension RefundEligibility {
    /// Checks the refund conditions at `date`, for a sale approved at `approvedAt`.
    /// - Parameters:
    ///   - transactionId: The sale's `transactionid`.
    ///   - amount: The sale's amount.
    ///   - approvedAt: When the sale was approved.
    ///   - posAppVersion: The POS app's `bp_version`, if known.
    ///   - refundAmount: The amount to refund; `nil` refunds the whole sale.
    ///   - date: Now (by default).
    /// - Returns: The verdict with every reason and the window.
    /// - Throws: `PayHandoffError` for times out of range or a bad version text.
    public static func check(transactionId: String, amount: Amount, approvedAt: Date, posAppVersion: String? = nil,
                             refundAmount: Amount? = nil, at date: Date = Date()) throws -> RefundEligibility {
        try check(sale: Sale(transactionId: transactionId, amount: amount, approvedAt: approvedAt.epochMilliseconds / 1000,
                             posAppVersion: posAppVersion),
                  refundAmount: refundAmount, now: date.epochMilliseconds / 1000)
    }
}

extension POSRequest {
    /// The URL to open (`UIApplication.shared.open(request.openURL)`): `billpocket://…`,
    /// `sumupmerchant://…`, or Square's `square-commerce-v1://…` with its JSON printed by
    /// ``FoundationJSONText``. Clip has no URL (Android intent only): `file:///` then.
    public var openURL: URL {
        // Built from unreserved characters and percent escapes only: always a valid URL.
        let text = (try? handoffURL(jsonText: FoundationJSONText())) ?? nil
        return text.flatMap { URL(string: $0) } ?? URL(fileURLWithPath: "/")
    }
}

extension POSResponse {
    /// ``parse(_:urlScheme:expectedIdentifier:token:)`` of a `URL`.
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - urlScheme: The `urlScheme` the request was sent with.
    ///   - expectedIdentifier: The request's identifier.
    ///   - token: The token the request's identifier carried.
    /// - Returns: The typed answer.
    /// - Throws: `PayHandoffError` as the string variant.
    public static func parse(_ url: URL, urlScheme: String, expectedIdentifier: String? = nil,
                             token: String? = nil) throws -> POSResponse {
        try parse(url.absoluteString, urlScheme: urlScheme, expectedIdentifier: expectedIdentifier, token: token)
    }
}

extension ReturnURL {
    /// A return URL from a `URL`.
    /// - Parameter url: The URL the app registered.
    /// - Throws: `PayHandoffError` as ``init(_:)``.
    public init(_ url: URL) throws {
        try self.init(url.absoluteString)
    }
}

extension CorrelationSecret {
    /// A fresh nonce or token from the system's random source.
    public static func make() -> String {
        var random = SystemRandomNumberGenerator()
        return make(using: &random)
    }
}

extension FlowEffect {
    /// The URL the effect asks the host to open (`open_browser`, `open_pos_app`), if any.
    public var openURL: URL? {
        switch self {
        case .openBrowser(let url, _), .openPOSApp(let url): return URL(string: url)
        default: return nil
        }
    }
}
