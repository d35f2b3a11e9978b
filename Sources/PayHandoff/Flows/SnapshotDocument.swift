/// A coordinator snapshot being read (``Coordinator/init(snapshot:snapshotLimit:)``,
/// ``Coordinator/Salvage``), in this build's format: format 4 as it is, formats 3 and 2
/// (PayHandoff 0.3 and 0.2) converted as they are read.
///
/// What changed since format 3: nothing a format-3 document holds is read differently; format 4
/// adds members (each optional, absent in a format-3 document) and lets a coordinator converted
/// from an older format keep what the older format allowed (``Coordinator`` `+Snapshot`: a `~` in a
/// POS token, reservations past the limit until its flows end). What changed since format 2: the
/// ledger's entries became arrays (flow ids dropped, windows follow from the approval time); a
/// `failed` callback's reason is no longer repeated as `failure_reason`; a claimed `completed` no
/// longer moves a checkout, so one that only a claim had moved goes back to `in_browser` (or
/// `awaiting_session`), the claim kept (``Coordinator/Flow`` applies those two when it reads a
/// format-2 flow). A format-2 ledger is converted first, before anything else of the document is
/// read, and its entries then read as format 3's are.
struct SnapshotDocument<R: JSONReader> {
    /// One entry of a ledger list as read: an element of a format-3 list (or, in a salvage, a
    /// format-2 record that did not convert: the format-3 rules then drop it), or a format-2
    /// record converted to its format-3 values.
    enum LedgerItem {
        case node(R.Node)
        /// The transaction id and the integers after it in the entry's array.
        case converted(id: String, values: [Int64])
    }

    /// The document's members.
    let members: JSONMembers<R>
    /// The format its body was written in: 2, 3 or ``Coordinator/snapshotVersion``.
    let format: Int64
    /// A format-2 document's ledger, converted (`nil` for later formats): its sales and refunds.
    let format2Ledger: (sales: [LedgerItem], refunds: [LedgerItem])?
    /// In a salvage, why a format-2 ledger could not be read as a list at all (it is then lost as
    /// a whole: ``RefundLedger/salvaging(_:dropped:)``).
    let format2LedgerError: PayHandoffError?
    /// In a salvage, whether the header said format 2 over a format-3 body (a file mixed from two
    /// versions): the body is read as the format that wrote it.
    let mixedHeader: Bool

    /// Whether the document is format 2.
    var isFormat2: Bool { format2Ledger != nil }

    /// Reads the document's version and, for format 2, converts its ledger.
    /// - Parameters:
    ///   - node: The document.
    ///   - reader: Its tree.
    ///   - lenient: For a salvage: a format-2 ledger entry that does not convert is passed on as
    ///     it is (the format-3 rules then drop it), and a ledger that is not a list is reported
    ///     (``format2LedgerError``), instead of refusing the document.
    /// - Throws: `unsupported_version` naming `version` for any other format.
    init(_ node: R.Node, _ reader: R, lenient: Bool) throws(PayHandoffError) {
        members = try JSONMembers(document: node, reader, expected: "a snapshot object")
        let version = try members.integer("version")
        switch version {
        case Coordinator.snapshotVersion, 3:
            (format, format2Ledger, format2LedgerError, mixedHeader) = (version, nil, nil, false)
        case 2 where lenient && members.value("ledger").map({ reader.kind(of: $0) == .object }) == true:
            // Format 2's ledger is a list; an object is format 3's (or 4's, read the same way).
            (format, format2Ledger, format2LedgerError, mixedHeader) = (3, nil, nil, true)
        case 2:
            (format, mixedHeader) = (2, false)
            var error: PayHandoffError? = nil
            format2Ledger = try SnapshotDocument.convertFormat2Ledger(members, lenient: lenient, error: &error)
            format2LedgerError = error
        default:
            throw PayHandoffError(.unsupportedVersion, field: "version",
                "snapshot format " + String(version) + " is not read by this build (it reads 4, 3 and 2)")
        }
    }

