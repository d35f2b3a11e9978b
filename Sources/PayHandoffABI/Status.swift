import CcJSON
#if !PAYHANDOFF_SINGLE_MODULE
@_spi(JSONText) import PayHandoff
#endif

/// The pinned status numbers of include/payhandoff.h. Never renumber or reuse one: bindings
/// compiled against an older header switch on them.
extension PayHandoffError.Code {
    var status: Int32 {
        switch self {
        case .invalidArgument: return 1
        case .invalidJSON: return 2
        case .validation: return 3
        case .malformedURL: return 4
        case .callbackMismatch: return 5
        case .unknownFlow: return 6
        case .duplicate: return 7
        case .invalidState: return 8
        case .unsupportedVersion: return 9
        case .limitExceeded: return 10
        case .gatewayError: return 11
        case .conflict: return 12
        case .notEligible: return 13
        #if PAYHANDOFF_CHECKOUT_ONLY
        case .unsupported: return -6  // the web glue's GLUE_STATUS.unsupported (bindings/web/src/errors.ts)
        #endif
        }
    }
}

/// `char **out` as Swift sees it (public only because the `@_cdecl` functions use it).
public typealias OutString = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

/// Runs `body` and writes its result's document, or its error as `{"code","field","message"}`,
/// to `out`: each document goes straight from the core into cJSON's tree (``JSONText/print(writing:)``).
/// - Parameters:
///   - out: Where the malloc'd JSON text goes; NULL makes the call fail without writing.
///   - body: The call.
///   - write: Writes the result's document.
/// - Returns: 0, or the error's pinned status.
func respond<Result>(_ out: OutString?, _ body: () throws(PayHandoffError) -> Result,
                     writing write: (Result, JSONText.TreeWriter) -> Void) -> Int32 {
    guard let out else { return PayHandoffError.Code.invalidArgument.status }
    do throws(PayHandoffError) {
        let result = try body()
        out.pointee = JSONText.print { write(result, $0) }
        return 0
    } catch {
        return fail(out, error)
    }
}

/// Writes `error` as `{"code","field","message"}` to `out`.
/// - Returns: The error's pinned status.
@inline(never)
func fail(_ out: OutString, _ error: PayHandoffError) -> Int32 {
    out.pointee = JSONText.print { error.write(to: $0) }
    return error.code.status
}
