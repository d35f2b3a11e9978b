// The `payhandoff` command-line tool: a thin client of the core for integrators debugging
// deep links ("why did my app reject this URL?") and for the demo. See `payhandoff --help`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PayHandoff

let help: [String: String] = [
    "": """
    payhandoff — build and check payment hand-off URLs (POS apps: Billpocket, SumUp, Clip, Square; hosted checkout)

    usage:
      payhandoff pos sale|refund|parse|refund-check …   POS app-to-app (Billpocket; --pos-app square|sumup|clip)
      payhandoff pos answer REQUEST …                   what the POS app would answer (no card reader needed)
      payhandoff checkout request|callback …            hosted checkout in the browser tab
      payhandoff checkout answer RETURN_URL …           the gateway's redirect (no gateway account needed)
      payhandoff route URL --state FILE                 route a deep link through a saved coordinator
      payhandoff send EVENT_JSON --state FILE           send an event to a saved coordinator
      payhandoff demo                                   both flows end to end on sample data
      payhandoff doctor …                               check the app's manifest, Info.plist, Expo config

    every command takes --help and --json; exit status 0 ok, 1 rejected input, 2 usage error
    """,
    "pos sale": """
    usage: payhandoff pos sale --usertoken T --identifier ID --amount 100.00 --url-scheme myapp
                               [--tip 15.00] [--msi 0|3|6|9|12] [--reference TEXT] [--email E] [--phone P]
                               [--show-photo-button] [--mandatory-photo] [--comes-from-qr] [--json]
    prints the billpocket:// URL (it holds the user token: do not log it)
           payhandoff pos sale --pos-app sumup --affiliate-key K --app-id com.example.shop --identifier ID
                               --amount 100.00 --currency EUR --callback-url myapp://sumup-result
                               [--title T] [--receipt-email E] [--receipt-phone P] [--skip-success-screen]
           payhandoff pos sale --pos-app clip --identifier ID --amount 100.00 [--tip 10.00]
                               [--auto-return] [--retry] [--share] [--component pkg/class]
           payhandoff pos sale --pos-app square --client-id ID --identifier ID --amount 100.00 --currency USD
                               --callback-url myapp://square-callback [--notes N] [--location-id L]
                               [--customer-id C] [--tender-types card,cash,other,card_on_file]
                               [--auto-return-ms 3200..10000] [--skip-receipt]
    the request goes to the core as one document ({"pos_app": …}); it refuses what the app does not
    take, naming the member. Prints the URL (SumUp's affiliate key redacted unless --show-secrets),
    or for Clip, which has no URL, the Android intent as JSON (--as android: the intent for Square
    and SumUp too); --json the whole document
    """,
    "pos refund": """
    usage: payhandoff pos refund --usertoken T --identifier ID --url-scheme myapp --transaction-id SALE_ID
                                 [--amount 40.00] [--json]
    prints the billpocket:// URL of a refund (devolucion)
    """,
    "pos parse": """
    usage: payhandoff pos parse URL --url-scheme myapp [--identifier ID [--token T]] [--json]
           payhandoff pos parse URL --pos-app sumup|square --callback-url myapp://sumup-result [--identifier ID [--token T]]
           payhandoff pos parse --extras JSON [--pos-app clip|square|billpocket] [--result-code -1] [--identifier ID [--token T]]
    parses the POS app's answer; with --identifier, an answer for another request is rejected
    (with --token, the answer must echo ID~T, as a request built with --token sends it);
    --extras reads Android result extras (an object of strings, or null: no data)
    """,
    "pos answer": """
    usage: payhandoff pos answer BILLPOCKET_URL --result approved|declined|error [--result-word WORD]
                                 [--amount A] [--tip T] [--transaction-id ID] [--statusinfo TEXT]
                                 [--as ios|android] [--json]
                                 [--state FILE | --flow-id ID] [--deliver ios|android [--package ID] [--run]]
    prints what the Billpocket POS app would send back to the sale or refund the app opened (the
    billpocket:// URL from the app's log; usertoken=<redacted> or no token is fine, and the token
    is never printed):
      --as ios (default)  the answer URL, urlScheme://result=…, as the POS app writes it, echoing
                          the identifier (token included)
      --as android        the result extras ({"result": "aprobada", …}) of onActivityResult
      --json              the event for `payhandoff send`: {"type": "url", …}; with --as android
                          {"type": "pos.result", "flow_id", "extras"}, the flow given by --flow-id
                          or found in --state FILE (the one that sent the request)
    defaults: the request's amount and tip; statusinfo empty ("La transacción fue cancelada" on
    error); on approval a fresh transactionid, authorization A1B2C3, card ************4242, credit,
    bp_version 4.3.24 (refunds need it)
    --result-word sends WORD as `result` instead of Billpocket's word for --result (which still
    decides the other fields): declinada is read as declined; a word the library does not know
    leaves the hand-off in unrecognized_result, to be reconciled
    --deliver prints the one command that opens the answer in a booted iOS simulator (xcrun simctl
    openurl) or a running Android emulator (adb shell am start, to --package when given); --run
    runs it (the tool must be on PATH); URL answers only, so not with --as android
           payhandoff pos answer SUMUP_URL --pos-app sumup --result approved|declined|error [--result-word WORD]
                                 [--transaction-id TX] [--failure-cause CAUSE] [--state FILE] [--json]
                                 [--deliver ios|android [--package ID] [--run]]
    SumUp's answer URL on the request's callback (callbacksuccess / callbackfail on iOS, callback on
    Android): smp-status success (a fresh smp-tx-code) or failed with smp-failure-cause
    transaction-failed (declined) or invalid-param (error), echoing foreign-tx-id; SUMUP_URL is the
    sumupmerchant:// URL or the Android intent's data (affiliate-key=<redacted> is fine)
           payhandoff pos answer INTENT_JSON --pos-app clip --result approved|error|cancelled (--flow-id ID | --state FILE)
                                 [--result-word STATUS] [--amount A] [--transaction-id RECEIPT] [--error-code CODE]
    prints the pos.result event of Clip's onActivityResult: result_code -1 (Clip answers
    RESULT_OK always) and its extras: PAYMENT_RESPONSE (reference echoed, status approved or error,
    amount as Double.toString(): 100.0, 1.0E7, receiptNumber) and on error PAYMENT_ERROR
    (TERMINAL_ERROR, or CANCELLED for cancelled); INTENT_JSON is the intent pos sale --pos-app
    clip prints, or a document holding it (the open_pos_app effect); --deliver cannot carry it
    (adb cannot produce an activity result): send it with payhandoff send
           payhandoff pos answer SQUARE_REQUEST --pos-app square --result approved|error|cancelled
                                 [--transaction-id ID] [--error-code CODE] [--result-word STATUS]
                                 [--state FILE | --flow-id ID] [--json] [--deliver ios|android …]
    SQUARE_REQUEST is the iOS URL (square-commerce-v1://payment/create?data=…): Square's answer URL
    on its callback_url, data={"status": "ok", "transaction_id", "client_transaction_id", "state"}
    or {"status": "error", "error_code" (payment_canceled for cancelled; --error-code for error)};
    or the Android intent as JSON (pos sale --pos-app square --as android): the pos.result event
    with result_code -1 and SERVER_/CLIENT_TRANSACTION_ID, or 0 and ERROR_CODE
    (ERROR_TRANSACTION_CANCELED, ERROR_UNEXPECTED unless --error-code), REQUEST_METADATA echoed
    """,
    "pos refund-check": """
    usage: payhandoff pos refund-check --transaction-id ID --sale-amount 100.00 --approved-at EPOCH_S
                                       [--amount 40.00] [--bp-version 4.3.24] [--now EPOCH_S] [--json]
    says whether the sale can be refunded now (exit 1 when not), with every reason and the window
    """,
    "checkout request": """
    usage: payhandoff checkout request cards|payments --api-key KEY --return-url URL [--base-url URL]
             [--iframe] [--nonce N] [--provider P --customer-id C --target-origin ORIGIN…
              --name N --lastname L --email E [--phone P]] [--field key=value…] [--show-secrets] [--json]
    prints the HTTP request for POST /v1/cards or /v1/payments (key redacted unless --show-secrets)
    """,
    "checkout callback": """
    usage: payhandoff checkout callback URL --return-url URL (--nonce N | --accept-unverified)
                                            [--kind cards|payments] [--expected-id ID] [--json]
    checks a checkout deep link; prints it parsed, or the exact rule it broke (exit 1)
    (--kind defaults to payments when the URL carries payment_id, else cards; a callback without
    the nonce is refused unless --accept-unverified)
    """,
    "checkout answer": """
    usage: payhandoff checkout answer RETURN_URL --status completed|failed|cancelled [--kind cards|payments]
                                      [--card-id ID | --payment-id ID] [--reason TEXT]
                                      [--gateway append|append-qmark|append-amp|replace-query] [--state FILE]
                                      [--json] [--deliver ios|android [--package ID] [--run]]
           payhandoff checkout answer RETURN_URL --channel auth_tab|web_authentication_session|custom_tab|safari_view_controller
                                      --code ok|canceled|verification_failed|verification_timed_out|unknown
                                      [--flow-id ID | --state FILE] [--status … as above, with --code ok]
    prints the redirect the gateway would send to the return URL the app handed out (the
    return_url of create_session, …/ph_<nonce> included), its status and id in the query:
      --gateway append         (default) '?', or '&' when the URL has a query: a careful gateway
                append-qmark   a blind '?'           append-amp  a blind '&'
                replace-query  the URL's own query dropped
    with --state FILE the kind and the session's id come from the flow whose nonce the URL
    carries; without it, completed needs --card-id or --payment-id (--kind defaults to payments
    with --payment-id, else cards)
    --json prints the event for `payhandoff send` ({"type": "url", …}); --deliver prints the one
    command that opens it in a booted iOS simulator or a running Android emulator; --run runs it
    --channel prints the checkout.browser_result event an Auth Tab / ASWebAuthenticationSession
    result becomes (its url, with --code ok, the redirect above); the flow from --flow-id or from
    --state FILE by the URL's nonce; --deliver cannot carry it (adb and xcrun open URLs, they
    cannot produce an activity result or a completion handler's call): send it with payhandoff send
    """,
    "route": """
    usage: payhandoff route URL --state FILE [--now EPOCH_MS] [--show-secrets] [--json]
    loads the coordinator snapshot (an empty one if FILE does not exist), routes the URL, prints
    the outcome and effects, and saves the new snapshot atomically (temp file, fsync, rename)
    """,
    "send": """
    usage: payhandoff send EVENT_JSON --state FILE [--now EPOCH_MS] [--show-secrets] [--json]
    sends an event ({"type": "checkout.start", …}; "now" defaults to --now or the clock) to the
    saved coordinator and saves it atomically
    """,
    "doctor": """
    usage: payhandoff doctor [--return-url URL] [--pos-scheme SCHEME]
                             [--android-manifest AndroidManifest.xml] [--info-plist Info.plist]
                             [--entitlements App.entitlements] [--expo-config app.json]
                             [--assetlinks assetlinks.json] [--aasa apple-app-site-association]
                             [--android-package ID] [--android-cert-sha256 AA:BB:…] [--ios-app-id TEAMID.bundle.id]
                             [--manifest-placeholder KEY=VALUE]… [--android-res app/src/main/res]…
                             [--build-setting KEY=VALUE]… [--target-sdk N]
                             [--return-channel auth_tab|web_authentication_session|custom_tab|safari_view_controller]…
                             [--checkout-host HOST]…
                             [--pos-app billpocket|square|sumup|clip]…
                             [--json | --fix-diff] [--rules]
    checks the app's configuration files against the return URL (the callback the gateway
    redirects to, derived by the core) and the POS answer scheme; prints each check as
    ok / warning / error with the exact lines to add, and commands to try the links
    (--return-url, --pos-scheme or --pos-app is required; --rules lists the checks)
    values the build fills in are resolved from: --android-package (${applicationId}; else the
    manifest's package or Expo's android.package), --manifest-placeholder (${name}),
    --android-res (@string/, @integer/, @bool/ per values-vNN API level; a resValue is in
    app/build/generated/res/resValues/<variant>), --build-setting ($(NAME) in plists),
    --target-sdk (else <uses-sdk>);
    a value still unresolved makes its check a warning that names the flag
    --return-channel (repeatable, or comma-separated): how the app gets the return; an https
    return with auth_tab needs assetlinks.json's handle_all_urls (--assetlinks), with
    web_authentication_session webcredentials:HOST (--entitlements) and the AASA's
    webcredentials.apps (--aasa)
    --checkout-host (repeatable): the checkout page's host, which must not be one the app
    claims with a verified App Link (Android would open it in the app, not the browser)
    --pos-app (repeatable, or comma-separated; --pos-apps is the same): the POS apps the app
    hands sales to, each checked in <queries> and LSApplicationQueriesSchemes (Billpocket alone
    when only --pos-scheme is given; Clip has no iOS app: a warning on iOS files)
    --fix-diff prints the fixes as a unified diff instead of the report: | patch -p0
    exit status: 0 no error (warnings allowed), 1 at least one error (a file that cannot be
    read or parsed is one), 2 usage error
    """,
    "demo": """
    usage: payhandoff demo
    walks a card registration and a POS sale with a simulated gateway and POS app
    """,
]

