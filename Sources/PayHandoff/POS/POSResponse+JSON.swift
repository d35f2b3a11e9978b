extension POSResponse {
    /// The answer as a document, keyed like the Billpocket response table, with typed values:
    /// `{"version": 1, "result": "approved", "identifier": "ord-1", "amount": "100.00",
    /// "tip": "15.00", "msi": 3, "creditcard": "1234", "accountType": "credit", …,
    /// "extra": {"unknown_key": "value"}}`. Absent fields are left out; `extra` only when non-empty.
    /// `result` is `approved`, `declined`, `error` or `unrecognized` (then `result_word` holds the
    /// word as sent: issue 30).
    public var json: JSONValue {
        JSONValueWriter.document { write(to: $0) }
    }

    /// Writes ``json`` to `writer` (the C ABI writes into cJSON's tree).
    /// - Parameters:
    ///   - writer: Where the document goes.
    ///   - shownIdentifier: The identifier to write instead of the one answered (a flow's details
    ///     show the app's identifier without the token it echoes), or `nil`.
    @_spi(JSONText)
    public func write(to writer: JSONWriter, identifier shownIdentifier: String? = nil) {
        writer.beginObject()
        writer.member("version", integer: 1)
        // Written for the other apps only: a Billpocket answer's document is what it was in 0.3.
        if posApp != .billpocket { writer.member("pos_app", string: posApp.rawValue) }
        writer.member("result", string: result.rawValue)
        writer.optionalMember("result_word", string: resultWord)
        writer.optionalMember("error_code", string: errorCode)
        writer.member("identifier", string: shownIdentifier ?? identifier)
        text.withUTF8Buffer { bytes in
            for index in POSResponse.fields.indices where index != Key.result && index != Key.identifier {
                let key = POSResponse.fields[index].json
                switch index {
                case Key.msi: writer.optionalMember(key, integer: msi.map { Int64($0) })
                case Key.amount: writer.optionalMember(key, string: amount?.decimalString)
                case Key.tip: writer.optionalMember(key, string: tip?.decimalString)
                case Key.creditcard: writer.optionalMember(key, string: cardLastFour)
                case Key.accounttype: writer.optionalMember(key, string: accountType?.rawValue)
                default:
                    // The text fields go from the answer's text into the document: no String each.
                    guard let span = fields.span(index, in: bytes) else { continue }
                    writer.key(key)
                    let raw = UnsafeBufferPointer(rebasing: bytes[span.start..<span.end])
                    if span.isEscaped {
                        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { target in
                            let count = QueryDecoder.decode(raw, plus: .literal, into: target)
                            writer.string(utf8: UnsafeBufferPointer(rebasing: target[..<count]))
                        }
                    } else {
                        writer.string(utf8: raw)
                    }
                }
            }
        }
        QueryItem.writeExtra(extra, as: "extra", to: writer)
        JSONValue.writeTruncated(truncated, to: writer)
        writer.end()
    }

    /// An answer from the document ``json`` produces (used when restoring a snapshot). The
    /// same rules apply as when parsing the URL.
    /// - Parameter json: A document written by ``json``.
    /// - Throws: `validation` or `invalid_json` for a document ``json`` could not have written.
    public init(json: JSONValue) throws(PayHandoffError) {
        try self.init(reading: JSONMembers(json))
    }

    /// ``init(json:)`` from any ``JSONReader``'s tree.
    init<R: JSONReader>(reading json: JSONMembers<R>) throws(PayHandoffError) {
        let reader = json.reader
        guard let object = json.node, reader.kind(of: object) != .null else { throw JSONValue.missing(json.path) }
        guard reader.kind(of: object) == .object else {
            throw JSONMembers<R>.wrongType(json.path, expected: "an object", found: reader.kind(of: object))
        }
        var items: [QueryItem] = []
        let word = try json.optionalString("result_word")
        let posApp = try POSApp.reading(json)
        let errorCode = try json.optionalString("error_code")
        if !errorCode.isNone, posApp == .billpocket {
            throw PayHandoffError(.validation, field: "error_code", "only another terminal app's answer has one")
        }
        var appResult = Result.unrecognized
        try reader.forEach(in: object) { member throws(PayHandoffError) in
            guard !reader.key(of: member, is: "version"), !reader.key(of: member, is: "extra"), !reader.key(of: member, is: "truncated"),
                  !reader.key(of: member, is: "result_word"), !reader.key(of: member, is: "pos_app"),
                  !reader.key(of: member, is: "error_code") else { return }
            let key = reader.key(of: member)
            let value: String
            switch reader.kind(of: member) {
            case .string: value = reader.string(member)
            case .integer where reader.key(of: member, is: "msi"): value = String(reader.integer(member))
            case let other:
                throw JSONMembers<R>.wrongType(key, expected: "a string", found: other)
            }
            guard POSResponse.keyIndex(key) != nil else {
                throw PayHandoffError(.validation, field: key, "unknown field")
            }
            if reader.key(of: member, is: "result"), posApp != .billpocket {
                // Another app's result is its reader's decision, kept as decided.
                guard let result = Result(rawValue: value) else {
                    throw PayHandoffError(.validation, field: "result", "must be approved, declined, error, cancelled or unrecognized")
                }
                guard result == .unrecognized || word.isNone else {
                    throw PayHandoffError(.validation, field: "result_word", "goes with an unrecognized result, and only with one")
                }
                appResult = result
            } else if reader.key(of: member, is: "result") {
                guard let result = Result(rawValue: value), result != .cancelled else {
                    throw PayHandoffError(.validation, field: "result", "must be approved, declined, error or unrecognized")
                }
                // An unrecognized result is its word; the word of a known result is not written.
                guard (result == .unrecognized) == (word != nil) else {
                    throw PayHandoffError(.validation, field: "result_word", "goes with an unrecognized result, and only with one")
                }
                let spelled = word ?? result.billpocketValue
                guard result != .unrecognized || spelled.withUTF8Buffer({ Result.reading($0) }) == .unrecognized else {
                    throw PayHandoffError(.validation, field: "result_word", "is a word PayHandoff knows")
                }
                items.append(QueryItem(key: "result", value: spelled))
            } else {
                items.append(QueryItem(key: key, value: value))
            }
        }
        let extra = try QueryItem.extra(in: json, at: "extra")
        let truncated = try JSONValue.truncated(in: json)
        if posApp != .billpocket {
            guard json.isPresent("result") else { throw PayHandoffError(.validation, field: "result", "the answer has no result") }
            try self.init(posApp: posApp, result: appResult, word: word, items: items, extra: extra, errorCode: errorCode)
            self.truncated = truncated
            return
        }
        try self.init(items: items)
        self.extra = extra
        self.truncated = truncated
    }
}

