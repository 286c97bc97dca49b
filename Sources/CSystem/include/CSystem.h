/* Linux calls that Swift's Glibc module does not offer (GNU extensions, variadic functions). */
#ifndef PDFPIPE_CSYSTEM_H
#define PDFPIPE_CSYSTEM_H

#include <stddef.h>

/* A pipe whose ends close on exec, made in one step (no other thread's spawn can inherit it). */
int pdfpipe_pipe_cloexec(int fds[2]);

/* In a child process: die with the thread that spawned it (prctl PR_SET_PDEATHSIG, SIGKILL). */
void pdfpipe_child_die_with_parent(void);

/* In a child process: close every descriptor from `first` up. */
void pdfpipe_child_close_from(int first);

/* Starts `path` with `argv` and `envp` (both NULL-terminated): its standard input, output and error
   are copies of `in_fd`, `out_fd` and `err_fd` (-1: /dev/null), every other descriptor is closed in
   the child (so no descriptor another thread opens meanwhile leaks into it), and its signals are at
   their defaults and unblocked. Writes the pid to `*pid`; 0, or an errno value. */
int pdfpipe_spawn(int *pid, const char *path, char *const argv[], char *const envp[], int in_fd, int out_fd, int err_fd);

/* Swaps the names of two files at once (renameat2 RENAME_EXCHANGE). 0, or -1 with errno. */
int pdfpipe_rename_exchange(const char *a, const char *b);

/* Guards a read-only file mapping against the file being truncated under it (SIGBUS): a fault
   inside it maps zero pages over the rest of the mapping and is remembered, so the read goes on and
   its owner can tell. A SIGBUS anywhere else does what it did before. Returns a slot for
   `pdfpipe_unguard_mapping` (call it before unmapping; it says whether a fault was caught), or -1
   when every slot is taken (the mapping is then unguarded). */
int pdfpipe_guard_mapping(void *start, size_t length);
int pdfpipe_unguard_mapping(int slot);
/* 1 when a fault in the slot's mapping was caught. */
int pdfpipe_mapping_faulted(int slot);

#endif
