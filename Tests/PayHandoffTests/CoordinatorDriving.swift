@_spi(JSONText) import PayHandoff
import XCTest

/// What the issue-35 test classes (Attack35Tests, ClockAndKeysTests) share: a coordinator driven
/// through its JSON events, sales of 100.00 MXN with a host-given token per flow, and Billpocket's
/// approval of a hand-off.
protocol CoordinatorDriving: AnyObject {
    /// The coordinator under test.
    var coordinator: Coordinator { get set }
    /// The random source its starts draw from (fixed seed per class).
    var random: SplitMix64 { get set }
}

extension CoordinatorDriving {
    /// Sends one event, as the C ABI's `payhandoff_coordinator_send` would.
    /// - Parameter json: The event.
    /// - Returns: The coordinator's answer.
    /// - Throws: What reading the event throws.
    @discardableResult
    func send(_ json: JSONValue) throws -> CoordinatorAnswer {
        coordinator.send(try CoordinatorEvent(json: json), using: &random)
    }

    /// The host-given token of flow `id`: 32 characters, unique per id.
    /// - Parameter id: The flow's id.
    /// - Returns: Its token.
    func token(_ id: String) -> String { "tok" + String(repeating: "0", count: 29 - id.utf8.count) + id }

    /// Starts a sale of 100.00 as flow `id`.
    /// - Parameters:
    ///   - id: The flow's id.
    ///   - identifier: The order identifier (the flow's id when `nil`).
    ///   - given: The token (``token(_:)`` of the id when `nil`).
    ///   - time: The event's clock.
    /// - Returns: The coordinator's answer.
    /// - Throws: What reading the event throws.
    @discardableResult
    func sale(_ id: String, identifier: String? = nil, token given: String? = nil, at time: Int64) throws -> CoordinatorAnswer {
        try send(["type": "pos.start", "now": .integer(time), "flow_id": .string(id), "token": .string(given ?? token(id)),
                  "request": ["transaction": "venta", "usertoken": "POS-SECRET", "identifier": .string(identifier ?? id),
                              "amount": "100.00", "urlScheme": "myapp"]])
    }

    /// Billpocket's approval of flow `id`'s hand-off, as the URL its app opens.
    /// - Parameters:
    ///   - id: The flow's id.
    ///   - identifier: The order identifier echoed (the flow's id when `nil`).
    ///   - given: The token echoed (``token(_:)`` of the id when `nil`).
    ///   - amount: The amount approved.
    ///   - transactionId: Billpocket's transaction id.
    /// - Returns: The URL.
    func approval(_ id: String, identifier: String? = nil, token given: String? = nil, amount: String = "100.00",
                  transactionId: String) -> String {
        "myapp://result=aprobada&amount=" + amount + "&identifier=" + (identifier ?? id) + "~" + (given ?? token(id))
            + "&transactionid=" + transactionId
    }
}