extension POSResponse {
    /// ``parse(_:urlScheme:expectedIdentifier:token:)`` with the options as a document:
    /// `{"urlScheme": "myapp", "identifier": "ord-1", "token": "…"}` (`identifier` and `token`
    /// optional; `token` needs `identifier`).
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - options: The options document.
    /// - Returns: The typed answer.
    /// - Throws: As ``parse(_:urlScheme:expectedIdentifier:token:)``, plus `validation`/`invalid_json` for the options.
    public static func parse(_ url: String, options: JSONValue) throws(PayHandoffError) -> POSResponse {
        try parse(url, options: JSONMembers(options))
    }

    /// ``parse(_:options:)`` with the options from any ``JSONReader``'s tree (the C ABI reads cJSON's).
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - options: The options document's members.
    /// - Returns: The typed answer.
    /// - Throws: As ``parse(_:options:)``.
    @_spi(JSONText) @inlinable  // specialized in the C ABI's module too (a generic call across modules looks up metadata at every member)
    public static func parse<R: JSONReader>(_ url: String, options: JSONMembers<R>) throws(PayHandoffError) -> POSResponse {
        if options.isPresent("pos_app") { return try parseApp(url, options: options, jsonText: JSONTextCodec()) }
        try options.rejectUnknownKeys("urlScheme identifier token")
        return try parse(url, urlScheme: try options.string("urlScheme"),
                         expectedIdentifier: try options.optionalString("identifier"),
                         token: try options.optionalString("token"))
    }

