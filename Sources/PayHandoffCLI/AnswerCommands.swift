import PayHandoff
import PayHandoffABI
import PayHandoffDoctor

/// `payhandoff pos answer` and `payhandoff checkout answer`: the tool plays the other side of
/// each hand-off — the Billpocket POS app, the gateway's redirect — so that an app can be seen
/// receiving an answer without a card reader or a gateway account. Composing is ``POSAnswer`` /
/// ``CheckoutAnswer``; delivering to a simulator or emulator is ``Delivery``.
enum AnswerCommands {
    // MARK: pos answer

    /// The options of `pos answer` that take a value.
    static let posOptions = Set<String>(["result", "result-word", "amount", "tip", "transaction-id", "statusinfo", "as", "state", "flow-id",
                                         "pos-app", "failure-cause", "error-code"])
        .union(Delivery.options)

    /// The `--result` words and what each composes (the answer's own word is
    /// ``POSAnswer/resultWord``, Billpocket's for the result unless set).
    static let posResults: [String: POSResponse.Result] = ["approved": .approved, "declined": .declined, "error": .error]

    /// `payhandoff pos answer BILLPOCKET_URL --result …`: prints the answer (URL, extras or
    /// event) or delivers it.
    /// - Returns: The exit status.
    /// - Throws: A typed error for bad input, ``Arguments/usageError(_:)`` for a wrong command line.
    static func posAnswer(_ args: Arguments, url requestURL: String) throws(PayHandoffError) -> Int32 {
        let app = try posApp(args)
        if app != .billpocket { return try appAnswer(args, app: app, request: requestURL) }
        for option in ["failure-cause", "error-code"] where args.value(option) != nil {
            throw Arguments.usageError("--\(option) is for --pos-app sumup or clip answers")
        }
        let resultName = try args.requiredOption("result")
        guard let result = posResults[resultName] else {
            throw Arguments.usageError("--result takes approved, declined or error, not '\(resultName)'")
        }
        let android: Bool
        switch args.value("as") ?? "ios" {
        case "ios": android = false
        case "android": android = true
        case let other: throw Arguments.usageError("--as takes ios or android, not '\(other)'")
        }
        if android, let platform = args.value("deliver") {
            throw Arguments.usageError(platform == "android"
                ? "--deliver android carries URL answers only: adb can open a link in the app, but it cannot produce the data of onActivityResult that --as android describes (send it as a pos.result event with --json)"
                : "--deliver \(platform) carries URL answers only: --as android describes onActivityResult data, which no simulator command produces")
        }

        var random = SystemRandomNumberGenerator()
        var answer = try POSAnswer(requestURL: requestURL, result: result, using: &random)
        if let text = args.value("amount") { answer.amount = try Amount(parsing: text, field: "amount") }
        if let text = args.value("tip") { answer.tip = try Amount(parsing: text, field: "tip") }
        if let id = args.value("transaction-id") { answer.transactionID = id }
        if let text = args.value("statusinfo") { answer.statusInfo = text }
        if let word = args.value("result-word") {
            // Another word for the same answer: a synonym the POS app has been seen sending
            // (declinada) or one the library does not know, to see the app reconcile it.
            guard !word.isEmpty else { throw Arguments.usageError("--result-word takes a word, for example declinada") }
            answer.resultWord = word
        }
        if answer.result == .approved, answer.amount == nil {
            throw PayHandoffError(.validation, field: "amount", "the request names no amount and an approval carries one: give --amount")
        }
        try answer.check()

        let flowID = try posFlowID(args, sent: answer.request.identifier)

        if let command = try Delivery.command(args, url: answer.url) {
            return try Delivery.perform(command, run: args.has("run"))
        }
        switch (android, args.has("json")) {
        case (false, false): print(answer.url)
        case (false, true): print(JSONText.render(["type": "url", "url": .string(answer.url)]))
        case (true, false): print(JSONText.render(answer.extras))
        case (true, true):
            guard let flowID else {
                throw Arguments.usageError("a pos.result event names its flow: give --flow-id ID, or --state FILE to find the flow that sent the request")
            }
            print(JSONText.render(["type": "pos.result", "flow_id": .string(flowID), "extras": answer.extras]))
        }
        return ExitStatus.ok
    }

    /// `--pos-app` (billpocket when absent), read by the core's word list.
    /// - Throws: A usage error for another word.
    static func posApp(_ args: Arguments) throws(PayHandoffError) -> POSApp {
        guard let word = args.value("pos-app") else { return .billpocket }
        guard let app = POSApp(rawValue: word) else {
            throw Arguments.usageError("--pos-app takes billpocket, square, sumup or clip, not '\(word)'")
        }
        return app
    }

