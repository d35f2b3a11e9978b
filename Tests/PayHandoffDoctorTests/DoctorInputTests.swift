import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
@testable import PayHandoffDoctor

/// Bad input: every file doctor cannot use is one clear error that names it, never a crash or
/// a hang, and the other files are still checked.
final class DoctorInputTests: DoctorTestCase {
    /// The one finding about `path` when doctor is given it as `member`.
    func refusal(_ path: String, as member: WritableKeyPath<Doctor.Input, String?>, file: StaticString = #filePath, line: UInt = #line) -> String {
        var input = Doctor.Input()
        input.returnURL = "https://fix.example.com/checkout-callback"
        input.posScheme = "myapp"
        input[keyPath: member] = path
        let report = Doctor.check(input)
        let findings = report.findings.filter { $0.file == path }
        XCTAssertEqual(findings.count, 1, "\(findings)", file: file, line: line)
        XCTAssertEqual(findings.first?.rule, .inputReadable, file: file, line: line)
        XCTAssertEqual(findings.first?.severity, .error, file: file, line: line)
        XCTAssertTrue(report.hasErrors, file: file, line: line)
        let message = findings.first?.message ?? ""
        XCTAssertTrue(message.hasPrefix(path + ": "), "the message names the file: \(message)", file: file, line: line)
        return message
    }

    func testManifestsThatAreNotWellFormedXML() {
        XCTAssertTrue(refusal(fixture("android/bad/truncated.xml"), as: \.androidManifest).contains("is not well-formed XML"))
        XCTAssertTrue(refusal(fixture("android/bad/not-xml.txt"), as: \.androidManifest).contains("is not well-formed XML"))
        XCTAssertTrue(refusal(fixture("android/bad/empty.xml"), as: \.androidManifest).contains("has no XML element"))
        XCTAssertTrue(refusal(fixture("android/bad/wrong-root.xml"), as: \.androidManifest).contains("the root element is <resources>, not <manifest>"))
        XCTAssertTrue(refusal(fixture("android/bad/compiled-manifest.bin"), as: \.androidManifest).contains("compiled binary manifest"))
    }

