import CcJSON
#if !PAYHANDOFF_SINGLE_MODULE
@_spi(JSONText) import PayHandoff
#endif

// The C functions of include/payhandoff.h (documented there and in docs/abi.md). Each one only
// checks its pointers, turns text into JSONValue, calls the core and prints the answer.

/// `PAYHANDOFF_ABI_VERSION` of the library; bindings compare it with the header's at load time.
/// - Returns: `abi_version` of abi/payhandoff.json (LibraryVersion.swift is generated from it).
@_cdecl("payhandoff_abi_version")
public func payhandoff_abi_version() -> Int32 { LibraryVersion.abi }

/// The library version as a static NUL-terminated string (never freed).
/// - Returns: `library_version` of abi/payhandoff.json, e.g. `"0.3.0"`.
@_cdecl("payhandoff_version")
public func payhandoff_version() -> UnsafePointer<CChar> {
    // A string literal is stored NUL-terminated in the binary and lives as long as the library.
    let version = LibraryVersion.text
    return UnsafeRawPointer(version.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Frees a string returned by any `payhandoff_*` function.
/// - Parameter text: The string, or NULL (no-op).
@_cdecl("payhandoff_string_free")
public func payhandoff_string_free(_ text: UnsafeMutablePointer<CChar>?) {
    free(text)
}

/// Builds a Billpocket POS request URL.
/// - Parameters:
///   - request: The POS request document.
///   - out: Receives the result or error document.
/// - Returns: The status.
@_cdecl("payhandoff_pos_build_url")
public func payhandoff_pos_build_url(_ request: UnsafePointer<CChar>?, _ out: OutString?) -> Int32 {
    respond(out, { () throws(PayHandoffError) in
        var generator = SystemRandomNumberGenerator()
        return try POSRequest.build(json: try JSONText.parse(request, parameter: "request_json"), using: &generator)
    }, writing: { built, writer in built.0.writeBuildResult(token: built.token, to: &writer) })
}

/// Parses the Billpocket POS app's answer URL.
/// - Parameters:
///   - url: The URL the OS handed the app.
///   - options: `{"urlScheme", "identifier"}`.
///   - out: Receives the result or error document.
/// - Returns: The status.
@_cdecl("payhandoff_pos_parse_response")
public func payhandoff_pos_parse_response(_ url: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?,
                                          _ out: OutString?) -> Int32 {
    respond(out) { () throws(PayHandoffError) in
        let text = try JSONText.url(url, parameter: "url")
        return try POSResponse.parse(text, options: try JSONText.parse(options, parameter: "options_json")).json
    }
}

/// Reads the Billpocket POS app's Android result extras.
/// - Parameters:
///   - extras: The result extras as a JSON object of strings.
///   - options: `{"identifier", "token"}`.
///   - out: Receives the result or error document.
/// - Returns: The status.
@_cdecl("payhandoff_pos_parse_result")
public func payhandoff_pos_parse_result(_ extras: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?,
                                        _ out: OutString?) -> Int32 {
    respond(out) { () throws(PayHandoffError) in
        let document = try JSONText.parse(extras, parameter: "extras_json")
        return try POSResponse.parse(extras: document, options: try JSONText.parse(options, parameter: "options_json")).json
    }
}

/// Checks whether a POS sale can be refunded now.
/// - Parameters:
///   - input: `{"sale": {…}, "amount", "now"}`.
///   - out: Receives the verdict or error document.
/// - Returns: The status (0 also when the verdict is "not eligible").
@_cdecl("payhandoff_pos_refund_check")
public func payhandoff_pos_refund_check(_ input: UnsafePointer<CChar>?, _ out: OutString?) -> Int32 {
    respond(out) { () throws(PayHandoffError) in
        try RefundEligibility.check(json: try JSONText.parse(input, parameter: "input_json")).json
    }
}

/// Builds the gateway request of a hosted checkout, with a fresh nonce unless one is given.
/// - Parameters:
///   - request: The checkout request document.
///   - out: Receives the result or error document.
/// - Returns: The status.
@_cdecl("payhandoff_checkout_build_request")
public func payhandoff_checkout_build_request(_ request: UnsafePointer<CChar>?, _ out: OutString?) -> Int32 {
    respond(out, { () throws(PayHandoffError) in
        var generator = SystemRandomNumberGenerator()
        return try CheckoutRequest.build(json: try JSONText.parse(request, parameter: "request_json"), using: &generator)
    }, writing: { built, writer in built.0.writeBuildResult(nonce: built.nonce, to: &writer) })
}

/// Reads a checkout session (gateway answer or backend data).
/// - Parameters:
///   - session: The session document.
///   - out: Receives the session or error document.
/// - Returns: The status.
@_cdecl("payhandoff_checkout_parse_session")
public func payhandoff_checkout_parse_session(_ session: UnsafePointer<CChar>?, _ out: OutString?) -> Int32 {
    respond(out) { () throws(PayHandoffError) in
        try CheckoutSession(json: try JSONText.parse(session, parameter: "session_json")).json
    }
}

/// Checks a checkout callback deep link against the registered return URL and nonce.
/// - Parameters:
///   - url: The URL the OS handed the app.
///   - options: `{"kind", "return_url", "nonce", "expected_id"}`.
///   - out: Receives the callback or error document.
/// - Returns: The status.
@_cdecl("payhandoff_checkout_parse_callback")
public func payhandoff_checkout_parse_callback(_ url: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?,
                                               _ out: OutString?) -> Int32 {
    respond(out) { () throws(PayHandoffError) in
        let text = try JSONText.url(url, parameter: "url")
        return try CheckoutCallback.parse(text, options: try JSONText.parse(options, parameter: "options_json")).json
    }
}

/// Reads a relayed webhook event (`card.registered` / `payment.confirmed`).
/// - Parameters:
///   - event: The event document.
///   - out: Receives the confirmation or error document.
/// - Returns: The status.
@_cdecl("payhandoff_checkout_parse_confirmation")
public func payhandoff_checkout_parse_confirmation(_ event: UnsafePointer<CChar>?, _ out: OutString?) -> Int32 {
    respond(out) { () throws(PayHandoffError) in
        try CheckoutConfirmation(json: try JSONText.parse(event, parameter: "event_json")).json
    }
}
