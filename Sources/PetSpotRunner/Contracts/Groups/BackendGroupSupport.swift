import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel
import PetSpotReport

// What the backend groups share: error expectations with production's messages, the behaviour
// every answer shares, sample images, photo upload requests and great-circle geometry.

/// An error answer a contract expects: status, envelope code, `field`, and production's message.
package struct ErrorExpectation: Sendable, CustomStringConvertible {
    /// What the envelope's `field` must be.
    package enum Field: Sendable {
        /// Not checked (the doc does not say).
        case unchecked
        /// Must be absent.
        case absent
        /// Must be this name.
        case named(String)
    }

    /// The HTTP status.
    package var status: Int
    /// The envelope's `code`.
    package var code: String
    /// The envelope's `field`.
    package var field: Field
    /// Production's `message` (compared in the production profile only: the strict mock words
    /// its own), or `nil` when not compared.
    package var message: String?

    /// An expectation.
    package init(_ status: Int, _ code: String, field: Field = .unchecked, message: String? = nil) {
        self.status = status
        self.code = code
        self.field = field
        self.message = message
    }

    /// `404 NOT_FOUND "Resource not found"`.
    package var description: String {
        var text = "\(status) \(code)"
        switch field {
        case .unchecked: break
        case .absent: text += " (no field)"
        case .named(let name): text += " field=\(name)"
        }
        if let message { text += " \"\(message)\" (production's message)" }
        return text
    }

    /// What is wrong with `answer`, or `nil`: status, a JSON error envelope matching the schema,
    /// code, field, and in the production profile the message.
    package func problem(
        _ answer: Result<TransportResponse, TransportError>, profile: BackendProfile, schemas: ContractSchemas
    ) -> String? {
        let response: TransportResponse
        switch answer {
        case .failure(let error): return "no answer: \(error.description)"
        case .success(let value): response = value
        }
        guard response.status == status else { return "expected \(status) \(code), got status \(response.status)" }
        guard let body = try? JSONValue.parse(response.body), let error = body["error"]?.objectValue else {
            return "expected the JSON error envelope, got \(response.body.isEmpty ? "an empty body" : "a body that is not one")"
        }
        let violations = schemas.violations(of: body, against: .errorEnvelope)
        if !violations.isEmpty { return "error body does not match error-envelope.schema.json: " + violations.prefix(3).joined(separator: "; ") }
        let actualCode = error["code"]?.stringValue ?? "(none)"
        if actualCode != code { return "expected code \(code), got \(actualCode)" }
        switch field {
        case .unchecked: break
        case .absent:
            if let present = error["field"] { return "expected no field, got field \(present.serialized())" }
        case .named(let name):
            if error["field"]?.stringValue != name { return "expected field \(name), got \(error["field"]?.serialized() ?? "none")" }
        }
        if profile == .production, let message {
            let actual = error["message"]?.stringValue ?? ""
            if actual != message { return "expected production's message \"\(message)\", got \"\(actual)\"" }
        }
        return nil
    }
}

extension ContractSession {
    /// The profile the backend should answer as (strict when there is no backend).
    var profile: BackendProfile { backend?.profile ?? .strict }

    /// What is wrong with `answer` against `expected`, or `nil`.
    func problem(_ answer: Result<TransportResponse, TransportError>, _ expected: ErrorExpectation) -> String? {
        expected.problem(answer, profile: profile, schemas: schemas)
    }
}

/// The body of a successful answer as a JSON object, or what is wrong.
package func successObject(_ answer: Result<TransportResponse, TransportError>, status: Int) -> Result<JSONObject, ProblemText> {
    switch answer {
    case .failure(let error): return .failure(ProblemText("no answer: \(error.description)"))
    case .success(let response):
        guard response.status == status else { return .failure(ProblemText("expected \(status), got status \(response.status)")) }
        guard let object = (try? JSONValue.parse(response.body))?.objectValue else {
            return .failure(ProblemText("expected a JSON object, got \(response.body.isEmpty ? "an empty body" : "another body")"))
        }
        return .success(object)
    }
}

