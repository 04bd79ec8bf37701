import Foundation
import PetSpotBackendGroups
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotHTTP
import PetSpotJSON
import Testing

@Suite("ids from the target become path segments or are refused")
struct AnnouncementPathTests {
    @Test("a lower-case UUID is its own segment, and the routes are built from it")
    func uuid() throws {
        let path = try AnnouncementPath("3f0b8a1c-2d4e-4f60-8a7b-9c0d1e2f3a4b")
        #expect(path.segment == path.id)
        #expect(path.details == "/api/v1/announcements/3f0b8a1c-2d4e-4f60-8a7b-9c0d1e2f3a4b")
        #expect(path.photos == "/api/v1/announcements/3f0b8a1c-2d4e-4f60-8a7b-9c0d1e2f3a4b/photos")
        #expect(path.adminDelete == "/api/admin/v1/announcements/3f0b8a1c-2d4e-4f60-8a7b-9c0d1e2f3a4b")
        #expect(path.image(extension: "png") == "/images/3f0b8a1c-2d4e-4f60-8a7b-9c0d1e2f3a4b.png")
    }

    @Test("other characters are percent-encoded, byte by byte", arguments: [
        ("a b", "a%20b"), ("id:1", "id%3A1"), ("żółw", "%C5%BC%C3%B3%C5%82w"), ("x;y=1&z", "x%3By%3D1%26z"), ("~a_b.c-d", "~a_b.c-d"),
    ])
    func encoded(id: String, segment: String) throws {
        #expect(try AnnouncementPath(id).segment == segment)
    }

    @Test("an id that is not one segment is refused with the reason", arguments: [
        ("../../x?y", "it contains '/'"), ("..", "it is a dot segment"), (".", "it is a dot segment"), ("", "it is empty"),
        ("a\\b", "it contains '\\'"), ("x?admin=1", "it contains '?'"), ("x#y", "it contains '#'"), ("%2e%2e", "it contains '%'"),
        ("tok\r\nX-Injected: 1", "it contains the control character \\r"), (String(repeating: "a", count: 201), "it is 201 bytes long, more than 200"),
    ])
    func refused(id: String, reason: String) {
        #expect(throws: AnnouncementPath.Refusal(id: id, reason: reason)) { try AnnouncementPath(id) }
    }

    @Test("the refusal is the sentence the contract fails with")
    func sentence() {
        guard case .failure(let refusal) = AnnouncementPath.of("../../x?y") else {
            Issue.record("accepted")
            return
        }
        #expect(refusal.answered(by: "create") == "create answered id '../../x?y', not a single path segment (it contains '/')")
    }
}

/// Hostile ids in create answers: they fail the contract that received them and are never sent
/// back, with credentials or without.
@Suite("run against a target that answers hostile ids", .serialized)
struct HostileIdTests {
    static let hostileIds = ["../../x?y", "a/b", "..", "x%2F..%2Fadmin", "id#frag", "tok\r\nX-Injected: 1"]

    @Test("no request leaves the API's paths; creates fail naming the id; cleanup lists the ids as leftovers")
    func hostileIds() async throws {
        let creates = Locked(0)
        let server = try HostileServer { request, _ in
            guard request.method == "POST", request.target == HostileServerTests.createPath, !request.isProfileProbe else { return .proxy }
            let index = creates.withLock { count -> Int in
                defer { count += 1 }
                return count
            }
            let hostile = Self.hostileIds[index % Self.hostileIds.count]
            return .rewritten { response in
                guard response.status == 201, var object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
                else { return }
                object["id"] = hostile
                response.body = Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data())
            }
        }
        defer { server.stop() }
        // One group at a time: the submission group's creates get the ids in this order.
        let result = await runAgainst(server, ["--cases", "2", "--concurrency", "1"])
        #expect(result.status == 1, "\(result.err)")
        #expect(creates.withLock { $0 } >= 6)

        // Nothing the run sent names a hostile id, in any form.
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for request in server.requests {
            let path = String(request.target.prefix { $0 != "?" })
            #expect(!request.head.contains("x?y") && !request.head.contains("Injected") && !request.head.contains("frag"), "\(request.head)")
            #expect(!path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == "." || $0 == ".." }, "\(request.target)")
            #expect(!request.target.contains("%2F") && !request.target.contains("a/b"), "\(request.target)")
            // Every request with credentials goes to one announcement's route, named by one plain segment.
            guard request.header("Authorization") != nil else { continue }
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let isRoute = (parts.count == 5 && parts[1...3] == ["api", "v1", "announcements"])
                || (parts.count == 6 && parts[1...3] == ["api", "v1", "announcements"] && parts[5] == "photos")
                || (parts.count == 6 && parts[1...4] == ["api", "admin", "v1", "announcements"])
            let segment = parts.count > 4 ? (parts[1] == "api" && parts[2] == "admin" ? parts[5] : parts[4]) : ""
            #expect(isRoute && !segment.isEmpty && segment.unicodeScalars.allSatisfy(unreserved.contains), "\(request.method) \(request.target)")
        }

        // The create contract that received the id fails with it; the groups that needed it say so.
        let createFailures = failures(of: SubmissionContracts.create, in: result.json).compactMap { $0["message"]?.stringValue }
        #expect(createFailures.contains("create answered id '../../x?y', not a single path segment (it contains '/')"), "\(createFailures)")
        let messages = failureMessages(in: result.json)
        #expect(messages.contains { $0.hasPrefix("setup: creating an announcement: create answered id") && $0.hasSuffix("not a single path segment (it is a dot segment)") })

        // Cleanup sent nothing for them: each is a leftover with the reason.
        let leftovers = (try JSONValue.parse(result.json))["leftovers"]?.arrayValue ?? []
        let refused = leftovers.filter { $0["reason"]?.stringValue?.contains("not a single path segment") == true }
        let refusedIds = Set(refused.compactMap { $0["id"]?.stringValue })
        #expect(refusedIds.isSuperset(of: ["../../x?y", "a/b", ".."]), "\(leftovers)")
        #expect(!server.requests.contains { $0.method == "DELETE" && $0.target.contains("..") })
    }
}
