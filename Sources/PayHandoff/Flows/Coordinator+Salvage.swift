/// Restoring what is intact of a snapshot damaged outside the library (a hand edit, a bit flip,
/// a file mixed from two versions): ``Coordinator/init(snapshot:snapshotLimit:)`` stays the
/// default and refuses the whole document; a host that would rather keep the intact flows than
/// lose them all asks for a salvage and reads what was dropped.
///
/// Each flow and each ledger entry is read on its own by the strict rules; one that fails is
/// dropped and reported. Salvage never widens what may be refunded, by one rule: **what it cannot
/// read whole it treats as possibly refunded**, for as long as the times it can still read allow.
/// - A dropped ledger record whose `transactionid` can be read stays as *balance unknown*: refunds
///   of that sale are refused (`ledger_pruned`) until its window would have closed (for ever,
///   when its time cannot be read either — the sale's own window has long closed by then).
/// - A dropped record whose id cannot be read moves the ledger's watermark past its window:
///   refunds of sales the ledger does not know are then refused as `ledger_pruned`.
/// - A dropped flow may be a refund still waiting for its answer, whatever its damaged members
///   say (a `venta`, an answered state, a checkout's member, an id that still looks like one):
///   nothing of an element that did not read is trusted to prove it harmless. Every sale of the
///   ledger with something left becomes balance unknown until its own window closes, and so
///   does the id the element still shows; when that id cannot be read, the watermark moves
///   past the window of the flow's earliest readable time (a refund's sale was approved before
///   the refund started, and so before anything the refund recorded).
/// - A member lost as a whole — `flows` or `ledger` or one of its lists absent, `null` or of
///   another type, `pruned_through` unreadable — shows no time to bound it: the watermark moves
///   past every time (and, for `flows`, every sale of the ledger becomes balance unknown).
///   Only then, and for a record or a waiting refund that shows no time at all, are refunds of
///   sales the ledger does not know refused for ever.
/// - A damaged configuration falls back to the defaults.
/// - A format-2 header over a format-3 body (a file mixed from two versions) is read as the
///   body's format, reported as `version`.
///
/// Salvage of a snapshot that strict restore accepts gives exactly the coordinator restore gives,
/// nothing dropped; of an older format, the conversion restore makes, with the flows it left out
/// reported (restore's own output is the snapshot: it reports nothing).
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
            try self.init(reading: JSONValueReader.Node(snapshot), with: JSONValueReader(), snapshotLimit: snapshotLimit)
        }

        /// ``init(snapshot:snapshotLimit:)`` from any ``JSONReader``'s tree (the C ABI reads cJSON's).
        /// - Parameters:
        ///   - node: The snapshot document.
        ///   - reader: Its tree.
        ///   - snapshotLimit: The limit the coordinator was created with.
        /// - Throws: As ``init(snapshot:snapshotLimit:)``.
        @_spi(JSONText)
        public init<R: JSONReader>(reading node: R.Node, with reader: R,
                                   snapshotLimit: Int = Coordinator.maxSnapshotBytes) throws(PayHandoffError) {
            var dropped: [Dropped] = []
            // Whether a host-given key may have been lost (RememberedKeys, "A salvage that drops a flow").
            var keyLost = false
            // Whether a member outside the ledger was dropped: it may be the ledger's optional
            // `refunded_sales` moved out by damage (a `}` moved past it; issue 35, Y1).
            var structureLost = false
            let document = try SnapshotDocument(node, reader, lenient: true)
            if document.mixedHeader {
                dropped.append(Dropped(member: "version", error: PayHandoffError(.validation, field: "version",
                    "says format 2 over a format-3 ledger: read as the format that wrote the body")))
            }
            if let root = document.members.node {
                try? reader.forEach(in: root) { member in
                    guard !reader.key(of: member, is: "version"), !reader.key(of: member, is: "config"),
                          !reader.key(of: member, is: "flows"), !reader.key(of: member, is: "ledger"),
                          !reader.key(of: member, is: "converted_reserve"),
                          !reader.key(of: member, is: "remembered_keys"), !reader.key(of: member, is: "latest_event") else { return }
                    let key = reader.key(of: member)
                    dropped.append(Dropped(member: key, error: PayHandoffError(.validation, field: key, "unknown member")))
                    keyLost = true  // it may be `remembered_keys` renamed (and `latest_event` with it)
                    structureLost = true
                }
            }
            var configuration = Configuration()
            do throws(PayHandoffError) {
                configuration = try document.configuration()
            } catch {
                dropped.append(Dropped(member: "config", error: error))
                structureLost = true
            }
            var ledger = RefundLedger.salvaging(document, dropped: &dropped)
            if structureLost, !document.isFormat2, document.ledger.member(StaticString("refunded_sales").bytes) == nil,
               !dropped.contains(where: { $0.member.hasSameBytes(as: "ledger.refunded_sales") }) {
                dropped.append(Dropped(member: "ledger.refunded_sales", error: PayHandoffError(.validation, field: "ledger.refunded_sales",
                    "absent while a member outside the ledger was dropped (it may be that member moved): records lost")))
                ledger.raiseWatermark(to: MexicoCityTime.maxEpochMilliseconds)
            }
            var flows: [Flow] = []
            // The keys of dropped flows (RememberedKeys, "A salvage that drops a flow").
            var droppedKeys: [RememberedKeys.Key] = []  // (Key's array code is linked already; a [UInt64] is one more)
            do throws(PayHandoffError) {
                let list = try document.members.requiredArray("flows")
                var index = 0
                try? reader.forEach(in: list) { element in
                    defer { index += 1 }
                    let member = "flows[" + String(index) + "]"
                    do throws(PayHandoffError) {
                        let flow = try Flow(snapshot: JSONMembers(element, reader), configuration: configuration, format2: document.isFormat2,
                                            olderFormat: document.format < Coordinator.snapshotVersion)
                        if let left = try Coordinator.add(flow, to: &flows, format2: document.isFormat2) {
                            dropped.append(Dropped(member: member, error: PayHandoffError(.conflict, field: member,
                                "ended flow " + left + " left out: it shared its correlation key with another flow (format 2 allowed it)")))
                        }
                    } catch {
                        dropped.append(Dropped(member: member, error: error.located(in: member)))
                        ledger.forgetBalanceOfRefund(reading: JSONMembers(element, reader))
                        if let digest = RememberedKeys.digest(ofDropped: JSONMembers(element, reader), error: error) {
                            droppedKeys.append(RememberedKeys.Key(digest: digest, until: MexicoCityTime.maxEpochMilliseconds))
                        } else {
                            keyLost = true
                        }
                        #if !PAYHANDOFF_CHECKOUT_ONLY  // a POS flow's answer; there every POS flow refuses the salvage
                        if let echoed = RememberedKeys.echoedDigest(ofDropped: JSONMembers(element, reader)),
                           !droppedKeys.contains(where: { $0.digest == echoed }) {
                            droppedKeys.append(RememberedKeys.Key(digest: echoed, until: MexicoCityTime.maxEpochMilliseconds))
                        }
                        #endif
                    }
                }
            } catch {
                // No flow can be read: any of them may have been a refund still waiting, or held a host key.
                dropped.append(Dropped(member: "flows", error: error))
                ledger.forgetBalanceOfRefund(reading: JSONMembers<R>(nil, reader))
                keyLost = true
            }
            if document.isFormat2 { ledger.convertingFormat2(flows: flows) }
            // A sale a flow shows whose entry was lost (restore refuses it): balance unknown. A
            // refund naming a sale the ledger never held may show a damaged id of another sale it
            // refunds, whose entry may be lost too: as for a dropped refund whose sale id does not
            // read (every sale with something left, the watermark past its earliest time's window).
            // In a format-2/3 document this is what restore converts too (0.3.0's own salvage wrote
            // it), so it is no damage to report: salvage of what restore accepts is restore.
            #if !PAYHANDOFF_CHECKOUT_ONLY  // the checkout module has no POS flow to show a sale
            for missing in Coordinator.salesWithoutEntry(flows, in: ledger) {
                let member = "flows[" + String(missing.flow) + "]"
                if document.format == Coordinator.snapshotVersion {
                    dropped.append(Dropped(member: "ledger", error: PayHandoffError(.validation, field: member,
                        "shows sale " + missing.sale + ", which the ledger holds no entry for: kept as balance unknown")))
                }
                if let shown = missing.refundShown { ledger.forgetBalanceOfUnreadableRefund(approvedBy: shown) }
                ledger.keepBalanceUnknown(of: missing.sale, until: missing.until)
            }
            #endif
            // The keys of forgotten flows (RememberedKeys). A damaged list is reported, and what
            // it may have held stays refused (RememberedKeys, "A salvage that may have lost a key").
            var remembered = RememberedKeys()
            do throws(PayHandoffError) {
                remembered = try RememberedKeys(snapshot: document.members)
            } catch {
                let latest = error.field.map { $0.hasSameBytes(as: "latest_event") } ?? false
                dropped.append(Dropped(member: latest ? "latest_event" : "remembered_keys", error: error))
                remembered = RememberedKeys.salvaging(document.members)
            }
            for key in droppedKeys where !remembered.keys.contains(where: { $0.digest == key.digest }) {
                remembered.remember(key.digest, until: key.until)
            }
            if keyLost { remembered.lockGivenKeys() }
            var coordinator = Coordinator(configuration: configuration,
                                          snapshotLimit: Swift.min(snapshotLimit, Coordinator.maxSnapshotBytes),
                                          flows: flows, ledger: ledger, rememberedKeys: remembered)
            do throws(PayHandoffError) {
                coordinator.convertedReserve = try Coordinator.readConvertedReserve(document)
            } catch {
                dropped.append(Dropped(member: "converted_reserve", error: error))
            }
            coordinator.salvageRoom(converted: document.format != Coordinator.snapshotVersion, dropped: &dropped)
            #if PAYHANDOFF_CHECKOUT_ONLY
            // What the checkout module cannot hold is not damage: dropping a POS flow or a ledger
            // entry would lose money state the next snapshot no longer has.
            // Named as a strict restore names it: the first POS flow, else the first ledger entry
            // (the salvage reads the ledger before the flows).
            var refused: PayHandoffError? = nil
            for item in dropped where item.error.code == .unsupported {
                if item.member.utf8.first == UInt8(ascii: "f") { throw item.error }  // flows[i]
                if refused == nil { refused = item.error }
            }
            if let refused { throw refused }
            #endif
            self.coordinator = coordinator
            self.dropped = dropped
        }

        /// `{"version": 1, "snapshot": {…}, "dropped": [{"member": "flows[2]", "code": "validation",
        /// "field": "flows[2].state", "message": "…"}]}`.
        public var json: JSONValue {
            JSONValueWriter.document { write(to: $0) }
        }

        /// Writes ``json`` to `writer` (the C ABI writes into cJSON's tree).
        /// - Parameter writer: Where the document goes.
        @_spi(JSONText)
        public func write(to writer: JSONWriter) {
            writer.beginObject()
            writer.member("version", integer: 1)
            writer.key("snapshot")
            coordinator.writeSnapshot(to: writer)
            writer.beginArray("dropped")
            for item in dropped {
                writer.beginObject()
                writer.member("member", string: item.member)
                item.error.writeMembers(to: writer)
                writer.end()
            }
            writer.end()
            writer.end()
        }
    }

    /// The budget rule on a salvaged coordinator: restore's (a converted one keeps what it
    /// reserves; otherwise within the limit or ``convertedReserve`` nothing is left out); past it,
    /// what a start does to make room, then, if the flows still waiting fill the snapshot by
    /// themselves, the last of them dropped.
    private mutating func salvageRoom(converted: Bool, dropped: inout [Salvage.Dropped]) {
        if (try? checkRestoredBudget(converted: converted)) != nil { return }
        convertedReserve = 0
        #if !PAYHANDOFF_CHECKOUT_ONLY  // the checkout module's ledger holds no record (RefundLedger.entries)
        // A record left out for room (only when no other flow waits) has no time a watermark could
        // keep: as a lost `refunded_sales`, every sale the ledger does not hold fails safe (X1).
        let records = ledger.refundedSales
        defer {
            if records.contains(where: { ledger.refundedSale($0.transactionId) == nil }) {
                dropped.append(Salvage.Dropped(member: "ledger.refunded_sales", error: PayHandoffError(.limitExceeded,
                    field: "ledger.refunded_sales", "records left out: the snapshot is over its limit")))
                ledger.raiseWatermark(to: MexicoCityTime.maxEpochMilliseconds)
            }
        }
        #endif
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
            ledger.forgetBalanceOfRefund(of: last)
            // Its answer may still come: its key stays refused (RememberedKeys).
            if let digest = last.givenKeyDigest { rememberedKeys.remember(digest, until: MexicoCityTime.maxEpochMilliseconds) }
        }
        _ = try? makeRoom()
    }
}

