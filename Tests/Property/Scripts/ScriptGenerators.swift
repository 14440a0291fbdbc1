import GRDBLite
import PropertyBased

/// The actions of a suite, for generating scripts.
protocol ScriptActionGenerator: Sendable {
    associatedtype Action: Sendable
    /// A new action. In `read` accesses, it must not write.
    mutating func action(_ r: inout Rand, readOnly: Bool) -> Action
    /// Simpler actions, for shrinking (read-only if `action` is).
    func shrink(_ action: Action) -> [Action]
}

enum ScriptGenerators {
    static func script<Actions: ScriptActionGenerator>(
        _ actions: Actions,
        accesses: ClosedRange<Int>) -> Generator<Script<Actions.Action>, [Script<Actions.Action>]>
    {
        generator(
            run: { r in
                var actions = actions
                return makeScript(&r, &actions, accesses: accesses)
            },
            shrink: { shrink($0, actions) })
    }

    static func makeScript<Actions: ScriptActionGenerator>(
        _ r: inout Rand, _ actions: inout Actions, accesses: ClosedRange<Int>) -> Script<Actions.Action>
    {
        Script(accesses: (0..<r.int(accesses)).map { _ in access(&r, &actions) })
    }

    // MARK: Generation

    private static func access<Actions: ScriptActionGenerator>(_ r: inout Rand, _ actions: inout Actions) -> Access<
        Actions.Action
    > {
        switch r.int(0...19) {
        case 0...6:
            return .write(steps(&r, &actions, raw: false, depth: 0), r.chance(0.85) ? .commit : .throw)
        case 7...9:
            return .inTransaction(
                r.pick([.deferred, .immediate, .exclusive]), steps(&r, &actions, raw: false, depth: 0), blockEnd(&r))
        case 10...16:
            return .withoutTransaction(steps(&r, &actions, raw: true, depth: 0))
        default:
            return .read((0..<r.int(0...3)).map { _ in .action(actions.action(&r, readOnly: true)) })
        }
    }

    private static func blockEnd(_ r: inout Rand) -> BlockEnd {
        r.weighted([(12, .commit), (5, .rollback), (3, .throw)])
    }

    /// Raw steps (transaction statements) run outside of blocks only.
    private static func steps<Actions: ScriptActionGenerator>(
        _ r: inout Rand, _ actions: inout Actions, raw: Bool, depth: Int) -> [Step<Actions.Action>]
    {
        (0..<r.int(0...(raw ? 9 : 5))).map { _ in step(&r, &actions, raw: raw, depth: depth) }
    }

    private enum StepKind {
        case action, fail, inSavepoint, begin, commit, rollback, savepoint, release, rollbackTo
    }

    private static func step<Actions: ScriptActionGenerator>(
        _ r: inout Rand, _ actions: inout Actions, raw: Bool, depth: Int) -> Step<Actions.Action>
    {
        let kind: StepKind = r.weighted([
            (raw ? 40 : 60, .action), (raw ? 5 : 7, .fail), (depth < 2 ? (raw ? 6 : 15) : 0, .inSavepoint),
            (raw ? 8 : 0, .begin), (raw ? 8 : 0, .commit), (raw ? 5 : 0, .rollback),
            (raw ? 8 : 0, .savepoint), (raw ? 7 : 0, .release), (raw ? 5 : 0, .rollbackTo),
        ])
        let name = r.pick(["a", "b", "A"])
        switch kind {
        case .action: return .action(actions.action(&r, readOnly: false))
        case .fail: return .fail(r.weighted([(2, .uniqueViolation), (1, .conflictRollback), (1, .triggerRollback)]))
        case .inSavepoint: return .inSavepoint(steps(&r, &actions, raw: false, depth: depth + 1), blockEnd(&r))
        case .begin: return .begin(r.pick([.deferred, .immediate, .exclusive]))
        case .commit: return .commit
        case .rollback: return .rollback
        case .savepoint: return .savepoint(name)
        case .release: return .release(name)
        case .rollbackTo: return .rollbackTo(name)
        }
    }

    // MARK: Shrinking

    /// Fewer accesses, plainer accesses, fewer and simpler steps.
    static func shrink<Actions: ScriptActionGenerator>(_ script: Script<Actions.Action>, _ actions: Actions) -> [Script<
        Actions.Action
    >] {
        var candidates: [Script<Actions.Action>] = []
        func replacing(_ index: Int, with access: Access<Actions.Action>) -> Script<Actions.Action> {
            var script = script
            script.accesses[index] = access
            return script
        }
        for index in script.accesses.indices {
            var smaller = script
            smaller.accesses.remove(at: index)
            candidates.append(smaller)
        }
        for (index, access) in script.accesses.enumerated() {
            switch access {
            case let .write(steps, end):
                candidates.append(replacing(index, with: .withoutTransaction(steps)))
                if end != .commit { candidates.append(replacing(index, with: .write(steps, .commit))) }
                for smaller in shrink(steps, actions) {
                    candidates.append(replacing(index, with: .write(smaller, end)))
                }
            case let .inTransaction(kind, steps, end):
                candidates.append(replacing(index, with: .write(steps, end == .throw ? .throw : .commit)))
                for smaller in shrink(steps, actions) {
                    candidates.append(replacing(index, with: .inTransaction(kind, smaller, end)))
                }
            case let .withoutTransaction(steps):
                for smaller in shrink(steps, actions) {
                    candidates.append(replacing(index, with: .withoutTransaction(smaller)))
                }
            case let .read(steps):
                for smaller in shrink(steps, actions) { candidates.append(replacing(index, with: .read(smaller))) }
            }
        }
        return candidates
    }

    private static func shrink<Actions: ScriptActionGenerator>(_ steps: [Step<Actions.Action>], _ actions: Actions)
        -> [[Step<Actions.Action>]]
    {
        var candidates: [[Step<Actions.Action>]] = []
        for index in steps.indices {
            var smaller = steps
            smaller.remove(at: index)
            candidates.append(smaller)
        }
        for (index, step) in steps.enumerated() {
            switch step {
            case let .inSavepoint(inner, end):
                var inlined = steps
                inlined.replaceSubrange(index...index, with: inner)
                candidates.append(inlined)
                if end != .commit {
                    var simpler = steps
                    simpler[index] = .inSavepoint(inner, .commit)
                    candidates.append(simpler)
                }
                for smaller in shrink(inner, actions) {
                    var simpler = steps
                    simpler[index] = .inSavepoint(smaller, end)
                    candidates.append(simpler)
                }
            case .action(let action):
                for simplerAction in actions.shrink(action) {
                    var simpler = steps
                    simpler[index] = .action(simplerAction)
                    candidates.append(simpler)
                }
            default:
                break
            }
        }
        return candidates
    }
}
