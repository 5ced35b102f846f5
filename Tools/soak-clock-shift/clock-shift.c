// The soak's clock jump (docs/soak.md): preloaded into one spconnect run (LD_PRELOAD), it moves that process's
// wall clock by SOAK_CLOCK_SHIFT_SECONDS (negative moves it back). Only the wall clock moves: CLOCK_REALTIME and
// its coarse twin, gettimeofday and time; monotonic clocks (timeouts, back-off waits) keep real time, as they do
// when a machine's clock is set. Not a SwiftPM target: the soak compiles it with the toolchain's clang.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

typedef int (*clock_gettime_function)(clockid_t, struct timespec *);

static clock_gettime_function real_clock_gettime;
static long long shift_seconds;

__attribute__((constructor)) static void read_shift(void) {
    real_clock_gettime = (clock_gettime_function)dlsym(RTLD_NEXT, "clock_gettime");
    const char *value = getenv("SOAK_CLOCK_SHIFT_SECONDS");
    shift_seconds = value ? atoll(value) : 0;
}

int clock_gettime(clockid_t clock, struct timespec *now) {
    if (!real_clock_gettime) read_shift();
    int result = real_clock_gettime(clock, now);
    if (result == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)) {
        now->tv_sec += shift_seconds;
    }
    return result;
}

int gettimeofday(struct timeval *restrict now, void *restrict zone) {
    (void)zone;
    struct timespec precise;
    int result = clock_gettime(CLOCK_REALTIME, &precise);
    if (result == 0) {
        now->tv_sec = precise.tv_sec;
        now->tv_usec = precise.tv_nsec / 1000;
    }
    return result;
}

time_t time(time_t *now) {
    struct timespec precise;
    clock_gettime(CLOCK_REALTIME, &precise);
    if (now) *now = precise.tv_sec;
    return precise.tv_sec;
}
