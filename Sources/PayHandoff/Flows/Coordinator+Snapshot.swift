/// Snapshots: every flow serializes to a versioned document and restores from it, so a flow
/// survives the OS killing the app while the browser tab or the POS app is in front. A
/// restored coordinator behaves exactly like the original from there on.
///
/// Snapshots hold no API key (only ``FlowEffect/sendRequest(_:)`` carries it, once) and no POS
/// user token (only ``FlowEffect/openPOSApp(url:)`` does; an echoed token in an answer is
/// dropped by the parser). They do hold the flows' nonces and POS tokens, which are what makes
/// an answer genuine: the snapshot is secret-bearing — keep it where the app keeps its own
/// private data (a file in the app's private storage, written atomically; not an Android
/// `Bundle`, which cannot hold 256 KiB).
///
/// ```json
/// {"version": 4,
///  "config": {"single_pending_per_kind": false, "checkout_timeout_ms": 1800000, "pos_grace_ms": 3000,
///             "accept_unverified_callbacks": false},
///  "flows": [{"id": "c1", "type": "checkout", "state": "in_browser", "kind": "cards",
///             "return_url": "fixapp://checkout-callback", "nonce": "…", "deadline": 1796056200000,
///             "session": {…}, "callback": {…}, "confirmation": {…}, "failure_reason": "…"},
///            {"id": "p1", "type": "pos", "state": "launched", "operation": "venta", "identifier": "ord-1",
///             "token": "…", "answer_scheme": "myapp", "amount": "100.00", "grace_ms": 3000, "foregrounded_at": …,
///             "response": {…}, "answered_at": …, "sale_transactionid": "…", "launch_failure": "…"}],
///  "ledger": {"pruned_through": 1796014800000,
///             "sales": [["7203710000", 10000, 4000, 1796054460000]],
///             "refunds": [["7203710042", 4000, 1796054520000]],
///             "unknown": [["7203710031", 1796101200000]]},
///  "remembered_keys": [["9a3f0c71d2e84b56", 1796313600000]]}
/// ```
///
/// `"given_key": true` marks a flow whose nonce or token the host gave; `remembered_keys` (only
/// when there is one) holds the digests of forgotten flows' host-given keys until their horizon
/// (``RememberedKeys``).
///
/// A ledger entry is an array — sales `[transactionid, amount, refunded, approved_at]`, refunds
/// `[transactionid, amount, approved_at]` (amounts in centavos, times in epoch ms; a window closes
/// at 23:00 Mexico City on the day of `approved_at`), records whose balance is unknown
/// `[transactionid, until]` — about 40 bytes for a 10-digit id, so a day of thousands of sales fits.
/// `failure_reason` is the session's failure only: a `failed` callback's reason stays in the callback.
///
/// Restoring checks the whole document as the coordinator would have written it and refuses,
/// naming the member, any state it could not have reached: a value an event would have refused
/// (`flows[0].token`, `ledger.sales[3]`), a flow whose data does not fit its state, two flows
/// sharing a correlation key, two pending refunds of one sale, a sale refunded beyond its amount,
/// reservations past the limit (``Coordinator`` `+Budget`). `flows` and the ledger's members are
/// always written, so a missing or `null` one is refused, naming it (never read as "none").
///
/// Formats 3 (PayHandoff 0.3) and 2 (0.2) are read and converted, never refused as a whole for
/// what an older version allowed and this one no longer does: a converted coordinator may keep
/// reservations past the limit until its flows end (``convertedReserve``: starts are refused
/// until they fit), a POS token with `~` (0.2 allowed it), and of two format-2 flows sharing a
/// correlation key, one ended, only the waiting one (the ended one is forgotten: its result was
/// handed out). A format-2 ledger gets a fail-safe watermark (``RefundLedger/convertingFormat2(flows:)``).
/// Restore converts silently (its output is the snapshot itself); a salvage of the same document
/// (``Salvage``) reports in `dropped` every flow a conversion left out.
extension Coordinator {
    /// The snapshot format this build writes. It reads this one and formats 3 and 2 (converted).
    /// Format 1 (PayHandoff 0.1, never released) had no per-flow POS tokens and no ledger: its
    /// hand-offs cannot be verified, so it is refused rather than read.
    public static let snapshotVersion: Int64 = 4

    /// The whole coordinator as a versioned document (secret-bearing: it holds nonces and tokens,
    /// and a `JSONValue` prints whole — save it, never log it; the coordinator itself prints them
    /// redacted).
    public var snapshot: JSONValue {
        JSONValueWriter.document { writeSnapshot(to: $0) }
    }

    /// Writes ``snapshot`` to `writer` (the C ABI writes into cJSON's tree).
    /// - Parameter writer: Where the document goes.
    @_spi(JSONText)
    public func writeSnapshot(to writer: JSONWriter) {
        writer.beginObject()
        writer.member("version", integer: Coordinator.snapshotVersion)
        writer.beginObject("config")
        writer.member("single_pending_per_kind", bool: configuration.singlePendingPerKind)
        writer.member("checkout_timeout_ms", integer: configuration.checkoutTimeoutMilliseconds)
        writer.member("pos_grace_ms", integer: configuration.posGraceMilliseconds)
        writer.member("accept_unverified_callbacks", bool: configuration.acceptUnverifiedCallbacks)
        writer.end()
        writer.beginArray("flows")
        for flow in flows { flow.write(to: writer, secrets: true) }
        writer.end()
        writer.key("ledger")
        ledger.write(to: writer)
        if convertedReserve > 0 { writer.member("converted_reserve", integer: Int64(convertedReserve)) }
        rememberedKeys.writeMember(to: writer)
        writer.end()
    }

