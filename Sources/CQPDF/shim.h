#include <qpdf/qpdf-c.h>
#include <qpdf/qpdfjob-c.h>
#include <qpdf/qpdflogger-c.h>

/* For the helper process that runs a qpdf job single-threaded (PDFBridge/QPDFJob.swift): what Swift
   cannot call itself (prctl is variadic; close_range has no glibc wrapper in Swift's Glibc module). */
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Dies with the thread that spawned it (a killed worker leaves no qpdf running behind it). */
static inline void pdfpipe_child_die_with_parent(void) { prctl(PR_SET_PDEATHSIG, SIGKILL); }

/* Closes every descriptor from `first` up (what other threads of the parent had open at the spawn). */
static inline void pdfpipe_child_close_from(int first) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0) return;
#endif
    for (int fd = first; fd < 65536; fd++) close(fd);
}

/* A pipe whose ends close on exec, made in one step (no other thread's spawn can inherit it). */
static inline int pdfpipe_pipe_cloexec(int fds[2]) { return (int)syscall(SYS_pipe2, fds, O_CLOEXEC); }
