import Foundation
import PetSpotJSON
import PetSpotPropertyEngine
import PetSpotPropertyTesting
@testable import PetSpotReport
import Testing

/// Every output of a report (console, JSON, JUnit, HTML, annotations), rendered the way a run
/// delivers them, from a report the recorder made with `secrets` known.
struct RenderedOutputs {
    var console: String
    var json: String
    var junit: String
    var html: String
    var annotations: String

    init(_ report: ContractReport) {
        console = report.consoleText
        json = report.jsonText
        junit = report.junitXML
        html = report.htmlDocument
        annotations = report.githubAnnotations.joined(separator: "\n")
    }

    /// Each output as a reader gets its text back: the console and annotations as printed (and
    /// the annotations' messages unescaped), the JSON report's strings, the JUnit and HTML texts
    /// with their references turned back into characters.
    var decoded: [(name: String, text: String)] {
        [
            ("console", console),
            ("annotations", annotations + "\n" + SecretForms.unescapingAnnotation(annotations)),
            ("JSON", json + "\n" + SecretForms.strings(inJSON: json).joined(separator: "\n")),
            ("JUnit", junit + "\n" + SecretForms.unescapingMarkup(junit)),
            ("HTML", html + "\n" + SecretForms.unescapingMarkup(html)),
        ]
    }
}

@Suite("secrets in every encoding, and nothing else masked")
struct SecretEncodingTests {
    /// Characters of generated secrets: letters, digits, the punctuation encoders escape, a space
    /// and non-ASCII text. Every secret has one character outside `[a-z0-9:]` (the alphabet of
    /// the harmless values), so no harmless value can hold a secret.
    static let secretAlphabet = Array("abcXYZ0189'\"<>&%+/=:@~\\!# é中😀")
    static let special = Array("'\"<>&%+/=@~\\!#é中😀")

    static let secret: Gen<String> = zip(
        Gen<Character>.element(of: secretAlphabet).array(count: 5...14), Gen<Character>.element(of: special), Gen.int(in: 0...14)
    ).map { characters, special, position in
        var characters = characters
        characters.insert(special, at: min(position, characters.count))
        let text = String(characters).trimmingCharacters(in: .whitespaces)
        return text.count >= Redactor.minimumLength ? text : text + "Q!"
    }

    /// A harmless value: `x`, a word, or an id with colons (parts of 1 to 5 of `[a-z0-9]`).
    static let harmless: Gen<String> = Gen<Character>.element(of: Array("abcdefxyz0123456789")).array(count: 1...5)
        .map { String($0) }.array(count: 1...3).map { $0.joined(separator: ":") }

    /// An encoding a server or an adapter may use, applied to `secret`; some mix forms character
    /// by character, as `html.escape` or a JSON encoder escaping some characters only does.
    static func encodings(of secret: String) -> Gen<String> {
        // Issue 28's forms that hold nothing but the secret (JSON inside JSON also shows its member).
        let forms = SecretForms.forms(of: secret).map(\.text) + WrappedSecretForms.forms(of: secret).filter { $0.masked == Redactor.mask }.map(\.text)
        let mixed = Gen<Bool>.bool(probability: 0.5).array(count: secret.unicodeScalars.count...secret.unicodeScalars.count).map { picks in
            Swift.zip(secret.unicodeScalars, picks).map { scalar, escape in
                guard escape else { return String(scalar) }
                if scalar.value > 0xFFFF { return SecretForms.unicodeEscaped(String(scalar), uppercase: false) }
                return scalar.value % 2 == 0 ? "\\u" + String(format: "%04X", scalar.value) : "&#\(scalar.value);"
            }.joined()
        }
        return Gen.frequency((forms.count, Gen<String>.element(of: forms)), (4, mixed))
    }

    /// A secret too short to be masked anywhere but as a credential, as harmless-looking as they come.
    static let shortSecret: Gen<String> = Gen<Character>.element(of: Array("abcxyz0123:")).array(count: 1...(Redactor.minimumLength - 1))
        .map { String($0) }

    static let cases = zip(secret, harmless.array(count: 3...3), shortSecret).flatMap { secret, harmless, short in
        encodings(of: secret).map { (secret, $0, harmless, short) }
    }

