/// The members of a Square, SumUp or Clip request document, read by one reader from the app's
/// table of rows (member, kind, limit, error text).
///
/// Why a table: a reader written member by member per app released every member read so far at
/// each `try` (Square's alone had 87 release calls on its error paths); one loop over rows keeps
/// what it read in one array. The rows are read and checked in the table's order, so the first
/// member that breaks a rule is the one the error names, in the order docs/rules.md lists each
/// app's rules (the Python oracles and the shared vectors compare that order).
struct AppRequestMembers {
    /// How a row's member is read, and the rule it must meet (a row names it by its case name).
    enum Kind: UInt8 {
        /// Required app text (``POSRequest/checkAppText(_:field:max:)``: not empty, no NUL, at
        /// most `limit` UTF-16 units).
        case text
        /// App text when present.
        case optionalText
        /// SumUp's `app_id`: app text, and an Android application id.
        case applicationID
        /// SumUp's `identifier`: a `foreign-tx-id` (printable ASCII, at most 128 bytes).
        case foreignTransactionID
        /// Clip's `identifier`: app text that is not blank (else the row's message).
        case reference
        /// The sale amount: required, above 0, at most `limit` minor units (else the row's message).
        case saleAmount
        /// An amount when present, at most `limit` minor units (else the row's message).
        case optionalAmount
        /// A required ISO 4217 code whose minor unit is 2 (``Currency/check(_:)``).
        case currency
        /// An optional currency that must be `MXN` (``Currency/checkPesosOnly(_:app:)``).
        case pesosOnly
        /// The required callback URL; its scheme is the request's answer scheme.
        case callbackURL
        /// An optional boolean.
        case flag
        /// Square's `tender_types` (``SquareRequest/tenderTypes(_:)``).
        case tenderTypes
        /// Square's `auto_return_ms`: an optional integer, 0 or 3,200 to `limit` (else the row's message).
        case autoReturn
        /// Clip's `component`, `package/class` when present (``ClipRequest/checkComponent(_:)``).
        case component

        /// The cases' names, in order (a row's second word is one).
        static let names: StaticString = "text optionalText applicationID foreignTransactionID reference saleAmount optionalAmount currency pesosOnly callbackURL flag tenderTypes autoReturn component"

        /// The case named `name`, `nil` for none.
        static func named(_ name: UnsafeRawBufferPointer) -> Kind? {
            let names = Kind.names.bytes
            var raw: UInt8 = 0
            var start = 0
            while start < names.count {
                var end = start
                while end < names.count, names[end] != UInt8(ascii: " ") { end += 1 }
                if AppRequestMembers.same(UnsafeRawBufferPointer(rebasing: names[start..<end]), name) { return Kind(rawValue: raw) }
                raw += 1
                start = end + 1
            }
            return nil
        }
    }

    /// One member of an app's request document: one line of the app's table.
    struct Row {
        /// The member's key (and the error's field), pointing into the table.
        var key: UnsafeRawBufferPointer
        /// How it is read and checked.
        var kind: Kind
        /// The kind's limit: UTF-16 units of a text, minor units of an amount, milliseconds.
        var limit: Int64
        /// The message of the app's own rule, where the kind has one; points into the table.
        var message: UnsafeRawBufferPointer

        /// The field an error names.
        var field: String {
            @inline(never) get { String(decoding: key, as: UTF8.self) }
        }

        /// The `validation` error naming the member: `text`, or the row's message when `nil`.
        @inline(never)
        func refused(_ text: StaticString? = nil) -> PayHandoffError {
            PayHandoffError(.validation, field: field, text.map { $0.text } ?? String(decoding: message, as: UTF8.self))
        }
    }

    /// A member's value as read (`absent` when the document has none).
    enum Value {
        case absent
        case text(String)
        case amount(Amount)
        case integer(Int64)
        case flag(Bool)
        case words([String])
    }

    /// The app's table of rows.
    private let table: StaticString
    /// The values, one per row.
    private var values: [Value] = []
    /// The callback URL's scheme (the answer scheme; `""` for an app without a callback URL).
    private(set) var answerScheme = ""

    /// Reads the members of `json` that `app`'s table lists, in the table's order.
    /// - Parameters:
    ///   - json: The request document (`pos_app` read, `transaction` checked).
    ///   - app: The app (Square, SumUp or Clip).
    ///   - allowingToken: Whether the document may hold `token` (a build document).
    /// - Throws: `validation` naming the first unknown member, then the first member that breaks
    ///   its row's rule; `invalid_json` for a member of the wrong JSON type.
    init<R: JSONReader>(reading json: JSONMembers<R>, app: POSApp, allowingToken: Bool) throws(PayHandoffError) {
        let keys: StaticString
        switch app {
        case .square: (keys, table) = (SquareRequest.jsonKeys, SquareRequest.members)
        case .sumup: (keys, table) = (SumUpRequest.jsonKeys, SumUpRequest.members)
        case .clip, .billpocket: (keys, table) = (ClipRequest.jsonKeys, ClipRequest.members)  // Billpocket has its own reader
        }
        // The keys end in " token", which only a build document may have.
        try json.rejectUnknownKeys(UnsafeRawBufferPointer(start: keys.utf8Start, count: keys.utf8CodeUnitCount - (allowingToken ? 0 : 6)))
        var at = 0
        while let row = AppRequestMembers.row(in: table, at: &at) { values.append(try read(row, of: json, app: app)) }
    }