extension RefundLedger {
    /// The entries of a possibly damaged snapshot's ledger that read by the strict rules; the
    /// others become balance-unknown records or move the watermark (``Coordinator/Salvage``).
    static func salvaging<R: JSONReader>(_ document: SnapshotDocument<R>, dropped: inout [Coordinator.Salvage.Dropped]) -> RefundLedger {
        var ledger = RefundLedger()
        let json = document.ledger
        // A ledger lost as a whole: every sale it held may have been refunded, and nothing shows when.
        var lost = document.format2LedgerError
        if !document.isFormat2 {
            do throws(PayHandoffError) { _ = try document.members.object("ledger") } catch { lost = error }
        }
        if let lost {
            dropped.append(Coordinator.Salvage.Dropped(member: "ledger", error: lost))
            ledger.raiseWatermark(to: MexicoCityTime.maxEpochMilliseconds)
            return ledger
        }
        if !document.isFormat2 {
            do throws(PayHandoffError) {
                try json.rejectUnknownKeys("pruned_through sales refunds unknown refunded_sales")
            } catch {
                dropped.append(Coordinator.Salvage.Dropped(member: "ledger", error: error.located(in: "ledger")))
                // `refunded_sales` is the one optional list (absent: no records, as format 4 wrote it
                // before issue 35's G1). Absent beside an unknown member, it may be that member
                // renamed by damage (`refunded_salds`): lost, as a required list lost (issue 35, X6).
                if json.member(StaticString("refunded_sales").bytes) == nil {  // format 3 too: `version` may be the damage (Y3)
                    dropped.append(Coordinator.Salvage.Dropped(member: "ledger.refunded_sales", error: PayHandoffError(.validation,
                        field: "ledger.refunded_sales", "absent beside an unknown member (it may be that member renamed): records lost")))
                    ledger.raiseWatermark(to: MexicoCityTime.maxEpochMilliseconds)
                }
            }
            do throws(PayHandoffError) {
                let watermark = try json.integer("pruned_through")
                try MexicoCityTime.checkEpochMilliseconds(watermark, field: "pruned_through")
                ledger.raiseWatermark(to: watermark)
            } catch {
                // How far the ledger was pruned is unknown: every sale it does not know fails safe.
                dropped.append(Coordinator.Salvage.Dropped(member: "ledger.pruned_through", error: error.located(in: "ledger")))
                ledger.raiseWatermark(to: MexicoCityTime.maxEpochMilliseconds)
            }
        }
        for list in 0..<RefundLedger.listCount {
            do throws(PayHandoffError) {
                try document.forEachLedgerItem(list) { index, item in
                    do throws(PayHandoffError) {
                        let read = try Entry(item, list: list, reader: json.reader)
                        #if !PAYHANDOFF_CHECKOUT_ONLY  // there every entry is refused (unsupported): nothing to book
                        if ledger.entries.contains(where: { $0.transactionId.hasSameBytes(as: read.transactionId) }) {
                            throw PayHandoffError(.validation, field: "[0]", "this transactionid is booked twice")
                        }
                        ledger.book(read)
                        #else
                        _ = read
                        #endif
                    } catch {
                        let member = "ledger." + RefundLedger.member(list, index)
                        dropped.append(Coordinator.Salvage.Dropped(member: member, error: error.located(in: member)))
                        #if !PAYHANDOFF_CHECKOUT_ONLY  // there every entry is refused (unsupported) and the salvage with it
                        let position = RefundLedger.arity(ofList: list) - 1
                        let (id, time) = item.remains(timeAt: position, reader: json.reader)
                        // Without its id, an entry that may hold a refund — a sale showing one (or
                        // not showing its `refunded`), a balance-unknown record — may be any sale,
                        // and its time is the device's clock, which may have been behind the sale's
                        // real approval (issue 35, G1): no time bounds which sale documents it could
                        // be, so the watermark goes past every time (FuzzSalvage: a sale refunded
                        // 40.00 at a 1970 clock, its id and its flow damaged, refunded again in full by
                        // its document). A sale showing nothing refunded bounds them by its time
                        // (item 8): its document refunds at most its amount, once.
                        let mayHoldARefund = list == 2 || (list == 0 && item.integer(at: 2, reader: json.reader) != 0)
                        ledger.keepUnknown(id, time: id == nil && mayHoldARefund ? nil : time, timeAt: position)
                        #endif
                    }
                }
            } catch {
                dropped.append(Coordinator.Salvage.Dropped(member: "ledger." + RefundLedger.listName(list).text, error: error.located(in: "ledger")))
                ledger.raiseWatermark(to: MexicoCityTime.maxEpochMilliseconds)
            }
        }
        if !document.isFormat2 { ledger.salvageRefundedSales(document, dropped: &dropped) }
        return ledger
    }

