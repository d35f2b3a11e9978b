@_spi(JSONText) import PayHandoff
import PayHandoffABI

/// Exit statuses: 0 ok, 1 the input was rejected (a PayHandoff error or a rejected URL),
/// 2 the command line itself is wrong.
enum ExitStatus {
    static let ok: Int32 = 0
    static let rejected: Int32 = 1
    static let usage: Int32 = 2
}

/// The commands. Each builds the same JSON documents the C ABI takes, calls the core's JSON
/// entry point, and prints the result for people (default) or as JSON (`--json`).
enum Commands {
    // MARK: pos

    static let saleOptions = Set<String>(["usertoken", "identifier", "amount", "url-scheme", "tip", "msi", "reference",
                                          "email", "phone", "pos-app", "tender-types", "auto-return-ms", "as"]).union(appSaleOptions.map { $0.key })
    static let saleSwitches = Set<String>(["show-photo-button", "mandatory-photo", "comes-from-qr", "show-secrets"])
        .union(appSaleSwitches.map { $0.key })

    /// The request members of the other terminal apps (issue 39), by option: each goes into the
    /// document when given, and the core refuses what the app does not take (naming the member).
    static let appSaleOptions: KeyValuePairs<String, String> = [
        "client-id": "client_id", "currency": "currency", "callback-url": "callback_url", "notes": "notes",
        "location-id": "location_id", "customer-id": "customer_id", "affiliate-key": "affiliate_key", "app-id": "app_id",
        "title": "title", "receipt-email": "receipt_email", "receipt-phone": "receipt_phone", "component": "component",
    ]
    /// Their boolean members, by switch (given: true).
    static let appSaleSwitches: KeyValuePairs<String, String> = [
        "skip-receipt": "skip_receipt", "skip-success-screen": "skip_success_screen", "auto-return": "auto_return",
        "retry": "retry", "share": "share",
    ]

    static func posSale(_ args: Arguments) throws(PayHandoffError) -> Int32 {
        let app = try AnswerCommands.posApp(args)
        if let platform = args.value("as"), platform != "ios" && platform != "android" {
            throw Arguments.usageError("--as takes ios or android, not '\(platform)'")
        }
        if app != .billpocket { return try appSale(args, app: app) }
        if args.value("as") != nil { throw Arguments.usageError("--as is for --pos-app square, sumup or clip") }
        var request: JSONObject = ["transaction": "venta"]
        copy(args, ["usertoken": "usertoken", "identifier": "identifier", "amount": "amount", "url-scheme": "urlScheme",
                    "tip": "tip", "reference": "reference", "email": "email", "phone": "phone"], into: &request)
        if let msi = args.value("msi") { request["msi"] = Int64(msi).map { .integer($0) } ?? .string(msi) }
        if args.has("show-photo-button") { request["showPhotoButton"] = true }
        if args.has("mandatory-photo") { request["mandatoryPhoto"] = true }
        if args.has("comes-from-qr") { request["comesFromQR"] = true }
        return try printBuiltURL(request, args)
    }

    static func posRefund(_ args: Arguments) throws(PayHandoffError) -> Int32 {
        var request: JSONObject = ["transaction": "devolucion"]
        copy(args, ["usertoken": "usertoken", "identifier": "identifier", "url-scheme": "urlScheme",
                    "transaction-id": "transactionId", "amount": "amount"], into: &request)
        return try printBuiltURL(request, args)
    }