    /// Restores a coordinator from ``snapshot``. All or nothing: a damaged or inconsistent
    /// document restores nothing (``init(salvaging:snapshotLimit:)`` keeps what is intact).
    /// - Parameters:
    ///   - snapshot: A document written by ``snapshot`` (format 3), or by PayHandoff 0.2 (format 2).
    ///   - snapshotLimit: The limit the coordinator was created with (``maxSnapshotBytes``).
    /// - Throws: `unsupported_version` for another format; `validation`/`invalid_json` naming the
    ///   damaged or inconsistent member (`flows[2].state`, `ledger.sales[0]`, …); `conflict`
    ///   for two flows sharing a correlation key; `limit_exceeded` over the limit.
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
        let document = try SnapshotDocument(node, reader, lenient: false)
        try document.members.rejectUnknownKeys("version config flows ledger converted_reserve remembered_keys latest_event")
        let configuration = try document.configuration()
        var flows: [Flow] = []
        var index = 0
        try reader.forEach(in: try document.members.requiredArray("flows")) { element throws(PayHandoffError) in
            do throws(PayHandoffError) {
                let flow = try Flow(snapshot: JSONMembers(element, reader), configuration: configuration, format2: document.isFormat2,
                                    olderFormat: document.format < Coordinator.snapshotVersion)
                _ = try Coordinator.add(flow, to: &flows, format2: document.isFormat2)
            } catch {
                throw error.located(in: "flows[" + String(index) + "]")
            }
            index += 1
        }
        var ledger = try RefundLedger(snapshot: document)
        if document.isFormat2 { ledger.convertingFormat2(flows: flows) }
        let remembered = try RememberedKeys(snapshot: document.members)
        for (index, flow) in flows.enumerated() {
            // A start with a remembered key is refused: no coordinator holds a flow with one.
            if let digest = flow.keyDigest, remembered.keys.contains(where: { $0.digest == digest }) {
                throw PayHandoffError(.conflict, field: "flows[" + String(index) + "]." + (flow.typeName.hasSameBytes(as: "pos") ? "token" : "nonce"),
                                      "the key of this flow is remembered from a forgotten one")
            }
        }
        // A format-4 document never shows a sale without its entry (an approved sale booked it, which
        // leaves only behind the watermark): one that does was edited, and is refused. An older one
        // is converted instead, as salvage would: 0.3.0's own salvage replaced an unreadable ledger
        // by an empty one beside the flows it kept (issue 35, O2), and every snapshot an earlier
        // version wrote restores. The sales it shows stay balance unknown until their window closes.
        #if !PAYHANDOFF_CHECKOUT_ONLY  // the checkout module has no POS flow to show a sale
        let missingEntries = Coordinator.salesWithoutEntry(flows, in: ledger)
        if let missing = missingEntries.first, document.format == Coordinator.snapshotVersion {
            throw PayHandoffError(.validation, field: "flows[" + String(missing.flow) + "]",
                "shows sale " + missing.sale + ", which the ledger holds no entry for and its watermark does not cover: a ledger entry was lost")
        }
        for missing in missingEntries {
            if let shown = missing.refundShown { ledger.forgetBalanceOfUnreadableRefund(approvedBy: shown) }
            ledger.keepBalanceUnknown(of: missing.sale, until: missing.until)
        }
        #endif
        self.init(configuration: configuration, snapshotLimit: Swift.min(snapshotLimit, Coordinator.maxSnapshotBytes),
                  flows: flows, ledger: ledger, rememberedKeys: remembered)
        convertedReserve = try Coordinator.readConvertedReserve(document)
        try checkRestoredBudget(converted: document.format != Coordinator.snapshotVersion)
    }

    #if !PAYHANDOFF_CHECKOUT_ONLY
    /// The sales a snapshot's flows show without a ledger entry that events would have
    /// left (issue 35, B7: an entry deleted by hand): an approved sale booked its entry, which
    /// leaves only behind the watermark; a refund started against an entry (booked from its `sale`
    /// document when there was none), which leaves only as balance unknown or behind the watermark
    /// — so with none, the watermark cannot still be 0.
    /// - Parameters:
    ///   - flows: The snapshot's flows.
    ///   - ledger: Its ledger.
    /// - Returns: Each flow's position, the sale, until when its balance is to stay unknown (the
    ///   window of the latest time the flow shows; for ever when it shows none), and for a refund
    ///   (whose sale id, then, proves nothing: it may be another sale's, damaged, and that sale's
    ///   entry lost too) its earliest time, if any.
    static func salesWithoutEntry(_ flows: [Flow], in ledger: RefundLedger) -> [(flow: Int, sale: String, until: Int64, refundShown: Int64??)] {
        var missing: [(flow: Int, sale: String, until: Int64, refundShown: Int64??)] = []
        for (index, flow) in flows.enumerated() {
            // Only Billpocket's sales are booked (the other terminal apps refund through their
            // servers, issue 39): another app's approved sale has no entry to lose.
            guard case .pos(let f) = flow, f.posApp == .billpocket else { continue }
            if f.operation == .refund, let sale = f.saleTransactionId {
                guard !ledger.holds(sale), ledger.prunedThrough == 0 else { continue }
                let shown = Swift.max(f.answeredAt ?? 0, f.foregroundedAt ?? 0)
                var earliest: Int64? = nil
                for time in [f.foregroundedAt, f.answeredAt] { if let time { earliest = Swift.min(earliest ?? time, time) } }
                missing.append((index, sale, shown > 0 ? RefundEligibility.deadline(approvedAt: shown) : MexicoCityTime.maxEpochMilliseconds,
                                .some(earliest)))
            } else if f.operation == .sale, f.state == .approved || f.state == .approvedAmountMismatch,
                      let sale = f.response?.transactionId, let approved = f.answeredAt {
                let deadline = RefundEligibility.deadline(approvedAt: approved)
                guard deadline > approved, !ledger.holds(sale), ledger.prunedThrough < deadline else { continue }
                missing.append((index, sale, deadline, nil))
            }
        }
        return missing
    }
    #endif

    /// The `converted_reserve` member of a format-4 document (absent: 0).
    /// - Throws: `validation` naming `converted_reserve` when it is not a positive byte count.
    static func readConvertedReserve<R: JSONReader>(_ document: SnapshotDocument<R>) throws(PayHandoffError) -> Int {
        guard let reserve = try document.members.optionalInteger("converted_reserve") else { return 0 }
        guard document.format == Coordinator.snapshotVersion, reserve > 0, reserve <= Int64(Int32.max) else {
            throw PayHandoffError(.validation, field: "converted_reserve", "must be a positive byte count (format 4 only)")
        }
        return Int(reserve)
    }

    /// Adds a restored `flow` to `flows` after checking it against them (``checkCorrelation(of:among:)``).
    /// A format-2 flow sharing a correlation key with an earlier one, which 0.2 allowed when one of
    /// them had ended, is converted instead of refused: the ended one is left out (the earlier,
    /// when both ended).
    /// - Returns: The id of the flow left out, if any.
    /// - Throws: As ``checkCorrelation(of:among:)``.
    @inline(never)
    static func add(_ flow: Flow, to flows: inout [Flow], format2: Bool) throws(PayHandoffError) -> String? {
        var left: String? = nil
        while true {
            do throws(PayHandoffError) {
                try checkCorrelation(of: flow, among: flows)
                flows.append(flow)
                return left
            } catch where format2 && error.code == .conflict {
                // The earlier flow holding the key: ended, it goes; waiting, the new one must have ended.
                var index = 0
                while index < flows.count, !flows[index].sharesCorrelationKey(with: flow) { index += 1 }
                // "Waiting" as 0.2 meant it: a checkout kept only for its webhook had ended there,
                // and its confirmation finds no flow after the conversion (`unknown_flow`: ask the
                // backend), which books nothing.
                guard index < flows.count else { throw error }
                let earlierWaits = flows[index].isPending(at: nil) && !flows[index].awaitsOnlyItsWebhook
                guard !earlierWaits || !(flow.isPending(at: nil) && !flow.awaitsOnlyItsWebhook) else { throw error }
                guard !earlierWaits else { return flow.id }
                left = flows.remove(at: index).id
            }
        }
    }

    /// Refuses `flow` when it would share a correlation key with any of `others` (the rule
    /// ``Coordinator`` keeps when flows start), or a pending refund's sale.
    @inline(never)
    static func checkCorrelation(of flow: Flow, among others: [Flow]) throws(PayHandoffError) {
        guard !others.contains(where: { $0.id.hasSameBytes(as: flow.id) }) else {
            throw PayHandoffError(.validation, field: "id", "two flows have the same id")
        }
        for other in others where other.sharesCorrelationKey(with: flow) {
            if case .checkout = flow { throw PayHandoffError(.conflict, field: "nonce", "two checkouts share this nonce") }
            throw PayHandoffError(.conflict, field: "token", "two POS hand-offs were sent the same identifier and token on one scheme")
        }
        #if !PAYHANDOFF_CHECKOUT_ONLY
        if case .pos(let f) = flow, f.takesAnswer, f.operation == .refund {
            for case .pos(let other) in others where other.takesAnswer && other.operation == .refund
                && other.saleTransactionId.hasSameBytes(as: f.saleTransactionId) {
                throw PayHandoffError(.validation, field: "sale_transactionid", "two refunds of one sale are pending")
            }
        }
        #endif
    }
}