    /// The refunded sales (``RefundedSale``) of a possibly damaged ledger: every record that reads
    /// is kept (merged into its sale's entry when the ledger holds one, as a sale booked again
    /// takes its record back). What does not read never widens a refund: a record whose id still
    /// reads is kept as refunded in full; one whose id does not, or the member lost as a whole
    /// (`null`, another type, emptied), may have been any sale the ledger no longer holds — refunds
    /// by document of those are refused (the watermark past every time), as for a ledger list lost. A member that reads but breaks a rule of the whole (empty, an id
    /// twice or also a sale's) keeps every record that reads, merged; past ``maxRefundedSales``
    /// the first go, as in operation.
    private mutating func salvageRefundedSales<R: JSONReader>(_ document: SnapshotDocument<R>, dropped: inout [Coordinator.Salvage.Dropped]) {
        let json = document.ledger
        guard json.member(StaticString("refunded_sales").bytes) != nil else { return }
        do throws(PayHandoffError) {
            _ = try RefundLedger.refundedSales(json, format: document.format, besides: self)
        } catch {
            dropped.append(Coordinator.Salvage.Dropped(member: "ledger.refunded_sales", error: error.located(in: "ledger")))
        }
        guard let list = (try? json.optionalArray("refunded_sales")) ?? nil else {
            raiseWatermark(to: MexicoCityTime.maxEpochMilliseconds)
            return
        }
        #if !PAYHANDOFF_CHECKOUT_ONLY  // there every record is refused (unsupported) and the salvage with it
        let reader = json.reader
        var index = 0
        // Never written empty: a list whose records were all deleted lost them (as a lost member).
        var count = 0
        try? reader.forEach(in: list) { _ in count += 1 }
        if count == 0 { raiseWatermark(to: MexicoCityTime.maxEpochMilliseconds) }
        try? reader.forEach(in: list) { element in
            defer { index += 1 }
            let field = "refunded_sales[" + String(index) + "]"
            let record: RefundedSale
            do throws(PayHandoffError) {
                record = try RefundedSale(element, reader: reader, field: field)
            } catch {
                var id: String? = nil
                var amount: Int64 = 1
                if reader.kind(of: element) == .array {
                    var items: [R.Node] = []
                    try? reader.forEach(in: element) { items.append($0) }
                    if let first = items.first, reader.kind(of: first) == .string, RefundLedger.isValidTransactionID(reader.string(first).utf8) {
                        id = reader.string(first)
                    }
                    if items.count > 1, reader.kind(of: items[1]) == .integer, reader.integer(items[1]) > 0, reader.integer(items[1]) <= Amount.max {
                        amount = reader.integer(items[1])
                    }
                }
                guard let id else {
                    raiseWatermark(to: MexicoCityTime.maxEpochMilliseconds)
                    return
                }
                record = RefundedSale(transactionId: id, amount: Amount(unchecked: amount), refunded: Amount(unchecked: amount))
            }
            self.record(record.transactionId, amount: record.amount, refunded: record.refunded)
            if let entry = entries.first(where: { $0.transactionId.hasSameBytes(as: record.transactionId) }), case .sale = entry.kind {
                book(entry)  // takes the record back into the entry
            }
        }
        #endif
    }