    /// The configuration the document holds. Every format (0.2 on, from its first commit) wrote
    /// `config` as an object with its four members, never `null`: a `config` absent, `null` or of
    /// another type, or a member of it `null`, is damage and is refused naming it — never read as
    /// the defaults, which would quietly change how the restored coordinator judges deep links
    /// (issue 35, rule 2: what no coordinator writes is not read as "none"; FuzzSalvage found
    /// `"config": null` restored). A member left out takes its default, as in a host's own
    /// configuration document (hand-written snapshots in tests use `"config": {}`).
    /// - Throws: `validation`/`invalid_json` naming `config` or its member.
    func configuration() throws(PayHandoffError) -> Coordinator.Configuration {
        let config = try members.object("config")
        // Each member in the configuration's order (one loop over its word list, not a check inlined per member).
        var null: UnsafeRawBufferPointer? = nil
        JSONMembers<R>.forEachWord(in: StaticString("single_pending_per_kind checkout_timeout_ms pos_grace_ms accept_unverified_callbacks").bytes,
                                   from: 0) { key, _ in
            if config.member(key) != nil, config.value(key) == nil { null = key }
            return null == nil
        }
        if let null { throw PayHandoffError(.validation, field: config.field(null), "must not be null") }
        return try Coordinator.Configuration(reading: config)
    }

    /// A format-2 ledger (a list of records `{"transactionid", "flow_id", "operation", "amount",
    /// "refunded", "approved_at", "expires_at"}`) as format 3's sales and refunds.
    /// - Parameter failure: In a salvage, set when the ledger is not a list (absent, `null` or
    ///   another type): 0.2 always wrote one, so its money is lost, never read as none.
    private static func convertFormat2Ledger(_ members: JSONMembers<R>, lenient: Bool,
                                             error failure: inout PayHandoffError?) throws(PayHandoffError) -> (sales: [LedgerItem], refunds: [LedgerItem]) {
        var sales: [LedgerItem] = [], refunds: [LedgerItem] = []
        let list: R.Node
        do throws(PayHandoffError) {
            list = try members.requiredArray("ledger")
        } catch {
            guard lenient else { throw error }
            failure = error
            return (sales, refunds)
        }
        let reader = members.reader
        var index = 0
        try reader.forEach(in: list) { element throws(PayHandoffError) in
            defer { index += 1 }
            let record = JSONMembers(element, reader)
            do throws(PayHandoffError) {
                try record.rejectUnknownKeys("transactionid flow_id operation amount refunded approved_at expires_at")
                let id = try record.string("transactionid")
                guard let amount = try record.optionalAmount("amount") else { throw JSONValue.missing("amount") }
                guard let refunded = try record.optionalAmount("refunded") else { throw JSONValue.missing("refunded") }
                let approvedAt = try record.integer("approved_at")
                let operation = try record.string("operation")
                if operation.hasSameBytes(as: "venta") {
                    sales.append(.converted(id: id, values: [amount.minorUnits, refunded.minorUnits, approvedAt]))
                } else if operation.hasSameBytes(as: "devolucion") {
                    refunds.append(.converted(id: id, values: [amount.minorUnits, approvedAt]))
                } else {
                    throw PayHandoffError(.validation, field: "operation", "must be venta or devolucion")
                }
            } catch {
                guard lenient else { throw error.located(in: "ledger[" + String(index) + "]") }
                sales.append(.node(element))
            }
        }
        return (sales, refunds)
    }

    /// The ledger document (format 3; members with paths from the ledger, errors located by the caller).
    var ledger: JSONMembers<R> {
        JSONMembers(members.value("ledger"), members.reader)
    }

    /// Calls `body` with each entry of ledger list `list` (0 sales, 1 refunds, 2 unknown) and
    /// its position.
    /// - Throws: `invalid_json` naming the list (from the ledger) when it is not an array,
    ///   `validation` when it is absent or `null` (every coordinator writes all three); what `body` throws.
    func forEachLedgerItem(_ list: Int, _ body: (Int, LedgerItem) throws(PayHandoffError) -> Void) throws(PayHandoffError) {
        if let format2Ledger {
            let items = list == 0 ? format2Ledger.sales : list == 1 ? format2Ledger.refunds : []
            for (index, item) in items.enumerated() { try body(index, item) }
            return
        }
        let array = try ledger.requiredArray(RefundLedger.listName(list))
        var index = 0
        try members.reader.forEach(in: array) { element throws(PayHandoffError) in
            try body(index, .node(element))
            index += 1
        }
    }
}