    /// XMLParser.parse() answers true for a document cut off after a complete tag while it sets
    /// parserError; doctor checks both, so the truncated file is refused, not half-read.
    func testATruncatedManifestIsRefusedThoughTheParserAnswersTrue() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture("android/bad/truncated.xml")))
        let parser = XMLParser(data: data)
        let finished = parser.parse()
        XCTAssertNotNil(parser.parserError)
        let message = refusal(fixture("android/bad/truncated.xml"), as: \.androidManifest)
        if finished { XCTAssertTrue(message.contains("ends early"), message) }
    }

    func testAnEntityBombIsRefused() {
        let message = refusal(fixture("android/bad/entity-bomb.xml"), as: \.androidManifest)
        XCTAssertTrue(message.contains("is not well-formed XML"), message)
        XCTAssertFalse(refusal(fixture("ios/bad/entity-bomb.plist"), as: \.infoPlist).isEmpty)
    }

    func testDeepNestingIsRefused() throws {
        let path = folder.appendingPathComponent("deep.xml").path
        let deep = String(repeating: "<a>", count: InputFile.maxDepth + 1) + String(repeating: "</a>", count: InputFile.maxDepth + 1)
        try ("<manifest>" + deep + "</manifest>").write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertTrue(refusal(path, as: \.androidManifest).contains("deeper than \(InputFile.maxDepth) levels"))
    }

    func testMissingDirectoryHugeAndSpecialFiles() throws {
        let missing = folder.appendingPathComponent("no/such/AndroidManifest.xml").path
        XCTAssertTrue(refusal(missing, as: \.androidManifest).hasSuffix("no such file"))
        XCTAssertTrue(refusal(folder.path, as: \.infoPlist).contains("is a directory"))

        // Over the limit by one byte: refused by its size, before a byte is read (sparse file).
        let huge = folder.appendingPathComponent("huge.xml").path
        XCTAssertTrue(FileManager.default.createFile(atPath: huge, contents: Data("<manifest>".utf8)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: UInt64(InputFile.maxBytes + 1))
        try handle.close()
        XCTAssertTrue(refusal(huge, as: \.androidManifest).contains("is \(InputFile.maxBytes + 1) bytes"))

        // A FIFO with no writer would block a read forever: refused without opening it.
        let fifo = folder.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertTrue(refusal(fifo, as: \.expoConfig).contains("is not a regular file"))
        XCTAssertTrue(refusal("/dev/zero", as: \.assetLinks).contains("is not a regular file"))
    }

    /// Running as root, permissions never stop a read, so "unreadable" is tested with what
    /// root cannot read either: a directory (above) and a file that vanishes (here, a
    /// dangling symbolic link).
    func testADanglingLinkIsRefused() throws {
        let link = folder.appendingPathComponent("Info.plist").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.appendingPathComponent("gone").path)
        XCTAssertTrue(refusal(link, as: \.infoPlist).hasSuffix("no such file"))
    }

    func testPropertyListsXMLAndBinary() throws {
        // The committed binary fixture (written by Python's plistlib) and one written here by
        // Foundation read as the XML original does.
        let xml = try InputFile.propertyList(at: fixture("ios/Info.plist"))
        let binary = try InputFile.propertyList(at: fixture("ios/Info-binary.plist"))
        XCTAssertTrue(try Data(contentsOf: URL(fileURLWithPath: fixture("ios/Info-binary.plist"))).starts(with: Array("bplist00".utf8)))
        XCTAssertEqual(NSDictionary(dictionary: xml), NSDictionary(dictionary: binary))
        let written = folder.appendingPathComponent("Info.plist").path
        try PropertyListSerialization.data(fromPropertyList: xml, format: .binary, options: 0).write(to: URL(fileURLWithPath: written))
        XCTAssertEqual(NSDictionary(dictionary: try InputFile.propertyList(at: written)), NSDictionary(dictionary: xml))

        XCTAssertTrue(refusal(fixture("ios/bad/corrupt-binary.plist"), as: \.infoPlist).hasSuffix("is a corrupt or truncated binary property list"))
        XCTAssertTrue(refusal(fixture("ios/bad/truncated-binary.plist"), as: \.infoPlist).hasSuffix("is a corrupt or truncated binary property list"))
        XCTAssertTrue(refusal(fixture("ios/bad/not-a-dict.plist"), as: \.infoPlist).contains("top level is not a dictionary"))
        XCTAssertTrue(refusal(fixture("android/bad/not-xml.txt"), as: \.entitlements).contains("is not a property list"))
    }

    func testJSONFiles() {
        XCTAssertTrue(refusal(fixture("expo/bad/app.config.js"), as: \.expoConfig).contains("npx expo config --type public --json"))
        XCTAssertTrue(refusal(fixture("ios/Info.plist"), as: \.assetLinks).contains("is not JSON"))
        XCTAssertTrue(refusal(fixture("android/AndroidManifest.xml"), as: \.appleAppSiteAssociation).contains("is not JSON"))
    }

    /// One unusable file does not stop the others from being checked.
    func testTheOtherFilesAreStillChecked() {
        var input = Doctor.Input()
        input.returnURL = "fixapp://checkout-callback"
        input.posScheme = "myapp"
        input.androidManifest = fixture("android/bad/entity-bomb.xml")
        input.infoPlist = fixture("ios/Info.plist")
        let report = Doctor.check(input)
        XCTAssertTrue(report.findings.contains { $0.file == input.infoPlist && $0.rule == .iosURLSchemes && $0.severity == .ok })
        XCTAssertEqual(report.findings.filter { $0.severity == .error }.map { $0.rule }, [.inputReadable])
    }
}