    /// What is left of a record that did not read: its id as balance unknown until its window
    /// would have closed, or, without a readable id, the watermark past that window.
    /// - Parameters:
    ///   - id: Its transaction id, when readable.
    ///   - time: Its time, when readable.
    ///   - position: Where the time was in its array (1: a balance-unknown record's `until`; else
    ///     the approval time).
    private mutating func keepUnknown(_ id: String?, time: Int64?, timeAt position: Int) {
        let until = time.map { position == 1 ? $0 : RefundEligibility.deadline(approvedAt: $0) } ?? MexicoCityTime.maxEpochMilliseconds
        guard let id else {
            raiseWatermark(to: until)
            return
        }
        markUnknown(id, until: until)
    }

    /// Leaves the balance of the sale a dropped, still waiting refund refunds unknown (the refund
    /// may have gone through): its entry becomes a balance-unknown record until its window closes.
    /// - Parameter flow: The flow dropped.
    mutating func forgetBalanceOfRefund(of flow: Coordinator.Flow) {
        #if !PAYHANDOFF_CHECKOUT_ONLY
        guard case .pos(let f) = flow, f.operation == .refund, f.takesAnswer else { return }
        forgetBalance(ofSale: f.saleTransactionId, approvedBy: f.foregroundedAt)
        #endif
    }

