import PropertyBased

/// The random source of the generators: SplitMix64, seeded by the
/// PropertyBased generator, so that a seed replays the same input.
struct Rand: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
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
