import PayHandoff
import PayHandoffDoctor

/// The redirect the gateway would send to the return URL the app handed out
/// (`…/ph_<nonce>`), composed for `payhandoff checkout answer`: the gateway's query
/// (`status`, `card_id`/`payment_id`, `reason`) added the way a gateway adds it
/// (``GatewayRedirect``). Checked by the core's callback parser before it is handed out.
struct CheckoutAnswer {
    /// The URL as the app handed it to the gateway.
    let handedOut: String
    /// The registered return URL it was made from.
    let returnURL: ReturnURL
    /// The nonce segment's value; `nil` for a URL without one (the callback is then unverified).
    let nonce: String?
    /// Card registration or payment.
    var kind: CheckoutKind
    /// The gateway's status.
    var status: CheckoutCallback.Status
    /// `card_id=…` or `payment_id=…`, when the callback carries one.
    var objectID: QueryItem?
    /// `reason`, typically on `failed`.
    var reason: String?
    /// How the gateway adds its query.
    var gateway: GatewayRedirect = .append

    /// Reads the URL the app handed out.
    /// - Parameters:
    ///   - url: The return URL with PayHandoff's nonce segment (`create_session`'s `return_url`),
    ///     or a registered return URL without one.
    ///   - status: The gateway's status.
    /// - Throws: `validation` naming `return_url` for a URL the core refuses as a return URL, or
    ///   `nonce` for a nonce segment that breaks the nonce rule.
    init(handedOut url: String, status: CheckoutCallback.Status) throws(PayHandoffError) {
        handedOut = url
        self.status = status
        kind = .cards
        // The nonce rides in the last path segment, `ph_<nonce>` (see ReturnURL): the text
        // before it (with or without its slash) plus the query is the registered URL whenever
        // the core hands out this very text for it; the core decides, not this split.
        let bytes = Array(url.utf8)
        let pathEnd = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
        let marker = Array(("/" + ReturnURL.nonceSegmentPrefix).utf8)
        let start = pathEnd >= marker.count
            ? stride(from: pathEnd - marker.count, through: 0, by: -1).first { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }
            : nil
        guard let start, !bytes[(start + marker.count)..<pathEnd].contains(UInt8(ascii: "/")) else {
            returnURL = try ReturnURL(url)
            nonce = nil
            return
        }
        func text(_ slice: ArraySlice<UInt8>) -> String { String(decoding: slice, as: UTF8.self) }
        let nonce = text(bytes[(start + marker.count)..<pathEnd])
        try CorrelationSecret.check(nonce, field: "nonce")
        let query = text(bytes[pathEnd...])
        for candidate in [text(bytes[..<start]) + query, text(bytes[...start]) + query] {
            if let returnURL = try? ReturnURL(candidate), Array(returnURL.adding(nonce: nonce).utf8) == bytes {
                self.returnURL = returnURL
                self.nonce = nonce
                return
            }
        }
        throw PayHandoffError(.validation, field: "return_url",
            "is not a URL PayHandoff hands out: a registered return URL with the segment ph_<nonce> added to its path")
    }

    /// The gateway's query, encoded as the core encodes outgoing values.
    var query: String {
        var items = [QueryItem(key: "status", value: status.rawValue)]
        if let objectID { items.append(objectID) }
        if let reason { items.append(QueryItem(key: "reason", value: reason)) }
        return QueryEncoder.encode(items)
    }

    /// The redirect.
    var url: String { gateway.url(handedOut, query: query) }

    /// Reads the redirect back with the core's callback parser, so that only a callback the app
    /// can read is handed out (whether it is the flow's is for the coordinator to say).
    /// - Returns: The callback as the core reads it.
    /// - Throws: The core's error (an id that is not the kind's, …).
    func check() throws(PayHandoffError) -> CheckoutCallback {
        try CheckoutCallback.parse(url, kind: kind, returnURL: returnURL, nonce: nonce, acceptUnverified: nonce == nil)
    }
}