/// A list answer's body, judged as backend-contract.md says: the rows the run created must match
/// `announcement.schema.json` exactly; the others (production's sample rows, whose ids are not UUID
/// v4 and whose `updatedAt` is SQLite's `YYYY-MM-DD HH:MM:SS`, and others' data on a staging
/// backend) only for what the apps decode: `id`, `createdAt` and `updatedAt` as strings.
package enum ListAnswer {
    /// The fields of a row the apps decode as plain strings.
    package static let decodedStrings = ["id", "createdAt", "updatedAt"]

    /// What is wrong with a 200 list body, or `nil`; `isOwn` tells the run's own ids.
    package static func problem(_ body: JSONObject, schemas: ContractSchemas, isOwn: (String) -> Bool) -> String? {
        guard let rows = body["data"]?.arrayValue else {
            let violations = schemas.violations(of: .object(body), against: .listResponse)
            return "body does not match list-response.schema.json: " + violations.prefix(3).joined(separator: "; ")
        }
        var own: [JSONValue] = []
        for (index, row) in rows.enumerated() {
            guard let object = row.objectValue else { return "data[\(index)] is not an object" }
            if let id = object["id"]?.stringValue, isOwn(id) {
                own.append(row)
                continue
            }
            for key in decodedStrings where object[key]?.stringValue == nil {
                return "data[\(index)], a row the run did not create, has \(object[key].map { "a \($0.typeName) " } ?? "no ")\(key)"
                    + " (the apps decode id, createdAt and updatedAt as strings)"
            }
        }
        var judged = body
        judged["data"] = .array(own)
        let violations = schemas.violations(of: .object(judged), against: .listResponse)
        guard violations.isEmpty else {
            return "body does not match list-response.schema.json (judging the \(own.count) row(s) the run created): "
                + violations.prefix(3).joined(separator: "; ")
        }
        return nil
    }
}

/// A contract's problem as an error value.
package struct ProblemText: Error, Sendable, CustomStringConvertible {
    /// The sentence.
    package let description: String

    /// A problem.
    package init(_ description: String) { self.description = description }
}

