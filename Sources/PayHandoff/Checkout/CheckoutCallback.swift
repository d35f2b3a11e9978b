/// The deep link (or universal link) the gateway redirects the browser tab to at the end of a
/// checkout: `fixapp://checkout-callback/ph_<nonce>?status=completed&card_id=card_xyz`, checked
/// against the pending session it claims to answer.
///
/// A callback is a claim, not a fact: any app can open `fixapp://checkout-callback?status=completed`.
/// ``parse(_:kind:returnURL:nonce:expectedID:acceptUnverified:)`` accepts it only when
/// - scheme, host, port and path are the registered return URL's, the path followed by the
///   nonce segment PayHandoff added (``ReturnURL``);
/// - the nonce echoes back: a wrong one is refused, and so is a missing one unless the caller
///   explicitly accepts *unverified* callbacks (``isVerified`` `false`: a claim that must never
///   end a flow or confirm anything by itself);
/// - `status` is `completed`, `failed` or `cancelled`;
/// - the id fits the flow: `card_id` (`card_…`) only for card registration, `payment_id`
///   (`pay_…`) only for payments, required when `completed`, equal to the id the session
///   already knew if it knew one.
///
/// The query is decoded per ``QueryDecoder`` with `+` as a space (what `URLSearchParams` and
/// Android's `getQueryParameter` do); duplicate keys and malformed escapes are refused; the
/// fragment is ignored; other parameters (including the host's own) are kept in ``extra``. A
/// gateway that appends `?status=…` blindly to a return URL that already has a query `q`
/// produces `…?q?status=…`: when the callback's query is the return URL's own query followed by
/// `?`, the parameters are read after that `?`.
/// Even a verified `completed` only means *awaiting confirmation*: the webhook decides.
/// Equality compares the decoded values byte for byte.
public struct CheckoutCallback: Equatable, Sendable {
    /// The visual outcome the gateway reports.
    public enum Status: String, Sendable, CaseIterable {
        /// The user finished without cancelling and the provider answered OK.
        case completed
        /// The provider refused (see ``reason``).
        case failed
        /// The user cancelled.
        case cancelled

        /// The status spelled `rawValue`, matched by bytes.
        /// - Parameter rawValue: `completed`, `failed` or `cancelled`.
        public init?(rawValue: String) {
            guard let value = Status.matching(rawValue, among: Status.allCases) else { return nil }
            self = value
        }
    }

    /// Card registration or payment.
    public let kind: CheckoutKind
    /// The reported status.
    public let status: Status
    /// Whether PayHandoff's nonce echoed back. An unverified callback is reported but is not
    /// proof that the redirect came from the session this app started.
    public let isVerified: Bool
    /// In the copy a flow keeps (``stored``): the members cut short or left out (`"reason"`,
    /// `"extra"`); empty for a parsed callback.
    public let truncated: [String]

    /// `card_id` or `payment_id`, when present (checked while parsing, decoded when read).
    public var objectID: String? {
        switch storage {
        case .values(let objectID, _, _): return objectID
        case .url(let text, _, let objectID, _): return objectID.map { $0.text(in: text) }
        }
    }

    /// The provider's reason, typically on `failed` (decoded when read).
    public var reason: String? {
        switch storage {
        case .values(_, let reason, _): return reason
        case .url(let text, _, _, let reason): return reason.map { $0.text(in: text) }
        }
    }

    /// Other query parameters, in order, decoded when read (callbacks rarely have any worth
    /// reading; parsing leaves them in the URL).
    public var extra: [QueryItem] {
        switch storage {
        case .values(_, _, let items):
            return items
        case .url(let text, let range, _, _):
            return text.withUTF8Buffer { bytes in
                let query = UnsafeBufferPointer(rebasing: bytes[range])
                var items: [QueryItem] = []
                // Already checked by parse, so it cannot fail here.
                _ = try? QueryDecoder.scan(query, plus: .space, caseInsensitiveKeys: false, knownKey: CheckoutCallback.knownKey) { piece, key in
                    if key == nil {
                        items.append(QueryItem(key: piece.key(in: query, plus: .space), value: piece.value(in: query, plus: .space)))
                    }
                }
                return items
            }
        }
    }

