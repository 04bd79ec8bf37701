import Foundation
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// Every option of a command, read once: typed values by option, and the replay line.
package struct ResolvedOptions: Sendable {
    /// The command.
    let command: CommandSpec
    private let values: [String: ResolvedOption]
    private let given: Set<String>

    /// Reads every option of `command` from `arguments`.
    init(_ command: CommandSpec, arguments: [String: [String]], environment: [String: String]) throws(RunnerError) {
        self.command = command
        let context = OptionContext(command: command.name, environment: environment)
        var values: [String: ResolvedOption] = [:]
        for option in command.options {
            values[option.spec.name] = try option.resolve(arguments[option.spec.name] ?? [], in: context)
        }
        self.values = values
        given = Set(arguments.keys)
    }

    /// The value of `option`, which must be one of the command's.
    /// - Throws: an internal error naming the option and the command when the command reads an
    ///   option its spec does not declare (a test builds every command to find one; a run that
    ///   meets one ends with exit 70 and the same line, never a crash).
    package subscript<Value>(_ option: Option<Value>) -> Value {
        get throws(RunnerError) {
            guard let value = values[option.spec.name]?.value as? Value else {
                throw .internal("\(option.spec.name) is read by '\(command.name)' but not declared in its spec's options")
            }
            return value
        }
    }

    /// `petspot-contracts COMMAND` and the replay words of every option whose rule lets it in, in
    /// the command's option order.
    package var replayLine: String {
        var words = ["petspot-contracts", command.name]
        for option in command.options {
            guard let resolved = values[option.spec.name], let replay = resolved.replay else { continue }
            switch resolved.rule {
            case .never: continue
            case .always: words.append(replay)
            case .whenGiven: if given.contains(option.spec.name) { words.append(replay) }
            case .alongside(let other): if given.contains(other) { words.append(replay) }
            }
        }
        return words.joined(separator: " ")
    }
}
