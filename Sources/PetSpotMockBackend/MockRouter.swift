import PetSpotHTTP

/// A path the backend serves, with its `:id` or file name percent-decoded.
enum MockRoute: Equatable {
    case health
    case announcements
    case announcement(id: String)
    case photos(id: String)
    case adminAnnouncement(id: String)
    case image(fileName: String)
}

/// Matches request paths as Express does: against the raw (still percent-encoded) path,
/// segment by segment, decoding an `:id` with `decodeURIComponent` only once its pattern
/// matched. The strict profile matches exact, case-sensitive paths; production, like Express,
/// ignores the case of the fixed segments and one trailing slash.
///
/// A malformed escape in an `:id` position fails the request whatever the method (Express
/// decodes parameters while matching, before it looks at the method), answered 500; in an
/// `/images` file name it only misses the file (404), as the static file server falls through.
struct MockRouter {
    let behaviour: MockBehaviour

    /// The raw path of a request target: up to `?` or `#`.
    static func rawPath(of target: String) -> Substring {
        let utf8 = target.utf8
        let end = utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? utf8.endIndex
        return target[..<end]
    }

    /// The route `target`'s path matches, or `nil`.
    /// - Throws: ``MockProblem/malformedPercentEncoding(_:)`` for a bad escape in an `:id`.
    func route(for target: String) throws(MockProblem) -> MockRoute? {
        // Segments as UTF-8 slices: no Character breaking, no copies.
        var segments = MockRouter.rawPath(of: target).utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard segments.first?.isEmpty == true else { return nil }
        segments.removeFirst()
        let production = behaviour.isProduction
        if production, segments.count > 1, segments.last?.isEmpty == true { segments.removeLast() }
        func fixed(_ actual: Substring.UTF8View.SubSequence, _ expected: StaticString) -> Bool {
            guard actual.count == expected.utf8CodeUnitCount else { return false }
            return expected.withUTF8Buffer { expectedBytes in
                zip(actual, expectedBytes).allSatisfy { actualByte, expectedByte in
                    // Production (Express) ignores ASCII case; strict compares exactly.
                    actualByte == expectedByte || production && actualByte | 0x20 == expectedByte && (0x41...0x5A).contains(actualByte)
                }
            }
        }
        func matches(_ pattern: [StaticString?]) -> Bool {
            guard segments.count == pattern.count else { return false }
            for (actual, expected) in zip(segments, pattern) {
                if let expected {
                    if !fixed(actual, expected) { return false }
                } else if actual.isEmpty {
                    return false
                }
            }
            return true
        }
        func identifier(at position: Int) throws(MockProblem) -> String {
            let raw = String(Substring(segments[position]))
            if let decoded = JavaScript.decodeURIComponent(raw) { return decoded }
            if behaviour.has(.routingBadEscape404) { return HTTPRequest.percentDecode(raw, plusAsSpace: false) }
            throw .malformedPercentEncoding(raw)
        }
        guard segments.count >= 2 else { return nil }
        if fixed(segments[0], "images") {
            guard segments.count == 2, !segments[1].isEmpty, let fileName = JavaScript.decodeURIComponent(String(Substring(segments[1])))
            else { return nil }
            return .image(fileName: fileName)
        }
        if matches(["api", "health"]) { return .health }
        if matches(["api", "v1", "announcements"]) { return .announcements }
        if matches(["api", "v1", "announcements", nil]) { return .announcement(id: try identifier(at: 3)) }
        if matches(["api", "v1", "announcements", nil, "photos"]) { return .photos(id: try identifier(at: 3)) }
        if matches(["api", "admin", "v1", "announcements", nil]) { return .adminAnnouncement(id: try identifier(at: 4)) }
        return nil
    }
}