extension Coordinator.Flow {
    /// Whether one answer could reach both flows: two checkouts with one nonce, or two POS
    /// hand-offs sent the same identifier (`<identifier>~<token>`, compared whole: a token
    /// converted from format 2 may hold a `~`) on one answer scheme.
    @inline(never)  // one copy for restore, salvage and the format-2 conversion (the library is size-bound)
    func sharesCorrelationKey(with other: Coordinator.Flow) -> Bool {
        switch (self, other) {
        case (.checkout(let a), .checkout(let b)):
            guard let nonce = a.nonce else { return false }
            return b.nonce.hasSameBytes(as: nonce)
        #if !PAYHANDOFF_CHECKOUT_ONLY
        case (.pos(let a), .pos(let b)):
            return a.sentIdentifier.hasSameBytes(as: b.sentIdentifier) && ASCII.equalFoldingCase(a.answerScheme, b.answerScheme)
        default:
            return false
        #endif
        }
    }
}

extension PayHandoffError {
    /// This error with `prefix` put in front of its field (`flows[2]` + `state` → `flows[2].state`).
    func located(in prefix: String) -> PayHandoffError {
        var located = self
        located.field = prefix + (field.map { $0.utf8.first == UInt8(ascii: "[") ? $0 : "." + $0 } ?? "")
        return located
    }
}

extension Coordinator.Configuration {
    /// Reads `{"single_pending_per_kind": bool, "checkout_timeout_ms": int, "pos_grace_ms": int,
    /// "accept_unverified_callbacks": bool}`; missing members take the defaults. Used by the
    /// snapshot and by hosts creating a coordinator.
    /// - Parameter json: The configuration document.
    /// - Throws: `validation`/`invalid_json` for unknown members or values out of range.
    public init(json: JSONValue) throws(PayHandoffError) {
        try self.init(reading: JSONMembers(json))
    }