    /// ``parse(extras:expectedIdentifier:token:)`` with documents: `extras` an object of strings,
    /// `options` `{"identifier": "ord-1", "token": "…"}` (both optional).
    /// - Parameters:
    ///   - extras: The result extras document.
    ///   - options: The options document.
    /// - Returns: The typed answer.
    /// - Throws: `invalid_json` for a value that is not a string (naming its key), plus what
    ///   ``parse(extras:expectedIdentifier:token:)`` throws.
    public static func parse(extras: JSONValue, options: JSONValue) throws(PayHandoffError) -> POSResponse {
        let reader = JSONValueReader()
        return try parse(extras: (JSONValueReader.Node(extras), reader), options: JSONMembers(options))
    }

    /// ``parse(extras:options:)`` with the documents from any ``JSONReader``'s tree (the C ABI
    /// reads cJSON's; `options` is read first, as the Swift API reads it).
    /// - Parameters:
    ///   - extras: The result extras document and its tree.
    ///   - options: The options document's members.
    /// - Returns: The typed answer.
    /// - Throws: As ``parse(extras:options:)``.
    @_spi(JSONText) @inlinable  // as parse(_:options:)
    public static func parse<R: JSONReader, S: JSONReader>(extras: (node: R.Node, reader: R),
                                                           options: JSONMembers<S>) throws(PayHandoffError) -> POSResponse {
        if options.isPresent("pos_app") || options.isPresent("result_code") {
            return try parseApp(extras: extras, options: options, jsonText: JSONTextCodec())
        }
        try options.rejectUnknownKeys("identifier token")
        let expectedIdentifier = try options.optionalString("identifier")
        let token = try options.optionalString("token")
        return try parse(extras: try POSResponse.extras(extras.node, extras.reader, path: ""), expectedIdentifier: expectedIdentifier, token: token)
    }

    /// The key/value pairs of an object whose every value is a string.
    /// - Parameters:
    ///   - node: The object (`nil` when missing).
    ///   - reader: Its tree.
    ///   - path: Where the object is (`""` for the root), for the errors.
    /// - Returns: The pairs in order.
    /// - Throws: `invalid_json` for a missing object or a value that is not a string, naming it.
    @_spi(JSONText) @inlinable
    public static func extras<R: JSONReader>(_ node: R.Node?, _ reader: R, path: String) throws(PayHandoffError) -> [QueryItem] {
        // A missing member of an event is missing; a document that is not an object (null
        // included) is the wrong JSON type.
        guard let node, path.isEmpty || reader.kind(of: node) != .null else {
            throw JSONValue.missing(path)
        }
        guard reader.kind(of: node) == .object else {
            throw JSONMembers<R>.wrongType(path, expected: "an object of strings", found: reader.kind(of: node))
        }
        var items: [QueryItem] = []
        try reader.forEach(in: node) { member throws(PayHandoffError) in
            guard reader.kind(of: member) == .string else {
                throw JSONMembers<R>.wrongType(JSONValue.join(path, reader.key(of: member)), expected: "a string", found: reader.kind(of: member))
            }
            items.append(QueryItem(key: reader.key(of: member), value: reader.string(member)))
        }
        return items
    }

    /// ``parse(_:options:)`` with the codec that reads JSON text inside the answer (Square's
    /// `data=`; PayHandoffFoundation's `FoundationJSONText`).
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - options: The options document (`pos_app`, `callback_url` or `urlScheme`, `identifier`, `token`).
    ///   - jsonText: The codec.
    /// - Returns: The typed answer.
    /// - Throws: As ``parse(_:options:)``.
    public static func parse(_ url: String, options: JSONValue, jsonText: JSONTextCodec) throws(PayHandoffError) -> POSResponse {
        try parseApp(url, options: JSONMembers(options), jsonText: jsonText)
    }

