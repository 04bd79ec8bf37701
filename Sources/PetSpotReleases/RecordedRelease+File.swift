import Foundation
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel

extension RecordedRelease {
    /// The release file: a JSON object with its members in a fixed order, one per line, and each
    /// flow, report and submission on a line of its own (a re-recording reviews as a diff of
    /// reports), ending with a `checksum` of everything before it.
    ///
    /// ```json
    /// {
    ///   "format": "petspot-release",
    ///   "formatVersion": 1,
    ///   "release": "2.0",
    ///   "recordedOn": "2026-11-28",
    ///   "tool": "petspot-contracts 1.0.0",
    ///   "contractVersion": "v1",
    ///   "seed": 42,
    ///   "protocolVersion": 2,
    ///   "supportEnded": null,
    ///   "flows": [
    ///     {"flow":"missing","asked":530,"submitted":301,"blocked":229,"unavailable":0}, ...],
    ///   "reports": [
    ///     {"flow":"missing","clock":"2026-05-03T10:12:00Z","contract":{"status":201},"payload":{...}}, ...],
    ///   "submissions": [
    ///     {"flow":"found","clock":"...","requests":[{"method":"POST","path":"/api/v1/announcements","body":{"json":{...}},"contract":{"status":201}}, ...]}],
    ///   "checksum": "sha256:..."
    /// }
    /// ```
    ///
    /// The checksum is SHA-256 of the compact JSON of the object without it, members in file
    /// order: re-indenting the file keeps it valid, editing a value does not (a release is what a
    /// build did; a hand-edited one is not).
    public func fileBytes() -> [UInt8] {
        let members = jsonMembers()
        let checksum = Self.checksum(of: members)
        var output: [UInt8] = Array("{\n".utf8)
        for (position, member) in (members + [("checksum", .string(checksum))]).enumerated() {
            output.append(contentsOf: "  ".utf8)
            output.append(contentsOf: JSONValue.string(member.key).serializedBytes())
            output.append(contentsOf: ": ".utf8)
            if case .array(let items) = member.value, !items.isEmpty {
                output.append(contentsOf: "[\n".utf8)
                for (index, item) in items.enumerated() {
                    output.append(contentsOf: "    ".utf8)
                    output.append(contentsOf: item.serializedBytes())
                    output.append(contentsOf: (index == items.count - 1 ? "\n" : ",\n").utf8)
                }
                output.append(contentsOf: "  ]".utf8)
            } else {
                output.append(contentsOf: member.value.serializedBytes())
            }
            output.append(contentsOf: (position == members.count ? "\n" : ",\n").utf8)
        }
        output.append(contentsOf: "}\n".utf8)
        return output
    }

    /// `sha256:` and the hex digest of the compact JSON object of `members`.
    static func checksum(of members: [(key: String, value: JSONValue)]) -> String {
        let digest = SHA256.digest(JSONValue.object(JSONObject(members)).serializedBytes())
        return "sha256:" + digest.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// The members of the file, in order, without the checksum.
    func jsonMembers() -> [(key: String, value: JSONValue)] {
        [
            ("format", .string(Self.format)),
            ("formatVersion", .number(JSONNumber(Self.formatVersion))),
            ("release", .string(name)),
            ("recordedOn", .string(recordedOn)),
            ("tool", .string(tool)),
            ("contractVersion", .string(contractVersion)),
            ("seed", .number(JSONNumber(literal: String(seed))!)),
            ("protocolVersion", .number(JSONNumber(protocolVersion))),
            ("supportEnded", supportEnded.map(JSONValue.string) ?? .null),
            ("flows", .array(flows.map(\.json))),
            ("reports", .array(reports.map(\.json))),
            ("submissions", .array(submissions.map(\.json))),
        ]
    }

    /// Reads the release file at `url`; errors name it as `displayPath`.
    ///
    /// - Throws: ``ReleaseFileError``: unreadable, over ``maxFileBytes``, not JSON (the byte
    ///   offset), another format or a newer format version, a checksum that does not match (the
    ///   file was edited), or a member missing, mistyped or unknown (its key path).
    public static func read(from url: URL, displayPath: String) throws(ReleaseFileError) -> RecordedRelease {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ReleaseFileError(path: displayPath, reason: "cannot be read (\(error.localizedDescription))")
        }
        guard data.count <= maxFileBytes else {
            throw ReleaseFileError(path: displayPath, reason: "is \(data.count) bytes, over the \(maxFileBytes) a release file may have")
        }
        return try decode(Array(data), file: displayPath)
    }