    /// ``init(json:)`` from any ``JSONReader``'s tree (the C ABI reads cJSON's); a missing
    /// document is the defaults.
    /// - Parameter json: The configuration document's members.
    /// - Throws: As ``init(json:)``.
    @_spi(JSONText)
    public init<R: JSONReader>(reading json: JSONMembers<R>) throws(PayHandoffError) {
        try json.rejectUnknownKeys("single_pending_per_kind checkout_timeout_ms pos_grace_ms accept_unverified_callbacks")
        let defaults = Coordinator.Configuration()
        try self.init(singlePendingPerKind: try json.optionalBool("single_pending_per_kind") ?? false,
                      checkoutTimeoutMilliseconds: try json.optionalInteger("checkout_timeout_ms") ?? defaults.checkoutTimeoutMilliseconds,
                      posGraceMilliseconds: try json.optionalInteger("pos_grace_ms") ?? defaults.posGraceMilliseconds,
                      acceptUnverifiedCallbacks: try json.optionalBool("accept_unverified_callbacks") ?? false)
    }
}

extension RefundLedger {
    /// The ledger as the snapshot's `ledger` document.
    public var json: JSONValue {
        JSONValueWriter.document { write(to: $0) }
    }

    /// Writes ``json`` to `writer`.
    func write(to writer: JSONWriter) {
        writer.beginObject()
        writer.member("pruned_through", integer: prunedThrough)
        for list in 0..<RefundLedger.listCount {
            writer.beginArray(RefundLedger.listName(list))
            #if !PAYHANDOFF_CHECKOUT_ONLY  // the checkout module's ledger holds no entry or record (RefundLedger.entries)
            for entry in entries {
                switch (entry.kind, list) {
                case (.sale(let refunded), 0):
                    writer.beginArray()
                    writer.string(entry.transactionId)
                    writer.integer(entry.amount.minorUnits)
                    writer.integer(refunded.minorUnits)
                    writer.integer(entry.approvedAt)
                    writer.end()
                case (.refund, 1):
                    writer.beginArray()
                    writer.string(entry.transactionId)
                    writer.integer(entry.amount.minorUnits)
                    writer.integer(entry.approvedAt)
                    writer.end()
                case (.balanceUnknown, 2):
                    writer.beginArray()
                    writer.string(entry.transactionId)
                    writer.integer(entry.expiresAt)
                    writer.end()
                default:
                    break
                }
            }
            #endif
            writer.end()
        }
        #if !PAYHANDOFF_CHECKOUT_ONLY
        if !refundedSales.isEmpty {
            writer.beginArray("refunded_sales")
            for record in refundedSales {
                writer.beginArray()
                writer.string(record.transactionId)
                writer.integer(record.amount.minorUnits)
                writer.integer(record.refunded.minorUnits)
                writer.end()
            }
            writer.end()
        }
        #endif
        writer.end()
    }


    /// The three lists of the ledger document (0 sales, 1 refunds, 2 unknown): their names, and
    /// how many values an entry of each has.
    static let listCount = 3

    /// The name of ledger list `list`.
    static func listName(_ list: Int) -> StaticString {
        list == 0 ? "sales" : list == 1 ? "refunds" : "unknown"
    }

    /// How many values an entry of ledger list `list` has: `[transactionid, amount, refunded,
    /// approved_at]`, `[transactionid, amount, approved_at]`, `[transactionid, until]`.
    static func arity(ofList list: Int) -> Int {
        4 - list
    }

    /// The ledger of a snapshot, checked: what the ledger could have booked.
    /// - Throws: `validation`/`invalid_json` naming the member (`ledger.sales[3]`, `ledger.pruned_through`).
    init<R: JSONReader>(snapshot document: SnapshotDocument<R>) throws(PayHandoffError) {
        let json = document.ledger
        if !document.isFormat2 { _ = try document.members.object("ledger") }  // never read as "no money"
        do throws(PayHandoffError) {
            var watermark: Int64 = 0
            if !document.isFormat2 {
                try json.rejectUnknownKeys("pruned_through sales refunds unknown refunded_sales")
                watermark = try json.integer("pruned_through")
                try MexicoCityTime.checkEpochMilliseconds(watermark, field: "pruned_through")
            }
            #if !PAYHANDOFF_CHECKOUT_ONLY
            var entries: [(entry: Entry, list: Int, index: Int)] = []
            #endif
            for list in 0..<RefundLedger.listCount {
                try document.forEachLedgerItem(list) { index, item throws(PayHandoffError) in
                    do throws(PayHandoffError) {
                        let entry = try Entry(item, list: list, reader: json.reader)
                        #if PAYHANDOFF_CHECKOUT_ONLY
                        _ = entry  // not reached: the checkout module refuses every entry (unsupported)
                        #else
                        entries.append((entry, list, index))
                        #endif
                    } catch {
                        throw error.located(in: RefundLedger.member(list, index))
                    }
                }
            }
            #if PAYHANDOFF_CHECKOUT_ONLY
            // No entry read (nor sorted, nor copied): the watermark is all its ledger keeps.
            self.init()
            raiseWatermark(to: watermark)
            #else
            try self.init(restoring: entries, prunedThrough: watermark)
            #endif
            if !document.isFormat2 { refundedSales = try RefundLedger.refundedSales(json, format: document.format, besides: self) }
        } catch {
            throw error.located(in: "ledger")
        }
    }