    /// `pos sale --pos-app square|sumup|clip`: the app's request document from the options, built
    /// by the core (Square's `data=` JSON printed with cJSON, as the C ABI prints it). Prints the
    /// URL (Square, SumUp; SumUp's affiliate key redacted unless `--show-secrets`), or for Clip,
    /// which has none, the Android intent as JSON (what `pos answer --pos-app clip` reads);
    /// `--as android` prints the intent for Square and SumUp too; `--json` the whole document
    /// (the key redacted the same way).
    static func appSale(_ args: Arguments, app: POSApp) throws(PayHandoffError) -> Int32 {
        var request: JSONObject = ["pos_app": .string(app.rawValue)]
        copy(args, ["usertoken": "usertoken", "identifier": "identifier", "amount": "amount", "url-scheme": "urlScheme",
                    "tip": "tip", "reference": "reference", "email": "email", "phone": "phone"], into: &request)
        copy(args, appSaleOptions, into: &request)
        if let types = args.value("tender-types") {
            request["tender_types"] = .array(types.split(separator: ",").map { .string(String($0)) })
        }
        if let ms = args.value("auto-return-ms") { request["auto_return_ms"] = Int64(ms).map { .integer($0) } ?? .string(ms) }
        for (flag, key) in appSaleSwitches where args.has(flag) { request[key] = true }
        for flag in saleSwitches where args.has(flag) && !appSaleSwitches.contains(where: { $0.key == flag }) && flag != "show-secrets" {
            throw Arguments.usageError("--\(flag) is a Billpocket field (--pos-app billpocket)")
        }
        var random = SystemRandomNumberGenerator()
        var result = try POSRequest.buildResultJSON(json: .object(request), using: &random, jsonText: JSONText.codec)
        if !args.has("show-secrets") { result = redactingAffiliateKey(result) }
        if args.has("json") {
            print(JSONText.render(result))
        } else if args.value("as") != "android", let url = try? result.string(at: "url") {
            print(url)
        } else {
            print(JSONText.render(result.value(at: "intent") ?? .null))
        }
        return ExitStatus.ok
    }

    /// The build document with SumUp's affiliate key redacted in `url` and `intent.data`.
    static func redactingAffiliateKey(_ document: JSONValue) -> JSONValue {
        guard case .object(var o) = document else { return document }
        if case .string(let url)? = o["url"] { o["url"] = .string(redactingSecrets(url)) }
        if case .object(var intent)? = o["intent"], case .string(let data)? = intent["data"] {
            intent["data"] = .string(redactingSecrets(data))
            o["intent"] = .object(intent)
        }
        return .object(o)
    }

    private static func printBuiltURL(_ request: JSONObject, _ args: Arguments) throws(PayHandoffError) -> Int32 {
        var random = SystemRandomNumberGenerator()
        let result = try POSRequest.buildResultJSON(json: .object(request), using: &random)
        if args.has("json") { print(JSONText.render(result)) } else { print((try? result.string(at: "url")) ?? "") }
        return ExitStatus.ok
    }

    /// `pos parse URL`: an answer URL (Billpocket's by default; `--pos-app sumup|square` with
    /// `--callback-url`); `pos parse --extras JSON [--result-code N]`: Android result extras
    /// (`--pos-app clip|square|billpocket`; `null` is no data). Read by the core as the C ABI reads them.
    static func posParse(_ args: Arguments, url: String) throws(PayHandoffError) -> Int32 {
        var options: JSONObject = [:]
        copy(args, ["url-scheme": "urlScheme", "identifier": "identifier", "token": "token", "pos-app": "pos_app",
                    "callback-url": "callback_url"], into: &options)
        if let code = args.value("result-code") {
            guard let value = Int64(code) else { throw Arguments.usageError("--result-code takes an integer (RESULT_OK is -1, RESULT_CANCELED 0)") }
            options["result_code"] = .integer(value)
        }
        let reader = JSONValueReader()
        let members = JSONMembers(JSONValueReader.Node(.object(options)), reader)
        let response: POSResponse
        if let extras = args.value("extras") {
            let document = try JSONText.parse(extras, parameter: "extras")
            response = try POSResponse.parseApp(extras: (JSONValueReader.Node(document), reader), options: members, jsonText: JSONText.codec)
        } else if options["pos_app"] != nil {
            response = try POSResponse.parseApp(url, options: members, jsonText: JSONText.codec)
        } else {
            response = try POSResponse.parse(url, options: .object(options))
        }
        if args.has("json") {
            print(JSONText.render(response.json))
        } else {
            printMembers(response.json, skipping: ["version"])
        }
        return ExitStatus.ok
    }

