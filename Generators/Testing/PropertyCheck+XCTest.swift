import PetSpotPropertyEngine
import XCTest

/// Checks `property` and calls `XCTFail` at the caller's file and line unless it passes.
///
/// The failure message is the result's report: shrunk and original counterexample, error,
/// seed and a copy-paste replay line.
/// - Returns: The result, for further inspection.
@discardableResult
public func XCTAssertProperty<Value>(
    _ property: Property<Value>, configuration: PropertyConfiguration = PropertyConfiguration(),
    file: StaticString = #filePath, line: UInt = #line
) -> PropertyResult<Value> {
    let result = property.check(configuration)
    if !result.isPassed {
        XCTFail(result.report, file: file, line: line)
    }
    return result
}

/// Checks that `body` returns `true` for values of `gen`, failing at the caller's line otherwise.
///
/// - Parameters:
///   - name: The property's name; by default the calling test method's.
///   - gen: The generator of inputs.
///   - configuration: Cases, seed, sizes and shrink budgets (the `PETSPOT_*` variables apply).
///   - coverage: Labels that must each cover a minimum share of cases.
///   - body: The property; return `false` or throw to fail a case.
/// - Returns: The result, for further inspection.
@discardableResult
public func XCTAssertProperty<Value>(
    _ gen: Gen<Value>, name: String = #function, configuration: PropertyConfiguration = PropertyConfiguration(),
    coverage: [CoverageRequirement] = [], file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping (Value) throws -> Bool
) -> PropertyResult<Value> {
    var property = Property(_propertyName(name), gen, body)
    for requirement in coverage {
        property = property.requireCoverage(requirement.label, atLeast: requirement.minimumPercent)
    }
    return XCTAssertProperty(property, configuration: configuration, file: file, line: line)
}

/// Checks that `body` does not throw for values of `gen`, failing at the caller's line otherwise.
@discardableResult
public func XCTAssertProperty<Value>(
    _ gen: Gen<Value>, name: String = #function, configuration: PropertyConfiguration = PropertyConfiguration(),
    coverage: [CoverageRequirement] = [], file: StaticString = #filePath, line: UInt = #line,
    verifying body: @escaping (Value) throws -> Void
) -> PropertyResult<Value> {
    XCTAssertProperty(gen, name: name, configuration: configuration, coverage: coverage, file: file, line: line) { value in
        try body(value)
        return true
    }
}