    /// The `refunded_sales` member of a snapshot's ledger (absent: none), checked: format 4
    /// only, never written empty, at most ``maxRefundedSales``, each `[transactionid, amount,
    /// refunded]` with 0 < refunded ≤ amount, no id twice nor also a sale entry's.
    /// - Parameters:
    ///   - json: The ledger document.
    ///   - format: The snapshot's format.
    ///   - ledger: The ledger's entries, read.
    /// - Throws: `validation`/`invalid_json` naming the member from the ledger (`refunded_sales[2][1]`).
    static func refundedSales<R: JSONReader>(_ json: JSONMembers<R>, format: Int64, besides ledger: RefundLedger) throws(PayHandoffError) -> [RefundedSale] {
        guard json.member(StaticString("refunded_sales").bytes) != nil else { return [] }
        guard format == Coordinator.snapshotVersion else {
            throw PayHandoffError(.validation, field: "refunded_sales", "is format 4's (issue 35): not in an older format")
        }
        let list = try json.requiredArray("refunded_sales")
        let reader = json.reader
        #if PAYHANDOFF_CHECKOUT_ONLY
        // The checkout module holds no record: the first refuses the member, none is the rule below.
        try reader.forEach(in: list) { _ throws(PayHandoffError) in
            throw PayHandoffError(.unsupported, field: "refunded_sales[0]",
                "a refunded sale needs the full module (payhandoff.wasm): the checkout module has no POS flows, refunds or ledger")
        }
        throw PayHandoffError(.validation, field: "refunded_sales", "is never written empty (left out when there is none)")
        #else
        var records: [RefundedSale] = []
        var index = 0
        try reader.forEach(in: list) { element throws(PayHandoffError) in
            let field = "refunded_sales[" + String(index) + "]"
            index += 1
            let record = try RefundedSale(element, reader: reader, field: field)
            guard !records.contains(where: { $0.transactionId.hasSameBytes(as: record.transactionId) }) else {
                throw PayHandoffError(.validation, field: field + "[0]", "this sale is recorded twice")
            }
            if let entry = ledger.entries.first(where: { $0.transactionId.hasSameBytes(as: record.transactionId) }), case .sale = entry.kind {
                throw PayHandoffError(.validation, field: field + "[0]", "this sale has its entry in sales: a sale booked again takes its record back")
            }
            records.append(record)
        }
        guard !records.isEmpty else {
            throw PayHandoffError(.validation, field: "refunded_sales", "is never written empty (left out when there is none)")
        }
        guard records.count <= RefundLedger.maxRefundedSales else {
            throw PayHandoffError(.validation, field: "refunded_sales",
                "holds more than " + String(RefundLedger.maxRefundedSales) + " sales: no coordinator keeps more")
        }
        return records
        #endif
    }

    /// The path of entry `index` of list `list` from the ledger (`sales[3]`).
    static func member(_ list: Int, _ index: Int) -> String {
        listName(list).text + "[" + String(index) + "]"
    }
}

extension Coordinator.Flow {
    /// `"checkout"` or `"pos"`.
    public var typeName: String {
        switch self {
        case .checkout: return "checkout"
        #if !PAYHANDOFF_CHECKOUT_ONLY
        case .pos: return "pos"
        #endif
        }
    }

    /// The nonce or token that makes this flow's answers genuine (empty for a checkout without nonce).
    var correlationSecret: String {
        switch self {
        case .checkout(let f): return f.nonce ?? ""
        #if !PAYHANDOFF_CHECKOUT_ONLY
        case .pos(let f): return f.token
        #endif
        }
    }

    /// The flow as a document (one element of the coordinator snapshot's `flows`; secret-bearing).
    public var snapshotJSON: JSONValue { JSONValueWriter.document { write(to: $0, secrets: true) } }

    /// The flow as a transition's `details`: the snapshot's document without the nonce or token,
    /// and without whatever a gateway or the POS app echoed of them (``RedactingWriter``: the
    /// checkout URL shows its origin only), so that a host may log its answers.
    public var detailsJSON: JSONValue { JSONValueWriter.document { write(to: $0, secrets: false) } }

    /// Writes ``snapshotJSON`` (`secrets`) or ``detailsJSON`` to `writer`.
    /// - Parameters:
    ///   - writer: Where the document goes.
    ///   - secrets: Whether the nonce or token is written.
    @_spi(JSONText)
    public func write(to writer: JSONWriter, secrets: Bool) {
        // Details go through a writer that hides whatever a gateway or the POS app echoed of the
        // nonce or token (or of a user token or PIN) in the values the flow keeps.
        let writer = secrets ? writer : RedactingWriter(writer, hiding: [correlationSecret])
        writer.beginObject()
        writer.member("id", string: id)
        writer.member("type", string: typeName)
        writer.member("state", string: stateName)
        switch self {
        case .checkout(let f):
            writer.member("kind", string: f.kind.rawValue)
            writer.member("return_url", string: f.returnURL.text)
            if secrets { writer.optionalMember("nonce", string: f.nonce) }
            if secrets, f.keyGiven { writer.member("given_key", bool: true) }
            writer.member("deadline", integer: f.deadline)
            if let session = f.session {
                writer.key("session")
                // Details show the checkout page's origin only: it is the gateway's, and may echo
                // the return URL (the nonce) in any encoding.
                session.write(to: writer, checkoutURL: secrets ? session.checkoutURL : Redaction.url(session.checkoutURL))
            }
            if let callback = f.callback {
                writer.key("callback")
                callback.write(to: writer)
            }
            if let confirmation = f.confirmation {
                writer.key("confirmation")
                confirmation.writeEvent(to: writer)
            }
            writer.optionalMember("failure_reason", string: secrets ? f.sessionFailure : f.failureReason)
        #if !PAYHANDOFF_CHECKOUT_ONLY
        case .pos(let f):
            // Written for the other apps only: a Billpocket flow's document is what it was in 0.3.
            if f.posApp != .billpocket { writer.member("pos_app", string: f.posApp.rawValue) }
            writer.member("operation", string: f.operation.rawValue)
            writer.member("identifier", string: f.identifier)
            if secrets { writer.member("token", string: f.token) }
            if secrets, f.keyGiven { writer.member("given_key", bool: true) }
            if f.posApp != .clip { writer.member("answer_scheme", string: f.answerScheme) }  // Clip answers by intent only
            writer.optionalMember("amount", string: f.amount?.decimalString)
            writer.optionalMember("sale_transactionid", string: f.saleTransactionId)
            writer.member("grace_ms", integer: f.graceMilliseconds)
            writer.optionalMember("foregrounded_at", integer: f.foregroundedAt)
            if let response = f.response {
                // The answer echoes `<identifier>~<token>`: details show the app's identifier alone.
                writer.key("response")
                response.write(to: writer, identifier: secrets ? nil : f.identifier)
            }
            writer.optionalMember("answered_at", integer: f.answeredAt)
            writer.optionalMember("launch_failure", string: f.launchFailure)
        #endif
        }
        writer.end()
    }

