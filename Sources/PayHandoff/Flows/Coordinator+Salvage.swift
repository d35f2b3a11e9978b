/// Restoring what is intact of a snapshot damaged outside the library (a hand edit, a bit flip,
/// a file mixed from two versions): ``Coordinator/init(snapshot:snapshotLimit:)`` stays the
/// default and refuses the whole document; a host that would rather keep the intact flows than
/// lose them all asks for a salvage and reads what was dropped.
///
/// Each flow and each ledger entry is read on its own by the strict rules; one that fails is
/// dropped and reported. Salvage never widens what may be refunded:
/// - a dropped ledger record whose `transactionid` can be read stays as *balance unknown*: refunds
///   of that sale are refused (`ledger_pruned`) until its window would have closed (for ever,
///   when its time cannot be read either — the sale's own window has long closed by then);
/// - a dropped record whose id cannot be read moves the ledger's watermark past its window (past
///   every time, when that cannot be read): refunds of sales the ledger does not know are then
///   refused as `ledger_pruned`;
/// - a dropped refund that was still waiting for its answer leaves its sale's balance unknown (the
///   refund may have gone through);
/// - a damaged configuration falls back to the defaults.
///
/// Text that is not JSON, or a format this build does not read, salvages nothing: those stay
/// errors (a torn write cannot be repaired without a JSON parser of our own; write the snapshot to
/// a temporary file and rename it into place, and it cannot tear).
extension Coordinator {
    /// A salvaged coordinator and what it dropped.
    public struct Salvage: Sendable {
        /// One member left out.
        public struct Dropped: Equatable, Sendable {
            /// The member, by its path from the snapshot's root (`flows[2]`, `ledger.sales[0]`, `config`).
            public var member: String
            /// Why, as strict restore would have refused it.
            public var error: PayHandoffError
        }

        /// The coordinator: every valid flow and ledger entry.
        public var coordinator: Coordinator
        /// What was left out, in document order; empty for an intact snapshot.
        public var dropped: [Dropped]

        /// Salvages `snapshot`.
        /// - Parameters:
        ///   - snapshot: A snapshot document, possibly damaged.
        ///   - snapshotLimit: The limit the coordinator was created with.
        /// - Throws: `unsupported_version` (or `invalid_json`) when the document is not a snapshot
        ///   of a format this build reads: nothing can be salvaged from it.
        public init(snapshot: JSONValue, snapshotLimit: Int = Coordinator.maxSnapshotBytes) throws(PayHandoffError) {
            var dropped: [Dropped] = []
            let document = try Coordinator.currentFormat(of: snapshot, lenient: true)
            for member in (try? document.object(at: "").keys) ?? []
            where !["version", "config", "flows", "ledger"].contains(where: { $0.hasSameBytes(as: member) }) {
                dropped.append(Dropped(member: member, error: PayHandoffError(.validation, field: member, "unknown member")))
            }
            var configuration = Configuration()
            do throws(PayHandoffError) {
                configuration = try Configuration(json: document.value(at: "config") ?? [:])
            } catch {
                dropped.append(Dropped(member: "config", error: error.located(in: "config")))
            }
            var ledger = RefundLedger.salvaging(document.value(at: "ledger"), dropped: &dropped)
            var flows: [Flow] = []
            var elements: [JSONValue] = []
            do throws(PayHandoffError) {
                elements = try document.optionalArray(at: "flows") ?? []
            } catch {
                dropped.append(Dropped(member: "flows", error: error))
            }
            for (index, element) in elements.enumerated() {
                let member = "flows[" + String(index) + "]"
                do throws(PayHandoffError) {
                    let flow = try Flow(snapshot: element, configuration: configuration)
                    try Coordinator.checkCorrelation(of: flow, among: flows)
                    flows.append(flow)
                } catch {
                    dropped.append(Dropped(member: member, error: error.located(in: member)))
                    ledger.forgetBalanceOfRefund(element)
                }
            }
            var coordinator = Coordinator(configuration: configuration,
                                          snapshotLimit: Swift.min(snapshotLimit, Coordinator.maxSnapshotBytes),
                                          flows: flows, ledger: ledger)
            coordinator.salvageRoom(dropped: &dropped)
            self.coordinator = coordinator
            self.dropped = dropped
        }

        /// `{"version": 1, "snapshot": {…}, "dropped": [{"member": "flows[2]", "code": "validation",
        /// "field": "flows[2].state", "message": "…"}]}`.
        public var json: JSONValue {
            var o = JSONObject(capacity: 3)
            o.appendNewMember("version", 1)
            o.appendNewMember("snapshot", coordinator.snapshot)
            o.appendNewMember("dropped", .array(dropped.map { item in
                var d = JSONObject(capacity: 4)
                d.appendNewMember("member", .string(item.member))
                d.appendNewMember("code", .string(item.error.code.rawValue))
                d.appendNewMember("field", item.error.field.map { .string($0) } ?? .null)
                d.appendNewMember("message", .string(item.error.message))
                return .object(d)
            }))
            return .object(o)
        }
    }

    /// The budget rule on a salvaged coordinator: what a start does to make room, then, if the
    /// flows still waiting fill the snapshot by themselves, the last of them dropped.
    private mutating func salvageRoom(dropped: inout [Salvage.Dropped]) {
        if let forgotten = try? makeRoom() {
            for id in forgotten {
                dropped.append(Salvage.Dropped(member: "flows", error: PayHandoffError(.limitExceeded, field: "flows",
                    "ended flow " + id + " left out: the snapshot is over its limit")))
            }
            return
        }
        while reservedSnapshotLength > snapshotLimit, let last = flows.popLast() {
            dropped.append(Salvage.Dropped(member: "flows", error: PayHandoffError(.limitExceeded, field: "flows",
                "waiting flow " + last.id + " left out: the snapshot is over its limit")))
            ledger.forgetBalanceOfRefund(.object(JSONObject()), flow: last)
        }
        _ = try? makeRoom()
    }
}