    /// ``forgetBalanceOfRefund(of:)`` for a flow that did not read: its document (a node that is
    /// no object, or none at all for a `flows` member lost as a whole, reads as nothing).
    ///
    /// Nothing of an element that did not read whole is trusted to prove it harmless: a damaged
    /// refund still waiting may read `venta`, an answered state, a checkout's member or another
    /// sale's id (issue 35, B1 and B2). So every dropped flow counts as a refund that may have gone
    /// through, of *any* sale: every sale of the ledger with something left becomes balance
    /// unknown until its own window closes (the ledger's times, not the element's). That is
    /// enough for the sales the ledger knows: a refund starts only against an entry (booked from
    /// its `sale` document when the ledger had none), and an entry a refund still names leaves
    /// only as balance unknown or behind the watermark (``RefundLedger/prune(now:namedByRefund:)``).
    /// The id the element still shows is kept as balance unknown too; when the id does not read,
    /// the watermark moves past the window of the element's earliest readable time (for ever when
    /// no time reads): a format-2 ledger kept no watermark, and its sale may be one the ledger no
    /// longer holds.
    /// - Parameter element: The dropped flow's document.
    mutating func forgetBalanceOfRefund<R: JSONReader>(reading element: JSONMembers<R>) {
        #if PAYHANDOFF_CHECKOUT_ONLY
        // No refund can be read here: its flow is refused as unsupported and the salvage with it.
        return
        #else
        func text(_ key: StaticString) -> String? { (try? element.optionalString(key)) ?? nil }
        func time(_ key: StaticString) -> Int64? {
            guard let value = (try? element.optionalInteger(key)) ?? nil, value >= 0, value <= MexicoCityTime.maxEpochMilliseconds else { return nil }
            return value
        }
        var shown: Int64? = nil
        for value in [time("foregrounded_at"), time("answered_at")] {
            if let value { shown = Swift.min(shown ?? value, value) }
        }
        forgetBalanceOfEverySale()
        forgetBalance(ofSale: text("sale_transactionid"), approvedBy: shown)
        #endif
    }