/// Writes to standard error (file descriptor 2; the C `stderr` global is not concurrency-safe in Swift 6).
func printError(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
}

func usage(_ command: String, _ message: String) -> Int32 {
    printError("error: usage: \(message)\n\n\(help[command] ?? help[""] ?? "")")
    return ExitStatus.usage
}

func run(_ words: [String]) -> Int32 {
    let command: String
    var rest = words
    switch (words.first, words.dropFirst().first) {
    case ("pos"?, let sub?) where ["sale", "refund", "parse", "refund-check", "answer"].contains(sub),
         ("checkout"?, let sub?) where ["request", "callback", "answer"].contains(sub):
        command = "\(words[0]) \(sub)"
        rest = Array(words.dropFirst(2))
    case ("route"?, _), ("send"?, _), ("demo"?, _), ("doctor"?, _):
        command = words[0]
        rest = Array(words.dropFirst())
    case (nil, _), ("--help"?, _), ("help"?, _):
        print(help[""] ?? "")
        return words.isEmpty ? ExitStatus.usage : ExitStatus.ok
    default:
        return usage("", "unknown command '\(words.joined(separator: " "))'")
    }
    let valued: Set<String>
    var switches: Set<String> = []
    switch command {
    case "pos sale": valued = Commands.saleOptions; switches = Commands.saleSwitches
    case "pos refund": valued = ["usertoken", "identifier", "url-scheme", "transaction-id", "amount"]
    case "pos parse": valued = ["url-scheme", "identifier", "token", "pos-app", "callback-url", "extras", "result-code"]
    case "pos refund-check": valued = ["transaction-id", "sale-amount", "approved-at", "amount", "bp-version", "now"]
    case "checkout request": valued = Commands.requestOptions; switches = ["iframe", "show-secrets"]
    case "pos answer": valued = AnswerCommands.posOptions; switches = Delivery.switches
    case "checkout callback": valued = ["return-url", "nonce", "kind", "expected-id"]; switches = ["accept-unverified"]
    case "checkout answer": valued = AnswerCommands.checkoutOptions; switches = Delivery.switches
    case "route", "send": valued = ["state", "now"]; switches = ["show-secrets"]
    case "doctor": valued = DoctorCommand.optionNames; switches = ["rules", "fix-diff"]
    default: valued = []
    }
    let args: Arguments
    do throws(Arguments.UsageError) {
        args = try Arguments(rest, valued: valued, switches: switches)
    } catch {
        return usage(command, error.message)
    }
    if args.has("help") {
        print(help[command] ?? "")
        return ExitStatus.ok
    }
    if command == "doctor" {
        guard args.positional.isEmpty else { return usage(command, "unexpected argument '\(args.positional[0])'") }
        return DoctorCommand.run(args)
    }
    do throws(PayHandoffError) {
        let positional: String
        switch command {
        case "pos parse" where args.value("extras") != nil:
            guard args.positional.isEmpty else { return usage(command, "--extras reads result extras: no URL") }
            positional = ""
        case "pos parse", "checkout callback", "route": positional = try oneWord(args, "URL")
        case "pos answer":
            let what = ["sumup": "SUMUP_URL", "clip": "INTENT_JSON", "square": "SQUARE_REQUEST"][args.value("pos-app") ?? ""] ?? "BILLPOCKET_URL"
            positional = try oneWord(args, what)
        case "checkout answer": positional = try oneWord(args, "RETURN_URL")
        case "checkout request": positional = try oneWord(args, "cards or payments")
        case "send": positional = try oneWord(args, "EVENT_JSON")
        default:
            guard args.positional.isEmpty else { return usage(command, "unexpected argument '\(args.positional[0])'") }
            positional = ""
        }
        switch command {
        case "pos sale": return try Commands.posSale(args)
        case "pos refund": return try Commands.posRefund(args)
        case "pos parse": return try Commands.posParse(args, url: positional)
        case "pos refund-check": return try Commands.posRefundCheck(args)
        case "pos answer": return try AnswerCommands.posAnswer(args, url: positional)
        case "checkout request":
            guard positional == "cards" || positional == "payments" else {
                return usage(command, "the session kind is cards or payments, not '\(positional)'")
            }
            return try Commands.checkoutRequest(args, kind: positional)
        case "checkout callback": return try Commands.checkoutCallback(args, url: positional)
        case "checkout answer": return try AnswerCommands.checkoutAnswer(args, url: positional)
        case "route": return try Commands.route(args, url: positional)
        case "send": return try Commands.send(args, eventText: positional)
        default:
            try Demo.run()
            return ExitStatus.ok
        }
    } catch where error.code == .invalidArgument && error.field == Arguments.usageField {
        return usage(command, error.message)
    } catch {
        printError("error: \(error)")
        return ExitStatus.rejected
    }
}

func oneWord(_ args: Arguments, _ what: String) throws(PayHandoffError) -> String {
    do throws(Arguments.UsageError) {
        return try args.single(what)
    } catch {
        throw Arguments.usageError(error.message)
    }
}

exit(run(Array(CommandLine.arguments.dropFirst())))
