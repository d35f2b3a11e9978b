import CcJSON
#if !PAYHANDOFF_SINGLE_MODULE
@_spi(JSONText) import PayHandoff
#endif

// The C functions of include/payhandoff.h (documented there and in docs/abi.md). Each one only
// checks its pointers, hands cJSON's tree of its input to the core's reader and has the core
// write its answer into the tree cJSON prints.

/// `PAYHANDOFF_ABI_VERSION` of the library; bindings compare it with the header's at load time.
/// - Returns: `abi_version` of abi/payhandoff.json (LibraryVersion.swift is generated from it).
@_cdecl("payhandoff_abi_version")
public func payhandoff_abi_version() -> Int32 { LibraryVersion.abi }

/// The library version as a static NUL-terminated string (never freed).
/// - Returns: `library_version` of abi/payhandoff.json, e.g. `"0.4.0"`.
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

/// Builds a POS request: the URL and the Android intent for the request's `pos_app`.
/// - Parameters:
///   - request: The POS request document.
///   - out: Receives the result or error document.
/// - Returns: The status.
@_cdecl("payhandoff_pos_build_url")
public func payhandoff_pos_build_url(_ request: UnsafePointer<CChar>?, _ out: OutString?) -> Int32 {
    respond(out, { () throws(PayHandoffError) in
        var generator = SystemRandomNumberGenerator()
        let (built, token) = try JSONText.read(request, parameter: "request_json") { reader, root throws(PayHandoffError) in
            try POSRequest.build(reading: JSONMembers(root, reader), using: &generator)
        }
        // Square's iOS URL holds JSON text: printed by cJSON, before the answer is written.
        return (built, token, try built.handoffURL(jsonText: JSONText.codec))
    }, writing: { built, writer in built.0.writeBuildResult(token: built.1, handoffURL: built.2, to: writer) })
}

/// Parses a POS app's answer URL (Billpocket, SumUp).
/// - Parameters:
///   - url: The URL the OS handed the app.
///   - options: `{"urlScheme", "identifier"}`.
///   - out: Receives the result or error document.
/// - Returns: The status.
@_cdecl("payhandoff_pos_parse_response")
public func payhandoff_pos_parse_response(_ url: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?,
                                          _ out: OutString?) -> Int32 {
    respond(out, { () throws(PayHandoffError) in
        let text = try JSONText.url(url, parameter: "url")
        return try JSONText.read(options, parameter: "options_json") { reader, root throws(PayHandoffError) in
            try POSResponse.parseApp(text, options: JSONMembers(root, reader), jsonText: JSONText.codec)
        }
    }, writing: { response, writer in response.write(to: writer) })
}

/// Reads a POS app's Android result extras (Billpocket, Clip).
/// - Parameters:
///   - extras: The result extras as a JSON object of strings.
///   - options: `{"identifier", "token"}`.
///   - out: Receives the result or error document.
/// - Returns: The status.
@_cdecl("payhandoff_pos_parse_result")
public func payhandoff_pos_parse_result(_ extras: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?,
                                        _ out: OutString?) -> Int32 {
    respond(out, { () throws(PayHandoffError) in
        try JSONText.read(extras, parameter: "extras_json") { reader, document throws(PayHandoffError) in
            try JSONText.read(options, parameter: "options_json") { optionsReader, root throws(PayHandoffError) in
                try POSResponse.parseApp(extras: (document, reader), options: JSONMembers(root, optionsReader), jsonText: JSONText.codec)
            }
        }
    }, writing: { response, writer in response.write(to: writer) })
}

/// Checks whether a POS sale can be refunded now.
/// - Parameters:
///   - input: `{"sale": {…}, "amount", "now"}`.
///   - out: Receives the verdict or error document.
/// - Returns: The status (0 also when the verdict is "not eligible").
@_cdecl("payhandoff_pos_refund_check")
public func payhandoff_pos_refund_check(_ input: UnsafePointer<CChar>?, _ out: OutString?) -> Int32 {
    respond(out, { () throws(PayHandoffError) in
        try JSONText.read(input, parameter: "input_json") { reader, root throws(PayHandoffError) in
            try RefundEligibility.check(reading: JSONMembers(root, reader))
        }
    }, writing: { verdict, writer in verdict.write(to: writer) })
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
        return try JSONText.read(request, parameter: "request_json") { reader, root throws(PayHandoffError) in
            try CheckoutRequest.build(reading: JSONMembers(root, reader), using: &generator)
        }
    }, writing: { built, writer in built.0.writeBuildResult(nonce: built.nonce, to: writer) })
}

/// Reads a checkout session (gateway answer or backend data).
/// - Parameters:
///   - session: The session document.
///   - out: Receives the session or error document.
/// - Returns: The status.
@_cdecl("payhandoff_checkout_parse_session")
public func payhandoff_checkout_parse_session(_ session: UnsafePointer<CChar>?, _ out: OutString?) -> Int32 {
    respond(out, { () throws(PayHandoffError) in
        try JSONText.read(session, parameter: "session_json") { reader, root throws(PayHandoffError) in
            try CheckoutSession(reading: JSONMembers(root, reader))
        }
    }, writing: { session, writer in session.write(to: writer) })
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
    respond(out, { () throws(PayHandoffError) in
        let text = try JSONText.url(url, parameter: "url")
        return try JSONText.read(options, parameter: "options_json") { reader, root throws(PayHandoffError) in
            try CheckoutCallback.parse(text, options: JSONMembers(root, reader))
        }
    }, writing: { callback, writer in callback.write(to: writer) })
}

/// Reads a relayed webhook event (`card.registered` / `payment.confirmed`).
/// - Parameters:
///   - event: The event document.
///   - out: Receives the confirmation or error document.
/// - Returns: The status.
@_cdecl("payhandoff_checkout_parse_confirmation")
public func payhandoff_checkout_parse_confirmation(_ event: UnsafePointer<CChar>?, _ out: OutString?) -> Int32 {
    respond(out, { () throws(PayHandoffError) in
        try JSONText.read(event, parameter: "event_json") { reader, root throws(PayHandoffError) in
            try CheckoutConfirmation(reading: JSONMembers(root, reader))
        }
    }, writing: { confirmation, writer in confirmation.write(to: writer) })
}