    /// Every sale with something left becomes balance unknown until its own window closes (a
    /// refund that may have gone through, of a sale that cannot be told).
    mutating func forgetBalanceOfEverySale() {
        for entry in entries where entry.remaining > .zero {
            if case .sale = entry.kind { markUnknown(entry.transactionId, until: entry.unknownUntil) }
        }
    }

    /// Leaves unknown the balance of the sale a refund that did not read may have refunded.
    /// - Parameters:
    ///   - sale: Its `transactionid`, when readable.
    ///   - approvedBy: A time the sale was approved by (the refund's earliest readable time);
    ///     `nil`: any time.
    private mutating func forgetBalance(ofSale sale: String?, approvedBy bound: Int64?) {
        let until = bound.map { RefundEligibility.deadline(approvedAt: $0) } ?? MexicoCityTime.maxEpochMilliseconds
        if let sale, RefundLedger.isValidTransactionID(sale.utf8) {
            markUnknown(sale, until: entries.first(where: { $0.transactionId.hasSameBytes(as: sale) })?.unknownUntil ?? until)
            return
        }
        // Any sale it could have refunded: every one with something left, approved by then —
        // and any sale the ledger does not hold. The refund's own time is the device's clock,
        // which may have been behind the sale's real approval (issue 35, G1; FuzzSalvage: a
        // refund returned without its answer at a clock two days behind, its sale id deleted;
        // the watermark at that day's 23:00 let the sale's document, approved at the real time,
        // refund it again), so no time bounds it: the watermark goes past every time.
        for entry in entries where entry.remaining > .zero && entry.approvedAt <= (bound ?? entry.approvedAt) {
            if case .sale = entry.kind { markUnknown(entry.transactionId, until: entry.unknownUntil) }
        }
        raiseWatermark(to: MexicoCityTime.maxEpochMilliseconds)
    }

