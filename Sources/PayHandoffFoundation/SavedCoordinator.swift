import Foundation
import PayHandoff

/// A coordinator that saves itself: the one way an app learns that state must be persisted is
/// that it *was* — every event or URL that changes the coordinator writes its snapshot through
/// `save` before the answer is returned, so the effects the app then performs (open the POS
/// app, close the browser tab) can never run ahead of the state that explains them, and a
/// process killed right after finds everything on restart.
///
/// The answers it returns carry no `persist` effect (it is done); everything else is as the
/// ``Coordinator`` answers. One instance per app; use it from one thread (or one actor) at a time.
public final class SavedCoordinator {
    /// The coordinator as of the last answer.
    public private(set) var coordinator: Coordinator
    private let save: (Data) throws -> Void

    /// Restores the coordinator from `saved` (or starts a new one) and saves through `save`.
    /// - Parameters:
    ///   - saved: The data `save` last received, or `nil` on first launch.
    ///   - configuration: The configuration of a new coordinator.
    ///   - save: Writes the snapshot durably (a file written atomically, the keychain, …).
    /// - Throws: `PayHandoffError` when `saved` is not a snapshot this build reads.
    public init(saved: Data?, configuration: Coordinator.Configuration = Coordinator.Configuration(),
                save: @escaping (Data) throws -> Void) throws {
        coordinator = try Coordinator(snapshotData: saved, configuration: configuration)
        coordinator.jsonText = FoundationJSONText()  // Clip's PAYMENT_RESPONSE is JSON text
        self.save = save
    }

    /// Routes a URL the OS handed the app, saving first when the coordinator changed.
    /// - Parameters:
    ///   - url: The URL.
    ///   - date: When it arrived (now by default).
    /// - Returns: The answer, without `persist` effects.
    /// - Throws: What `save` throws (the coordinator in memory has moved on; save again later).
    public func handle(_ url: URL, at date: Date = Date()) throws -> CoordinatorAnswer {
        try saving(coordinator.handle(url, at: date))
    }

    /// Applies an event, saving first when the coordinator changed.
    /// - Parameters:
    ///   - kind: What happened.
    ///   - date: When (now by default).
    /// - Returns: The answer, without `persist` effects.
    /// - Throws: `PayHandoffError` for an event that breaks a rule; what `save` throws.
    public func send(_ kind: CoordinatorEvent.Kind, at date: Date = Date()) throws -> CoordinatorAnswer {
        try saving(try coordinator.send(kind, at: date))
    }

    private func saving(_ answer: CoordinatorAnswer) throws -> CoordinatorAnswer {
        if answer.persist { try save(coordinator.snapshotData) }
        var done = answer
        for index in done.transitions.indices {
            done.transitions[index].effects.removeAll { if case .persist = $0 { return true } else { return false } }
        }
        return done
    }
}
