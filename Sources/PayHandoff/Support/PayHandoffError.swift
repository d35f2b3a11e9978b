/// The one error type of PayHandoff.
///
/// Every failure of the core is a value of this type: a stable ``Code`` that programs switch
/// on (and that the C ABI maps to a pinned status number), the offending input `field` where
/// there is one, and a human-readable `message`. Messages never contain secrets (API keys,
/// POS user tokens): code that builds an error from input must not quote those values.
///
/// Two errors are equal when codes are and field and message have the same UTF-8 bytes (not
/// under `String`'s `==`, which is Unicode canonical equivalence).
public struct PayHandoffError: Error, Equatable, CustomStringConvertible {
    /// A stable error code. The raw values are part of the public contract: they appear in
    /// JSON (`{"code": "validation", …}`) and are never renamed or reused.
    public enum Code: String, CaseIterable, Sendable {
        /// A required argument is missing or unusable (NULL pointer, wrong kind of argument).
        case invalidArgument = "invalid_argument"
        /// JSON text could not be parsed, or a JSON value has the wrong type.
        case invalidJSON = "invalid_json"
        /// A value breaks a domain rule (length, range, format, combination of fields).
        case validation = "validation"
        /// A URL cannot be parsed: bad scheme, bad percent-escape, invalid UTF-8, NUL, duplicate key.
        case malformedURL = "malformed_url"
        /// A URL is well formed but does not belong to the hand-off it was checked against.
        case callbackMismatch = "callback_mismatch"
        /// No pending flow has the given id or correlation value.
        case unknownFlow = "unknown_flow"
        /// The same callback or event was already processed.
        case duplicate = "duplicate"
        /// The event is not allowed in the flow's current state.
        case invalidState = "invalid_state"
        /// A document (snapshot) has a format version this build does not know.
        case unsupportedVersion = "unsupported_version"
        /// An input is larger than the documented limit.
        case limitExceeded = "limit_exceeded"
        /// The payment gateway answered with an error (non-2xx status or an error body).
        case gatewayError = "gateway_error"
        /// Two answers about the same object disagree (e.g. confirmations for different ids).
        case conflict = "conflict"
        /// A refund is not possible now (too soon, past 23:00 Mexico City, amount, POS app version).
        case notEligible = "not_eligible"
        #if PAYHANDOFF_CHECKOUT_ONLY
        /// Only in the web's checkout module (`payhandoff-checkout.wasm`): the event or snapshot
        /// needs POS flows, refunds or the ledger, which that module leaves out. Its status is the
        /// web glue's own (-6): no native library returns it.
        case unsupported = "unsupported"
        #endif

        /// The code spelled `rawValue`, matched by UTF-8 bytes (not by `==`, which is Unicode
        /// canonical equivalence).
        public init?(rawValue: String) {
            guard let value = Code.matching(rawValue, among: Code.allCases) else { return nil }
            self = value
        }
    }

    /// The stable error code.
    public var code: Code {
        get { storage.code }
        set { storage = Storage(newValue, storage.field, storage.message) }
    }
    /// The input field the error is about (`"amount"`, `"data.checkout.checkout_url"`), if any.
    public var field: String? {
        get { storage.field }
        set { storage = Storage(storage.code, newValue, storage.message) }
    }
    /// A human-readable explanation. Never contains a secret.
    public var message: String {
        get { storage.message }
        set { storage = Storage(storage.code, storage.field, newValue) }
    }

    /// The values, in one box: every throwing function of the library passes an error as one
    /// pointer instead of five words (typed throws return a large error indirectly, and each
    /// `try` then copies and cleans it up).
    private final class Storage: Sendable {
        let code: Code
        let field: String?
        let message: String

        init(_ code: Code, _ field: String?, _ message: String) {
            self.code = code
            self.field = field
            self.message = message
        }
    }

    private var storage: Storage

    /// Creates an error.
    /// - Parameters:
    ///   - code: The stable error code.
    ///   - field: The offending input field, if the error is about one.
    ///   - message: A human-readable explanation; must not quote secrets.
    @inline(never)
    public init(_ code: Code, field: String? = nil, _ message: String) {
        storage = Storage(code, field, message)
    }

    /// Equal when the codes are and field and message have the same UTF-8 bytes.
    public static func == (lhs: PayHandoffError, rhs: PayHandoffError) -> Bool {
        lhs.code == rhs.code && lhs.field.hasSameBytes(as: rhs.field) && lhs.message.hasSameBytes(as: rhs.message)
    }

    /// `code [field]: message`, e.g. `validation [amount]: must be greater than 0`.
    public var description: String {
        if let field {
            return code.rawValue + " [" + field + "]: " + message
        }
        return code.rawValue + ": " + message
    }
}

extension PayHandoffError {
    /// `prefix`, the number, `suffix`: the one outlined builder of the messages that quote a
    /// limit (each `"…" + String(n) + "…"` inlined its own appends and integer printing).
    /// - Parameters:
    ///   - prefix: The text before the number.
    ///   - number: The number, in decimal.
    ///   - suffix: The text after it.
    /// - Returns: The message.
    @inline(never)
    static func text(_ prefix: String, _ number: Int, _ suffix: StaticString = "") -> String {
        prefix + String(number) + suffix.text
    }
}
