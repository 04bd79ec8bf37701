import PetSpotPropertyEngine
import Testing

/// Turns `#function` (`"name(arguments:)"`) into a name usable with `swift test --filter`.
package func _propertyName(_ function: String) -> String {
    if let parenthesis = function.firstIndex(of: "(") { return String(function[..<parenthesis]) }
    return function
}

/// Checks `property` and records an issue at the caller's source location unless it passes.
///
/// The issue's comment is the result's report: for a failure, the shrunk and original
/// counterexample, the error, the seed and a copy-paste replay line
/// (`PETSPOT_SEED=… swift test --filter …`).
/// ```swift
/// @Test func stacksPushAndPop() {
///     propertyCheck(StackMachine().property(name: "stacksPushAndPop"))
/// }
/// ```
/// - Returns: The result, for further inspection.
@discardableResult
public func propertyCheck<Value>(
    _ property: Property<Value>, configuration: PropertyConfiguration = PropertyConfiguration(),
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) -> PropertyResult<Value> {
    let result = property.check(configuration)
    if !result.isPassed {
        Issue.record(
            Comment(rawValue: result.report),
            sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    return result
}

/// Checks that `body` returns `true` for values of `gen`, recording an issue at the caller's line otherwise.
///
/// - Parameters:
///   - name: The property's name; by default the calling function's, so the replay line's
///     `--filter` selects the test.
///   - gen: The generator of inputs.
///   - configuration: Cases, seed, sizes and shrink budgets (the `PETSPOT_*` variables apply).
///   - coverage: Labels that must each cover a minimum share of cases.
///   - body: The property; return `false` or throw to fail a case.
/// - Returns: The result, for further inspection.
@discardableResult
public func propertyCheck<Value>(
    _ gen: Gen<Value>, name: String = #function, configuration: PropertyConfiguration = PropertyConfiguration(),
    coverage: [CoverageRequirement] = [],
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ body: @escaping (Value) throws -> Bool
) -> PropertyResult<Value> {
    var property = Property(_propertyName(name), gen, body)
    for requirement in coverage {
        property = property.requireCoverage(requirement.label, atLeast: requirement.minimumPercent)
    }
    return propertyCheck(
        property, configuration: configuration, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Checks that `body` does not throw for values of `gen`, recording an issue at the caller's line otherwise.
///
/// Same as the Boolean form; `#expect` inside `body` is not how to fail a case: throw (for
/// example with ``require(_:_:)``), so that the engine sees the failure and shrinks it.
@discardableResult
public func propertyCheck<Value>(
    _ gen: Gen<Value>, name: String = #function, configuration: PropertyConfiguration = PropertyConfiguration(),
    coverage: [CoverageRequirement] = [],
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    verifying body: @escaping (Value) throws -> Void
) -> PropertyResult<Value> {
    propertyCheck(
        gen, name: name, configuration: configuration, coverage: coverage,
        fileID: fileID, filePath: filePath, line: line, column: column
    ) { value in
        try body(value)
        return true
    }
}