    /// Decodes the bytes of a release file (errors name it as `file`).
    public static func decode(_ bytes: [UInt8], file: String) throws(ReleaseFileError) -> RecordedRelease {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw ReleaseFileError(path: file, location: "byte \(error.offset)", reason: "not JSON: \(error.reason)")
        }
        let top = try ReleaseFileReader(value, path: "", file: file)
        guard top.object["format"] == .string(format) else {
            throw top.fail("format", "expected \"\(format)\": not a release file of petspot-contracts")
        }
        let version = try top.int("formatVersion", in: 1...Int.max)
        guard version <= formatVersion else {
            throw top.fail("formatVersion", "format version \(version) is newer than this tool reads (\(formatVersion)): update petspot-contracts")
        }
        let members = top.object.members.filter { $0.key != "checksum" }
        let stated = try top.string("checksum")
        guard stated == checksum(of: members) else {
            throw top.fail("checksum", "does not match the file's contents: the file was edited after it was recorded (re-record the release, or restore it from version control)")
        }
        let reader = try top.allowingOnly([
            "format", "formatVersion", "release", "recordedOn", "tool", "contractVersion", "seed", "protocolVersion", "supportEnded",
            "flows", "reports", "submissions", "checksum",
        ])
        let name = try reader.string("release")
        guard !name.isEmpty, name.allSatisfy({ !$0.isNewline }) else { throw reader.fail("release", "a release name is one non-empty line") }
        return RecordedRelease(
            name: name, recordedOn: try reader.day("recordedOn"), tool: try reader.string("tool"),
            contractVersion: try reader.string("contractVersion"), seed: try reader.unsigned("seed"),
            protocolVersion: try reader.int("protocolVersion", in: 1...2), supportEnded: try reader.optionalDay("supportEnded"),
            flows: try reader.elements("flows", FlowSummary.init), reports: try reader.elements("reports", RecordedReport.init),
            submissions: try reader.elements("submissions", RecordedSubmission.init))
    }
}

extension FlowSummary {
    var json: JSONValue {
        .object(JSONObject([
            ("flow", .string(flow.rawValue)), ("asked", .number(JSONNumber(asked))), ("submitted", .number(JSONNumber(submitted))),
            ("blocked", .number(JSONNumber(blocked))), ("unavailable", .number(JSONNumber(unavailable))),
        ]))
    }

    init(_ reader: ReleaseFileReader) throws(ReleaseFileError) {
        let reader = try reader.allowingOnly(["flow", "asked", "submitted", "blocked", "unavailable"])
        self.init(
            flow: try reader.flow("flow"), asked: try reader.int("asked"), submitted: try reader.int("submitted"),
            blocked: try reader.int("blocked"), unavailable: try reader.int("unavailable"))
    }
}

extension RecordedAnswer {
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("status", .number(JSONNumber(status)))]
        if let code { members.append(("code", .string(code))) }
        if let field { members.append(("field", .string(field))) }
        return .object(JSONObject(members))
    }

    init(_ reader: ReleaseFileReader) throws(ReleaseFileError) {
        let reader = try reader.allowingOnly(["status", "code", "field"])
        self.init(status: try reader.int("status", in: 100...599), code: try reader.optionalString("code"), field: try reader.optionalString("field"))
    }
}

extension RecordedReport {
    var json: JSONValue {
        .object(JSONObject([
            ("flow", .string(flow.rawValue)), ("clock", .string(clock.formatted(ReleaseFileReader.instantFormat))),
            ("contract", contract.json), ("payload", .object(payload)),
        ]))
    }