    /// ``parse(extras:options:)`` with the codec that reads JSON text inside an extra (Clip's
    /// `PAYMENT_RESPONSE`; PayHandoffFoundation's `FoundationJSONText`).
    /// - Parameters:
    ///   - extras: The result extras document.
    ///   - options: The options document (`pos_app`, `identifier`, `token`, `result_code`).
    ///   - jsonText: The codec.
    /// - Returns: The typed answer.
    /// - Throws: As ``parse(extras:options:)``.
    public static func parse(extras: JSONValue, options: JSONValue, jsonText: JSONTextCodec) throws(PayHandoffError) -> POSResponse {
        try parseApp(extras: (JSONValueReader.Node(extras), JSONValueReader()), options: JSONMembers(options), jsonText: jsonText)
    }

    /// ``parse(_:options:)`` with `pos_app` in the options: `{"pos_app": "sumup", "callback_url":
    /// "myapp://sumup-result", "identifier", "token"}` (Billpocket keeps `urlScheme`).
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - options: The options document's members.
    ///   - jsonText: The codec for JSON text inside the URL (Square).
    /// - Returns: The typed answer.
    /// - Throws: As the app's reader; `validation` naming the option that breaks a rule.
    @_spi(JSONText)
    public static func parseApp<R: JSONReader>(_ url: String, options: JSONMembers<R>, jsonText: JSONTextCodec) throws(PayHandoffError) -> POSResponse {
        let app = try POSApp.reading(options)
        if app == .clip {
            throw PayHandoffError(.validation, field: "pos_app", "Clip answers only through onActivityResult, never by URL")
        }
        let scheme: String
        if app == .billpocket {
            try options.rejectUnknownKeys("pos_app urlScheme identifier token")
            scheme = try options.string("urlScheme")
        } else {
            try options.rejectUnknownKeys("pos_app callback_url identifier token")
            scheme = try CallbackURL.scheme(of: try options.string("callback_url"))
        }
        let expectation = try IdentifierExpectation(try options.optionalString("identifier"), token: try options.optionalString("token"))
        return try parse(url, posApp: app, scheme: scheme, expecting: expectation, jsonText: jsonText)
    }

    /// ``parse(extras:options:)`` with `pos_app` in the options (`{"pos_app": "clip", "identifier",
    /// "token", "result_code"}`; `result_code`, Android's `resultCode`, is checked to be an integer
    /// and decides nothing: every app's extras say the outcome themselves). `extras` `null` (no data: the app crashed, was uninstalled, or the user backed
    /// out) is `invalid_json` as for Billpocket: no answer can be read; a coordinator's `pos.result`
    /// with `extras: null` makes the flow `returned_without_response` (reconcile).
    /// - Parameters:
    ///   - extras: The result extras document and its tree.
    ///   - options: The options document's members.
    ///   - jsonText: The codec for JSON text inside an extra (Clip's `PAYMENT_RESPONSE`).
    /// - Returns: The typed answer.
    /// - Throws: As the app's reader.
    @_spi(JSONText)
    public static func parseApp<R: JSONReader, S: JSONReader>(extras: (node: R.Node, reader: R), options: JSONMembers<S>,
                                                              jsonText: JSONTextCodec) throws(PayHandoffError) -> POSResponse {
        let app = try POSApp.reading(options)  // first, as the URL door reads it
        try options.rejectUnknownKeys("pos_app identifier token result_code")
        _ = try options.optionalInteger("result_code")  // Android's resultCode as the host has it: no decision needs it
        if app == .sumup {
            throw PayHandoffError(.validation, field: "pos_app", "SumUp answers by URL (its callback), never with result extras")
        }
        let expectation = try IdentifierExpectation(try options.optionalString("identifier"), token: try options.optionalString("token"))
        let items = try POSResponse.extras(extras.node, extras.reader, path: "")
        return try parse(extras: items, posApp: app, expecting: expectation, jsonText: jsonText)
    }
}