extension RefundLedger {
    /// The entries of a possibly damaged ledger document that read by the strict rules; the
    /// others become balance-unknown records or move the watermark (``Coordinator/Salvage``).
    static func salvaging(_ json: JSONValue?, dropped: inout [Coordinator.Salvage.Dropped]) -> RefundLedger {
        var ledger = RefundLedger()
        guard let json, json != .null else { return ledger }
        do throws(PayHandoffError) {
            try json.rejectUnknownKeys(["pruned_through", "sales", "refunds", "unknown"])
        } catch {
            dropped.append(Coordinator.Salvage.Dropped(member: "ledger", error: error.located(in: "ledger")))
        }
        do throws(PayHandoffError) {
            let watermark = try json.optionalInteger(at: "pruned_through") ?? 0
            try MexicoCityTime.checkEpochMilliseconds(watermark, field: "pruned_through")
            ledger.raiseWatermark(to: watermark)
        } catch {
            // How far the ledger was pruned is unknown: every sale it does not know fails safe.
            dropped.append(Coordinator.Salvage.Dropped(member: "ledger.pruned_through", error: error.located(in: "ledger")))
            ledger.raiseWatermark(to: MexicoCityTime.maxEpochMilliseconds)
        }
        for (list, entry) in RefundLedger.lists.enumerated() {
            let elements: [JSONValue]
            do throws(PayHandoffError) {
                elements = try json.optionalArray(at: entry.name) ?? []
            } catch {
                dropped.append(Coordinator.Salvage.Dropped(member: "ledger." + entry.name, error: error.located(in: "ledger")))
                ledger.raiseWatermark(to: MexicoCityTime.maxEpochMilliseconds)
                continue
            }
            for (index, element) in elements.enumerated() {
                let member = "ledger." + entry.name + "[" + String(index) + "]"
                do throws(PayHandoffError) {
                    let read = try Entry(snapshot: element, list: list)
                    if ledger.entries.contains(where: { $0.transactionId.hasSameBytes(as: read.transactionId) }) {
                        throw PayHandoffError(.validation, field: "[0]", "this transactionid is booked twice")
                    }
                    ledger.book(read)
                } catch {
                    dropped.append(Coordinator.Salvage.Dropped(member: member, error: error.located(in: member)))
                    ledger.keepUnknown(element, timeAt: entry.arity - 1)
                }
            }
        }
        return ledger
    }

    /// What is left of a record that did not read: its id as balance unknown until its window
    /// would have closed, or, without a readable id, the watermark past that window.
    private mutating func keepUnknown(_ element: JSONValue, timeAt position: Int) {
        var id: String? = nil
        var time: Int64? = nil
        if case .array(let items) = element {
            if let first = items.first, case .string(let text) = first, RefundLedger.isValidTransactionID(text.utf8) { id = text }
            if position < items.count, case .integer(let value) = items[position], value >= 0,
               value <= MexicoCityTime.maxEpochMilliseconds {
                time = value
            }
        } else if let text = try? element.optionalString(at: "transactionid"), RefundLedger.isValidTransactionID(text.utf8) {
            id = text  // a format-2 entry (an object)
            if let value = try? element.optionalInteger(at: "expires_at"), value >= 0, value <= MexicoCityTime.maxEpochMilliseconds {
                time = value
            }
        }
        let until = time.map { position == 1 ? $0 : RefundEligibility.deadline(approvedAt: $0) } ?? MexicoCityTime.maxEpochMilliseconds
        guard let id else {
            raiseWatermark(to: until)
            return
        }
        markUnknown(id, until: until)
    }

    /// Leaves the balance of the sale a dropped, still waiting refund refunds unknown (the refund
    /// may have gone through): its entry becomes a balance-unknown record until its window closes.
    /// - Parameters:
    ///   - element: The dropped flow's document (read as far as it goes), or
    ///   - flow: the flow itself, when it was read.
    mutating func forgetBalanceOfRefund(_ element: JSONValue, flow: Coordinator.Flow? = nil) {
        let sale: String?
        if let flow {
            guard case .pos(let f) = flow, f.operation == .refund, f.takesAnswer else { return }
            sale = f.saleTransactionId
        } else {
            let operation = (try? element.optionalString(at: "operation")) ?? nil
            let state = ((try? element.optionalString(at: "state")) ?? nil).flatMap { POSFlow.State(rawValue: $0) }
            // A refund, unless its state shows it answered (an unreadable state counts as waiting).
            guard let operation, operation.hasSameBytes(as: "devolucion"), state?.acceptsAnswer ?? true else { return }
            sale = (try? element.optionalString(at: "sale_transactionid")) ?? nil
        }
        guard let sale, RefundLedger.isValidTransactionID(sale.utf8) else {
            raiseWatermark(to: MexicoCityTime.maxEpochMilliseconds)
            return
        }
        let until = entries.first(where: { $0.transactionId.hasSameBytes(as: sale) })?.expiresAt ?? MexicoCityTime.maxEpochMilliseconds
        markUnknown(sale, until: until)
    }

    /// Makes `transactionId`'s entry a balance-unknown record until `until` (the later one, when
    /// it has one already).
    private mutating func markUnknown(_ transactionId: String, until: Int64) {
        let existing = entries.first(where: { $0.transactionId.hasSameBytes(as: transactionId) })
        book(Entry(unknownBalanceOf: transactionId, until: Swift.max(until, existing?.expiresAt ?? 0)))
    }
}