    @Test("a generated secret in any encoding is masked in every output, and no harmless value is")
    func generatedSecrets() {
        propertyCheck(Self.cases, configuration: PropertyConfiguration(cases: 150), verifying: { secret, encoded, harmless, short in
            // `short` is a secret too, shorter than the minimum: masked only as a credential.
            let store = SecretStore([secret, short])
            let recorder = ContractRecorder(secrets: store)
            let message = "\(harmless[0]) \(encoded) \(harmless[1]) \"\(short)\" \(harmless[2])"
            let expected = "\(harmless[0]) \(Redactor.mask) \(harmless[1]) \"\(short)\" \(harmless[2])"
            recorder.fail(group: "echo", contract: "answers echo", ContractFailure(
                message: message, caseId: harmless[1],
                request: ReportedRequest(method: "POST", path: "/api/v1/announcements/\(harmless[0])", headers: [
                    ReportedHeader(name: "X-Echo", value: encoded), ReportedHeader(name: "Authorization", value: short),
                ], body: #"{"id":"\#(harmless[0])","note":"\#(encoded)"}"#),
                expected: "200 {\"id\":\"\(short)\"}", actual: "500 error\nAuthorization: \(short)\nX-Seen: \(encoded)\n\(message)"))
            recorder.leave(Leftover(id: harmless[2], microchipNumber: nil, reason: "echo \(encoded)"))
            recorder.note("seen \(encoded) for \(harmless[0])")
            let report = recorder.report(command: "run", arguments: ["--base-url", "http://127.0.0.1:1"], target: "t", seed: 1, startedAt: Date())
            let outputs = RenderedOutputs(report)
            for (name, text) in outputs.decoded {
                let leaks = SecretForms.leaks(of: secret, in: text)
                try require(leaks.isEmpty, "\(name) shows \(secret.debugDescription) as \(leaks)")
                try require(!text.contains(encoded), "\(name) shows the encoded form \(encoded.debugDescription)")
                // Text CI tools print shows `::` escaped (WorkflowCommands); the JSON and HTML read back exactly.
                let shown = ["console", "annotations", "JUnit"].contains(name) ? WorkflowCommands.visible(expected) : expected
                try require(text.contains(shown), "\(name) lacks \(shown.debugDescription)")
                try require(text.contains("Authorization: \(Redactor.mask)"), "\(name) shows the short credential")
            }
            let failure = failures(of: "answers echo", in: outputs.json).first
            try require(failure?["message"]?.stringValue == expected, "JSON message \(String(describing: failure?["message"]))")
            try require(failure?["caseId"]?.stringValue == harmless[1], "the case id \(harmless[1]) was masked")
            try require(failure?["expected"]?.stringValue == "200 {\"id\":\"\(short)\"}", "a short secret outside a credential was masked")
        })
    }

    @Test("a token echoed through Python's html.escape, and in every form of issue 22, is masked everywhere")
    func issueForms() {
        let token = "petspot-admin 'tok\"en' <&>"
        let redactor = Redactor(secrets: [token])
        for form in SecretForms.forms(of: token) {
            let scrubbed = redactor.scrub("before \(form.text) after")
            #expect(scrubbed == "before ****** after", "\(form.name): \(scrubbed)")
        }
        // Inside a longer base64 text, at each alignment, the whole base64 word goes.
        for prefix in ["", "a", "ab", "abc"] {
            let encoded = Data((prefix + token + "tail").utf8).base64EncodedString()
            #expect(redactor.scrub("Basic \(encoded) x") == "Basic ****** x", "\(prefix)")
        }
    }

    @Test("harmless values are never masked: x, ids with colons, words; a short secret only as a credential")
    func harmlessValues() {
        let store = SecretStore(["x", "ab:cd", "123456"])
        store.learnCredential("Basic " + Data("id:x:123456".utf8).base64EncodedString())
        let redactor = store.redactor
        #expect(redactor.scrub(#"{"id":"x","status":"x","name":"ab:cd"}"#) == #"{"id":"x","status":"x","name":"ab:cd"}"#)
        #expect(redactor.json(["id": "x", "ids": ["x", "ab:cd"]]) == ["id": "x", "ids": ["x", "ab:cd"]])
        #expect(redactor.scrub("announcement id:x:123456 failed") == "announcement id:x:****** failed", "the id stays visible")
        #expect(redactor.scrub("Authorization: x") == "Authorization: ******")
        #expect(redactor.scrub(#"{"authorization":"x"}"#) == #"{"authorization":"******"}"#)
        #expect(redactor.scrub("/p?token=x&q=x") == "/p?token=******&q=x")
        #expect(redactor.arguments(["--cases", "x", "--admin-token", "x"]) == ["--cases", "x", "--admin-token", "******"])
        #expect(redactor.header(name: "X-Note", value: "x") == "x")
        #expect(redactor.scrub("expected a six-digit password, got 1234567") == "expected a six-digit password, got 1234567")
        #expect(redactor.scrub("the text mentions x, FAILED and passed") == "the text mentions x, FAILED and passed")
    }
}

/// The encodings of issue 28 that a server, an adapter or a log may use, written here
/// independently of the runner's code: JSON inside JSON, double percent-encoding, HTML references
/// without `;`, SQL-doubled quotes, separated hexadecimal and MIME base64.
enum WrappedSecretForms {
    /// A token of letters, digits, `'`, `"` and `\`.
    static let token = #"Tok3n'9"x\Q"#