    /// Where the id, the reason and ``extra`` come from: given (a restored callback), or the URL
    /// parsed — its text, where its query is, and where the two values are in it. Parsing checks
    /// them and makes no strings, as ``POSResponse`` does with its fields.
    private enum Storage: Sendable {
        case values(objectID: String?, reason: String?, extra: [QueryItem])
        case url(String, query: Range<Int>, objectID: ValueSpan?, reason: ValueSpan?)
    }

    /// A non-empty value's bytes in the URL text, still escaped when `isEscaped`.
    private struct ValueSpan: Sendable {
        var start: Int32
        var end: Int32
        var isEscaped: Bool

        init(_ piece: QueryDecoder.Piece, at offset: Int) {
            start = Int32(truncatingIfNeeded: offset + piece.value.lowerBound)
            end = Int32(truncatingIfNeeded: offset + piece.value.upperBound)
            isEscaped = piece.valueIsEscaped
        }

        func text(in url: String) -> String {
            return url.withUTF8Buffer { decoded($0) }
        }

        /// Outlined: `withUTF8` is specialized with its closure, the closure's body copied into each
        /// of its paths (877 B in the checkout wasm module, issue 39 item 7).
        @inline(never)
        private func decoded(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            QueryDecoder.decoded(UnsafeBufferPointer(rebasing: bytes[Int(start)..<Int(end)]), escaped: isEscaped, plus: .space)
        }
    }

    private let storage: Storage

    /// Parses and checks a callback.
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - kind: The pending session's kind.
    ///   - returnURL: The return URL the session registered.
    ///   - nonce: The nonce PayHandoff put into it (``CorrelationSecret``); `nil` only with
    ///     `acceptUnverified` (a session created without one: every callback is unverified).
    ///   - expectedID: The `card_…`/`pay_…` id the session already knows, if any.
    ///   - acceptUnverified: Whether a callback without the nonce is returned as unverified
    ///     instead of refused. Anyone can send such a callback: the host must not let it end
    ///     anything (the coordinator never does).
    /// - Returns: The checked callback.
    /// - Throws: `validation` naming `nonce` for a nonce that breaks the rule or is missing
    ///   without `acceptUnverified`; `limit_exceeded` over 8 KiB; `malformed_url` for a bad URL
    ///   or query; `callback_mismatch` naming `scheme`/`host`/`port`/`path`/`nonce`/`card_id`/
    ///   `payment_id` when the callback is not this session's (a missing nonce included);
    ///   `validation` for a missing or unknown `status`, a missing id on `completed`, or an id
    ///   without its prefix.
    public static func parse(_ url: String, kind: CheckoutKind, returnURL: ReturnURL, nonce: String?,
                             expectedID: String? = nil, acceptUnverified: Bool = false) throws(PayHandoffError) -> CheckoutCallback {
        if let nonce {
            try CorrelationSecret.check(nonce, field: "nonce")
        } else if !acceptUnverified {
            throw PayHandoffError(.validation, field: "nonce", "is required unless unverified callbacks are accepted")
        }
        // withUTF8Buffer, not withUTF8Bytes: the Optional<Result> that withContiguousStorageIfAvailable
        // returns is tested on bits of the enum's layout that memcheck sees as never written
        // (make c-harness's valgrind run).
        let outcome = url.withUTF8Buffer { bytes -> Result<CheckoutCallback, PayHandoffError> in
            do throws(PayHandoffError) {
                try URLSyntax.checkLength(bytes, field: "url")
                return .success(try parse(bytes, of: url, kind: kind, returnURL: returnURL, nonce: nonce, expectedID: expectedID,
                                          acceptUnverified: acceptUnverified))
            } catch {
                // Raw control characters are found along the way, not in a pass of their own;
                // whatever went wrong, they are reported first (checkIncoming's order).
                do throws(PayHandoffError) {
                    try URLSyntax.checkIncoming(bytes, field: "url")
                    return .failure(error)
                } catch {
                    return .failure(error)
                }
            }
        }
        return try outcome.get()
    }

