/// How a terminal app is started on Android: the `intent` of `pos_build_url`'s answer and of the
/// `open_pos_app` effect. Billpocket's extras are all strings; Square's `TOTAL_AMOUNT` is an
/// `int` extra and its `TENDER_TYPES` a string list, Clip's flags booleans, so each extra says
/// its type when it is not a string. SumUp is started by `ACTION_VIEW` on a URI (``data``), Clip
/// by an explicit ``component``.
///
/// Secret-bearing for SumUp (the affiliate key is in ``data``): never log it.
public struct POSIntent: Equatable, Sendable {
    /// One intent extra.
    public struct Extra: Equatable, Sendable {
        /// An extra's value, in the Java type the app reads.
        public enum Value: Equatable, Sendable {
            /// `putExtra(String, String)`.
            case string(String)
            /// `putExtra(String, int)`.
            case int(Int64)
            /// `putExtra(String, long)`.
            case long(Int64)
            /// `putExtra(String, boolean)`.
            case bool(Bool)
            /// `putStringArrayListExtra` (a list of strings).
            case stringArray([String])

            /// Equal when the type and the value are (strings by UTF-8 bytes).
            public static func == (lhs: Value, rhs: Value) -> Bool {
                switch (lhs, rhs) {
                case let (.string(a), .string(b)): return a.hasSameBytes(as: b)
                case let (.int(a), .int(b)), let (.long(a), .long(b)): return a == b
                case let (.bool(a), .bool(b)): return a == b
                case let (.stringArray(a), .stringArray(b)):
                    return a.count == b.count && zip(a, b).allSatisfy { $0.hasSameBytes(as: $1) }
                default: return false
                }
            }
        }

        /// The extra's key.
        public let key: String
        /// Its value.
        public let value: Value

        /// An extra.
        /// - Parameters:
        ///   - key: The key.
        ///   - value: The value, typed.
        public init(key: String, value: Value) {
            self.key = key
            self.value = value
        }

        /// Equal when key and value are.
        public static func == (lhs: Extra, rhs: Extra) -> Bool { lhs.key.hasSameBytes(as: rhs.key) && lhs.value == rhs.value }
    }

    /// The intent's action.
    public let action: String
    /// The package (`setPackage`), if the intent names one.
    public let package: String?
    /// The component `"pkg/class"` (`setComponent`), if the intent names one.
    public let component: String?
    /// The data URI (`setData`), if any.
    public let data: String?
    /// The extras, in order.
    public let extras: [Extra]

    /// An intent.
    /// - Parameters:
    ///   - action: The action.
    ///   - package: The package, if any.
    ///   - component: The component `"pkg/class"`, if any.
    ///   - data: The data URI, if any.
    ///   - extras: The extras, in order.
    public init(action: String, package: String?, component: String?, data: String?, extras: [Extra]) {
        self.action = action
        self.package = package
        self.component = component
        self.data = data
        self.extras = extras
    }

    /// Equal when every member is (strings by UTF-8 bytes).
    public static func == (lhs: POSIntent, rhs: POSIntent) -> Bool {
        lhs.action.hasSameBytes(as: rhs.action) && lhs.package.hasSameBytes(as: rhs.package)
            && lhs.component.hasSameBytes(as: rhs.component) && lhs.data.hasSameBytes(as: rhs.data) && lhs.extras == rhs.extras
    }

    /// Writes `{"action", "package"?, "component"?, "data"?, "extras": [{"key", "value"} |
    /// {"key", "type", "value"}]}` (a string extra has no `type`, as Billpocket's always were).
    /// - Parameter writer: Where the document goes.
    @_spi(JSONText)
    public func write(to writer: JSONWriter) {
        writer.beginObject()
        writer.member("action", string: action)
        writer.optionalMember("package", string: package)
        writer.optionalMember("component", string: component)
        writer.optionalMember("data", string: data)
        writer.beginArray("extras")
        for extra in extras {
            writer.beginObject()
            writer.member("key", string: extra.key)
            switch extra.value {
            case .string(let value): writer.member("value", string: value)
            case .int(let value):
                writer.member("type", string: "int")
                writer.member("value", integer: value)
            case .long(let value):
                writer.member("type", string: "long")
                writer.member("value", integer: value)
            case .bool(let value):
                writer.member("type", string: "bool")
                writer.member("value", bool: value)
            case .stringArray(let values):
                writer.member("type", string: "string_array")
                writer.member("value", strings: values)
            }
            writer.end()
        }
        writer.end()
        writer.end()
    }
}

extension [POSIntent.Extra] {
    /// Appends the extra `key` when there is a `value` (every app's intent builder: one call per
    /// extra, not an inlined append each).
    /// - Parameters:
    ///   - key: The extra's name.
    ///   - value: Its value, or `nil` to leave it out.
    @inline(never)
    mutating func add(_ key: StaticString, _ value: POSIntent.Extra.Value?) {
        if let value { append(POSIntent.Extra(key: key.text, value: value)) }
    }

    /// Appends the string extra `key` when there is a `value` (no `.string` wrapped at each call).
    /// - Parameters:
    ///   - key: The extra's name.
    ///   - value: Its value, or `nil` to leave it out.
    @inline(never)
    mutating func add(_ key: StaticString, string value: String?) {
        add(key, value.map { .string($0) })
    }

    /// Appends the boolean extra `key` when there is a `value`.
    /// - Parameters:
    ///   - key: The extra's name.
    ///   - value: Its value, or `nil` to leave it out.
    @inline(never)
    mutating func add(_ key: StaticString, bool value: Bool?) {
        add(key, value.map { .bool($0) })
    }
}

extension [QueryItem] {
    /// Appends `key=value` when there is a `value` (the apps' request URLs).
    /// - Parameters:
    ///   - key: The key.
    ///   - value: The value, or `nil` to leave it out.
    @inline(never)
    mutating func add(_ key: StaticString, _ value: String?) {
        if let value { append(QueryItem(key: key.text, value: value)) }
    }
}
