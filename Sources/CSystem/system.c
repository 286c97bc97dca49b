#define _GNU_SOURCE
#include "CSystem.h"

#include <fcntl.h>
#include <signal.h>
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

int pdfpipe_rename_exchange(const char *a, const char *b) {
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}