extension JSONMembers {
    /// The array member `key`; absent or `null` is refused (`validation`, "is required") like a
    /// wrong type: a snapshot's lists are always written, so a missing one is damage, never "none".
    func requiredArray(_ key: StaticString) throws(PayHandoffError) -> R.Node {
        guard let array = try optionalArray(key) else { throw JSONValue.missing(field(key)) }
        return array
    }
}

extension RefundLedger.RefundedSale {
    /// A record of `refunded_sales`, checked: `[transactionid, amount, refunded]`, 0 < refunded ≤ amount.
    /// - Throws: `invalid_json`/`validation` naming `field` and the position.
    init<R: JSONReader>(_ node: R.Node, reader: R, field: String) throws(PayHandoffError) {
        var items: [R.Node] = []
        if reader.kind(of: node) == .array { try? reader.forEach(in: node) { items.append($0) } }
        guard reader.kind(of: node) == .array, items.count == 3 else {
            throw PayHandoffError(.invalidJSON, field: field, "must be an array of a transactionid, an amount and what was refunded")
        }
        guard reader.kind(of: items[0]) == .string else {
            throw JSONMembers<R>.wrongType(field + "[0]", expected: "a transactionid", found: reader.kind(of: items[0]))
        }
        let id = reader.string(items[0])
        try RefundLedger.checkTransactionID(id, field: field + "[0]")
        for position in 1...2 where reader.kind(of: items[position]) != .integer {
            throw JSONMembers<R>.wrongType(field + "[" + String(position) + "]", expected: "an integer", found: reader.kind(of: items[position]))
        }
        let amount = reader.integer(items[1]), refunded = reader.integer(items[2])
        guard amount > 0, amount <= Amount.max else {
            throw PayHandoffError(.validation, field: field + "[1]", "must be an amount in centavos above 0")
        }
        guard refunded > 0, refunded <= amount else {
            throw PayHandoffError(.validation, field: field + "[2]", "must be above 0 and at most the amount (only refunded sales are recorded)")
        }
        self.init(transactionId: id, amount: Amount(unchecked: amount), refunded: Amount(unchecked: refunded))
    }
}

extension RefundLedger.Entry {
    /// An entry of ledger list `list` (0 sales, 1 refunds, 2 unknown), checked.
    /// - Throws: `validation`/`invalid_json` naming the position (`[1]`: the amount).
    init<R: JSONReader>(_ item: SnapshotDocument<R>.LedgerItem, list: Int, reader: R) throws(PayHandoffError) {
        #if PAYHANDOFF_CHECKOUT_ONLY
        // The checkout module books nothing: an entry is money state only the full module may hold.
        throw PayHandoffError(.unsupported, field: nil,
            "a ledger entry needs the full module (payhandoff.wasm): the checkout module has no POS flows, refunds or ledger")
        #else
        switch item {
        case .node(let node):
            let arity = RefundLedger.arity(ofList: list)
            var items: [R.Node] = []
            if reader.kind(of: node) == .array { try? reader.forEach(in: node) { items.append($0) } }
            guard reader.kind(of: node) == .array, items.count == arity else {
                throw PayHandoffError(.invalidJSON, field: nil, "must be an array of " + String(arity) + " values")
            }
            guard reader.kind(of: items[0]) == .string else {
                throw JSONMembers<R>.wrongType("[0]", expected: "a transactionid", found: reader.kind(of: items[0]))
            }
            try self.init(list: list, id: reader.string(items[0])) { position throws(PayHandoffError) in
                guard reader.kind(of: items[position]) == .integer else {
                    throw JSONMembers<R>.wrongType("[" + String(position) + "]", expected: "an integer", found: reader.kind(of: items[position]))
                }
                return reader.integer(items[position])
            }
        case .converted(let id, let values):
            try self.init(list: list, id: id) { position in values[position - 1] }
        }
        #endif
    }

