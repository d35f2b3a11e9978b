#if !hasFeature(Embedded)
/// `dump(answer)`, `"\(answer)"` and debuggers show the decoded fields, not the text they are read
/// from (that is the URL as received, an implementation detail), and the identifier without the
/// flow's token it echoes (`order-42~<redacted>`, ``Redaction``). (No reflection in Embedded Swift.)
extension POSResponse: CustomReflectable {
    /// The typed fields, the identifier's token redacted; absent ones left out.
    public var customMirror: Mirror {
        var children: [(label: String?, value: Any)] = [("result", result), ("identifier", Redaction.identifier(identifier))]
        for index in POSResponse.fields.indices where index != Key.result && index != Key.identifier {
            let value: Any?
            switch index {
            case Key.amount: value = amount
            case Key.tip: value = tip
            case Key.msi: value = msi
            case Key.creditcard: value = cardLastFour
            case Key.accounttype: value = accountType
            default: value = field(index)
            }
            if let value { children.append((POSResponse.fields[index].label, value)) }
        }
        if !extra.isEmpty { children.append(("extra", extra)) }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}
#endif
