import PetSpotPropertyEngine

/// Checks of the laws every generator must obey, for testing generators (engine or domain).
///
/// - *Seed determinism*: the same seed gives the same value.
/// - *Replay determinism*: replaying a value's recorded choices gives the same value and
///   records the same choices (the basis of shrinking and of replay by seed).
/// - *Map identity*: `gen.map { $0 }` gives the same values as `gen`.
/// - *Simplest value*: replaying the empty sequence (every choice `0`) decodes to a value
///   or a clean rejection, never a crash or hang.
///
/// ```swift
/// #expect(GeneratorLaws.violations(of: myGen).isEmpty)
/// ```
public enum GeneratorLaws {
    /// Returns a description of every law `gen` breaks on `samples` seeds split from `seed`; empty when it obeys them all.
    public static func violations<Value: Equatable & SendableMetatype>(
        of gen: Gen<Value>, samples: Int = 100, seed: UInt64 = 0x5EED, size: Int = 100
    ) -> [String] {
        var problems: [String] = []
        var random = Xoshiro256StarStar(seed: seed)
        let identity = gen.map { $0 }
        for _ in 0..<Swift.max(0, samples) {
            let caseRandom = random.split()
            var first = TestCase(random: caseRandom, size: size)
            var second = TestCase(random: caseRandom, size: size)
            var mapped = TestCase(random: caseRandom, size: size)
            guard let value = try? gen.draw(&first) else { continue }
            let again = try? gen.draw(&second)
            if again != value || second.choices != first.choices {
                problems.append("seed determinism: one seed gave \(String(reflecting: value)) and \(String(reflecting: again))")
            }
            if (try? identity.draw(&mapped)) != value {
                problems.append("map identity: map { $0 } changed \(String(reflecting: value))")
            }
            var replay = TestCase(replaying: first.choices, size: size)
            let replayed = try? gen.draw(&replay)
            if replayed != value || replay.choices != first.choices {
                problems.append(
                    "replay determinism: choices \(first.choices.prefix(16)) gave \(String(reflecting: value)) "
                        + "then \(String(reflecting: replayed))")
            }
        }
        var simplest = TestCase(replaying: [], size: size)
        do {
            _ = try gen.draw(&simplest)
        } catch is TestCaseStop {
            // A clean rejection of the all-zero sequence is allowed.
        } catch {
            problems.append("simplest value: drawing all-zero choices threw \(error)")
        }
        return problems
    }
}
