/// A route's path: fixed segments and parameters, as in `/api/v1/announcements/{id}/photos`.
///
/// Rows of the route table that share a path share its pattern; its ``name`` names the
/// operations every path has without a row of its own (`head` + name for the `HEAD` twin of
/// the `GET` row, `preflight` + name for the CORS preflight).
package struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    /// A segment between two `/`.
    package enum Segment: Sendable, Hashable, ExpressibleByStringLiteral {
        /// Text that must be there (production, like Express, ignores its ASCII case).
        case fixed(String)
        /// A non-empty segment, percent-decoded, bound to the parameter.
        case parameter(RouteParameter)

        /// A fixed segment.
        package init(stringLiteral value: String) { self = .fixed(value) }
    }

    /// The path's name in operation ids (`Announcements`, `Photos`).
    package let name: String
    /// The segments after the leading `/`.
    package let segments: [Segment]

    /// A pattern of `segments`, named `name`.
    package init(_ name: String, _ segments: [Segment]) {
        self.name = name
        self.segments = segments
    }

    /// The OpenAPI path template: `/api/v1/announcements/{id}`.
    package var template: String {
        "/" + segments.map { segment in
            switch segment {
            case .fixed(let text): text
            case .parameter(let parameter): "{\(parameter.name)}"
            }
        }.joined(separator: "/")
    }

    /// The path parameters, in path order.
    package var parameters: [RouteParameter] {
        segments.compactMap { segment in
            if case .parameter(let parameter) = segment { return parameter }
            return nil
        }
    }

    package var description: String { template }
}
