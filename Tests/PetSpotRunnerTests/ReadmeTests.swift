import Foundation
import PetSpotContractGroups
@testable import PetSpotReport
import PetSpotRunner
import Testing

/// What README.md says that the code decides.
@Suite("README")
struct ReadmeTests {
    static var readme: String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }

    @Test("every report version the README names is ContractReport.reportVersion")
    func reportVersion() throws {
        let text = Self.readme
        let pattern = try NSRegularExpression(pattern: "`reportVersion` ([0-9]+)")
        let versions = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).flatMap { Int(text[$0]) }
        }
        #expect(!versions.isEmpty, "the README names no report version")
        #expect(versions.allSatisfy { $0 == ContractReport.reportVersion }, "README: \(versions), reports: \(ContractReport.reportVersion)")
    }

    @Test("the README says how to put petspot-contracts on the PATH")
    func installLine() {
        let text = Self.readme
        #expect(text.contains("swift build -c release --product petspot-contracts"))
        #expect(text.contains("install .build/release/petspot-contracts /usr/local/bin/"))
        #expect(text.contains(#"export PATH="$PWD/.build/release:$PATH""#))
    }

    @Test("every backend group of the registry has its row in the README's table of what run checks")
    func everyGroupDescribed() {
        let text = Self.readme
        guard let start = text.range(of: "### What `run` checks") else {
            Issue.record("README.md has no section \"What `run` checks\"")
            return
        }
        let section = String(text[start.upperBound...]).components(separatedBy: "\n### ").first ?? ""
        let described = Set(section.split(separator: "\n").filter { $0.hasPrefix("| ") }.flatMap { row in
            (row.split(separator: "|").first ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        })
        let missing = ContractRegistry.groups.compactMap { $0 as? any BackendContractGroup }.map(\.name).filter { !described.contains($0) }
        #expect(missing.isEmpty, "README.md's table \"What `run` checks\" has no row for: \(missing.joined(separator: ", "))")
    }
}
