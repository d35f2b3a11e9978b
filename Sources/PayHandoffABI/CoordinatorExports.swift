import CcJSON
#if !PAYHANDOFF_SINGLE_MODULE
@_spi(JSONText) import PayHandoff
#endif

/// What a `payhandoff_coordinator *` points to: a retained box around the coordinator value.
///
/// Handle scheme: an owned object, released exactly once by `payhandoff_coordinator_free`, like
/// `free(3)`. Use after free is undefined behaviour, as with `free`; a handle table would catch
/// it, but costs a global lock on every call, and every binding already owns its handle.
final class CoordinatorBox {
    var coordinator: Coordinator

    init(_ coordinator: Coordinator) {
        self.coordinator = coordinator
        #if !PAYHANDOFF_CHECKOUT_ONLY
        // JSON text inside a POS answer (Clip's PAYMENT_RESPONSE) is read through cJSON, as every
        // other JSON text of the C ABI.
        self.coordinator.jsonText = JSONText.codec
        #endif
    }

    /// The box behind a handle.
    static func from(_ handle: OpaquePointer?) throws(PayHandoffError) -> CoordinatorBox {
        guard let handle else { throw PayHandoffError(.invalidArgument, field: "coordinator", "must not be NULL") }
        return Unmanaged<CoordinatorBox>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }
}

/// Creates `*handle` from `make`, or sets it to NULL and reports why.
private func create(_ handle: UnsafeMutablePointer<OpaquePointer?>?, _ out: OutString?,
                    _ make: () throws(PayHandoffError) -> Coordinator) -> Int32 {
    guard out != nil else { return PayHandoffError.Code.invalidArgument.status }
    return respond(out, { () throws(PayHandoffError) in
        guard let handle else { throw PayHandoffError(.invalidArgument, field: "handle", "must not be NULL") }
        handle.pointee = nil
        let coordinator = try make()
        handle.pointee = OpaquePointer(Unmanaged.passRetained(CoordinatorBox(coordinator)).toOpaque())
        return coordinator
    }, writing: { coordinator, writer in coordinator.writeSnapshot(to: writer) })
}

/// Creates an empty coordinator.
/// - Parameters:
///   - config: `{"single_pending_per_kind", "checkout_timeout_ms", "pos_grace_ms"}` or NULL for the defaults.
///   - handle: Receives the new handle (NULL on failure).
///   - out: Receives the coordinator's snapshot or the error document.
/// - Returns: The status.
@_cdecl("payhandoff_coordinator_new")
public func payhandoff_coordinator_new(_ config: UnsafePointer<CChar>?, _ handle: UnsafeMutablePointer<OpaquePointer?>?,
                                       _ out: OutString?) -> Int32 {
    create(handle, out) { () throws(PayHandoffError) in
        guard config != nil else { return Coordinator() }
        return Coordinator(configuration: try JSONText.read(config, parameter: "config_json") { reader, root throws(PayHandoffError) in
            try Coordinator.Configuration(reading: JSONMembers(root, reader))
        })
    }
}

/// Restores a coordinator from a snapshot.
/// - Parameters:
///   - snapshot: A document from `payhandoff_coordinator_snapshot`.
///   - handle: Receives the new handle (NULL on failure).
///   - out: Receives the restored snapshot or the error document.
/// - Returns: The status.
@_cdecl("payhandoff_coordinator_restore")
public func payhandoff_coordinator_restore(_ snapshot: UnsafePointer<CChar>?, _ handle: UnsafeMutablePointer<OpaquePointer?>?,
                                           _ out: OutString?) -> Int32 {
    create(handle, out) { () throws(PayHandoffError) in
        try JSONText.read(snapshot, parameter: "snapshot_json", limit: JSONText.maxSnapshotBytes) { reader, root throws(PayHandoffError) in
            try Coordinator(reading: root, with: reader)
        }
    }
}

