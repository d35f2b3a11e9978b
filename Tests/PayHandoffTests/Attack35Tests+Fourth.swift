@_spi(JSONText) import PayHandoff
import XCTest

// Fourth attack on issue 35 (Y1–Y3): each failed at afabdda, before its fix.
extension Attack35Tests {
    /// Y2 (X4's sentinel): a host that passes `now: 0` ("time unknown", a binding's default) on
    /// one call — the `flow.remove` of an answered POS hand-off (sale and answer at the real
    /// time). The key is remembered until exactly 3 days after epoch 0, which `provenForgetting`
    /// leaves out (`until > horizon`), and the keys' clock (0) reads as lost: the next event at the
    /// real time counts no jump, the key ends, and the captured approval approves a new sale.
    func testA4X4AKeyForgottenAtEpochZeroEndsAtTheFirstRealEvent() throws {
        coordinator = Coordinator()
        let spent = token("x")
        let genuine = approval("p1", identifier: "ord-1", token: spent, transactionId: "555")
        XCTAssertEqual(try sale("p1", identifier: "ord-1", token: spent, at: t0).outcome, .accepted)
        try send(["type": "pos.launched", "now": .integer(t0 + 500), "flow_id": "p1"])
        XCTAssertEqual(coordinator.handle(url: genuine, now: t0 + 1_000).outcome, .accepted)
        XCTAssertEqual(try send(["type": "flow.remove", "now": 0, "flow_id": "p1"]).outcome, .accepted)
        XCTAssertEqual(coordinator.rememberedKeys.keys.count, 1)
        try send(["type": "tick", "now": .integer(t0 + 60_000)])
        XCTAssertEqual(try sale("p2", identifier: "ord-1", token: spent, at: t0 + 61_000).error?.code, .conflict,
                       "one remove at now 0, then the real time: the spent token is free")
        // The captured approval, its transactionid changed (the token is all it needs): approves p2.
        let replay = approval("p1", identifier: "ord-1", token: spent, transactionId: "556")
        XCTAssertNotEqual(coordinator.handle(url: replay, now: t0 + 62_000).outcome, .accepted, "the captured approval approves p2")
    }

    /// X6 beyond the ledger: `refunded_sales` moved out of the ledger to the document's root
    /// (strict refuses the unknown root member). Salvage drops the root member, finds no
    /// `refunded_sales` and no unknown member in the ledger (X6's rule does not fire) and raises no
    /// watermark: with a token the coordinator makes (the root's unknown member locks host-given
    /// keys, which hides it from hosts that always pass one), the sale refunded in full is refunded again.
    func testA4X6RefundedSalesMovedToTheRootIsLost() throws {
        let document = try damagedLedger { d, l in d["refunded_sales"] = l["refunded_sales"]; l["refunded_sales"] = nil }
        XCTAssertThrowsError(try Coordinator(snapshot: .object(document)))
        let salvage = try Coordinator.Salvage(snapshot: .object(document))
        coordinator = salvage.coordinator
        let again = try refundByDocumentOwnToken("r2", approvedAt: t0 + 1_000, at: t0 + 600_000)
        XCTAssertNotEqual(again.outcome, .accepted, "dropped " + salvage.dropped.map { $0.member }.joined(separator: ", ")
                          + ": a sale refunded in full is refunded again")
    }
}

extension Attack35Tests {
    /// Y1, other places outside the ledger: `refunded_sales` moved into `config`, or into the
    /// first remembered key's array.
    func testA4X6RefundedSalesMovedIntoConfigIsLost() throws {
        let shapes: [(String, (inout JSONObject, inout JSONObject) -> Void)] = [
            ("moved into config", { d, l in
                if case .object(var c)? = d["config"] { c["refunded_sales"] = l["refunded_sales"]; d["config"] = .object(c) }
                l["refunded_sales"] = nil }),
            ("moved into the root's latest_event place", { d, l in d["latest_evenx"] = l["refunded_sales"]; l["refunded_sales"] = nil }),
        ]
        for (label, damage) in shapes {
            let document = try damagedLedger(damage)
            XCTAssertThrowsError(try Coordinator(snapshot: .object(document)), label)
            let salvage = try Coordinator.Salvage(snapshot: .object(document))
            coordinator = salvage.coordinator
            let again = try refundByDocumentOwnToken("r2", approvedAt: t0 + 1_000, at: t0 + 600_000)
            XCTAssertNotEqual(again.outcome, .accepted, label + ": dropped " + salvage.dropped.map { $0.member }.joined(separator: ", "))
        }
    }
}

extension Attack35Tests {
    /// Y3: X6's rule only for `version` 4: the version byte damaged to 3 and `refunded_sales`
    /// renamed (two one-byte damages): salvage reads a "format-3" ledger with an unknown member,
    /// no watermark: the sale refunded in full is refunded again.
    func testA4X6VersionDamagedTo3AndRefundedSalesRenamed() throws {
        let document = try damagedLedger { d, l in
            d["version"] = 3
            l["refunded_salds"] = l["refunded_sales"]; l["refunded_sales"] = nil
        }
        let salvage = try Coordinator.Salvage(snapshot: .object(document))
        coordinator = salvage.coordinator
        let again = try refundByDocumentOwnToken("r2", approvedAt: t0 + 1_000, at: t0 + 600_000)
        XCTAssertNotEqual(again.outcome, .accepted, "dropped " + salvage.dropped.map { $0.member }.joined(separator: ", "))
    }
}