    /// The row that starts at `at` in `table` (a line `key kind [limit] [message]`: the kind a
    /// ``Kind`` case name, the limit digits, the message the rest of the line; a line's leading
    /// spaces skipped); `at` moves to the next line. `nil` at the table's end.
    static func row(in table: StaticString, at: inout Int) -> Row? {
        let bytes = table.bytes
        /// The next word of the line, up to a space or the line's end.
        func word() -> UnsafeRawBufferPointer {
            while at < bytes.count, bytes[at] == UInt8(ascii: " ") { at += 1 }
            let start = at
            while at < bytes.count, bytes[at] != UInt8(ascii: " "), bytes[at] != UInt8(ascii: "\n") { at += 1 }
            return UnsafeRawBufferPointer(rebasing: bytes[start..<at])
        }
        guard at < bytes.count else { return nil }
        let key = word()
        guard !key.isEmpty, let kind = Kind.named(word()) else { return nil }
        var limit: Int64 = 0
        while at < bytes.count, bytes[at] == UInt8(ascii: " ") { at += 1 }
        while at < bytes.count, ASCII.isDigit(bytes[at]) {
            limit = limit * 10 + Int64(bytes[at] - UInt8(ascii: "0"))
            at += 1
        }
        while at < bytes.count, bytes[at] == UInt8(ascii: " ") { at += 1 }
        let start = at
        while at < bytes.count, bytes[at] != UInt8(ascii: "\n") { at += 1 }
        let message = UnsafeRawBufferPointer(rebasing: bytes[start..<at])
        at = Swift.min(at + 1, bytes.count)
        return Row(key: key, kind: kind, limit: limit, message: message)
    }

    /// Reads and checks one row's member.
    private mutating func read<R: JSONReader>(_ row: Row, of json: JSONMembers<R>, app: POSApp) throws(PayHandoffError) -> Value {
        let key = row.key
        switch row.kind {
        case .text, .optionalText, .applicationID, .reference:
            guard let text = row.kind == .optionalText ? try json.optionalString(key) : try json.string(key) else { return .absent }
            try POSRequest.checkAppText(text, field: row.field, max: Int(row.limit))
            if row.kind == .applicationID { try SumUpRequest.checkApplicationID(text) }
            // Clip's SDK refuses a blank reference (CreatePaymentUseCase.kt).
            if row.kind == .reference, text.firstByteOffset(where: { $0 != 0x20 && !(0x09...0x0D).contains($0) }).isNone {
                throw row.refused()
            }
            return .text(text)
        case .foreignTransactionID:
            let text = try json.string(key)
            try SumUpRequest.checkForeignTransactionID(text, appPart: text, token: nil)
            return .text(text)
        case .saleAmount, .optionalAmount:
            guard let amount = try json.optionalAmount(key) else {
                guard row.kind == .optionalAmount else { throw row.refused("is required for a sale") }
                return .absent
            }
            if row.kind == .saleAmount, amount <= .zero { throw row.refused("must be greater than 0") }
            guard amount.minorUnits <= row.limit else { throw row.refused() }
            return .amount(amount)
        case .currency:
            let code = try json.string(key)
            try Currency.check(code)
            return .text(code)
        case .pesosOnly:
            try Currency.checkPesosOnly(json, app: app)
            return .absent
        case .callbackURL:
            let url = try json.string(key)
            answerScheme = try CallbackURL.scheme(of: url)
            return .text(url)
        case .flag:
            guard let flag = try json.optionalBool(key) else { return .absent }
            return .flag(flag)
        case .tenderTypes:
            guard let words = try SquareRequest.tenderTypes(json) else { return .absent }
            return .words(words)
        case .autoReturn:
            guard let milliseconds = try json.optionalInteger(key) else { return .absent }
            guard milliseconds == 0 || (3_200...row.limit).contains(milliseconds) else {
                throw row.refused()
            }
            return .integer(milliseconds)
        case .component:
            guard let component = try json.optionalString(key) else { return .absent }
            try ClipRequest.checkComponent(component)
            return .text(component)
        }
    }

    /// The value of the row whose key is `key`.
    @inline(never)
    private func value(_ key: StaticString) -> Value {
        var at = 0
        var index = 0
        while let row = AppRequestMembers.row(in: table, at: &at) {
            if AppRequestMembers.same(row.key, key.bytes) { return values[index] }
            index += 1
        }
        return .absent
    }

    /// Whether two byte strings are equal.
    @inline(never)
    static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        for offset in 0..<a.count where a[offset] != b[offset] { return false }
        return true
    }

    /// The text of member `key`, `nil` when absent.
    @inline(never)
    func optionalText(_ key: StaticString) -> String? {
        guard case .text(let text) = value(key) else { return nil }
        return text
    }

    /// The text of a required member (its row made sure it is there).
    @inline(never)
    func text(_ key: StaticString) -> String { optionalText(key) ?? "" }

    /// The amount of member `key`, `nil` when absent.
    @inline(never)
    func amount(_ key: StaticString) -> Amount? {
        guard case .amount(let amount) = value(key) else { return nil }
        return amount
    }

    /// The integer of member `key`, `nil` when absent.
    @inline(never)
    func integer(_ key: StaticString) -> Int64? {
        guard case .integer(let integer) = value(key) else { return nil }
        return integer
    }

    /// The boolean of member `key`, `nil` when absent.
    @inline(never)
    func flag(_ key: StaticString) -> Bool? {
        guard case .flag(let flag) = value(key) else { return nil }
        return flag
    }

    /// The words of member `key`, `nil` when absent.
    @inline(never)
    func words(_ key: StaticString) -> [String]? {
        guard case .words(let words) = value(key) else { return nil }
        return words
    }
}
