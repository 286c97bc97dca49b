#define _GNU_SOURCE
#include "CSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int pdfpipe_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

void pdfpipe_child_die_with_parent(void) { prctl(PR_SET_PDEATHSIG, SIGKILL); }

void pdfpipe_child_close_from(int first) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0) return;
#endif
    for (int fd = first; fd < 65536; fd++) close(fd);
}

int pdfpipe_spawn(int *pid, const char *path, char *const argv[], char *const envp[], int in_fd, int out_fd, int err_fd) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) return status;
    status = posix_spawnattr_init(&attributes);
    if (status != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return status;
    }
    const int fds[3] = {in_fd, out_fd, err_fd};
    for (int target = 0; target < 3 && status == 0; target++) {
        if (fds[target] < 0)
            status = posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0);
        else
            status = posix_spawn_file_actions_adddup2(&actions, fds[target], target);
    }
    if (status == 0) status = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    if (status == 0) status = posix_spawnattr_setsigdefault(&attributes, &all);
    if (status == 0) status = posix_spawnattr_setsigmask(&attributes, &none);
    if (status == 0) status = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    pid_t child = -1;
    if (status == 0) status = posix_spawn(&child, path, &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (status == 0) *pid = child;
    return status;
}

int pdfpipe_rename_exchange(const char *a, const char *b) {
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}

/* Guarded mappings (see CSystem.h). A fixed table, read by the signal handler without locks: a
   slot is published by writing its length last and retired by zeroing its length first. */
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <pthread.h>

#define GUARD_SLOTS 4096
static struct {
    _Atomic(uintptr_t) start;
    _Atomic(size_t) length;
    _Atomic(int) faulted;
} guards[GUARD_SLOTS];
static struct sigaction previous_bus;
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;

static void guard_handler(int sig, siginfo_t *info, void *context) {
    uintptr_t addr = (uintptr_t)info->si_addr;
    for (int i = 0; i < GUARD_SLOTS; i++) {
        size_t length = atomic_load(&guards[i].length);
        if (length == 0) continue;
        uintptr_t start = atomic_load(&guards[i].start);
        if (addr < start || addr >= start + length) continue;
        /* The file is shorter than its mapping now: the rest of the mapping becomes zero pages
           (a private anonymous mapping over it), the read goes on, and the owner learns it. */
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t from = addr & ~(page - 1);
        void *p = mmap((void *)from, start + length - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (p != MAP_FAILED) {
            atomic_store(&guards[i].faulted, 1);
            return;
        }
        break;
    }
    /* Not a guarded mapping: what would have happened without this handler. */
    if (previous_bus.sa_flags & SA_SIGINFO) {
        if (previous_bus.sa_sigaction) {
            previous_bus.sa_sigaction(sig, info, context);
            return;
        }
    } else if (previous_bus.sa_handler != SIG_DFL && previous_bus.sa_handler != SIG_IGN) {
        previous_bus.sa_handler(sig);
        return;
    }
    signal(SIGBUS, SIG_DFL);  /* the faulting instruction runs again and the default action ends the process */
}

static void guard_install(void) {
    struct sigaction action;
    action.sa_sigaction = guard_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGBUS, &action, &previous_bus);
}

int pdfpipe_guard_mapping(void *start, size_t length) {
    pthread_once(&guard_once, guard_install);
    for (int i = 0; i < GUARD_SLOTS; i++) {
        uintptr_t zero = 0;
        if (atomic_load(&guards[i].start) != 0) continue;
        if (!atomic_compare_exchange_strong(&guards[i].start, &zero, (uintptr_t)start)) continue;
        atomic_store(&guards[i].faulted, 0);
        atomic_store(&guards[i].length, length);
        return i;
    }
    return -1;
}

int pdfpipe_unguard_mapping(int slot) {
    if (slot < 0 || slot >= GUARD_SLOTS) return 0;
    atomic_store(&guards[slot].length, 0);
    int faulted = atomic_load(&guards[slot].faulted);
    atomic_store(&guards[slot].start, 0);
    return faulted;
}

int pdfpipe_mapping_faulted(int slot) {
    if (slot < 0 || slot >= GUARD_SLOTS) return 0;
    return atomic_load(&guards[slot].faulted);
}
