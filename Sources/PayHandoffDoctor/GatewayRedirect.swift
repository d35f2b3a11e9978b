/// How a gateway adds its query (`status=…&card_id=…`) to the return URL it was given — the
/// ways seen in gateways, each of which the core reads (the nonce rides in the path: see
/// `ReturnURL`). `payhandoff doctor` shows the careful one; `payhandoff checkout answer
/// --gateway` composes each.
public enum GatewayRedirect: String, Sendable, CaseIterable {
    /// `?` when the URL has no query, else `&` (nothing after a trailing `?` or `&`): what the
    /// gateway's guide shows.
    case append
    /// `?` whatever the URL holds: `…/ph_<nonce>?src=app?status=…` when it had a query.
    case appendQmark = "append-qmark"
    /// `&` whatever the URL holds: `…/ph_<nonce>&status=…` when it had no query.
    case appendAmp = "append-amp"
    /// The URL's own query dropped, the gateway's put in its place.
    case replaceQuery = "replace-query"

    /// The URL the gateway redirects the browser tab to.
    /// - Parameters:
    ///   - returnURL: The return URL as the gateway was given it (PayHandoff's nonce segment
    ///     included); return URLs have no fragment.
    ///   - query: The gateway's query, already encoded.
    /// - Returns: The redirect.
    public func url(_ returnURL: String, query: String) -> String {
        let hasQuery = returnURL.contains("?")
        switch self {
        case .append:
            let separator = !hasQuery ? "?" : (returnURL.hasSuffix("?") || returnURL.hasSuffix("&") ? "" : "&")
            return returnURL + separator + query
        case .appendQmark:
            return returnURL + "?" + query
        case .appendAmp:
            return returnURL + "&" + query
        case .replaceQuery:
            return String(returnURL.prefix { $0 != "?" }) + "?" + query
        }
    }
}
