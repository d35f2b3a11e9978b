/// A sale for Clip's payment app, on the Clip terminal itself (Clip Total, Total 2, Pro 2: the
/// merchant app runs on the device, after Clip's security review). Android only, no URL, no iOS.
///
/// Source (docs/rules.md, *Clip*): ClipMX/mobile.android.blaze.pinpad.sdk
/// `pinpad-sdk/src/main/java/com/payclip/blaze/pinpad/sdk/ui/intent/system/SystemClipIntentProvider.kt`
/// (commit 036ed4fc48177e6db694a7f960c0768e3f14fd14): `Intent(ACTION_MAIN)` with an explicit
/// component and the extras `PAYMENT_REFERENCE`, `PAYMENT_AMOUNT`, `PAYMENT_TIP_AMOUNT` (text),
/// `PAYMENT_AUTO_RETURN`, `PAYMENT_RETRY`, `PAYMENT_SHARE` (booleans).
///
/// Amounts: Clip's SDK sends `Double.toString()` (`1.0E7` from 10,000,000 on); PayHandoff sends
/// the exact decimal text `100.00` and refuses an amount of more than 15 significant digits
/// (what a Java `double` cannot carry exactly to the cent). `CLIP_LOGIN_CREDENTIALS` is a
/// Parcelable that cannot travel as a JSON extra: PayHandoff does not take it — the host adds it
/// to the intent itself, so the merchant's password never passes through PayHandoff.
public struct ClipRequest: Equatable, Sendable {
    /// The tip, if any (`PAYMENT_TIP_AMOUNT`).
    public let tip: Amount?
    /// `PAYMENT_AUTO_RETURN`, if given.
    public let autoReturn: Bool?
    /// `PAYMENT_RETRY`, if given.
    public let retry: Bool?
    /// `PAYMENT_SHARE`, if given.
    public let share: Bool?
    /// The component started, `"package/class"`.
    public let component: String

    /// Clip's payment activity (the SDK's `SystemClipIntentProvider`; the QA build's package is
    /// `com.payclip.blaze.pinpad.qa`, and an older SDK named `….views.MainActivity`: override it
    /// with `component`).
    public static let defaultComponent = "com.payclip.blaze.pinpad/com.payclip.blaze.pinpad.shared.ui.MainActivity"
    /// The package of Clip's payment app (doctor's `<queries>` check).
    public static let androidPackage = "com.payclip.blaze.pinpad"
    /// The largest amount in minor units Clip can be sent exactly: 15 significant digits.
    public static let maxMinorUnits: Int64 = 999_999_999_999_999

    /// Equal when every field is (by UTF-8 bytes).
    public static func == (lhs: ClipRequest, rhs: ClipRequest) -> Bool {
        lhs.tip == rhs.tip && lhs.autoReturn == rhs.autoReturn && lhs.retry == rhs.retry && lhs.share == rhs.share
            && lhs.component.hasSameBytes(as: rhs.component)
    }

    /// The request document's keys (`token` last: a build document's).
    static let jsonKeys: StaticString = "pos_app transaction identifier amount currency tip component auto_return retry share token"

    /// The request document's members, in the order their rules are checked (docs/rules.md,
    /// *Clip*; ``AppRequestMembers``: key, kind, limit, message). The amounts' limit is
    /// ``maxMinorUnits``, the identifier's `POSRequest.Limit.identifier`; Clip's SDK refuses a
    /// blank reference (CreatePaymentUseCase.kt).
    static let members: StaticString = """
        identifier reference 256 must not be blank: Clip refuses a blank reference
        amount saleAmount 999999999999999 has more than 15 significant digits: Clip reads amounts as a Java double, which cannot carry it exactly
        currency pesosOnly
        tip optionalAmount 999999999999999 has more than 15 significant digits: Clip reads amounts as a Java double, which cannot carry it exactly
        component component
        auto_return flag
        retry flag
        share flag
        """

    /// A Clip sale from its request document's members (read by ``members``).
    static func sale(_ json: AppRequestMembers) -> POSRequest {
        let request = ClipRequest(tip: json.amount("tip"), autoReturn: json.flag("auto_return"), retry: json.flag("retry"),
                                  share: json.flag("share"), component: json.optionalText("component") ?? defaultComponent)
        return POSRequest.sale(to: .clip(request), identifier: json.text("identifier"), amount: json.amount("amount") ?? .zero, answerScheme: "")
    }

    /// `package/class`, each a Java name (letters, digits, `_`, `$`, `.`; the class may start with `.`).
    /// - Throws: `validation` naming `component`.
    static func checkComponent(_ component: String) throws(PayHandoffError) {
        let bytes = Array(component.utf8)
        func javaName(_ part: ArraySlice<UInt8>) -> Bool {
            !part.isEmpty && part.count <= 255 && part.allSatisfy { ASCII.isDigit($0) || ($0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "z"))
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: ".") }
        }
        guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")), javaName(bytes[..<slash]), javaName(bytes[(slash + 1)...]) else {
            throw PayHandoffError(.validation, field: "component", "must be \"package/class\", e.g. " + defaultComponent)
        }
    }

    /// `ACTION_MAIN` on the component, with the reference `<identifier>~<token>` and the amounts as exact decimal text.
    func intent(reference: String, amount: Amount) -> POSIntent {
        var extras: [POSIntent.Extra] = []
        extras.add("PAYMENT_REFERENCE", string: reference)
        extras.add("PAYMENT_AMOUNT", string: amount.decimalString)
        extras.add("PAYMENT_TIP_AMOUNT", string: tip?.decimalString)
        extras.add("PAYMENT_AUTO_RETURN", bool: autoReturn)
        extras.add("PAYMENT_RETRY", bool: retry)
        extras.add("PAYMENT_SHARE", bool: share)
        return POSIntent(action: "android.intent.action.MAIN", package: nil, component: component, data: nil, extras: extras)
    }
}