    /// The flow a `pos.result` event names: `--flow-id`, or the POS hand-off in `--state FILE`
    /// that sent `sent` (`<identifier>~<token>`).
    /// - Throws: `unknown_flow` naming `identifier` when the state has no such hand-off.
    static func posFlowID(_ args: Arguments, sent: String) throws(PayHandoffError) -> String? {
        var flowID = args.value("flow-id")
        if let path = args.value("state") {
            let coordinator = try StateFile.load(path, mustExist: true)
            let bytes = Array(sent.utf8)
            let flow = coordinator.flows.first { flow in
                guard case .pos(let f) = flow else { return false }
                return Array((f.identifier + "~" + f.token).utf8) == bytes
            }
            guard let flow else {
                throw PayHandoffError(.unknownFlow, field: "identifier", "no POS hand-off in " + path + " sent this identifier")
            }
            flowID = flowID ?? flow.id
        }
        return flowID
    }

    /// `pos answer --pos-app sumup|clip|square`: SumUp's and Square's iOS answer URL (printed, as
    /// a `url` event, or delivered), Clip's and Square's Android `pos.result` event (adb cannot
    /// produce an activity result).
    static func appAnswer(_ args: Arguments, app: POSApp, request text: String) throws(PayHandoffError) -> Int32 {
        let result = try args.requiredOption("result")
        let results = POSAppAnswer.results(for: app)
        guard results.contains(result) else {
            throw Arguments.usageError("--pos-app \(app.rawValue) --result takes " + results.joined(separator: ", ") + ", not '\(result)'"
                + (app == .sumup && result == "cancelled" ? " (SumUp has no cancel answer: sumup-android-url-scheme #1)" : "")
                + (app == .clip && result == "declined" ? " (Clip answers approved or error: a declined card is --result error --error-code …)" : ""))
        }
        for option in ["tip", "statusinfo", "as"] where args.value(option) != nil {
            throw Arguments.usageError("--\(option) is for Billpocket answers (--pos-app billpocket)")
        }
        let word = args.value("result-word")
        if let word, word.isEmpty { throw Arguments.usageError("--result-word takes a word") }
        var random = SystemRandomNumberGenerator()
        switch app {
        case .sumup:
            if args.value("error-code") != nil { throw Arguments.usageError("--error-code is for Clip answers; SumUp's is --failure-cause") }
            if args.value("amount") != nil { throw Arguments.usageError("--amount: SumUp's answer carries no amount") }
            let request = try POSAppAnswer.sumUpRequest(text)
            let (url, callback) = POSAppAnswer.sumUpURL(request, result: result, word: word, transactionID: args.value("transaction-id"),
                                                        failureCause: args.value("failure-cause"), using: &random)
            try POSAppAnswer.check(.url(url), app: app, request: request, callbackURL: callback)
            _ = try posFlowID(args, sent: request.sent)  // with --state: the hand-off must be there
            if let command = try Delivery.command(args, url: url) {
                return try Delivery.perform(command, run: args.has("run"))
            }
            print(args.has("json") ? JSONText.render(["type": "url", "url": .string(url)]) : url)
        case .square:
            if args.value("failure-cause") != nil { throw Arguments.usageError("--failure-cause is for SumUp answers; Square's is --error-code") }
            if args.value("amount") != nil { throw Arguments.usageError("--amount: Square's answer carries no amount") }
            let (request, android) = try POSAppAnswer.squareRequest(text)
            if !android {
                if result == "error" && args.value("error-code") == nil {
                    throw Arguments.usageError("--pos-app square --result error on iOS needs --error-code CODE (Square's iOS SDK counts every error_code as an error)")
                }
                let url = POSAppAnswer.squareURL(request, result: result, word: word, transactionID: args.value("transaction-id"),
                                                 errorCode: args.value("error-code"), using: &random)
                try POSAppAnswer.check(.url(url), app: app, request: request, callbackURL: request.successCallback)
                _ = try posFlowID(args, sent: request.sent)
                if let command = try Delivery.command(args, url: url) {
                    return try Delivery.perform(command, run: args.has("run"))
                }
                print(args.has("json") ? JSONText.render(["type": "url", "url": .string(url)]) : url)
                return ExitStatus.ok
            }
            if word != nil { throw Arguments.usageError("--result-word: Square's Android answer has no status word (use --error-code)") }
            if let platform = args.value("deliver") {
                throw Arguments.usageError("--deliver \(platform) carries URL answers only: Square on Android answers by onActivityResult, which adb "
                    + "cannot produce; send the printed pos.result event with payhandoff send")
            }
            let (code, extras) = POSAppAnswer.squareExtras(request, result: result, transactionID: args.value("transaction-id"),
                                                           errorCode: args.value("error-code"), using: &random)
            try POSAppAnswer.check(.activityResult(resultCode: code, extras: extras), app: app, request: request)
            guard let flowID = try posFlowID(args, sent: request.sent) else {
                throw Arguments.usageError("a pos.result event names its flow: give --flow-id ID, or --state FILE to find the flow that sent the request")
            }
            print(JSONText.render(["type": "pos.result", "flow_id": .string(flowID), "result_code": .integer(code), "extras": extras]))
        default:
            if args.value("failure-cause") != nil { throw Arguments.usageError("--failure-cause is for SumUp answers; Clip's is --error-code") }
            if let platform = args.value("deliver") {
                throw Arguments.usageError("--deliver \(platform) carries URL answers only: Clip answers by onActivityResult, which adb and "
                    + "xcrun cannot produce; send the printed pos.result event with payhandoff send")
            }
            let request = try POSAppAnswer.clipRequest(text)
            let amount = try args.value("amount").map { (text) throws(PayHandoffError) in try Amount(parsing: text, field: "amount") }
            let extras = POSAppAnswer.clipExtras(request, result: result, word: word, amount: amount, transactionID: args.value("transaction-id"),
                                                 errorCode: args.value("error-code"), using: &random)
            try POSAppAnswer.check(.activityResult(resultCode: -1, extras: extras), app: app, request: request)
            guard let flowID = try posFlowID(args, sent: request.sent) else {
                throw Arguments.usageError("a pos.result event names its flow: give --flow-id ID, or --state FILE to find the flow that sent the request")
            }
            // Clip answers every outcome with RESULT_OK (-1): the extras decide.
            print(JSONText.render(["type": "pos.result", "flow_id": .string(flowID), "result_code": -1, "extras": extras]))
        }
        return ExitStatus.ok
    }

