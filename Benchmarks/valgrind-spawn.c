/* Benchmarks/valgrind-spawn.c — a measurement aid for valgrind runs that start child processes
   (the MP4 export's ffmpeg; RELIABILITY.md, "Memory checkers"), preloaded into the process under
   test:
       cc -shared -fPIC -o valgrind-spawn.so Benchmarks/valgrind-spawn.c -ldl
       LD_PRELOAD=$PWD/valgrind-spawn.so valgrind --trace-children=no … citrine render … -o x.mp4
   Under valgrind, /proc/self/fd also lists valgrind's own descriptors, which lie above the
   client's RLIMIT_NOFILE; Foundation's `Process.run()` adds a posix_spawn close action for every
   descriptor up to the highest listed, glibc refuses those beyond the limit (EBADF), and no
   child starts ("cannot start /usr/bin/ffmpeg … Bad file descriptor"). This skips close actions
   for descriptors the process cannot have open; nothing else changes. Not for normal runs. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <spawn.h>
#include <sys/resource.h>

int posix_spawn_file_actions_addclose(posix_spawn_file_actions_t *actions, int fd) {
    static int (*next)(posix_spawn_file_actions_t *, int);
    if (!next) next = (int (*)(posix_spawn_file_actions_t *, int))dlsym(RTLD_NEXT, "posix_spawn_file_actions_addclose");
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && (rlim_t)fd >= limit.rlim_cur) return 0;
    return next(actions, fd);
}