/// Restores what is intact of a damaged snapshot.
/// - Parameters:
///   - snapshot: A document from `payhandoff_coordinator_snapshot`, damaged outside the library.
///   - handle: Receives the new handle (NULL on failure).
///   - out: Receives `{"version": 1, "snapshot": …, "dropped": [{"member", "code", "field", "message"}]}`
///     or the error document.
/// - Returns: The status (an error only when nothing can be read: not JSON, another format).
@_cdecl("payhandoff_coordinator_restore_salvage")
public func payhandoff_coordinator_restore_salvage(_ snapshot: UnsafePointer<CChar>?, _ handle: UnsafeMutablePointer<OpaquePointer?>?,
                                                   _ out: OutString?) -> Int32 {
    guard out != nil else { return PayHandoffError.Code.invalidArgument.status }
    return respond(out, { () throws(PayHandoffError) in
        guard let handle else { throw PayHandoffError(.invalidArgument, field: "handle", "must not be NULL") }
        handle.pointee = nil
        let salvage = try JSONText.read(snapshot, parameter: "snapshot_json", limit: JSONText.maxSnapshotBytes) { reader, root throws(PayHandoffError) in
            try Coordinator.Salvage(reading: root, with: reader)
        }
        handle.pointee = OpaquePointer(Unmanaged.passRetained(CoordinatorBox(salvage.coordinator)).toOpaque())
        return salvage
    }, writing: { salvage, writer in salvage.write(to: writer) })
}

/// Sends an event to a coordinator.
/// - Parameters:
///   - handle: The coordinator.
///   - event: The event document.
///   - out: Receives the answer (also for `rejected`/`not_ours`) or the error document.
/// - Returns: 0 whenever the event was read; non-zero only when it could not be.
@_cdecl("payhandoff_coordinator_send")
public func payhandoff_coordinator_send(_ handle: OpaquePointer?, _ event: UnsafePointer<CChar>?, _ out: OutString?) -> Int32 {
    respond(out, { () throws(PayHandoffError) in
        let box = try CoordinatorBox.from(handle)
        let parsed = try JSONText.read(event, parameter: "event_json") { reader, root throws(PayHandoffError) in
            try CoordinatorEvent(reading: root, with: reader)
        }
        var generator = SystemRandomNumberGenerator()
        return box.coordinator.send(parsed, using: &generator)
    }, writing: { answer, writer in answer.write(to: writer) })
}

/// Routes a deep link to the flow it belongs to.
/// - Parameters:
///   - handle: The coordinator.
///   - url: The URL the OS handed the app.
///   - now: When it arrived, epoch milliseconds.
///   - out: Receives the answer (also for `rejected`/`not_ours`) or the error document.
/// - Returns: 0 whenever the URL was read; non-zero only when it could not be.
@_cdecl("payhandoff_coordinator_handle_url")
public func payhandoff_coordinator_handle_url(_ handle: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ now: Int64,
                                              _ out: OutString?) -> Int32 {
    respond(out, { () throws(PayHandoffError) in
        let box = try CoordinatorBox.from(handle)
        let text = try JSONText.url(url, parameter: "url")
        // The one time range (a `url` event's "now" is checked by the same function).
        try MexicoCityTime.checkEpochMilliseconds(now, field: "now_ms")
        return box.coordinator.handle(url: text, now: now)
    }, writing: { answer, writer in answer.write(to: writer) })
}

/// The coordinator's snapshot, for saving.
/// - Parameters:
///   - handle: The coordinator.
///   - out: Receives the snapshot or the error document.
/// - Returns: The status.
@_cdecl("payhandoff_coordinator_snapshot")
public func payhandoff_coordinator_snapshot(_ handle: OpaquePointer?, _ out: OutString?) -> Int32 {
    guard let out else { return PayHandoffError.Code.invalidArgument.status }
    do throws(PayHandoffError) {
        let box = try CoordinatorBox.from(handle)
        let text = JSONText.print { box.coordinator.writeSnapshot(to: $0) }
        // The last line of defence of the budget rule (Coordinator+Budget.swift): a snapshot is
        // never handed out that payhandoff_coordinator_restore would refuse for its size. The rule
        // makes this unreachable; if it ever fires, the host keeps its previous snapshot instead
        // of a new one it could not read back.
        if let text, strlen(text) > JSONText.maxSnapshotBytes {
            free(text)
            throw PayHandoffError(.limitExceeded, field: "snapshot",
                                  "is larger than PAYHANDOFF_MAX_SNAPSHOT_BYTES and could not be restored; keep the previous one")
        }
        out.pointee = text
        return 0
    } catch {
        return fail(out, error)
    }
}

/// Releases a coordinator.
/// - Parameter handle: The coordinator, or NULL (no-op). Must not be used afterwards.
@_cdecl("payhandoff_coordinator_free")
public func payhandoff_coordinator_free(_ handle: OpaquePointer?) {
    guard let handle else { return }
    Unmanaged<CoordinatorBox>.fromOpaque(UnsafeRawPointer(handle)).release()
}