/// The behaviour every answer shares, observed on every budgeted answer of the run: CORS is
/// open (`Access-Control-Allow-Origin: *`), and the body is what its Content-Type says (JSON on
/// the API, the image type on `/images`, nothing for `HEAD` and 204).
package struct SharedBehaviourObservations: Sendable {
    /// A failing answer.
    package struct Failure: Sendable {
        /// The request.
        package var request: TransportRequest
        /// Its answer, the body cut after ``AnswerExcerpt/keptBodyBytes``.
        package var response: TransportResponse
        /// The full length of the answer's body.
        package var bodyLength: Int
        /// What is wrong.
        package var problem: String
    }

    /// The counts and first failures of one rule.
    package struct Rule: Sendable {
        /// Answers that kept the rule.
        package var passed = 0
        /// Answers that broke it.
        package var failed = 0
        /// The first few that broke it.
        package var failures: [Failure] = []

        mutating func note(_ problem: String?, _ request: TransportRequest, _ response: TransportResponse) {
            guard let problem else {
                passed += 1
                return
            }
            failed += 1
            if failures.count < ContractRecorder.maxFailuresKept {
                let kept = AnswerExcerpt.kept(response)
                failures.append(Failure(request: request, response: kept.response, bodyLength: kept.bodyLength, problem: problem))
            }
        }
    }

    /// `Access-Control-Allow-Origin: *` on every answer.
    package var cors = Rule()
    /// Content-Type and body agree.
    package var contentType = Rule()

    /// Checks one answer.
    mutating func observe(_ request: TransportRequest, _ response: TransportResponse) {
        cors.note(Self.corsProblem(response), request, response)
        contentType.note(Self.contentTypeProblem(request, response), request, response)
    }

    /// What is wrong with the answer's CORS header, or `nil`.
    static func corsProblem(_ response: TransportResponse) -> String? {
        let value = response.header("Access-Control-Allow-Origin")
        return value == "*" ? nil : "Access-Control-Allow-Origin is \(value.map { "\"\($0)\"" } ?? "missing"), expected *"
    }

    /// The media type of a Content-Type value, lower case, without parameters.
    static func mediaType(_ value: String?) -> String? {
        value.map { ($0.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// The media type `/images` serves a file extension with.
    static func imageMediaType(extension ext: String) -> String {
        switch ext.lowercased() {
        case "jpg": "image/jpeg"
        case "tif": "image/tiff"
        default: "image/\(ext.lowercased())"
        }
    }

    /// What is wrong with the answer's Content-Type and body, or `nil`.
    static func contentTypeProblem(_ request: TransportRequest, _ response: TransportResponse) -> String? {
        if request.method == "HEAD" || response.status == 204 || response.status == 304 {
            return response.body.isEmpty ? nil : "a \(request.method == "HEAD" ? "HEAD answer" : "\(response.status) answer") has a body of \(response.body.count) bytes"
        }
        let type = mediaType(response.header("Content-Type"))
        let path = String(request.path.prefix { $0 != "?" })
        if path.hasPrefix("/images/"), response.status == 200 {
            let ext = path.split(separator: ".").last.map(String.init) ?? ""
            let expected = imageMediaType(extension: ext)
            return type == expected ? nil : "/images answered Content-Type \(type ?? "none"), expected \(expected)"
        }
        guard type == "application/json" else {
            return "Content-Type is \(type ?? "missing"), expected application/json (status \(response.status))"
        }
        return (try? JSONValue.parse(response.body)) == nil ? "the body is labelled application/json but is not JSON" : nil
    }

    /// The management password a 201 create answer carries, if any.
    static func managementPassword(in request: TransportRequest, _ response: TransportResponse) -> String? {
        guard request.method == "POST", response.status == 201, response.body.count < 64 * 1024,
            let password = (try? JSONValue.parse(response.body))?["managementPassword"]?.stringValue, !password.isEmpty
        else { return nil }
        return password
    }
}

/// Which profile a backend seems to answer as, from the catalog cases where the profiles differ.
package struct ProfileEvidence: Sendable {
    /// Cases (where the profiles differ) answered as the run's profile expects.
    package var matchedExpected = 0
    /// Cases answered as the other profile expects: the case id and that answer.
    package var matchedOther: [(caseId: String, answer: String)] = []

    /// A hint that the run's `--profile` is the wrong one, or `nil`: at least two cases answered
    /// as the other profile expects and none as this one.
    package func hint(profile: BackendProfile) -> String? {
        guard matchedOther.count >= 2, matchedExpected == 0 else { return nil }
        let other: BackendProfile = profile == .production ? .strict : .production
        let examples = matchedOther.prefix(3).map { "\($0.caseId) answered \($0.answer)" }.joined(separator: ", ")
        let what = other == .strict ? "the project's strict mock (petspot-contracts mock without --profile)" : "production (or the mock's production profile)"
        return "the run expected the \(profile.rawValue) profile, but \(matchedOther.count) case(s) where the profiles differ were "
            + "answered as the \(other.rawValue) profile expects (\(examples)) and none as \(profile.rawValue): this looks like "
            + "\(what); rerun with --profile \(other.rawValue)"
    }
}

/// A catalog case marked as a known production defect, as the backend answered it.
package struct KnownDefectSighting: Sendable {
    /// The case id.
    package var caseId: String
    /// What the defect is.
    package var defect: String
    /// Whether production's (defective) answer came; `false` when the sane answer came instead.
    package var stillPresent: Bool
    /// The sane answer, for the notice when the defect is gone.
    package var saneAnswer: String
    /// Whether the case is a catalog case marked `knownProductionDefect` (the notice then says to
    /// update the catalog); `false` for a defect a group knows of itself (the list's rounding).
    package var isCatalogCase = true
}

/// Production's known list defect (backend-contract.md): an announcement at exactly the query
/// point can be missing, because SQLite's `acos` of an argument rounded just above 1 is NULL.
package enum ExactPointListDefect {
    /// The case id the report names.
    package static let caseId = "list at an announcement's exact point"
    /// What the defect is.
    package static let defect = "an announcement at exactly the query point is missing from the list (production's acos argument rounds above 1, SQLite's acos is NULL)"
    /// The sane answer.
    package static let saneAnswer = "answer (the announcement listed)"

    /// Whether production's formula puts the argument for the point itself above 1, so production
    /// leaves an announcement there out of a list queried at that very point.
    package static func isPredicted(latitude: Double, longitude: Double) -> Bool {
        GreatCircle.productionAcosArgument(latitude, longitude, latitude, longitude) > 1
    }

    /// A sighting: the defect `stillPresent` (the announcement was missing) or gone (it was listed
    /// where production's formula leaves it out).
    package static func sighting(stillPresent: Bool) -> KnownDefectSighting {
        KnownDefectSighting(caseId: caseId, defect: defect, stillPresent: stillPresent, saneAnswer: saneAnswer, isCatalogCase: false)
    }
}

/// Small genuine images with a run-unique comment, so that two uploads of one type differ.
package enum SampleImage {
    /// A 1×1 grey PNG with a `tEXt` comment `tag`; with `animated`, an APNG (an `acTL` chunk
    /// before `IDAT`), which production refuses.
    package static func png(tag: String, animated: Bool = false) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func appendBigEndian(_ value: UInt32) {
            data.append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
        }
        func chunk(_ type: String, _ payload: [UInt8]) {
            appendBigEndian(UInt32(payload.count))
            let typed = Array(type.utf8) + payload
            data.append(contentsOf: typed)
            appendBigEndian(CRC32.checksum(typed))
        }
        chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])
        if animated { chunk("acTL", [0, 0, 0, 1, 0, 0, 0, 0]) }
        chunk("tEXt", Array("Comment".utf8) + [0] + Array(tag.utf8))
        // zlib stream of one stored block holding the scanline: filter 0, grey 0x80.
        let scanline: [UInt8] = [0x00, 0x80]
        chunk("IDAT", Deflate.zlib(scanline))
        chunk("IEND", [])
        return data
    }

    /// A JPEG start (SOI, a COM segment holding `tag`, EOI): JPEG by its magic bytes.
    package static func jpeg(tag: String) -> Data {
        let comment = Array(tag.utf8)
        let length = comment.count + 2
        return Data([0xFF, 0xD8, 0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + comment + [0xFF, 0xD9])
    }
}