    /// ``parse(_:kind:returnURL:nonce:expectedID:acceptUnverified:)`` over the URL's UTF-8: split
    /// and compared in place; only the id, the reason and unknown parameters become strings.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, of url: String, kind: CheckoutKind, returnURL: ReturnURL,
                              nonce: String?, expectedID: String?, acceptUnverified: Bool) throws(PayHandoffError) -> CheckoutCallback {
        var spans = try returnURL.addressedSpans(in: bytes, field: "url")
        let verified = try checkNonce(spans.nonce.map { UnsafeBufferPointer(rebasing: bytes[$0]) }, against: nonce,
                                      acceptUnverified: acceptUnverified)
        if let whole = spans.query, let own = returnURL.parts.query, !own.isEmpty {
            // `…?own?status=…`: a gateway appended its `?…` to a URL that already had a query.
            let ownCount = own.utf8.count
            if whole.count > ownCount, bytes[whole.lowerBound + ownCount] == UInt8(ascii: "?"),
               own.utf8.elementsEqual(UnsafeBufferPointer(rebasing: bytes[whole.lowerBound..<(whole.lowerBound + ownCount)])) {
                spans.query = (whole.lowerBound + ownCount + 1)..<whole.upperBound
            }
        }
        var pieces: (status: QueryDecoder.Piece?, cardID: QueryDecoder.Piece?, paymentID: QueryDecoder.Piece?,
                     reason: QueryDecoder.Piece?) = (nil, nil, nil, nil)
        let query = spans.query.map { UnsafeBufferPointer(rebasing: bytes[$0]) } ?? UnsafeBufferPointer(start: nil, count: 0)
        let outcome = try QueryDecoder.scan(query, plus: .space, caseInsensitiveKeys: false, endsAtHash: true,
                                            knownKey: knownKey) { piece, key throws(PayHandoffError) in
            switch key {
            case 0?: pieces.status = piece
            case 1?: pieces.cardID = piece
            case 2?: pieces.paymentID = piece
            case 3?: pieces.reason = piece
            default: break  // read by `extra` when asked for
            }
        }
        if let whole = spans.query, outcome.end < whole.count {  // a fragment the split left in the query
            spans.query = whole.lowerBound..<(whole.lowerBound + outcome.end)
            spans.fragment = (whole.lowerBound + outcome.end + 1)..<whole.upperBound
        }
        // Scheme, host and path are the return URL's (addressed means equal to them), which has
        // no raw control characters; the query scan spots them in the query; the fragment is
        // checked here.
        if outcome.unusualBytes
            || spans.fragment.map({ ByteScan.firstControlOrSpace(in: UnsafeBufferPointer(rebasing: bytes[$0])).forbidden != nil }) == true {
            try URLSyntax.checkIncoming(bytes, field: "url")
        }
        if (kind == .cards ? pieces.paymentID : pieces.cardID) != nil {
            throw PayHandoffError(.callbackMismatch, field: kind.other.idKey,
                "a " + kind.rawValue + " callback cannot carry " + kind.other.idKey)
        }
        guard let statusPiece = pieces.status else {
            throw PayHandoffError(.validation, field: "status", "the callback has no status")
        }
        let statusText = UnsafeBufferPointer(rebasing: query[statusPiece.value])
        let status: Status
        if statusPiece.valueIsEscaped {
            guard let spelled = Status(rawValue: statusPiece.value(in: query, plus: .space)) else { throw Status.unknown }
            status = spelled
        } else if ASCII.equalBytes(statusText, "completed") {
            status = .completed
        } else if ASCII.equalBytes(statusText, "failed") {
            status = .failed
        } else if ASCII.equalBytes(statusText, "cancelled") {
            status = .cancelled
        } else {
            throw Status.unknown
        }
        // An empty id or reason counts as absent; the id is checked on its bytes (decoded first
        // only when escaped) and made a string only when read.
        let queryStart = spans.query?.lowerBound ?? 0
        var objectID: ValueSpan? = nil
        if let piece = kind == .cards ? pieces.cardID : pieces.paymentID, !piece.value.isEmpty {
            let valid: Bool
            let sameAsExpected: Bool?
            if piece.valueIsEscaped {
                let decoded = piece.value(in: query, plus: .space)
                valid = kind.isValidID(decoded)
                sameAsExpected = expectedID.map { $0.hasSameBytes(as: decoded) }
            } else {
                let bytes = UnsafeBufferPointer(rebasing: query[piece.value])
                valid = kind.isValidID(bytes)
                sameAsExpected = expectedID.map { $0.hasSameBytes(as: bytes) }
            }
            guard valid else {
                throw PayHandoffError(.validation, field: kind.idKey, kind.idRule)
            }
            if sameAsExpected == false {
                throw PayHandoffError(.callbackMismatch, field: kind.idKey, "the callback names another " + kind.idKey + " than this session's")
            }
            objectID = ValueSpan(piece, at: queryStart)
        } else if status == .completed {
            throw PayHandoffError(.validation, field: kind.idKey, "a completed callback must carry " + kind.idKey)
        }
        let reason = pieces.reason.flatMap { $0.value.isEmpty ? nil : ValueSpan($0, at: queryStart) }
        return CheckoutCallback(kind: kind, status: status, isVerified: verified,
                                storage: .url(url, query: spans.query ?? 0..<0, objectID: objectID, reason: reason))
    }

    /// The callback keys PayHandoff reads, numbered for ``QueryDecoder/scan(_:plus:caseInsensitiveKeys:endsAtHash:knownKey:_:)``
    /// (compared exactly: callback keys are case-sensitive).
    static func knownKey(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = key.baseAddress else { return nil }
        // Compared as words, each case with its length known, so both sides fold into constants
        // (as POSResponse.keyIndex).
        @inline(__always) func spells(_ name: StaticString) -> Bool {
            ByteScan.words(base, name.utf8CodeUnitCount) == ByteScan.words(name.utf8Start, name.utf8CodeUnitCount)
        }
        switch key.count {
        case 6: return spells("status") ? 0 : spells("reason") ? 3 : nil
        case 7: return spells("card_id") ? 1 : nil
        case 10: return spells("payment_id") ? 2 : nil
        default: return nil
        }
    }

    init(kind: CheckoutKind, status: Status, objectID: String?, reason: String?, isVerified: Bool, extra: [QueryItem],
         truncated: [String] = []) {
        self.init(kind: kind, status: status, isVerified: isVerified, storage: .values(objectID: objectID, reason: reason, extra: extra),
                  truncated: truncated)
    }

    private init(kind: CheckoutKind, status: Status, isVerified: Bool, storage: Storage, truncated: [String] = []) {
        self.kind = kind
        self.status = status
        self.isVerified = isVerified
        self.storage = storage
        self.truncated = truncated
    }

    /// The most a kept callback takes as JSON text, in bytes.
    public static let maxStoredLength = 768
    /// The most one kept free-text value (reason, an unknown parameter's key or value) takes as JSON text.
    public static let maxStoredValueLength = 128

    /// The copy a flow keeps: kind, status, verified and the id whole (the id is bounded by its
    /// rule); the reason and the unknown parameters each cut to ``maxStoredValueLength`` bytes of
    /// JSON, for as long as the whole stays within ``maxStoredLength``; the members cut or left
    /// out named in ``truncated``. It holds values, not the URL: nothing is re-read later.
    public var stored: CheckoutCallback {
        var truncated: [String] = []
        // kind, status, verified, the id and the truncated list's room.
        var length = 96 + (objectID.map { JSONValue.printedLength(of: $0) + 14 } ?? 0) + 48
        var keptReason: String? = nil
        if let reason {
            let (kept, cut) = JSONValue.cut(reason, toPrintedLength: CheckoutCallback.maxStoredValueLength)
            length += JSONValue.printedLength(of: kept) + 10
            keptReason = kept
            if cut { truncated.append("reason") }
        }
        var kept: [QueryItem] = []
        let all = extra
        if !all.isEmpty {
            length += 10
            var cutAny = false
            for item in all {
                let (key, keyCut) = JSONValue.cut(item.key, toPrintedLength: CheckoutCallback.maxStoredValueLength)
                let (value, valueCut) = JSONValue.cut(item.value, toPrintedLength: CheckoutCallback.maxStoredValueLength)
                let added = JSONValue.printedLength(of: key) + 2 + JSONValue.printedLength(of: value)
                guard length + added <= CheckoutCallback.maxStoredLength, !kept.contains(where: { $0.key.hasSameBytes(as: key) }) else {
                    cutAny = true
                    continue
                }
                length += added
                cutAny = cutAny || keyCut || valueCut
                kept.append(QueryItem(key: key, value: value))
            }
            if cutAny { truncated.append("extra") }
        }
        return CheckoutCallback(kind: kind, status: status, objectID: objectID, reason: keptReason, isVerified: isVerified,
                                extra: kept, truncated: truncated)
    }

    /// Equal when every value reads the same, byte for byte.
    /// - Parameters:
    ///   - a: A callback.
    ///   - b: Another callback.
    /// - Returns: Whether they report the same.
    public static func == (a: CheckoutCallback, b: CheckoutCallback) -> Bool {
        func same(_ x: String?, _ y: String?) -> Bool {
            x == nil ? y == nil : y.map { x!.hasSameBytes(as: $0) } ?? false
        }
        guard a.kind == b.kind, a.status == b.status, a.isVerified == b.isVerified, a.truncated.count == b.truncated.count,
              zip(a.truncated, b.truncated).allSatisfy({ $0.hasSameBytes(as: $1) }),
              same(a.objectID, b.objectID), same(a.reason, b.reason) else { return false }
        let (x, y) = (a.extra, b.extra)
        return x.count == y.count && zip(x, y).allSatisfy { $0.key.hasSameBytes(as: $1.key) && $0.value.hasSameBytes(as: $1.value) }
    }

    /// Checks the nonce the callback carries (`echoed`, raw path bytes) against the session's.
    /// - Returns: Whether the callback is verified.
    /// - Throws: `callback_mismatch` naming `nonce` for a wrong nonce, one the session does not
    ///   expect, or none when unverified callbacks are not accepted.
    static func checkNonce(_ echoed: UnsafeBufferPointer<UInt8>?, against nonce: String?,
                           acceptUnverified: Bool) throws(PayHandoffError) -> Bool {
        guard let echoed else {
            guard acceptUnverified else {
                throw PayHandoffError(.callbackMismatch, field: "nonce",
                    "the callback carries no nonce: any app or page can send it, so it is refused")
            }
            return false
        }
        guard let nonce else {
            throw PayHandoffError(.callbackMismatch, field: "nonce", "the callback carries a nonce but this session has none")
        }
        guard CorrelationSecret.constantTimeEqual(echoed, nonce) else {
            throw PayHandoffError(.callbackMismatch, field: "nonce", "the callback's nonce is not this session's")
        }
        return true
    }
}

extension CheckoutCallback.Status {
    static var unknown: PayHandoffError {
        PayHandoffError(.validation, field: "status", "must be completed, failed or cancelled")
    }
}
