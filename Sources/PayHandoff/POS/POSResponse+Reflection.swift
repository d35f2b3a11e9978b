#if !hasFeature(Embedded)
/// `dump(answer)`, `"\(answer)"` and debuggers show the decoded fields, not the text they are read
/// from (that is the URL as received, an implementation detail). (No reflection in Embedded Swift.)
extension POSResponse: CustomReflectable {
    /// The typed fields; absent ones left out.
    public var customMirror: Mirror {
        var children: [(label: String?, value: Any)] = [("result", result), ("identifier", identifier)]
        func add(_ label: String, _ value: Any?) { if let value { children.append((label, value)) } }
        add("statusInfo", statusInfo)
        add("amount", amount)
        add("tip", tip)
        add("reference", reference)
        add("transactionId", transactionId)
        add("msi", msi)
        add("authorization", authorization)
        add("cardLastFour", cardLastFour)
        add("cardType", cardType)
        add("email", email)
        add("phone", phone)
        add("arqc", arqc)
        add("aid", aid)
        add("appLabel", appLabel)
        add("voucherURL", voucherURL)
        add("bank", bank)
        add("accountType", accountType)
        add("cardholderName", cardholderName)
        add("posAppVersion", posAppVersion)
        if !extra.isEmpty { children.append(("extra", extra)) }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}
#endif