    // MARK: checkout answer

    /// The options of `checkout answer` that take a value.
    static let checkoutOptions = Set<String>(["status", "kind", "card-id", "payment-id", "reason", "gateway", "state", "channel", "code", "flow-id"])
        .union(Delivery.options)

    /// `payhandoff checkout answer RETURN_URL --status …`: prints the redirect (or its `url`
    /// event) or delivers it.
    /// - Returns: The exit status.
    /// - Throws: A typed error for bad input, ``Arguments/usageError(_:)`` for a wrong command line.
    static func checkoutAnswer(_ args: Arguments, url handedOut: String) throws(PayHandoffError) -> Int32 {
        if args.value("channel") != nil { return try browserResult(args, url: handedOut) }
        if args.value("code") != nil || args.value("flow-id") != nil {
            throw Arguments.usageError("--code and --flow-id describe a checkout.browser_result event: give --channel too")
        }
        let (answer, _) = try redirect(args, url: handedOut)
        if let command = try Delivery.command(args, url: answer.url) {
            return try Delivery.perform(command, run: args.has("run"))
        }
        print(args.has("json") ? JSONText.render(["type": "url", "url": .string(answer.url)]) : answer.url)
        return ExitStatus.ok
    }

    /// `payhandoff checkout answer RETURN_URL --channel C --code K`: prints the
    /// `checkout.browser_result` event an OS-captured channel's result becomes (for `payhandoff
    /// send`); with `--code ok` its `url` is the redirect composed as without `--channel`.
    /// - Returns: The exit status.
    /// - Throws: `validation` naming `code` for a code the channel cannot give; a usage error for
    ///   `--deliver` (adb and xcrun open URLs: they cannot produce an activity result or a
    ///   completion handler's call) and for a missing flow.
    static func browserResult(_ args: Arguments, url handedOut: String) throws(PayHandoffError) -> Int32 {
        let channelWord = try args.requiredOption("channel")
        guard let channel = BrowserResult.Channel(rawValue: channelWord) else {
            throw Arguments.usageError("--channel takes auth_tab, web_authentication_session, custom_tab or safari_view_controller, not '\(channelWord)'")
        }
        let codeWord = try args.requiredOption("code")
        guard let code = BrowserResult.Code(rawValue: codeWord) else {
            throw Arguments.usageError("--code takes ok, canceled, verification_failed, verification_timed_out or unknown, not '\(codeWord)'")
        }
        if let platform = args.value("deliver") {
            throw Arguments.usageError("--deliver \(platform) carries deep links only: adb and xcrun simctl can open a URL in the app, but they cannot produce "
                + "a \(channel.rawValue) result (Auth Tab's activity result, ASWebAuthenticationSession's completion handler): send the printed event with payhandoff send")
        }
        var url: String? = nil
        var flowID = args.value("flow-id")
        if code == .ok {
            let (answer, found) = try redirect(args, url: handedOut)
            url = answer.url
            flowID = flowID ?? found
        } else {
            if args.value("status") != nil {
                throw Arguments.usageError("--status describes the redirect, which only --code ok hands back")
            }
            if flowID == nil, let path = args.value("state") {
                flowID = try flow(withNonceOf: try CheckoutAnswer(handedOut: handedOut, status: .completed), in: path).id
            }
        }
        let result = try BrowserResult(channel: channel, code: code, url: url)
        guard let flowID else {
            throw Arguments.usageError("a checkout.browser_result event names its flow: give --flow-id ID, or --state FILE to find the flow whose nonce the URL carries")
        }
        var event: JSONObject = ["type": "checkout.browser_result", "flow_id": .string(flowID), "channel": .string(result.channel.rawValue),
                                 "code": .string(result.code.rawValue)]
        if let url = result.url { event["url"] = .string(url) }
        print(JSONText.render(.object(event)))
        return ExitStatus.ok
    }

