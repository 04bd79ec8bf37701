import PetSpotPropertyEngine
import XCTest

/// Checks `property` and calls `XCTFail` at the caller's file and line unless it passes.
///
/// The failure message is the result's report: shrunk and original counterexample, whether the
/// shrunk one is minimal or why shrinking stopped short, error, seed and a copy-paste replay line.
/// - Parameters:
///   - property: The property to check.
///   - configuration: Cases, seed, sizes and shrink budgets (the `PETSPOT_*` variables apply).
///   - arguments: A description of the inputs that distinguish this check from others of the
///     same property name (a loop over zones), keying its own failure-database entry.
/// - Returns: The result, for further inspection.
@discardableResult
public func XCTAssertProperty<Value>(
    _ property: Property<Value>, configuration: PropertyConfiguration = PropertyConfiguration(), arguments: String? = nil,
    file: StaticString = #filePath, line: UInt = #line
) -> PropertyResult<Value> {
    let identified = property.identity == nil && arguments != nil ? property.identified(by: arguments) : property
    let result = identified.check(configuration)
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
///   - arguments: A description of the inputs that distinguish this check, keying its own
///     failure-database entry.
///   - body: The property; return `false` or throw to fail a case.
/// - Returns: The result, for further inspection.
@discardableResult
public func XCTAssertProperty<Value>(
    _ gen: Gen<Value>, name: String = #function, configuration: PropertyConfiguration = PropertyConfiguration(),
    coverage: [CoverageRequirement] = [], arguments: String? = nil, file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping (Value) throws -> Bool
) -> PropertyResult<Value> {
    XCTAssertProperty(
        property(name: name, gen, coverage: coverage, body), configuration: configuration, arguments: arguments,
        file: file, line: line)
}

/// Checks that `body` does not throw for values of `gen`, failing at the caller's line otherwise.
@discardableResult
public func XCTAssertProperty<Value>(
    _ gen: Gen<Value>, name: String = #function, configuration: PropertyConfiguration = PropertyConfiguration(),
    coverage: [CoverageRequirement] = [], arguments: String? = nil, file: StaticString = #filePath, line: UInt = #line,
    verifying body: @escaping (Value) throws -> Void
) -> PropertyResult<Value> {
    XCTAssertProperty(
        gen, name: name, configuration: configuration, coverage: coverage, arguments: arguments, file: file, line: line
    ) { value in
        try body(value)
        return true
    }
}
