import PropertyBased
import TestSupport

/// The random source of the generators: the tests' seeded generator,
/// seeded by the PropertyBased generator, so that a seed replays the same
/// input.
struct Rand: RandomNumberGenerator {
    private var generator: SeededGenerator

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    mutating func next() -> UInt64 {
        generator.next()
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    mutating func pick<C: Collection>(_ collection: C) -> C.Element {
        collection.randomElement(using: &self)!
    }

    /// One of the choices, with probabilities proportional to their weights.
    mutating func weighted<T>(_ choices: [(weight: Int, value: T)]) -> T {
        var ticket = int(0...(choices.map(\.weight).reduce(0, +) - 1))
        for choice in choices {
            if ticket < choice.weight { return choice.value }
            ticket -= choice.weight
        }
        fatalError("unreachable")
    }
}

/// A generator of values built by `run`, whose failing inputs shrink to
/// the candidates `shrink` returns (smaller first).
func generator<Value: Sendable>(
    run: @escaping @Sendable (inout Rand) -> Value,
    shrink: @escaping @Sendable (Value) -> [Value]) -> Generator<Value, [Value]>
{
    Generator(
        run: { rng in
            var rand = Rand(seed: rng.next())
            return run(&rand)
        },
        shrink: { value -> sending [Value] in shrink(value) })
}
