/// One part of a `multipart/form-data` body.
package struct MultipartPart {
    /// The `name` parameter of its Content-Disposition.
    package var name: String?
    /// The `filename` parameter, when the part is a file.
    package var filename: String?
    /// The part's Content-Type, when given.
    package var contentType: String?
    /// The part's content.
    package var body: ArraySlice<UInt8>

    /// Whether the upload library treats the part as a file: it has a non-empty `filename`
    /// (a part without one, or with `filename=""`, is a plain form field).
    var isFile: Bool { !(filename ?? "").isEmpty }
}

/// Why a multipart body could not be read.
package struct MultipartError: Error, Equatable {
    package let reason: String
}

/// A `multipart/form-data` reader (RFC 7578): finds the boundary in the Content-Type, splits the
/// body on `--boundary` delimiters, and reads each part's headers.
package enum MultipartFormData {
    /// The boundary parameter of a `multipart/form-data` Content-Type, or `nil` when the type
    /// is something else or has no boundary.
    package static func boundary(contentType: String) -> String? {
        let parameters = contentType.split(separator: ";").map { $0.trimmingASCIIWhitespace() }
        guard let type = parameters.first, type.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parameters.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingASCIIWhitespace().lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingASCIIWhitespace()
            if value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            guard !value.isEmpty, value.utf8.count <= 70 else { return nil }
            return value
        }
        return nil
    }

    /// The parts of `body`, in order.
    /// - Throws: ``MultipartError`` when delimiters or part headers are malformed or the closing
    ///   delimiter is missing.
    package static func parts(of body: [UInt8], boundary: String) throws(MultipartError) -> [MultipartPart] {
        let delimiter = Array("--\(boundary)".utf8)
        let separator = Array("\r\n--\(boundary)".utf8)
        guard let first = find(delimiter, in: body, from: 0) else {
            throw MultipartError(reason: "no '--\(boundary)' delimiter in the body")
        }
        var cursor = first + delimiter.count
        var parts: [MultipartPart] = []
        while true {
            // After a delimiter: "--" closes, CRLF opens a part.
            if body.count >= cursor + 2 && body[cursor] == 0x2D && body[cursor + 1] == 0x2D { return parts }
            // Transport padding (spaces/tabs) may follow a delimiter.
            while cursor < body.count && (body[cursor] == 0x20 || body[cursor] == 0x09) { cursor += 1 }
            guard body.count >= cursor + 2, body[cursor] == 0x0D, body[cursor + 1] == 0x0A else {
                throw MultipartError(reason: "delimiter not followed by CRLF at byte \(cursor)")
            }
            cursor += 2
            guard let headerEnd = find([0x0D, 0x0A, 0x0D, 0x0A], in: body, from: cursor - 2) else {
                throw MultipartError(reason: "part headers not terminated at byte \(cursor)")
            }
            var part = MultipartPart(body: [])
            if headerEnd > cursor - 2 {
                let headerText = String(decoding: body[cursor..<headerEnd], as: UTF8.self)
                for line in headerText.components(separatedBy: "\r\n") where !line.isEmpty {
                    guard let colon = line.firstIndex(of: ":") else {
                        throw MultipartError(reason: "part header without ':' near byte \(cursor)")
                    }
                    let name = line[..<colon].trimmingASCIIWhitespace().lowercased()
                    let value = line[line.index(after: colon)...].trimmingASCIIWhitespace()
                    if name == "content-disposition" {
                        let parameters = dispositionParameters(value)
                        part.name = parameters["name"]
                        part.filename = parameters["filename"]
                    } else if name == "content-type" {
                        part.contentType = value
                    }
                }
            }
            let contentStart = headerEnd + 4
            guard let contentEnd = find(separator, in: body, from: contentStart) else {
                throw MultipartError(reason: "part starting at byte \(contentStart) has no closing delimiter")
            }
            part.body = body[contentStart..<contentEnd]
            parts.append(part)
            cursor = contentEnd + separator.count
        }
    }

    /// `form-data; name="photo"; filename="a.jpg"` → ["name": "photo", "filename": "a.jpg"].
    private static func dispositionParameters(_ value: String) -> [String: String] {
        var result: [String: String] = [:]
        var remaining = Substring(value)
        // Skip the disposition type.
        if let semicolon = remaining.firstIndex(of: ";") { remaining = remaining[remaining.index(after: semicolon)...] } else { return [:] }
        while !remaining.isEmpty {
            remaining = remaining.drop { $0 == " " || $0 == "\t" || $0 == ";" }
            guard let equals = remaining.firstIndex(of: "=") else { break }
            let key = remaining[..<equals].trimmingASCIIWhitespace().lowercased()
            remaining = remaining[remaining.index(after: equals)...]
            var parameterValue = ""
            if remaining.first == "\"" {
                remaining = remaining.dropFirst()
                var escaped = false
                var consumed = remaining.endIndex
                for index in remaining.indices {
                    let character = remaining[index]
                    if escaped {
                        parameterValue.append(character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        consumed = remaining.index(after: index)
                        break
                    } else {
                        parameterValue.append(character)
                    }
                }
                remaining = remaining[consumed...]
            } else {
                let end = remaining.firstIndex(of: ";") ?? remaining.endIndex
                parameterValue = remaining[..<end].trimmingASCIIWhitespace()
                remaining = remaining[end...]
            }
            if result[key] == nil { result[key] = parameterValue }
        }
        return result
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        let first = needle[0]
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var matched = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
