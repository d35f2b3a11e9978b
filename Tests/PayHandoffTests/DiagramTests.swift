import Foundation
import PayHandoff
import XCTest

/// The Mermaid state diagrams of docs/state-diagrams.md must list exactly the states the machines have.
final class DiagramTests: XCTestCase {
    func diagrams() throws -> [Set<String>] {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/state-diagrams.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        var result: [Set<String>] = []
        for block in text.components(separatedBy: "```mermaid").dropFirst() {
            guard let body = block.components(separatedBy: "```").first, body.contains("stateDiagram-v2") else { continue }
            var states = Set<String>()
            for line in body.split(separator: "\n") where line.contains("-->") {
                let transition = line.split(separator: ":", maxSplits: 1)[0]
                for side in transition.components(separatedBy: "-->") {
                    let name = side.trimmingCharacters(in: .whitespaces)
                    if name != "[*]" { states.insert(name) }
                }
            }
            result.append(states)
        }
        return result
    }

    func testDiagramsListExactlyTheStatesOfTheCode() throws {
        let found = try diagrams()
        XCTAssertEqual(found.count, 2, "docs/state-diagrams.md must have the checkout and the POS stateDiagram-v2")
        guard found.count == 2 else { return }
        XCTAssertEqual(found[0], Set(CheckoutFlow.State.allCases.map(\.rawValue)))
        XCTAssertEqual(found[1], Set(POSFlow.State.allCases.map(\.rawValue)))
    }
}
