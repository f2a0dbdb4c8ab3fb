// NotepressFuzz: a libFuzzer target for the readers, the loader, every writer and the folder
// path (see FuzzHarness).
//
// .ci/fuzz.sh builds it with NOTEPRESS_LIBFUZZER=1 in the environment (Package.swift then adds
// -sanitize=fuzzer,address to this target and main calls libFuzzer's LLVMFuzzerRunDriver) and -sanitize=address -sanitize-coverage=… for every module.
// Built normally (as `swift build` and `make test` do) it is a reproducer:
// `NotepressFuzz FILE...` runs each file once through the same harness, so a crash file from
// libFuzzer can be replayed without sanitizers. NOTEPRESS_FUZZ_STRICT=1 also aborts on TEI outputs
// that do not validate.
import Foundation
import NotepressFuzzSupport

let strict = ProcessInfo.processInfo.environment["NOTEPRESS_FUZZ_STRICT"] == "1"

func fuzzOne(_ bytes: [UInt8]) {
    let outcome = FuzzHarness.run(bytes)
    // A fast path that disagrees with the plain one, a folder run that differs from itself, a
    // failed output check (a live dangerous link, a bidi control on a terminal) are always bugs.
    if let (key, e) = outcome.bugs.sorted(by: { $0.key < $1.key }).first {
        FileHandle.standardError.write("\(key): \(e)\n".data(using: .utf8)!)
        abort()
    }
    if strict, let e = outcome.errors.first {
        FileHandle.standardError.write("writer \(e.key) failed: \(e.value)\n".data(using: .utf8)!)
        abort()
    }
}

/// The libFuzzer entry point (called by libFuzzer's main when linked with -sanitize=fuzzer).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    fuzzOne(bytes)
    return 0
}

#if NOTEPRESS_LIBFUZZER
// SwiftPM makes this file's top-level code the program's `main`, so libFuzzer's own main is not
// linked; hand control to libFuzzer's driver instead (libFuzzer ≥ LLVM 11).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32
if let why = FuzzHarness.warmUp() {
    FileHandle.standardError.write("NotepressFuzz cannot fuzz every writer here: \(why)\n".data(using: .utf8)!)
    exit(2)
}
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzerTestOneInput(data, size) })
#else
var failures = 0
let files = Array(CommandLine.arguments.dropFirst())
if files.isEmpty {
    fuzzOne([UInt8](FileHandle.standardInput.readDataToEndOfFile()))
} else {
    for f in files {
        guard let d = FileManager.default.contents(atPath: f) else {
            FileHandle.standardError.write("cannot read \(f)\n".data(using: .utf8)!); failures += 1; continue
        }
        fuzzOne([UInt8](d))
        print("ok \(f)")
    }
}
exit(failures == 0 ? 0 : 1)
#endif
