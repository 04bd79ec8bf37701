import PetSpotContractKit
import PetSpotHTTP

/// A row of the route table that a request matched, with its path parameters percent-decoded.
struct MockRouteMatch {
    /// The row.
    let route: BackendRoute
    /// The decoded path parameters, by name.
    let parameters: [String: String]

    /// The decoded value of the row's path parameter `parameter`.
    /// - Throws: ``MockProblem/internalFailure(_:)`` when the row's pattern has no such parameter
    ///   (a row whose handler needs a parameter its path does not have).
    func value(of parameter: RouteParameter) throws(MockProblem) -> String {
        guard let value = parameters[parameter.name] else {
            throw .internalFailure("the route \(route) has no {\(parameter.name)} for its \(route.handler.rawValue) handler")
        }
        return value
    }
}

/// Matches requests against the rows of the route table (``BackendRoute/table``) as Express
/// does: against the raw (still percent-encoded) path, row by row and segment by segment,
/// decoding a parameter only once its row's path matched. The strict profile matches exact,
/// case-sensitive paths; production, like Express, ignores the ASCII case of the fixed segments
/// and one trailing slash.
///
/// A malformed escape in a route parameter (`{id}`) fails the request whatever the method
/// (Express decodes parameters while matching the path, before it looks at the method),
/// answered 500; in an `/images` file name it only misses the file (404), as the static file
/// server falls through (``RouteParameter/MalformedEscape``).
struct MockRouter {
    let behaviour: MockBehaviour
    /// The rows, in the order they are tried.
    var routes: [BackendRoute] = BackendRoute.table

    /// The raw path of a request target: up to `?` or `#`.
    static func rawPath(of target: String) -> Substring {
        let utf8 = target.utf8
        let end = utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? utf8.endIndex
        return target[..<end]
    }

    /// The row for `method` (upper case; `HEAD` is the caller's to map to `GET`) whose path
    /// `target`'s matches, or `nil`.
    /// - Throws: ``MockProblem/malformedPercentEncoding(_:)`` for a bad escape in a route
    ///   parameter of a row whose path matched, whatever its method.
    func route(method: String, target: String) throws(MockProblem) -> MockRouteMatch? {
        // Segments as UTF-8 slices: no Character breaking, no copies.
        var segments = MockRouter.rawPath(of: target).utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard segments.first?.isEmpty == true else { return nil }
        segments.removeFirst()
        if behaviour.isProduction, segments.count > 1, segments.last?.isEmpty == true { segments.removeLast() }
        for route in routes {
            guard let parameters = try self.parameters(of: route.pattern, in: segments) else { continue }
            if route.method == method { return MockRouteMatch(route: route, parameters: parameters) }
        }
        return nil
    }

    /// The decoded parameters when `segments` match `pattern`, else `nil`.
    private func parameters(
        of pattern: RoutePattern, in segments: [Substring.UTF8View.SubSequence]
    ) throws(MockProblem) -> [String: String]? {
        guard segments.count == pattern.segments.count else { return nil }
        for (actual, expected) in zip(segments, pattern.segments) {
            switch expected {
            case .fixed(let text): if !matchesFixed(actual, text) { return nil }
            case .parameter: if actual.isEmpty { return nil }
            }
        }
        var values: [String: String] = [:]
        for (actual, expected) in zip(segments, pattern.segments) {
            guard case .parameter(let parameter) = expected else { continue }
            let raw = String(Substring(actual))
            if let decoded = JavaScript.decodeURIComponent(raw) {
                values[parameter.name] = decoded
            } else if case .path(malformedEscape: .missesRoute) = parameter.location {
                return nil
            } else if behaviour.has(.routingBadEscape404) {
                values[parameter.name] = HTTPRequest.percentDecode(raw, plusAsSpace: false)
            } else {
                throw .malformedPercentEncoding(raw)
            }
        }
        return values
    }

    /// Whether a raw segment is the fixed text: byte for byte in strict, ignoring ASCII case in
    /// production (Express).
    private func matchesFixed(_ actual: Substring.UTF8View.SubSequence, _ expected: String) -> Bool {
        guard actual.count == expected.utf8.count else { return false }
        let production = behaviour.isProduction
        return zip(actual, expected.utf8).allSatisfy { actualByte, expectedByte in
            actualByte == expectedByte || production && MockRouter.asciiLowercased(actualByte) == MockRouter.asciiLowercased(expectedByte)
        }
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
