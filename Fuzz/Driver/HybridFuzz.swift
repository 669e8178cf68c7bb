// hybrid-fuzz: the fuzzing executable (`make fuzz`), beside the product and never linked into it.
//
//   hybrid-fuzz list                          the targets
//   hybrid-fuzz TARGET [libFuzzer options] [CORPUS...]   fuzz TARGET (a build with -sanitize=fuzzer)
//   hybrid-fuzz TARGET FILE|FOLDER...         replay inputs through TARGET (any other build)
//
// SwiftPM links an executable's own entry point over libFuzzer's `main`, so this main picks the
// target from its first argument and hands the rest to libFuzzer's `LLVMFuzzerRunDriver`. Only
// a build with `-D HYBRID_FUZZING` (which `make fuzz` passes beside `-sanitize=fuzzer,address`)
// calls it: the symbol exists only where libFuzzer is linked.
import CLibFuzzer
import FuzzTargets
import Glibc
import SystemIO

@main
enum HybridFuzz {
    /// The target libFuzzer's callback runs: a C callback captures nothing.
    nonisolated(unsafe) static var selected: FuzzTarget!

    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, arguments[1] != "-h", arguments[1] != "--help" else {
            StandardStreams.write(usage, to: 2)
            exit(2)
        }
        if arguments[1] == "list" {
            for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
            exit(0)
        }
        guard let target = FuzzTarget.named(arguments[1]) else {
            StandardStreams.write("hybrid-fuzz: unknown target \"\(arguments[1])\"; expected one of \(FuzzTarget.all.map(\.name).joined(separator: ", "))\n", to: 2)
            exit(2)
        }
        selected = target
        #if HYBRID_FUZZING
        exit(fuzz(rest: Array(arguments.dropFirst(2))))
        #else
        exit(replay(target, paths: Array(arguments.dropFirst(2))))
        #endif
    }

    static let usage = """
        usage: hybrid-fuzz list
               hybrid-fuzz TARGET [libFuzzer options] [CORPUS...]   (a -sanitize=fuzzer build: make fuzz)
               hybrid-fuzz TARGET FILE|FOLDER...                    (any other build: replays the inputs)

        """

    /// Runs one input; a finding stops the process the way a crash does, so that libFuzzer keeps
    /// the input as an artifact.
    static func runOne(_ target: FuzzTarget, _ bytes: [UInt8]) {
        do {
            try target.run(bytes)
        } catch {
            StandardStreams.write("hybrid-fuzz: finding: \(error)\n", to: 2)
            abort()
        }
    }

    #if HYBRID_FUZZING
    static func fuzz(rest: [String]) -> Int32 {
        // libFuzzer's -jobs and -fork re-run argv[0] with the options alone, without the target:
        // run one process per target instead (make fuzz does).
        var strings = [CommandLine.arguments[0]] + rest
        var argc = Int32(strings.count)
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.indices.map { strdup(strings[$0]) } + [nil]
        strings.removeAll()
        return pointers.withUnsafeMutableBufferPointer { buffer in
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
            return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) }
        }
    }
    #else
    /// Runs every file given, and every file of every folder given, through `target`.
    static func replay(_ target: FuzzTarget, paths: [String]) -> Int32 {
        var count = 0
        for path in paths {
            let files = FileSystem.kind(of: path) == .directory ? FileSystem.entries(of: path).sorted().map { path + "/" + $0 } : [path]
            for file in files {
                guard let bytes = try? FileSystem.bytes(atPath: file) else {
                    StandardStreams.write("hybrid-fuzz: cannot read \(file)\n", to: 2)
                    return 2
                }
                runOne(target, bytes)
                count += 1
            }
        }
        print("hybrid-fuzz: \(target.name): \(count) inputs replayed, no finding")
        return 0
    }
    #endif
}

/// libFuzzer's own `main` (linked whole with `-sanitize=fuzzer`, though SwiftPM's entry point
/// replaces it) calls this; defined so that the program links, and runs the selected target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let target = HybridFuzz.selected else { return 0 }
    HybridFuzz.runOne(target, size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
