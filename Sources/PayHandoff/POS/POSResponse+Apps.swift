/// One door per channel for every terminal app's answer: a URL (Billpocket, SumUp; Square on
/// iOS) or Android result extras (Billpocket, Clip; Square on Android). Each app's own rules are
/// in its folder. A URL is tried by every app with a hand-off on its scheme (Coordinator+Routing).
extension POSResponse {
    /// Reads `posApp`'s answer URL.
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - posApp: The app whose answer it should be.
    ///   - scheme: Billpocket: the request's `urlScheme`; the others: their callback URL's scheme.
    ///   - expectation: Which correlation values it may echo.
    ///   - jsonText: The codec for JSON text inside the URL (Square).
    /// - Returns: The answer.
    /// - Throws: As the app's reader; `validation` naming `pos_app` for Clip (no URL answers).
    @inline(never)  // one dispatch, not one inlined into each caller
    static func parse(_ url: String, posApp: POSApp, scheme: String, expecting expectation: consuming IdentifierExpectation,
                      jsonText: JSONTextCodec) throws(PayHandoffError) -> POSResponse {
        switch posApp {
        case .billpocket: return try parse(url, urlScheme: scheme, expecting: expectation)
        case .sumup: return try parseSumUp(url, callbackScheme: scheme, expecting: expectation)
        case .clip: throw PayHandoffError(.validation, field: "pos_app", "Clip answers only through onActivityResult, never by URL")
        case .square: return try parseSquare(url, callbackScheme: scheme, expecting: expectation, jsonText: jsonText)
        }
    }

    /// Reads `posApp`'s Android result extras.
    /// - Parameters:
    ///   - extras: The extras, in order.
    ///   - posApp: The app whose answer they should be.
    ///   - expectation: Which correlation values they may echo.
    ///   - jsonText: The codec for JSON text inside an extra (Clip's `PAYMENT_RESPONSE`).
    /// - Returns: The answer.
    /// - Throws: As the app's reader; `validation` naming `pos_app` for SumUp (URL answers only).
    @inline(never)  // one dispatch, not one inlined into each caller
    static func parse(extras: [QueryItem], posApp: POSApp, expecting expectation: IdentifierExpectation,
                      jsonText: JSONTextCodec) throws(PayHandoffError) -> POSResponse {
        switch posApp {
        case .billpocket: return try parse(extras: extras, expecting: expectation)
        case .clip: return try parseClip(extras: extras, expecting: expectation, jsonText: jsonText)
        case .sumup: throw PayHandoffError(.validation, field: "pos_app", "SumUp answers by URL (its callback), never with result extras")
        case .square: return try parseSquare(extras: extras, expecting: expectation)
        }
    }
}
