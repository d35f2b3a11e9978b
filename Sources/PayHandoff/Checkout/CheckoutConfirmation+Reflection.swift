#if !hasFeature(Embedded)
/// `print(confirmation)`, `dump` and debuggers show a confirmation without the reference of the
/// card token the gateway stored (as Kotlin's `toString()` leaves it out). (No reflection in
/// Embedded Swift.)
extension CheckoutConfirmation: CustomReflectable {
    /// The confirmation's fields, the token reference redacted.
    public var customMirror: Mirror {
        Mirror(self, children: [
            ("kind", kind), ("objectID", objectID), ("brand", brand as Any), ("lastFour", lastFour as Any),
            ("tokenReference", tokenReference.map { _ in Redaction.marker } as Any), ("amount", amount as Any),
            ("timestamps", timestamps),
        ], displayStyle: .struct)
    }
}
#endif