    /// `(name, text, masked)`: `text` holds `secret` in one encoding, `masked` is `text` as the
    /// redaction must leave it (the encoding's surroundings kept, the secret masked).
    static func forms(of secret: String) -> [(name: String, text: String, masked: String)] {
        let bytes = Array(secret.utf8)
        let mask = Redactor.mask
        /// A JSON text holding `value` as a member, itself written as a JSON string's content.
        func jsonInJSON(_ escapedValue: String) -> String {
            SecretForms.jsonEscaped(#"{"echo":""# + escapedValue + #""}"#)
        }
        let percent = SecretForms.percentEncoded(bytes, uppercase: true, form: false)
        return [
            ("JSON in JSON", jsonInJSON(SecretForms.jsonEscaped(secret)), jsonInJSON(mask)),
            ("JSON in JSON, \\u", jsonInJSON(SecretForms.unicodeEscaped(secret, uppercase: true)), jsonInJSON(mask)),
            ("JSON in JSON, \\u lower", jsonInJSON(SecretForms.unicodeEscaped(secret, uppercase: false)), jsonInJSON(mask)),
            ("JSON in JSON, bare", SecretForms.jsonEscaped(SecretForms.jsonEscaped(secret)), mask),
            ("double percent", SecretForms.percentEncoded(Array(percent.utf8), uppercase: true, form: false), mask),
            ("double percent, every byte", bytes.map { String(format: "%%25%02X", $0) }.joined(), mask),
            ("double percent mixed with single", bytes.enumerated().map { String(format: $0.offset % 2 == 0 ? "%%25%02x" : "%%%02X", $0.element) }.joined(), mask),
            ("HTML decimal, no ;", secret.unicodeScalars.map { "&#\($0.value)" }.joined(), mask),
            ("HTML hex, no ;", secret.unicodeScalars.map { "&#x\(String($0.value, radix: 16))" }.joined(), mask),
            ("HTML hex upper, no ;", secret.unicodeScalars.map { "&#X\(String($0.value, radix: 16, uppercase: true))" }.joined(), mask),
            ("HTML, punctuation only, no ;", secret.unicodeScalars.map { scalar in
                let named: [Unicode.Scalar: String] = ["\"": "&quot", "&": "&amp", "<": "&lt", ">": "&gt"]
                if let reference = named[scalar] { return reference }
                return scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) ? String(scalar) : "&#\(scalar.value)"
            }.joined(), mask),
            ("SQL doubled quotes", secret.replacingOccurrences(of: "'", with: "''"), mask),
            ("hex, colons", bytes.map { String(format: "%02x", $0) }.joined(separator: ":"), mask),
            ("hex, colons, upper", bytes.map { String(format: "%02X", $0) }.joined(separator: ":"), mask),
            ("hex, dashes", bytes.map { String(format: "%02x", $0) }.joined(separator: "-"), mask),
            ("hex, spaces", bytes.map { String(format: "%02X", $0) }.joined(separator: " "), mask),
        ]
    }