    /// A flow from ``snapshotJSON``, checked as the events that make one are: every value by
    /// the rule its event applies, and its data against its state.
    /// - Parameters:
    ///   - json: The flow document.
    ///   - configuration: The coordinator's configuration (a checkout without nonce needs
    ///     unverified callbacks accepted).
    /// - Throws: `validation`/`invalid_json` naming the damaged member.
    public init(snapshot json: JSONValue, configuration: Coordinator.Configuration) throws(PayHandoffError) {
        try self.init(snapshot: JSONMembers(json), configuration: configuration)
    }

    /// ``init(snapshot:configuration:)`` from any ``JSONReader``'s tree.
    /// - Parameters:
    ///   - json: The flow document's members.
    ///   - configuration: The coordinator's configuration.
    ///   - format2: Whether the flow is from a format-2 snapshot (``SnapshotDocument``): what
    ///     changed since is converted as it is read.
    ///   - olderFormat: Whether the snapshot is older than format 4, whose flows do not say whether
    ///     the host gave their key (`given_key`): they count as given (remembered when forgotten).
    /// - Throws: As ``init(snapshot:configuration:)``.
    init<R: JSONReader>(snapshot json: JSONMembers<R>, configuration: Coordinator.Configuration, format2: Bool = false,
                        olderFormat: Bool = false) throws(PayHandoffError) {
        let id = try json.string("id")
        try CoordinatorEvent.checkFlowID(id, field: "id")
        let state = try json.string("state")
        let type = try json.string("type")
        if type.hasSameBytes(as: "checkout") {
            self = .checkout(try CheckoutFlow(snapshot: json, id: id, state: state, configuration: configuration, format2: format2,
                                              olderFormat: olderFormat || format2))
        } else if type.hasSameBytes(as: "pos") {
            #if PAYHANDOFF_CHECKOUT_ONLY
            // Never dropped quietly (a salvage refuses it too): the page must load the full module.
            throw PayHandoffError(.unsupported, field: nil,
                "a POS flow needs the full module (payhandoff.wasm): the checkout module has no POS flows")
            #else
            self = .pos(try POSFlow(snapshot: json, id: id, state: state, format2: format2, olderFormat: olderFormat || format2))
            #endif
        } else {
            throw PayHandoffError(.validation, field: "type", "must be checkout or pos")
        }
    }
}

extension CheckoutFlow {
    /// A checkout flow from its snapshot document (``Coordinator/Flow/init(snapshot:configuration:format2:)``
    /// has read its id, state and type).
    @inline(never)
    init<R: JSONReader>(snapshot json: JSONMembers<R>, id: String, state stateText: String,
                        configuration: Coordinator.Configuration, format2: Bool, olderFormat: Bool) throws(PayHandoffError) {
        var stateText = stateText
        // Format 2 repeated a failed callback's reason as `failure_reason`, and let a claimed
        // `completed` move the checkout: the claim stays, the flow goes back.
        var keepsFailure = true
        if format2, let verified = (try? json.nested("callback").optionalBool("verified")) ?? nil {
            if verified, stateText.hasSameBytes(as: "failed") { keepsFailure = false }
            if !verified, stateText.hasSameBytes(as: "awaiting_confirmation") {
                stateText = json.isPresent("session") ? "in_browser" : "awaiting_session"
            }
        }
        try json.rejectUnknownKeys("id type state kind return_url nonce given_key deadline session callback confirmation failure_reason")
        guard let state = CheckoutFlow.State(rawValue: stateText) else {
            throw PayHandoffError(.validation, field: "state", "is not a checkout state")
        }
        let kind = try CheckoutKind(parsing: try json.string("kind"), field: "kind")
        // A stored value's errors name its members from itself (`flows[0].kind`), as they always have.
        let session = try json.optionalObject("session").map { o throws(PayHandoffError) in try CheckoutSession(reading: JSONMembers(o.node, o.reader)) }
        let callback = try CheckoutFlow.storedCallback(json)
        let confirmation = try json.optionalObject("confirmation").map { o throws(PayHandoffError) in
            try CheckoutConfirmation(reading: JSONMembers(o.node, o.reader))
        }
        let nonce = try json.optionalString("nonce")
        if let nonce { try CorrelationSecret.check(nonce, field: "nonce") }
        guard nonce != nil || configuration.acceptUnverifiedCallbacks else {
            throw PayHandoffError(.validation, field: "nonce", "a checkout without nonce needs accept_unverified_callbacks")
        }
        let deadline = try json.integer("deadline")
        try MexicoCityTime.checkEpochMilliseconds(deadline, field: "deadline")
        let failure = keepsFailure ? try json.optionalString("failure_reason") : nil
        try CheckoutFlow.checkReason(failure, field: "failure_reason")
        self.init(id: id, kind: kind, returnURL: try ReturnURL(try json.string("return_url")), nonce: nonce,
                  deadline: deadline, state: state, session: session, callback: callback,
                  confirmation: confirmation, sessionFailure: failure,
                  keyGiven: try CheckoutFlow.keyGiven(json, olderFormat: olderFormat))
        try checkConsistent()
    }

