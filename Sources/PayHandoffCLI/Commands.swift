import PayHandoff
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

    static let saleOptions: Set<String> = ["usertoken", "identifier", "amount", "url-scheme", "tip", "msi", "reference",
                                           "email", "phone"]
    static let saleSwitches: Set<String> = ["show-photo-button", "mandatory-photo", "comes-from-qr"]

    static func posSale(_ args: Arguments) throws(PayHandoffError) -> Int32 {
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

    private static func printBuiltURL(_ request: JSONObject, _ args: Arguments) throws(PayHandoffError) -> Int32 {
        var random = SystemRandomNumberGenerator()
        let result = try POSRequest.buildResultJSON(json: .object(request), using: &random)
        if args.has("json") { print(JSONText.render(result)) } else { print((try? result.string(at: "url")) ?? "") }
        return ExitStatus.ok
    }

    static func posParse(_ args: Arguments, url: String) throws(PayHandoffError) -> Int32 {
        var options: JSONObject = [:]
        copy(args, ["url-scheme": "urlScheme", "identifier": "identifier", "token": "token"], into: &options)
        let response = try POSResponse.parse(url, options: .object(options))
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
            return "open_pos_app \(showSecrets ? url : redactingUserToken(url))"
        case .openPOSIntent(let posApp, let url, _):
            // The URL holds SumUp's affiliate key and the token: shown only with --show-secrets.
            return "open_pos_app \(posApp.rawValue) \(showSecrets ? (url ?? "(intent only)") : "<redacted>")"
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

    /// `…&usertoken=secret&…` → `…&usertoken=<redacted>&…`: display only.
    static func redactingUserToken(_ url: String) -> String {
        let marker = Array("usertoken=".utf8)
        let bytes = Array(url.utf8)
        guard bytes.count >= marker.count,
              let start = (0...(bytes.count - marker.count)).first(where: { bytes[$0..<$0 + marker.count].elementsEqual(marker) })
        else { return url }
        let valueStart = start + marker.count
        let valueEnd = bytes[valueStart...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
        return String(decoding: bytes[..<valueStart], as: UTF8.self) + "<redacted>" + String(decoding: bytes[valueEnd...], as: UTF8.self)
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