    /// The checkout in the state file `path` whose nonce `answer`'s URL carries.
    /// - Throws: `validation` naming `nonce` for a URL without one; `unknown_flow` when no flow has it.
    static func flow(withNonceOf answer: CheckoutAnswer, in path: String) throws(PayHandoffError) -> CheckoutFlow {
        guard let nonce = answer.nonce else {
            throw PayHandoffError(.validation, field: "nonce",
                "the URL carries no nonce segment (…/ph_<nonce>), so it names no flow: give the return_url of create_session")
        }
        let coordinator = try StateFile.load(path, mustExist: true)
        let found = coordinator.flows.lazy.compactMap { flow -> CheckoutFlow? in
            guard case .checkout(let f) = flow, let n = f.nonce, Array(n.utf8) == Array(nonce.utf8) else { return nil }
            return f
        }.first
        guard let found else {
            throw PayHandoffError(.unknownFlow, field: "nonce", "no checkout in " + path + " has the nonce this URL carries")
        }
        return found
    }

    /// The gateway's redirect `--status` and its options describe, checked by the core; with
    /// `--state` also the id of the flow whose nonce the URL carries.
    static func redirect(_ args: Arguments, url handedOut: String) throws(PayHandoffError) -> (CheckoutAnswer, flowID: String?) {
        let statusWord = try args.requiredOption("status")
        guard let status = CheckoutCallback.Status(rawValue: statusWord) else {
            throw Arguments.usageError("--status takes completed, failed or cancelled, not '\(statusWord)'")
        }
        var gateway = GatewayRedirect.append
        if let word = args.value("gateway") {
            guard let given = GatewayRedirect(rawValue: word) else {
                throw Arguments.usageError("--gateway takes append, append-qmark, append-amp or replace-query, not '\(word)'")
            }
            gateway = given
        }
        var kind: CheckoutKind? = nil
        if let word = args.value("kind") {
            guard let given = CheckoutKind(rawValue: word) else { throw Arguments.usageError("--kind takes cards or payments, not '\(word)'") }
            kind = given
        }
        var objectID: QueryItem? = nil
        switch (args.value("card-id"), args.value("payment-id")) {
        case (let card?, nil): objectID = QueryItem(key: "card_id", value: card)
        case (nil, let payment?): objectID = QueryItem(key: "payment_id", value: payment)
        case (nil, nil): break
        case (_?, _?): throw Arguments.usageError("give --card-id or --payment-id, not both")
        }

        var answer = try CheckoutAnswer(handedOut: handedOut, status: status)
        var flowID: String? = nil
        if let path = args.value("state") {
            // The flow whose nonce the URL carries says the kind and the session's id.
            let flow = try flow(withNonceOf: answer, in: path)
            flowID = flow.id
            if let kind, kind != flow.kind {
                throw PayHandoffError(.validation, field: "kind", "the flow in " + path + " is a " + flow.kind.rawValue + " checkout")
            }
            kind = flow.kind
            if objectID == nil, let id = flow.session?.objectID { objectID = QueryItem(key: flow.kind.idKey, value: id) }
        }
        if status == .completed, objectID == nil {
            throw Arguments.usageError("a completed callback carries the session's id: give --card-id ID or --payment-id ID"
                + (args.value("state") == nil ? " (or --state FILE when the flow's session names it)" : " (the flow's session does not name it)"))
        }
        answer.kind = kind ?? (objectID?.key == "payment_id" ? .payments : .cards)
        answer.objectID = objectID
        answer.reason = args.value("reason")
        answer.gateway = gateway
        let callback = try answer.check()
        if !callback.isVerified {
            printError("note: the URL carries no nonce segment: an unverified callback, which a coordinator refuses unless accept_unverified_callbacks")
        }
        return (answer, flowID)
    }
}