    init(_ reader: ReleaseFileReader) throws(ReleaseFileError) {
        let reader = try reader.allowingOnly(["flow", "clock", "contract", "payload"])
        self.init(
            flow: try reader.flow("flow"), clock: try reader.instant("clock"), payload: try reader.object("payload"),
            contract: try RecordedAnswer(reader.nested("contract")))
    }
}

extension RecordedSubmission {
    var json: JSONValue {
        .object(JSONObject([
            ("flow", .string(flow.rawValue)), ("clock", .string(clock.formatted(ReleaseFileReader.instantFormat))),
            ("requests", .array(requests.map(\.json))),
        ]))
    }

    init(_ reader: ReleaseFileReader) throws(ReleaseFileError) {
        let reader = try reader.allowingOnly(["flow", "clock", "requests"])
        self.init(flow: try reader.flow("flow"), clock: try reader.instant("clock"), requests: try reader.elements("requests", RecordedRequest.init))
    }
}

extension RecordedRequest {
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("method", .string(method)), ("path", .string(path))]
        if let authorization { members.append(("authorization", .string(authorization))) }
        switch body {
        case .json(let value): members.append(("body", .object(JSONObject([("json", value)]))))
        case .multipart(let parts): members.append(("body", .object(JSONObject([("multipart", .array(parts.map(\.json)))]))))
        case .text(let text): members.append(("body", .object(JSONObject([("text", .string(text))]))))
        case .none: break
        }
        members.append(("contract", contract.json))
        return .object(JSONObject(members))
    }

    init(_ reader: ReleaseFileReader) throws(ReleaseFileError) {
        let reader = try reader.allowingOnly(["method", "path", "authorization", "body", "contract"])
        let body: Body
        if reader.object["body"] == nil {
            body = .none
        } else {
            let content = try reader.nested("body").allowingOnly(["json", "multipart", "text"])
            if content.object["text"] != nil {
                body = .text(try content.string("text"))
            } else if content.object["json"] != nil {
                body = .json(try content.value("json"))
            } else if content.object["multipart"] != nil {
                body = .multipart(try content.elements("multipart", RecordedPart.init))
            } else {
                throw reader.fail("body", "expected \"json\", \"multipart\" or \"text\"")
            }
        }
        let method = try reader.string("method"), path = try reader.string("path")
        guard ["POST", "PUT", "PATCH", "GET", "DELETE"].contains(method) else { throw reader.fail("method", "not a method a submission sends: \(method)") }
        guard path.hasPrefix("/"), !path.contains(where: { $0.isWhitespace || $0 == "?" || $0 == "#" }) else {
            throw reader.fail("path", "expected an absolute path without a query, found \"\(path)\"")
        }
        self.init(
            method: method, path: path, authorization: try reader.optionalString("authorization"), body: body,
            contract: try RecordedAnswer(reader.nested("contract")))
    }
}

extension RecordedPart {
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("name", .string(name))]
        if let fileName { members.append(("fileName", .string(fileName))) }
        if let contentType { members.append(("contentType", .string(contentType))) }
        members.append(("bytes", .number(JSONNumber(byteCount))))
        members.append(("kind", .string(kind)))
        return .object(JSONObject(members))
    }

    init(_ reader: ReleaseFileReader) throws(ReleaseFileError) {
        let reader = try reader.allowingOnly(["name", "fileName", "contentType", "bytes", "kind"])
        self.init(
            name: try reader.string("name"), fileName: try reader.optionalString("fileName"), contentType: try reader.optionalString("contentType"),
            byteCount: try reader.int("bytes", in: 0...(64 * 1024 * 1024)), kind: try reader.string("kind"))
    }
}

extension ReleaseFileReader {
    func flow(_ key: String) throws(ReleaseFileError) -> ReportFlowKind {
        let text = try string(key)
        guard let flow = ReportFlowKind(rawValue: text) else { throw fail(key, "expected \"missing\" or \"found\", found \"\(text)\"") }
        return flow
    }
}

extension String {
    /// The string with `0`s in front up to `width` characters.
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
