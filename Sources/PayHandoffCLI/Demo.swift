import PayHandoff
import PayHandoffABI

/// `payhandoff demo`: both hand-offs end to end through one coordinator, with a simulated
/// gateway and a simulated POS app, on built-in sample data. Time and randomness are fixed, so
/// every run prints the same thing.
enum Demo {
    static let start: Int64 = 1_796_054_400_000  // 2026-11-30T10:00:00-06:00

    static func run() throws(PayHandoffError) {
        var coordinator = Coordinator()
        var random = SplitMix64(seed: 2026)
        var clock = start

        func step(_ title: String, _ answer: CoordinatorAnswer) {
            print("\n▸ \(title)  [t+\((clock - start) / 1000)s]")
            Commands.printAnswer(answer, showSecrets: false, indent: "  ")
        }
        func send(_ title: String, _ event: JSONValue, after seconds: Int64 = 1) throws(PayHandoffError) {
            clock += seconds * 1000
            guard case .object(var o) = event else { return }
            o["now"] = .integer(clock)
            step(title, coordinator.send(try CoordinatorEvent(json: .object(o)), using: &random))
        }
        func open(_ title: String, _ url: String, after seconds: Int64 = 1) {
            clock += seconds * 1000
            print("\n  (the OS hands the app \(url))")
            step(title, coordinator.handle(url: url, now: clock))
        }

        print("══ Card registration in the system browser tab ══")
        try send("The app starts a card registration (PayHandoff builds the gateway request)", [
            "type": "checkout.start", "flow_id": "card-1",
            "request": ["kind": "cards", "api_key": "sk_test_demo_4f8a", "return_url": "fixapp://checkout-callback",
                        "provider": "dinelco", "customer_id": "cus_42", "target_origin": ["https://fix.example.com"],
                        "customer": ["name": "Juan", "lastname": "Pérez", "email": "juan@example.com", "phone": "+595981234567"]],
        ], after: 0)
        guard case .checkout(let card)? = coordinator.flow(id: "card-1"), let nonce = card.nonce else { return }
        print("  (simulated gateway: 201 Created, data.registration.checkout_url)")
        try send("The host reports the gateway's answer", [
            "type": "checkout.session", "flow_id": "card-1",
            "session": ["kind": "cards", "status": 201,
                        "body": ["data": ["registration": ["id": "reg_7", "checkout_url": "https://pay.ingalca.com/checkout/reg_7"]]]],
        ])
        try send("The browser tab is open; the user answers the 3-D Secure challenge", ["type": "checkout.browser_opened", "flow_id": "card-1"])
        try send("The user closes the tab before the redirect (a race, not a failure)",
                 ["type": "checkout.browser_dismissed", "flow_id": "card-1"], after: 40)
        open("Another app sends a deep link without the nonce: refused, the tab stays as it is",
             "fixapp://checkout-callback?status=failed&reason=x")
        open("A spoofed deep link with a guessed nonce is refused",
             "fixapp://checkout-callback/ph_00000000000000000000000000000000?status=completed&card_id=card_evil")
        open("The gateway's redirect arrives after all (the nonce rides in the path)",
             card.returnURL.adding(nonce: nonce) + "?status=completed&card_id=card_xyz789", after: 2)
        try send("The backend relays the card.registered webhook: the only proof", [
            "type": "checkout.confirmation", "flow_id": "card-1",
            "event": ["type": "card.registered", "data": ["card_id": "card_xyz789", "brand": "visa", "last_four": "4242",
                                                         "token": "tok_9a1", "created_at": "2026-11-30T16:00:45Z"]],
        ], after: 3)

        print("\n══ Billpocket POS sale, app to app ══")
        try send("The app asks the POS app to charge 100.00 + 15.00 tip", [
            "type": "pos.start", "flow_id": "sale-1",
            "request": ["transaction": "venta", "usertoken": "bp_user_token_demo", "identifier": "order-2026-0042",
                        "amount": "100.00", "tip": "15.00", "urlScheme": "myapp",
                        "reference": "Pago & % # ( ) / @ con propina"],
        ], after: 10)
        try send("The POS app opened", ["type": "pos.launched", "flow_id": "sale-1"])
        let saved = JSONText.render(coordinator.snapshot)
        print("\n✝ The OS kills the app while the POS app is in front. Saved snapshot: \(saved.utf8.count) bytes, "
              + "user token inside: \(saved.contains("bp_user_token_demo") ? "YES (bug)" : "no"), API key inside: "
              + "\(saved.contains("sk_test_demo") ? "YES (bug)" : "no")")
        coordinator = try Coordinator(snapshot: JSONText.parse(saved, parameter: "snapshot"))
        print("↻ The app starts again and restores \(coordinator.flows.count) flows from the snapshot")
        guard case .pos(let pending)? = coordinator.flow(id: "sale-1") else { return }
        open("Another app forges an approval with the order number: refused (it lacks the hand-off's token)",
             "myapp://result=aprobada&amount=100.00&tip=15.00&transactionid=666&identifier=order-2026-0042", after: 20)
        let answer = "myapp://result=aprobada&statusinfo=&amount=100.00&tip=15.00"
            + "&reference=Pago%20%26%20%25%20%23%20(%20)%20/%20@%20con%20propina&transactionid=720371"
            + "&authorization=A1B2C3&creditcard=4242&accountType=credit&identifier=order-2026-0042~" + pending.token
            + "&bp_version=4.3.24"
        open("The POS app answers, echoing order-2026-0042~<token> (simulated Billpocket app: approved)", answer, after: 5)
        if case .pos(let sale)? = coordinator.flow(id: "sale-1"), let response = sale.response {
            print("  reference decoded exactly: \"\(response.reference ?? "")\"")
        }
        open("The same answer is delivered a second time", answer)

        print("\n══ Refunds ══")
        try send("A refund of the sale right away (the POS app would refuse it)", [
            "type": "pos.start", "flow_id": "refund-1", "sale_flow_id": "sale-1",
            "request": ["transaction": "devolucion", "usertoken": "bp_user_token_demo", "identifier": "refund-1",
                        "urlScheme": "myapp", "transactionId": "720371", "amount": "40.00"],
        ], after: 5)
        try send("A refund of yesterday's sale", [
            "type": "pos.start", "flow_id": "refund-2",
            "sale": ["transactionid": "719900", "amount": "250.00", "approved_at": .integer(start / 1000 - 86_400 + 3_600),
                     "bp_version": "4.3.9"],
            "request": ["transaction": "devolucion", "usertoken": "bp_user_token_demo", "identifier": "refund-2",
                        "urlScheme": "myapp", "transactionId": "719900", "amount": "300.00"],
        ])
        print("\nFinal states: " + coordinator.flows.map { "\($0.id)=\($0.stateName)" }.joined(separator: ", "))
    }
}