    /// A refund whose sale id cannot be trusted (its sale has no entry): every sale it could have
    /// refunded, as for a dropped refund whose sale id does not read.
    /// - Parameter bound: Its earliest time, if any.
    mutating func forgetBalanceOfUnreadableRefund(approvedBy bound: Int64?) {
        forgetBalanceOfEverySale()
        forgetBalance(ofSale: nil, approvedBy: bound)
    }

    /// A sale a flow shows whose entry was lost: balance unknown until `until`.
    mutating func keepBalanceUnknown(of transactionId: String, until: Int64) {
        markUnknown(transactionId, until: until)
    }

    /// Makes `transactionId`'s entry a balance-unknown record until `until` (the later one, when
    /// it has one already). A sale entry salvage turns into one (``RefundLedger/Entry/unknownUntil``)
    /// stays a day past its window; every record a recovery makes is kept once more by the
    /// first event past it (``RefundLedger/recoveryRecordUntil(_:)``).
    private mutating func markUnknown(_ transactionId: String, until: Int64) {
        let existing = entries.first(where: { $0.transactionId.hasSameBytes(as: transactionId) })
        book(Entry(unknownBalanceOf: transactionId, until: RefundLedger.recoveryRecordUntil(Swift.max(until, existing?.expiresAt ?? 0))))
    }
}

extension RefundLedger {
    /// The fail-safe a format-2 ledger gets when converted (restore and salvage alike). 0.2
    /// dropped an entry at any event past its window and kept no watermark: after an event dated
    /// ahead and a corrected clock, a sale it had forgotten would be refundable again. So the
    /// watermark moves to the latest time the snapshot shows an event at (an approval, an answer,
    /// a return to the foreground), and every sale a flow still names without an entry — an
    /// approved sale, a refund's sale — becomes balance unknown until its window closes (a refund's
    /// sale: the window of the refund's own time, which came after the sale's approval; for ever
    /// when the refund shows none). What a trace-less event pruned of a sale no flow names stays
    /// beyond what the conversion can prove (docs/security.md).
    /// - Parameter flows: The converted flows.
    mutating func convertingFormat2(flows: [Coordinator.Flow]) {
        #if !PAYHANDOFF_CHECKOUT_ONLY
        var latest: Int64 = 0
        for entry in entries { latest = Swift.max(latest, entry.approvedAt) }
        for case .pos(let flow) in flows {
            latest = Swift.max(latest, Swift.max(flow.answeredAt ?? 0, flow.foregroundedAt ?? 0))
        }
        for case .pos(let flow) in flows {
            let approved = flow.state == .approved || flow.state == .approvedAmountMismatch
            guard let sale = flow.operation == .refund ? flow.saleTransactionId : approved ? flow.response?.transactionId : nil,
                  !entries.contains(where: { $0.transactionId.hasSameBytes(as: sale) }) else { continue }
            let until = (flow.answeredAt ?? flow.foregroundedAt).map { RefundEligibility.deadline(approvedAt: $0) }
            markUnknown(sale, until: until ?? MexicoCityTime.maxEpochMilliseconds)
        }
        raiseWatermark(to: latest)
        #endif
    }
}
