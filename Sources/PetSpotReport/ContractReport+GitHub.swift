import Foundation

extension ContractReport {
    /// The longest line of an annotation message; a longer one (a long input or body) is cut
    /// in its middle, so the seed and replay lines always come through whole.
    static let maxAnnotationLineCharacters = 500
    /// The longest annotation message written.
    static let maxAnnotationCharacters = 6_000

    /// GitHub Actions workflow commands for this report, one line each: an `::error` per failure
    /// kept (titled `[group] contract`, with the failure's message, case, expected and actual
    /// answers, inputs, seed and replay line) and a `::warning` per announcement left on the
    /// target.
    ///
    /// ```
    /// ::error title=[flow answers] status by flow::payload status is "found"...%0A  seed: 7%0A  replay: petspot-contracts check --seed 7
    /// ```
    ///
    /// Escaped as GitHub's runner reads them: `%`, `\r` and `\n` in messages, and also `:` and
    /// `,` in property values, so no value can end its command early or start another one; and
    /// a `##[` or `::` in a title or message is shown escaped (``WorkflowCommands/visible(_:)``),
    /// so that no text of the target reads as a command of its own.
    public var githubAnnotations: [String] {
        var lines: [String] = []
        var number = 0
        for group in groups {
            for contract in group.contracts {
                for failure in contract.failures {
                    number += 1
                    let details = Self.failureLines(number: number, group: group.name, contract: contract.name, failure)
                        .dropFirst()
                        .map { Self.shortened($0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0, to: Self.maxAnnotationLineCharacters) }
                        .joined(separator: "\n")
                    lines.append(Self.workflowCommand("error", title: "[\(group.name)] \(contract.name)", message: details))
                }
            }
        }
        for leftover in leftovers {
            let chip = leftover.microchipNumber.map { " (microchip \($0))" } ?? ""
            lines.append(Self.workflowCommand(
                "warning", title: "left on target: announcement \(leftover.id)", message: "announcement \(leftover.id)\(chip): \(leftover.reason)"))
        }
        return lines
    }

    /// One workflow command line: `::KIND title=TITLE::MESSAGE`, escaped, the message cut to
    /// ``maxAnnotationCharacters``.
    static func workflowCommand(_ kind: String, title: String, message: String) -> String {
        let message = WorkflowCommands.visible(shortened(message, to: maxAnnotationCharacters))
        return "::\(kind) title=\(escapedProperty(WorkflowCommands.visible(title)))::\(escapedData(message))"
    }

    /// `text`, or when longer than `limit` characters its beginning and end around a note of
    /// what was cut (the console, JSON and HTML reports have it whole).
    static func shortened(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        let keep = max(0, limit - 60) / 2
        return "\(text.prefix(keep)) ... (\(text.count - 2 * keep) characters cut; the reports have them) ... \(text.suffix(keep))"
    }

    /// A workflow command's message: `%`, `\r` and `\n` percent-encoded.
    static func escapedData(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": result += "%25"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A workflow command's property value: as a message, and `:` and `,` percent-encoded too.
    static func escapedProperty(_ text: String) -> String {
        escapedData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