    /// MIME base64 of `prefix` bytes of filler, `secret` and more filler, wrapped at 76
    /// characters with `lineBreak`; and the lines that carry a bit of the secret.
    static func mime(_ secret: String, prefix: Int, lineBreak: String) -> (text: String, lines: [String], secretLines: Set<Int>) {
        let filler = Array("The quick brown fox jumps over the lazy dog; ".utf8)
        let before = (0..<prefix).map { filler[$0 % filler.count] }
        let after = (0..<120).map { filler[($0 + 7) % filler.count] }
        let encoded = Data(before + Array(secret.utf8) + after).base64EncodedString()
        var lines: [String] = []
        var rest = Substring(encoded)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(76)))
            rest = rest.dropFirst(76)
        }
        // Base64 character c holds bits 6c..<6c+6 of the bytes; the secret's are 8*prefix..<8*(prefix+count).
        let firstCharacter = 8 * prefix / 6, lastCharacter = (8 * (prefix + secret.utf8.count) - 1) / 6
        let secretLines = Set((firstCharacter / 76)...(lastCharacter / 76))
        return (lines.joined(separator: lineBreak), lines, secretLines)
    }

    /// The MIME texts of `secret` the tests look at: each offset mod 3, the secret before, across
    /// and after the first line break, with CRLF and with LF.
    static func mimeCases(_ secret: String) -> [(name: String, text: String, lines: [String], secretLines: Set<Int>)] {
        var cases: [(String, String, [String], Set<Int>)] = []
        for lineBreak in ["\r\n", "\n"] {
            for prefix in 44...58 {
                let mime = mime(secret, prefix: prefix, lineBreak: lineBreak)
                cases.append(("MIME base64, \(prefix) bytes before, \(lineBreak == "\n" ? "LF" : "CRLF")", mime.text, mime.lines, mime.secretLines))
            }
        }
        return cases
    }
}

@Suite("secrets in the encodings of issue 28")
struct WrappedSecretTests {
    static let token = WrappedSecretForms.token

    @Test("a token in JSON inside JSON, double percent-encoding, HTML references without ;, SQL-doubled quotes and separated hex is masked")
    func forms() {
        let redactor = Redactor(secrets: [Self.token])
        for form in WrappedSecretForms.forms(of: Self.token) {
            #expect(redactor.scrub("before \(form.text) after") == "before \(form.masked) after", "\(form.name): \(form.text)")
        }
    }

    @Test("a token in wrapped MIME base64 is masked at every offset and line break; the lines without it stay")
    func mimeBase64() {
        let redactor = Redactor(secrets: [Self.token])
        for mime in WrappedSecretForms.mimeCases(Self.token) {
            let scrubbed = redactor.scrub("body:\n\(mime.text)\nend")
            for (number, line) in mime.lines.enumerated() {
                if mime.secretLines.contains(number) {
                    #expect(!scrubbed.contains(line), "\(mime.name): line \(number) carries the token and is shown: \(scrubbed)")
                } else {
                    #expect(scrubbed.contains(line), "\(mime.name): line \(number) carries no bit of the token and is masked: \(scrubbed)")
                }
            }
            #expect(scrubbed.contains(Redactor.mask), "\(mime.name)")
        }
    }

    /// Every output of a report in which `encoded` reached each field a server or an adapter
    /// fills: the message, a header, the body, the answer, a leftover's reason and a note.
    static func outputs(showing encoded: String, secret: String) -> RenderedOutputs {
        let recorder = ContractRecorder(secrets: SecretStore([secret]))
        recorder.fail(group: "echo", contract: "answers echo", ContractFailure(
            message: "the answer echoed \(encoded) back", caseId: "echo-1",
            request: ReportedRequest(method: "POST", path: "/api/v1/announcements/x", headers: [ReportedHeader(name: "X-Echo", value: encoded)],
                                     body: #"{"note":"\#(encoded)"}"#),
            expected: "200", actual: "500 error\nX-Seen: \(encoded)\n\(encoded)"))
        recorder.leave(Leftover(id: "left-1", microchipNumber: nil, reason: "echo \(encoded)"))
        recorder.note("seen \(encoded)")
        return RenderedOutputs(recorder.report(command: "run", arguments: [], target: "t", seed: 1, startedAt: Date()))
    }

    @Test("each form of issue 28 is masked in every rendering: console, JSON, JUnit, HTML, annotations")
    func renderings() {
        for form in WrappedSecretForms.forms(of: Self.token) {
            let outputs = Self.outputs(showing: form.text, secret: Self.token)
            for (name, text) in outputs.decoded {
                #expect(SecretForms.leaks(of: Self.token, in: text).isEmpty, "\(form.name): \(name) shows the token")
                #expect(!text.contains(form.text), "\(form.name): \(name) shows \(form.text)")
            }
            let failure = failures(of: "answers echo", in: outputs.json).first
            #expect(failure?["message"]?.stringValue == "the answer echoed \(form.masked) back", "\(form.name)")
        }
        for mime in WrappedSecretForms.mimeCases(Self.token) {
            let outputs = Self.outputs(showing: mime.text, secret: Self.token)
            for (name, text) in outputs.decoded {
                for number in mime.secretLines {
                    #expect(!text.contains(mime.lines[number]), "\(mime.name): \(name) shows line \(number)")
                }
            }
        }
    }
}
