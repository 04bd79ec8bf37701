import Foundation
import PetSpotPropertyEngine
import Testing

/// Turns `#function` (`"name(arguments:)"`) into a name usable with `swift test --filter`.
package func propertyName(fromFunction function: String) -> String {
    if let parenthesis = function.firstIndex(of: "(") { return String(function[..<parenthesis]) }
    return function
}

/// Where a test helper reports a property that did not pass: the report and the caller's location.
///
/// The public helpers record a Swift Testing issue; the engine's own tests pass a recorder that
/// captures the report instead, so that checking a failure message prints nothing.
package typealias IssueRecorder = (_ report: String, _ location: SourceLocation) -> Void

/// The identity of the running Swift Testing test, plus `arguments` when given: what keys a
/// property's failure-database entry (see ``Property/identified(by:)``).
///
/// `MyModule/MySuite/dates(zone:) | Asia/Tokyo`: the test's module and name components, then
/// the arguments' description. `nil` outside a test when no arguments are given.
package func testIdentity(arguments: String?) -> String? {
    var parts: [String] = []
    if let id = Test.current?.id { parts.append(([id.moduleName] + id.nameComponents).joined(separator: "/")) }
    if let arguments { parts.append(arguments) }
    return parts.isEmpty ? nil : parts.joined(separator: " | ")
}

/// Checks `property` and records an issue at the caller's source location unless it passes.
///
/// The issue's comment is the result's report: for a failure, the shrunk and original
/// counterexample, whether the shrunk one is minimal or why shrinking stopped short ("not
/// minimal: shrinking stopped after 20000 replays"), the error, the seed and a copy-paste
/// replay line (`PETSPOT_SEED=… swift test --filter …`).
/// ```swift
/// @Test func stacksPushAndPop() {
///     propertyCheck(StackMachine().property(name: "stacksPushAndPop"))
/// }
/// ```
/// - Parameters:
///   - property: The property to check.
///   - configuration: Cases, seed, sizes and shrink budgets (the `PETSPOT_*` variables apply).
///   - arguments: For a parameterized test, a description of the arguments of this call
///     (`"\(zone)"`), so that each case keeps its own entry in the failure database. The
///     running test's identity is added to the property's failure-database key either way.
/// - Returns: The result, for further inspection.
@discardableResult
public func propertyCheck<Value>(
    _ property: Property<Value>, configuration: PropertyConfiguration = PropertyConfiguration(), arguments: String? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) -> PropertyResult<Value> {
    propertyCheck(
        property, configuration: configuration, arguments: arguments,
        fileID: fileID, filePath: filePath, line: line, column: column,
        recordingIssues: { report, location in Issue.record(Comment(rawValue: report), sourceLocation: location) })
}

/// Checks that `body` returns `true` for values of `gen`, recording an issue at the caller's line otherwise.
///
/// - Parameters:
///   - name: The property's name; by default the calling function's, so the replay line's
///     `--filter` selects the test.
///   - gen: The generator of inputs.
///   - configuration: Cases, seed, sizes and shrink budgets (the `PETSPOT_*` variables apply).
///   - coverage: Labels that must each cover a minimum share of cases.
///   - arguments: For a parameterized test, a description of this call's arguments, which keeps
///     each case's failure-database entry apart.
///   - body: The property; return `false` or throw to fail a case.
/// - Returns: The result, for further inspection.
@discardableResult
public func propertyCheck<Value>(
    _ gen: Gen<Value>, name: String = #function, configuration: PropertyConfiguration = PropertyConfiguration(),
    coverage: [CoverageRequirement] = [], arguments: String? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ body: @escaping (Value) throws -> Bool
) -> PropertyResult<Value> {
    propertyCheck(
        property(name: name, gen, coverage: coverage, body), configuration: configuration, arguments: arguments,
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Checks that `body` does not throw for values of `gen`, recording an issue at the caller's line otherwise.
///
/// Same as the Boolean form; `#expect` inside `body` is not how to fail a case: throw (for
/// example with ``require(_:_:)``), so that the engine sees the failure and shrinks it.
@discardableResult
public func propertyCheck<Value>(
    _ gen: Gen<Value>, name: String = #function, configuration: PropertyConfiguration = PropertyConfiguration(),
    coverage: [CoverageRequirement] = [], arguments: String? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    verifying body: @escaping (Value) throws -> Void
) -> PropertyResult<Value> {
    propertyCheck(
        gen, name: name, configuration: configuration, coverage: coverage, arguments: arguments,
        fileID: fileID, filePath: filePath, line: line, column: column
    ) { value in
        try body(value)
        return true
    }
}

/// The property the Gen-based helpers check: named after the calling function, with coverage requirements.
package func property<Value>(
    name: String, _ gen: Gen<Value>, coverage: [CoverageRequirement], _ body: @escaping (Value) throws -> Bool
) -> Property<Value> {
    var property = Property(propertyName(fromFunction: name), gen, body)
    for requirement in coverage {
        property = property.requireCoverage(requirement.label, atLeast: requirement.minimumPercent)
    }
    return property
}

/// Checks `property` and hands its report to `record` unless it passes: the work behind every
/// Swift Testing helper, with the recorder as a parameter.
///
/// The property's failure-database key gets the running test's identity and `arguments`
/// (unless the property already has an identity). A parameterized test that gives no
/// `arguments` while a failure database is in use gets a warning on standard error: its cases
/// share one entry.
@discardableResult
package func propertyCheck<Value>(
    _ property: Property<Value>, configuration: PropertyConfiguration = PropertyConfiguration(), arguments: String? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    recordingIssues record: IssueRecorder
) -> PropertyResult<Value> {
    let identified = property.identity == nil ? property.identified(by: testIdentity(arguments: arguments)) : property
    if arguments == nil, Test.Case.current?.isParameterized == true, usesFailureDatabase(configuration) {
        FileHandle.standardError.write(Data((
            "PetSpotPropertyEngine: property \"\(property.name)\" runs in a parameterized test without `arguments:`; "
                + "its cases share one failure-database entry\n").utf8))
    }
    let result = identified.check(configuration)
    if !result.isPassed {
        record(result.report, SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    return result
}

/// Whether a check with `configuration` saves and replays failures.
private func usesFailureDatabase(_ configuration: PropertyConfiguration) -> Bool {
    if configuration.failureDirectory != nil { return true }
    guard configuration.readsEnvironment else { return false }
    return !(ProcessInfo.processInfo.environment[PropertyConfiguration.failureDirectoryVariable] ?? "").isEmpty
}