    static func posRefundCheck(_ args: Arguments) throws(PayHandoffError) -> Int32 {
        var sale: JSONObject = [:]
        copy(args, ["transaction-id": "transactionid", "sale-amount": "amount", "bp-version": "bp_version"], into: &sale)
        if let approved = args.value("approved-at") { sale["approved_at"] = Int64(approved).map { .integer($0) } ?? .string(approved) }
        var check: JSONObject = ["sale": .object(sale)]
        copy(args, ["amount": "amount"], into: &check)
        let now = args.value("now") ?? String(StateFile.nowMilliseconds() / 1000)
        check["now"] = Int64(now).map { .integer($0) } ?? .string(now)
        let verdict = try RefundEligibility.check(json: .object(check))
        if args.has("json") {
            print(JSONText.render(verdict.json))
        } else {
            print(verdict.isEligible ? "eligible: refund \(verdict.refundAmount.decimalString) now"
                                     : "not eligible: refund of \(verdict.refundAmount.decimalString) refused")
            print("window: \(MexicoCityTime.iso8601(verdict.eligibleFrom)) until \(MexicoCityTime.iso8601(verdict.deadline)) (exclusive)")
            for reason in verdict.reasons { print("  - \(reason.rawValue): \(verdict.explanation(of: reason))") }
        }
        return verdict.isEligible ? ExitStatus.ok : ExitStatus.rejected
    }

    // MARK: checkout

    static let requestOptions: Set<String> = ["api-key", "return-url", "base-url", "nonce", "provider", "customer-id",
                                              "target-origin", "name", "lastname", "email", "phone", "field"]

    static func checkoutRequest(_ args: Arguments, kind: String) throws(PayHandoffError) -> Int32 {
        var request: JSONObject = ["kind": .string(kind)]
        copy(args, ["api-key": "api_key", "return-url": "return_url", "base-url": "base_url", "nonce": "nonce",
                    "provider": "provider", "customer-id": "customer_id"], into: &request)
        if args.has("iframe") { request["integration"] = "iframe" }
        if let origins = args.options["target-origin"] { request["target_origin"] = .array(origins.map { .string($0) }) }
        var customer: JSONObject = [:]
        copy(args, ["name": "name", "lastname": "lastname", "email": "email", "phone": "phone"], into: &customer)
        if customer.count > 0 { request["customer"] = .object(customer) }
        var fields = JSONObject()
        for field in args.options["field"] ?? [] {
            guard let equals = field.firstIndex(of: "=") else {
                throw PayHandoffError(.invalidArgument, field: "field", "--field takes key=value")
            }
            let value = String(field[field.index(after: equals)...])
            fields[String(field[..<equals])] = Int64(value).map { .integer($0) } ?? .string(value)
        }
        if fields.count > 0 { request["fields"] = .object(fields) }
        var random = SystemRandomNumberGenerator()
        var result = try CheckoutRequest.buildResultJSON(json: .object(request), using: &random)
        if !args.has("show-secrets"), case .object(var o) = result, let requestObject = result.value(at: "request") {
            o["request"] = redactingAuthorization(requestObject)
            result = .object(o)
        }
        if args.has("json") {
            print(JSONText.render(result))
            return ExitStatus.ok
        }
        print("\(text(result, "request.method")) \(text(result, "request.url"))")
        for header in (try? result.optionalArray(at: "request.headers")) ?? [] {
            print("\(text(header, "name")): \(text(header, "value"))")
        }
        print("")
        print(JSONText.render(result.value(at: "request.body") ?? .null))
        if let url = try? result.optionalString(at: "return_url") {
            print("")
            print("return_url: \(url)")
            print("nonce: \(text(result, "nonce")) (keep it with the flow: callbacks must echo it)")
        }
        for warning in (try? result.optionalArray(at: "warnings")) ?? [] {
            if case .string(let w) = warning { print("warning: \(w)") }
        }
        return ExitStatus.ok
    }

