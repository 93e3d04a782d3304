/* signal.h -- staticroof stub (C signals plus a small POSIX subset). */
#ifndef _STATICROOF_SIGNAL_H
#define _STATICROOF_SIGNAL_H

#include "_staticroof_types.h"

/* sig_atomic_t and pid_t come from the shared header. */
typedef void (*__sr_sighandler_t)(int);
typedef struct { unsigned long __sr_bits[16]; } sigset_t;
typedef struct __sr_siginfo siginfo_t;

#define SIG_DFL  ((__sr_sighandler_t)0)
#define SIG_IGN  ((__sr_sighandler_t)1)
#define SIG_ERR  ((__sr_sighandler_t)-1)

#define SIGHUP    1
#define SIGINT    2
#define SIGQUIT   3
#define SIGILL    4
#define SIGTRAP   5
#define SIGABRT   6
#define SIGBUS    7
#define SIGFPE    8
#define SIGKILL   9
#define SIGUSR1  10
#define SIGSEGV  11
#define SIGUSR2  12
#define SIGPIPE  13
#define SIGALRM  14
#define SIGTERM  15
#define SIGCHLD  17
#define SIGCONT  18
#define SIGSTOP  19
#define SIGPROF  27

#define SA_RESTART  0x10000000
#define SA_SIGINFO  4

#define SIG_BLOCK    0
#define SIG_UNBLOCK  1
#define SIG_SETMASK  2

struct sigaction {
    __sr_sighandler_t sa_handler;
    void (*sa_sigaction)(int, siginfo_t *, void *);
    sigset_t sa_mask;
    int sa_flags;
};

__sr_sighandler_t signal(int sig, __sr_sighandler_t func);
int raise(int sig);
int kill(pid_t pid, int sig);
int sigaction(int sig, const struct sigaction *restrict act,
              struct sigaction *restrict oact);
int sigemptyset(sigset_t *set);
int sigfillset(sigset_t *set);
int sigaddset(sigset_t *set, int signo);
int sigdelset(sigset_t *set, int signo);
int sigismember(const sigset_t *set, int signo);
int sigprocmask(int how, const sigset_t *restrict set,
                sigset_t *restrict oset);

#endif /* _STATICROOF_SIGNAL_H */