    /// Whether a snapshot's flow had its key from the host (`"given_key": true`; absent: a fresh
    /// key). A flow of a format-2 or format-3 snapshot cannot be told apart: it counts as given, so
    /// that it is remembered when the flow is forgotten.
    static func keyGiven<R: JSONReader>(_ json: JSONMembers<R>, olderFormat: Bool) throws(PayHandoffError) -> Bool {
        // `null` is never written (the member is left out for a fresh key): damage, not "fresh".
        if json.member(StaticString("given_key").bytes) != nil, try json.optionalBool("given_key") == nil {
            throw PayHandoffError(.validation, field: "given_key", "is written only as true")
        }
        guard let given = try json.optionalBool("given_key") else { return olderFormat }
        guard given else { throw PayHandoffError(.validation, field: "given_key", "is written only as true") }
        return true
    }

    /// The callback a snapshot's checkout holds, no longer than the copy a flow keeps.
    @inline(never)
    private static func storedCallback<R: JSONReader>(_ json: JSONMembers<R>) throws(PayHandoffError) -> CheckoutCallback? {
        guard let object = try json.optionalObject("callback") else { return nil }
        let callback = try CheckoutCallback(reading: JSONMembers(object.node, object.reader))
        if JSONLengthCounter.length({ callback.write(to: $0) }) > CheckoutCallback.maxStoredLength {
            throw PayHandoffError(.validation, field: "callback", "is longer than the copy a flow keeps")
        }
        return callback
    }
}

extension POSFlow {
    /// A POS flow from its snapshot document (``Coordinator/Flow/init(snapshot:configuration:format2:)``
    /// has read its id, state and type).
    @inline(never)
    init<R: JSONReader>(snapshot json: JSONMembers<R>, id: String, state stateText: String, format2: Bool, olderFormat: Bool) throws(PayHandoffError) {
        try json.rejectUnknownKeys("id type pos_app state operation identifier token given_key answer_scheme amount sale_transactionid grace_ms foregrounded_at response answered_at launch_failure")
        let posApp = try POSApp.reading(json)
        guard let state = POSFlow.State(rawValue: stateText) else {
            throw PayHandoffError(.validation, field: "state", "is not a POS state")
        }
        guard let operation = POSRequest.Operation(rawValue: try json.string("operation")) else {
            throw PayHandoffError(.validation, field: "operation", "must be venta or devolucion")
        }
        let token = try json.string("token")
        // The nonce rule, `~` included: a hand-off converted from format 2 (which allowed it) keeps
        // its token, and its answer echoes it. Events still refuse one (CorrelationSecret.checkToken);
        // hand-offs are told apart by the whole identifier sent (sharesCorrelationKey).
        try CorrelationSecret.check(token, field: "token")
        let identifier = try json.string("identifier")
        try POSRequest.checkIdentifier(identifier, token: token, posApp: posApp)
        let scheme: String
        if posApp == .clip {
            guard !json.isPresent("answer_scheme") else {
                throw PayHandoffError(.validation, field: "answer_scheme", "a Clip hand-off has none: Clip answers only through onActivityResult")
            }
            scheme = ""
        } else {
            scheme = try json.string("answer_scheme")
            try POSRequest.checkAnswerScheme(scheme, field: "answer_scheme")
        }
        guard posApp.refundsAppToApp || operation == .sale else {
            throw PayHandoffError(.validation, field: "operation", "only Billpocket refunds app-to-app")
        }
        let amount = try json.optionalAmount("amount")
        if let amount, amount == .zero { throw PayHandoffError(.validation, field: "amount", "must be greater than 0") }
        let sale = try json.optionalString("sale_transactionid")
        if let sale { try RefundLedger.checkTransactionID(sale, field: "sale_transactionid") }
        let grace = try json.integer("grace_ms")
        try CoordinatorEvent.checkGrace(grace, field: "grace_ms")
        let foregroundedAt = try POSFlow.time(json, "foregrounded_at")
        let answeredAt = try POSFlow.time(json, "answered_at")
        let response = try POSFlow.storedResponse(json)
        let launchFailure = try json.optionalString("launch_failure")
        try POSFlow.checkReason(launchFailure, field: "launch_failure")
        self.init(id: id, operation: operation, identifier: identifier, token: token, answerScheme: scheme,
                  amount: amount, saleTransactionId: sale, graceMilliseconds: grace, state: state, foregroundedAt: foregroundedAt,
                  response: response, answeredAt: answeredAt, launchFailure: launchFailure,
                  keyGiven: try CheckoutFlow.keyGiven(json, olderFormat: olderFormat), posApp: posApp)
        try checkConsistent()
    }

    /// The optional time member `key`, epoch milliseconds within the library's range.
    @inline(never)
    private static func time<R: JSONReader>(_ json: JSONMembers<R>, _ key: StaticString) throws(PayHandoffError) -> Int64? {
        let time = try json.optionalInteger(key)
        if let time { try MexicoCityTime.checkEpochMilliseconds(time, field: key.text) }
        return time
    }

    /// The answer a snapshot's POS flow holds, no longer than the copy a flow keeps.
    @inline(never)
    private static func storedResponse<R: JSONReader>(_ json: JSONMembers<R>) throws(PayHandoffError) -> POSResponse? {
        guard let object = try json.optionalObject("response") else { return nil }
        let response = try POSResponse(reading: JSONMembers(object.node, object.reader))
        if JSONLengthCounter.length({ response.write(to: $0) }) > POSResponse.maxStoredLength + JSONValue.printedLength(of: response.identifier) {
            throw PayHandoffError(.validation, field: "response", "is longer than the copy a flow keeps")
        }
        return response
    }
}