    static func checkoutCallback(_ args: Arguments, url: String) throws(PayHandoffError) -> Int32 {
        var options: JSONObject = [:]
        copy(args, ["return-url": "return_url", "nonce": "nonce", "expected-id": "expected_id", "kind": "kind"], into: &options)
        if args.has("accept-unverified") { options["accept_unverified"] = true }
        if options["kind"] == nil {
            // Without --kind, the id the callback carries says which session it claims to answer.
            options["kind"] = url.contains("payment_id=") ? "payments" : "cards"
        }
        let callback = try CheckoutCallback.parse(url, options: .object(options))
        if args.has("json") {
            print(JSONText.render(callback.json))
        } else {
            printMembers(callback.json, skipping: ["version"])
            if !callback.isVerified {
                print("note: no nonce: unverified, a claim anyone could make; only the confirmation (webhook) confirms")
            } else if callback.status == .completed {
                print("note: completed means awaiting confirmation: wait for the webhook")
            }
        }
        return ExitStatus.ok
    }

    // MARK: route / send

    static func route(_ args: Arguments, url: String) throws(PayHandoffError) -> Int32 {
        let path = try requiredState(args)
        var coordinator = try StateFile.load(path)
        let now = try nowOption(args)
        let answer = coordinator.handle(url: url, now: now)
        return try finish(answer, coordinator, path: path, args)
    }

    static func send(_ args: Arguments, eventText: String) throws(PayHandoffError) -> Int32 {
        let path = try requiredState(args)
        var coordinator = try StateFile.load(path)
        var event = try JSONText.parse(eventText, parameter: "event")
        if case .object(var o) = event, o["now"] == nil {
            o["now"] = .integer(try nowOption(args))
            event = .object(o)
        }
        var random = SystemRandomNumberGenerator()
        let answer = coordinator.send(try CoordinatorEvent(json: event), using: &random)
        return try finish(answer, coordinator, path: path, args)
    }

    private static func finish(_ answer: CoordinatorAnswer, _ coordinator: Coordinator, path: String,
                               _ args: Arguments) throws(PayHandoffError) -> Int32 {
        if answer.persist { try StateFile.save(coordinator, to: path) }
        if args.has("json") {
            print(JSONText.render(answer.json))
        } else {
            printAnswer(answer, showSecrets: args.has("show-secrets"))
            print(answer.persist ? "state saved: \(path)" : "state unchanged: \(path)")
        }
        return answer.outcome == .rejected ? ExitStatus.rejected : ExitStatus.ok
    }

    private static func requiredState(_ args: Arguments) throws(PayHandoffError) -> String {
        guard let path = args.value("state") else { throw PayHandoffError(.invalidArgument, field: "state", "--state FILE is required") }
        return path
    }

    private static func nowOption(_ args: Arguments) throws(PayHandoffError) -> Int64 {
        guard let text = args.value("now") else { return StateFile.nowMilliseconds() }
        guard let now = Int64(text) else { throw PayHandoffError(.invalidArgument, field: "now", "--now takes epoch milliseconds") }
        return now
    }

    // MARK: output

    /// One line per transition and effect, secrets redacted unless asked for.
    static func printAnswer(_ answer: CoordinatorAnswer, showSecrets: Bool, indent: String = "") {
        print("\(indent)outcome: \(answer.outcome.rawValue)")
        if let error = answer.error { print("\(indent)  why: \(error)") }
        for transition in answer.transitions {
            print("\(indent)  \(transition.flowID) (\(transition.flow.typeName)) → \(transition.flow.stateName)")
            for effect in transition.effects {
                print("\(indent)    effect: \(describe(effect, showSecrets: showSecrets))")
            }
        }
    }