/// The photo upload the app sends to `announcement`: multipart/form-data with one file part, Basic
/// auth `id:password` (none when `password` is `nil`).
package func photoUploadRequest(
    _ announcement: AnnouncementPath, password: String?, partName: String = "photo", fileName: String, contentType: String, bytes: Data
) -> TransportRequest {
    let boundary = "PetSpotContractsPhoto7c1e"
    var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(partName)\"; filename=\"\(fileName)\"\r\n".utf8)
    body.append(Data("Content-Type: \(contentType)\r\n\r\n".utf8))
    body.append(bytes)
    body.append(Data("\r\n--\(boundary)--\r\n".utf8))
    var headers: [(name: String, value: String)] = [("Content-Type", "multipart/form-data; boundary=\(boundary)"), ("Accept", "application/json")]
    if let password { headers.append(("Authorization", "Basic " + Data("\(announcement.id):\(password)".utf8).base64EncodedString())) }
    return TransportRequest(method: "POST", path: announcement.photos, headers: headers, body: body)
}

/// Great-circle geometry on the sphere production uses (R = 6371 km).
package enum GreatCircle {
    /// The Earth's radius production uses, in km.
    package static let earthRadiusKilometres = 6371.0

    /// The haversine distance in km.
    package static func distance(_ lat1: Double, _ lng1: Double, _ lat2: Double, _ lng2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians, dLng = (lng2 - lng1) * radians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLng / 2) * sin(dLng / 2)
        return earthRadiusKilometres * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// The argument of production's distance `6371 * acos(cos(radians(lat)) * cos(radians(latitude))
    /// * cos(radians(longitude) - radians(lng)) + sin(radians(lat)) * sin(radians(latitude)))`,
    /// evaluated in that order with SQLite's `radians(x) = x * (π / 180)`, from the query point
    /// (`lat`, `lng`). Above 1, SQLite's `acos` is NULL (lat 82, lng 132.519926 to itself:
    /// 1.0000000000000002).
    package static func productionAcosArgument(_ lat: Double, _ lng: Double, _ latitude: Double, _ longitude: Double) -> Double {
        func radians(_ degrees: Double) -> Double { degrees * (Double.pi / 180) }
        return cos(radians(lat)) * cos(radians(latitude)) * cos(radians(longitude) - radians(lng)) + sin(radians(lat)) * sin(radians(latitude))
    }

    /// The point `kilometres` from (`lat`, `lng`) along `bearing` degrees, rounded to 6 decimals.
    package static func destination(_ lat: Double, _ lng: Double, kilometres: Double, bearing: Double) -> (lat: Double, lng: Double) {
        let radians = Double.pi / 180
        let delta = kilometres / earthRadiusKilometres, theta = bearing * radians
        let phi1 = lat * radians, lambda1 = lng * radians
        let phi2 = asin(sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta))
        let lambda2 = lambda1 + atan2(sin(theta) * sin(delta) * cos(phi1), cos(delta) - sin(phi1) * sin(phi2))
        func rounded(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
        return (rounded(phi2 / radians), rounded(lambda2 / radians))
    }
}

/// CRC-32 (IEEE), for PNG chunks and gzip trailers.
package enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The checksum of `bytes`.
    package static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

/// Compressed request bodies without a compressor: DEFLATE's stored blocks (RFC 1951 §3.2.4),
/// wrapped as zlib (`Content-Encoding: deflate`, RFC 1950) or gzip (RFC 1952). Any inflater
/// reads them.
package enum Deflate {
    /// Raw DEFLATE of `bytes` in stored blocks.
    package static func stored(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let final: UInt8 = offset + count == bytes.count ? 1 : 0
            output.append(final)
            output += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            output += bytes[offset..<(offset + count)]
            offset += count
        } while offset < bytes.count
        return output
    }

    /// The zlib stream of `bytes` (the `deflate` content coding).
    package static func zlib(_ bytes: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let adler = (b << 16) | a
        return [0x78, 0x01] + stored(bytes) + [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
    }

    /// The gzip member of `bytes` (the `gzip` content coding).
    package static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        let crc = CRC32.checksum(bytes), size = UInt32(truncatingIfNeeded: bytes.count)
        func littleEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        return [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF] + stored(bytes) + littleEndian(crc) + littleEndian(size)
    }
}
