#if canImport(Glibc)
    import Glibc
#endif

/// How the C allocator treats the big buffers of a long streamed listing.
enum MemoryPolicy {
    /// Asks glibc's malloc to give every buffer of 1 MiB or more its own mapping, returned to the system as soon as
    /// it is freed, and to keep all threads on one arena. A paged listing allocates one multi-megabyte response
    /// body per page (about 13 MB for 5,000 verbose items); with glibc's default, the threshold for such
    /// mappings rises after the first one is freed, later bodies land in arenas of the transfer and main threads,
    /// and the freed space stays in the process, so the peak RSS grows with the first pages instead of staying at
    /// one page. Output and behaviour are unchanged. Does nothing where glibc is not the C library.
    static func returnLargeBuffersPromptly() {
        #if canImport(Glibc)
            // `mallopt` is declared in <malloc.h>, which the Glibc module does not export: look it up instead.
            typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
            guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
            let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
            let arenaMax: Int32 = -8  // M_ARENA_MAX
            _ = mallopt(mmapThreshold, 1 << 20)
            _ = mallopt(arenaMax, 1)
        #endif
    }
}
