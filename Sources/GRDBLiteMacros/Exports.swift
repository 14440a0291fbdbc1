// Importing GRDBLiteMacros imports GRDBLite: the macros' expansions use
// its types. In a file of its own, so that DatabaseRecord.swift, which the
// benchmark compiles too (Benchmarks/Sources/bench/Macros), re-exports
// nothing there.
@_exported import GRDBLite
