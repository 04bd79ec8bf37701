import Foundation
import PetSpotReport

/// The paths of one announcement, built from its id as a single percent-encoded path segment:
/// the only way an id reaches a request path.
///
/// Ids come from the target under test (a create's answer), and the target may be hostile:
/// `../../x?y` pasted into `/api/admin/v1/announcements/{id}` would aim the cleanup's admin DELETE
/// at another path of the same origin. So an id becomes a path segment only when it is one: not
/// empty, at most ``maxIdBytes`` UTF-8 bytes, not `.` or `..`, and without `/`, `\`, `?`, `#`,
/// `%` (text already escaped could be decoded twice on the way) or a control character. The
/// segment is the id with every byte outside RFC 3986's unreserved characters
/// (`A-Z a-z 0-9 - . _ ~`) percent-encoded, so a lower-case UUID is its own segment. Any other id
/// is refused with the reason (``Refusal``): the contract that received it fails, and it is never
/// sent back, with credentials or without (cleanup lists it as a leftover instead).
///
/// A group gets one from ``GroupBackend/create(_:)`` (``GroupBackend/Created/path``), or from an
/// id found in another answer with ``GroupBackend/path(of:answeredIn:by:failing:)``, which records
/// the refusal as a failure of the contract:
///
/// ```swift
/// guard let path = backend.path(of: id, answeredIn: exchange, by: "the list", failing: Self.listed) else { return }
/// let read = try await backend.exchange(BackendTarget.getRequest(path.details))
/// ```
package struct AnnouncementPath: Sendable, Hashable {
    /// The longest id accepted, in UTF-8 bytes (a UUID has 36).
    package static let maxIdBytes = 200

    /// The id as the target answered it (for messages, Basic credentials and comparisons).
    package let id: String
    /// The id as one percent-encoded path segment.
    package let segment: String

    /// The paths of the announcement `id`.
    /// - Throws: ``Refusal`` when `id` is not a single path segment.
    package init(_ id: String) throws(Refusal) {
        if let reason = Self.refusalReason(id) { throw Refusal(id: id, reason: reason) }
        self.id = id
        segment = RequestPath.percentEncoded(id)
    }

    /// The paths of an id the runner made itself (an unknown announcement): a lower-case UUID.
    package init(uuid: UUID) {
        id = uuid.uuidString.lowercased()
        segment = id
    }

    /// The paths of an id written in this package (a catalog's malformed id, such as
    /// `not-a-uuid`), which must be a single segment: a programming error otherwise, never a
    /// check of a target's answer.
    package init(constant id: String) {
        precondition(Self.refusalReason(id) == nil, "the constant id \(id) is not a single path segment")
        self.id = id
        segment = RequestPath.percentEncoded(id)
    }

    /// The paths of `id`, or why there are none.
    package static func of(_ id: String) -> Result<AnnouncementPath, Refusal> {
        do {
            return .success(try AnnouncementPath(id))
        } catch {
            return .failure(error)
        }
    }

    /// `/api/v1/announcements/{id}`: details (`GET`), and the alias delete route.
    package var details: String { "/api/v1/announcements/\(segment)" }
    /// `/api/v1/announcements/{id}/photos`: the photo upload.
    package var photos: String { "/api/v1/announcements/\(segment)/photos" }
    /// `/api/admin/v1/announcements/{id}`: the admin delete.
    package var adminDelete: String { "/api/admin/v1/announcements/\(segment)" }
    /// `/images/{id}.{ext}`: the photo as `/images` serves it (`ext` is the runner's: `png`, `jpeg`).
    package func image(extension ext: String) -> String { "/images/\(segment).\(ext)" }

    /// Why `id` cannot be one path segment, or `nil` when it can.
    static func refusalReason(_ id: String) -> String? {
        if id.isEmpty { return "it is empty" }
        let length = id.utf8.count
        if length > maxIdBytes { return "it is \(length) bytes long, more than \(maxIdBytes)" }
        if id == "." || id == ".." { return "it is a dot segment" }
        for scalar in id.unicodeScalars {
            switch scalar {
            case "/", "\\", "?", "#", "%": return "it contains '\(scalar)'"
            default: if DisplayText.needsEscape(scalar) { return "it contains the control character \(DisplayText.escape(scalar))" }
            }
        }
        return nil
    }

    /// An id refused as a path segment, and why.
    package struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// The id as answered.
        package let id: String
        /// Why it is no single segment: `it contains '/'`.
        package let reason: String

        /// The refusal of `id`, for `reason`.
        package init(id: String, reason: String) {
            self.id = id
            self.reason = reason
        }

        /// The id as a message shows it: control characters escaped, cut after 80 bytes.
        package var shownId: String { DisplayText.sanitized(id, maxBytes: 80) }

        /// `id '../../x?y' is not a single path segment (it contains '/')`.
        package var description: String { "id '\(shownId)' is not a single path segment (\(reason))" }

        /// The failure of the contract that received the id: `create answered id '../../x?y', not
        /// a single path segment (it contains '/')`.
        package func answered(by what: String) -> String {
            "\(what) answered id '\(shownId)', not a single path segment (\(reason))"
        }
    }
}
