#if !hasFeature(Embedded)
/// `print(flow)`, `dump` and debuggers show a POS flow without its token (``Redaction``); its
/// answer shows the app's identifier alone. (No reflection in Embedded Swift.)
extension POSFlow: CustomReflectable {
    /// The flow's fields, the token redacted; an answer that echoes it, a user token or a PIN in
    /// another field (issue 35) is shown as the flow's `details` show it.
    public var customMirror: Mirror {
        var responseShown: Any? = response
        if let response, POSFlow.anyText(in: response.json, except: "identifier", where: { Redaction.mayCarrySecret($0, secrets: [token]) }) {
            responseShown = Coordinator.Flow.pos(self).detailsJSON.value(at: "response")
        }
        return Mirror(self, children: [
            ("id", id), ("operation", operation), ("identifier", identifier), ("token", Redaction.marker),
            ("answerScheme", answerScheme), ("amount", amount as Any), ("saleTransactionId", saleTransactionId as Any),
            ("graceMilliseconds", graceMilliseconds), ("state", state), ("foregroundedAt", foregroundedAt as Any),
            ("response", responseShown as Any), ("answeredAt", answeredAt as Any), ("launchFailure", launchFailure as Any),
        ], displayStyle: .struct)
    }

    /// Whether a string of `value` (keys included; the top-level member `except` left out) passes `test`.
    static func anyText(in value: JSONValue, except: String? = nil, where test: (String) -> Bool) -> Bool {
        switch value {
        case .string(let text): return test(text)
        case .array(let elements): return elements.contains { anyText(in: $0, where: test) }
        case .object(let object):
            return object.members.contains { member in
                if let except, member.key.hasSameBytes(as: except) { return false }
                return test(member.key) || anyText(in: member.value, where: test)
            }
        default: return false
        }
    }
}
#endif
