#ifndef SIGNIN_CMALLOCSHIM_H
#define SIGNIN_CMALLOCSHIM_H

/// glibc's allocator set for a Lambda process, which allocates on one thread and keeps running
/// for hours (docs/decisions/runtime-and-http.md, "Peak RSS, round 2"):
/// - one arena (M_ARENA_MAX 1): a thread that allocates (libcurl's resolver thread, on Lambda's
///   DNS names) would otherwise get an arena of its own, kept for the life of the process;
/// - a fixed mmap threshold of 128 KiB (M_MMAP_THRESHOLD): an allocation that large (a big event,
///   a long listing) is mapped and returned to the kernel when freed. glibc's default threshold
///   grows to the largest such block freed, after which those blocks come from the heap and stay;
/// - a fixed trim threshold of 128 KiB (M_TRIM_THRESHOLD): free memory at the heap's top beyond
///   that goes back to the kernel (the default grows with the mmap threshold).
/// Returns 1 when every setting was taken; 0 on a C library without them.
int cmalloc_settle_for_one_thread(void);

#endif