    /// An entry from its values, checked: what the ledger could have booked.
    /// - Parameters:
    ///   - list: 0 sales, 1 refunds, 2 unknown.
    ///   - id: The transaction id.
    ///   - integer: The integer at a position of the entry's array (1 on).
    /// - Throws: `validation`/`invalid_json` naming the position.
    private init(list: Int, id: String, integer: (Int) throws(PayHandoffError) -> Int64) throws(PayHandoffError) {
        // A sale may book 0: an approval answered with "0.00" is a mismatch that books the
        // smaller amount, nothing refundable, and its entry still keeps the transaction id from
        // being booked or refunded again. A refund books only what it took, never 0.
        func amount(_ position: Int, zeroAllowed: Bool = false) throws(PayHandoffError) -> Amount {
            let units = try integer(position)
            guard units > 0 || (zeroAllowed && units == 0), units <= Amount.max else {
                throw PayHandoffError(.validation, field: "[" + String(position) + "]",
                                      zeroAllowed ? "must be an amount in centavos, 0 or more" : "must be an amount in centavos above 0")
            }
            return Amount(unchecked: units)
        }
        func time(_ position: Int) throws(PayHandoffError) -> Int64 {
            let value = try integer(position)
            try MexicoCityTime.checkEpochMilliseconds(value, field: "[" + String(position) + "]")
            return value
        }
        try RefundLedger.checkTransactionID(id, field: "[0]")
        switch list {
        case 0:
            let total = try amount(1, zeroAllowed: true)
            let refunded = try integer(2)
            guard refunded >= 0, refunded <= total.minorUnits else {
                throw PayHandoffError(.validation, field: "[2]", "a sale cannot have refunded more than its amount")
            }
            self.init(transactionId: id, kind: .sale(refunded: Amount(unchecked: refunded)), amount: total, approvedAt: try time(3))
        case 1:
            self.init(transactionId: id, kind: .refund, amount: try amount(1), approvedAt: try time(2))
        default:
            self.init(unknownBalanceOf: id, until: try time(1))
        }
    }
}

extension SnapshotDocument.LedgerItem {
    /// What a salvage can still read of an entry that did not read: its transaction id when it
    /// is a valid one, and its time (at `position` of a format-3 array; `expires_at` of a format-2
    /// record) when it is within the library's range.
    func remains(timeAt position: Int, reader: R) -> (id: String?, time: Int64?) {
        var id: String? = nil
        var time: Int64? = nil
        func inRange(_ value: Int64) -> Int64? { value >= 0 && value <= MexicoCityTime.maxEpochMilliseconds ? value : nil }
        switch self {
        case .converted(let text, let values):
            if RefundLedger.isValidTransactionID(text.utf8) { id = text }
            if position - 1 < values.count { time = inRange(values[position - 1]) }
        case .node(let node) where reader.kind(of: node) == .array:
            var items: [R.Node] = []
            try? reader.forEach(in: node) { items.append($0) }
            if let first = items.first, reader.kind(of: first) == .string {
                let text = reader.string(first)
                if RefundLedger.isValidTransactionID(text.utf8) { id = text }
            }
            if position < items.count, reader.kind(of: items[position]) == .integer { time = inRange(reader.integer(items[position])) }
        case .node(let node):
            // A format-2 record (an object).
            let record = JSONMembers(node, reader)
            if let text = (try? record.optionalString("transactionid")) ?? nil, RefundLedger.isValidTransactionID(text.utf8) {
                id = text
                if let value = (try? record.optionalInteger("expires_at")) ?? nil { time = inRange(value) }
            }
        }
        return (id, time)
    }

    /// The integer at `index` of an entry's array (0 is the id), when it reads; for a converted
    /// format-2 record, its value there.
    func integer(at index: Int, reader: R) -> Int64? {
        switch self {
        case .converted(_, let values):
            return index >= 1 && index - 1 < values.count ? values[index - 1] : nil
        case .node(let node) where reader.kind(of: node) == .array:
            var items: [R.Node] = []
            try? reader.forEach(in: node) { items.append($0) }
            return index < items.count && reader.kind(of: items[index]) == .integer ? reader.integer(items[index]) : nil
        case .node:
            return nil
        }
    }
}
