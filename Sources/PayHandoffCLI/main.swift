// The `payhandoff` command-line tool. For now it has one command, `demo`, which walks the
// Billpocket POS hand-off with the real core: build a sale URL, parse the POS app's answer
// (the seed's own example), check a refund. The full CLI comes with issue 8.
import PayHandoff
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func printDemo() throws(PayHandoffError) {
    print("== POS sale request ==")
    let sale = try POSRequest.sale(
        userToken: "demo-user-token", identifier: "order-2026-0042",
        amount: try Amount(parsing: "100.00"), urlScheme: "myapp",
        tip: try Amount(parsing: "15"), msi: 3,
        reference: "Pago & % # ( ) / @ con propina a 3 meses sin intereses")
    print(sale)
    print("open: " + sale.url)

    print("\n== POS answer ==")
    let answer = "myapp://result=aprobada&statusinfo=&amount=100.00&tip=15.00"
        + "&reference=Pago%20%26%20%25%20%23%20(%20)%20/%20@%20con%20propina%20a%203%20meses%20sin%20intereses"
        + "&transactionid=720371&msi=3&authorization=A1B2C3&creditcard=4242&accountType=credit"
        + "&identifier=order-2026-0042&bp_version=4.3.24"
    print("received: " + answer)
    let response = try POSResponse.parse(answer, urlScheme: "myapp", expectedIdentifier: sale.identifier)
    print("result: \(response.result.rawValue), amount \(response.amount?.decimalString ?? "-"), tip \(response.tip?.decimalString ?? "-"), card ****\(response.cardLastFour ?? "----")")
    print("reference: " + (response.reference ?? ""))

    print("\n== A spoofed answer for another sale ==")
    let spoof = "myapp://result=aprobada&amount=100.00&identifier=order-9999"
    do {
        _ = try POSResponse.parse(spoof, urlScheme: "myapp", expectedIdentifier: sale.identifier)
    } catch {
        print("rejected: \(error)")
    }

    print("\n== Refund check, 30 s and then 2 min after approval ==")
    let approvedAt: Int64 = 1_796_054_400  // 2026-11-30T10:00:00-06:00
    let original = RefundEligibility.Sale(transactionId: "720371", amount: try Amount(parsing: "100.00"),
                                          approvedAt: approvedAt, posAppVersion: response.posAppVersion)
    for now in [approvedAt + 30, approvedAt + 120, approvedAt + 13 * 3600 + 5] {
        let verdict = try RefundEligibility.check(sale: original, refundAmount: nil, now: now)
        print("at " + MexicoCityTime.iso8601(now) + ": " + (verdict.isEligible ? "eligible" : "not eligible"))
        for reason in verdict.reasons { print("  - " + reason.rawValue + ": " + verdict.explanation(of: reason)) }
    }
}

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "demo" {
    do {
        try printDemo()
    } catch {
        print("demo failed: \(error)")
        exit(1)
    }
} else {
    print("usage: payhandoff demo")
    exit(arguments.isEmpty ? 0 : 2)
}
