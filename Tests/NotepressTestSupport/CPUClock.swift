import Foundation

/// Seconds of CPU time this test process has used (every thread, user and system), for the
/// tests that bound how long a computation takes. Unlike the wall clock, it does not grow while
/// other processes hold the CPU, so a loaded machine leaves those bounds meaningful: a test may
/// be slow under load, never wrong.
package func processCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