    /// An effect for people: the URL or request it carries, with the POS user token and the API
    /// key redacted unless `showSecrets`.
    static func describe(_ effect: FlowEffect, showSecrets: Bool) -> String {
        switch effect {
        case .sendRequest(let request):
            return "send_request \(showSecrets ? JSONText.render(request.json(revealingSecrets: true)) : request.description)"
        case .createSession(let kind, let returnURL):
            return "create_session \(kind.rawValue) with return_url \(returnURL)"
        case .openBrowser(let url, let returnTo):
            // return_to's https path holds the nonce.
            switch returnTo {
            case .scheme(let scheme)?: return "open_browser \(url) return_to scheme \(scheme)"
            case .https(let host, let path)?:
                return "open_browser \(url) return_to https \(host) \(showSecrets ? path : redactingNonce(path))"
            case nil: return "open_browser \(url)"
            }
        case .openPOSApp(let url):
            return "open_pos_app \(showSecrets ? url : redactingSecrets(url))"
        case .openPOSIntent(let posApp, let url, let intent):
            // SumUp's URL holds its affiliate key: redacted unless --show-secrets, as Billpocket's
            // user token. Clip has no URL: its intent (no secret: the Parcelable login is the host's).
            if let url { return "open_pos_app \(posApp.rawValue) \(showSecrets ? url : redactingSecrets(url))" }
            return "open_pos_app \(posApp.rawValue) intent \(JSONText.render(JSONValueWriter.document { intent.write(to: $0) }))"
        case .showHint(let message):
            return "show_hint \"\(message)\""
        case .reconcile(let reason):
            return "reconcile (\(reason))"
        case .closeBrowser, .showPending, .persist:
            return text(effect.json, "type")
        }
    }

    /// `/checkout-callback/ph_<nonce>` → `/checkout-callback/ph_<redacted>`: display only.
    static func redactingNonce(_ path: String) -> String {
        guard let range = path.range(of: "/ph_", options: .backwards) else { return path }
        return path[..<range.upperBound] + "<redacted>"
    }

    /// `…&usertoken=secret&…` → `…&usertoken=<redacted>&…`, and the same for SumUp's
    /// `affiliate-key=`: display only.
    static func redactingSecrets(_ url: String) -> String {
        var bytes = Array(url.utf8)
        for key in ["usertoken=", "affiliate-key="] {
            let marker = Array(key.utf8)
            var from = 0
            while bytes.count - from >= marker.count,
                  let start = (from...(bytes.count - marker.count)).first(where: { bytes[$0..<$0 + marker.count].elementsEqual(marker) }) {
                let valueStart = start + marker.count
                let valueEnd = bytes[valueStart...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
                bytes.replaceSubrange(valueStart..<valueEnd, with: Array("<redacted>".utf8))
                from = valueStart + 10
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func redactingAuthorization(_ request: JSONValue) -> JSONValue {
        guard case .object(var o) = request, case .array(let headers)? = o["headers"] else { return request }
        o["headers"] = .array(headers.map { header in
            guard case .object(var h) = header, h["name"] == "Authorization" else { return header }
            h["value"] = "Bearer <redacted> (--show-secrets to print it)"
            return .object(h)
        })
        return .object(o)
    }

    private static func printMembers(_ document: JSONValue, skipping: Set<String>) {
        guard case .object(let o) = document else { return }
        for member in o.members where !skipping.contains(member.key) {
            switch member.value {
            case .string(let s): print("\(member.key): \(s)")
            default: print("\(member.key): \(JSONText.render(member.value))")
            }
        }
    }

    private static func copy(_ args: Arguments, _ names: KeyValuePairs<String, String>, into object: inout JSONObject) {
        for (option, key) in names {
            if let value = args.value(option) { object[key] = .string(value) }
        }
    }

    private static func text(_ document: JSONValue, _ path: String) -> String {
        (try? document.optionalString(at: path)) ?? nil ?? ""
    }
}