extension JSONValue {
    /// Refuses a free text a flow keeps cut (a failure reason) that is longer than the cut.
    /// - Throws: `validation` naming `field`.
    static func checkKept(_ text: String?, limit: Int, field: String) throws(PayHandoffError) {
        if let text, printedLength(of: text) > limit {
            throw PayHandoffError(.validation, field: field, "is longer than the " + String(limit) + " bytes a flow keeps")
        }
    }
}

extension CheckoutFlow {
    /// The failure-reason rule of restore: what ``handle(_:now:)`` keeps of one, at most.
    static func checkReason(_ reason: String?, field: String) throws(PayHandoffError) {
        try JSONValue.checkKept(reason, limit: maxReasonLength, field: field)
    }

    /// Refuses data no sequence of events could have left in this state.
    /// - Throws: `validation` naming the member that does not fit (`state`, `confirmation`, `callback`, …).
    func checkConsistent() throws(PayHandoffError) {
        func refuse(_ member: String, _ why: String) -> PayHandoffError {
            PayHandoffError(.validation, field: member, why)
        }
        if let session, session.kind != kind { throw refuse("session", "is for another kind of checkout") }
        if let callback, callback.kind != kind { throw refuse("callback", "is for another kind of checkout") }
        if let confirmation {
            guard state == .confirmed else { throw refuse("confirmation", "only a confirmed checkout holds a confirmation") }
            guard confirmation.kind == kind else { throw refuse("confirmation", "is for another kind of checkout") }
            if let expected = session?.objectID, !expected.hasSameBytes(as: confirmation.objectID) {
                throw refuse("confirmation", "names another " + kind.idKey + " than the session")
            }
            if let callback, callback.isVerified, let id = callback.objectID, !id.hasSameBytes(as: confirmation.objectID) {
                throw refuse("confirmation", "names another " + kind.idKey + " than the verified callback")
            }
        }
        // The one callback slot holds the latest claim until a verified callback replaces it;
        // claims never move the flow, so only a verified callback says how it ended.
        let verified = callback?.isVerified == true ? callback?.status : nil
        if sessionFailure != nil, session != nil || verified != nil {
            throw refuse("failure_reason", "only a flow whose session could not be created has a session failure")
        }
        let fits: Bool
        switch state {
        case .awaitingSession:
            fits = session == nil && verified == nil && sessionFailure == nil
        case .ready, .inBrowser, .returnedWithoutResult:
            fits = session != nil && verified == nil
        case .awaitingConfirmation:
            fits = verified == .completed && confirmation == nil
        case .confirmed:
            fits = confirmation != nil
        case .failed:
            fits = verified == .failed || (verified == nil && session == nil && sessionFailure != nil)
        case .cancelled:
            fits = verified == .cancelled
        case .expired:
            fits = verified == nil || verified == .completed
        }
        guard fits else { throw refuse("state", "the flow's data does not fit its state") }
    }
}

extension POSFlow {
    /// The launch-failure rule of restore: what ``handle(_:now:)`` keeps of one, at most.
    static func checkReason(_ reason: String?, field: String) throws(PayHandoffError) {
        try JSONValue.checkKept(reason, limit: maxReasonLength, field: field)
    }

    /// Refuses data no sequence of events could have left in this state.
    /// - Throws: `validation` naming the member that does not fit (`state`, `response`, …).
    func checkConsistent() throws(PayHandoffError) {
        func refuse(_ member: String, _ why: String) -> PayHandoffError {
            PayHandoffError(.validation, field: member, why)
        }
        guard (operation == .refund) == (saleTransactionId != nil) else {
            throw refuse("sale_transactionid", "a refund names its sale, a sale does not")
        }
        guard amount != nil else { throw refuse("amount", "a sale or refund always carries its amount") }
        guard (response == nil) == (answeredAt == nil) else { throw refuse("answered_at", "goes with the response") }
        if state == .returnedWithoutResponse, foregroundedAt == nil {
            throw refuse("foregrounded_at", "a flow returned without response came back to the foreground")
        }
        guard let response else {
            guard state.acceptsAnswer, state != .unrecognizedResult else { throw refuse("state", "this state needs the answer that led to it") }
            return
        }
        // A flow still waiting holds no answer, but for one whose answer's word was unknown.
        guard !state.acceptsAnswer || state == .unrecognizedResult else { throw refuse("response", "a flow still waiting holds no answer") }
        guard isAnswered(by: response) else { throw refuse("response.identifier", "is not this hand-off's identifier and token") }
        guard response.posApp == posApp else { throw refuse("response.pos_app", "is not this hand-off's terminal app") }
        let fits: Bool
        switch state {
        case .approved:
            // Square and SumUp do not echo the amount: their approval is for the amount requested.
            fits = response.result == .approved && (amount == nil || response.amount == amount
                                                    || (posApp != .billpocket && response.amount == nil))
        case .approvedAmountMismatch:
            fits = response.result == .approved && amount != nil && response.amount != nil && response.amount != amount
        case .declined:
            fits = response.result == .declined
        case .error:
            fits = response.result == .error
        case .cancelled:
            fits = response.result == .cancelled
        case .unrecognizedResult:
            fits = response.result == .unrecognized
        case .ready, .launched, .launchFailed, .returnedWithoutResponse:
            fits = false
        }
        guard fits else { throw refuse("state", "the flow's answer does not fit its state") }
    }
}
