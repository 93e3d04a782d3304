/* sched.h -- staticroof stub (POSIX scheduling plus CPU affinity sets). */
#ifndef _STATICROOF_SCHED_H
#define _STATICROOF_SCHED_H

#include "_staticroof_types.h"
#include "time.h"

#define SCHED_OTHER  0
#define SCHED_FIFO   1
#define SCHED_RR     2

#define CPU_SETSIZE  1024

struct sched_param {
    int sched_priority;
};

typedef struct {
    unsigned long __sr_bits[16];  /* CPU_SETSIZE bits */
} cpu_set_t;

/* The CPU_* set operations expand to calls of declared functions. */
void __sr_cpu_zero(cpu_set_t *set);
void __sr_cpu_set(int cpu, cpu_set_t *set);
void __sr_cpu_clr(int cpu, cpu_set_t *set);
int __sr_cpu_isset(int cpu, const cpu_set_t *set);
int __sr_cpu_count(const cpu_set_t *set);

#define CPU_ZERO(set)        __sr_cpu_zero(set)
#define CPU_SET(cpu, set)    __sr_cpu_set((cpu), (set))
#define CPU_CLR(cpu, set)    __sr_cpu_clr((cpu), (set))
#define CPU_ISSET(cpu, set)  __sr_cpu_isset((cpu), (set))
#define CPU_COUNT(set)       __sr_cpu_count(set)

int sched_yield(void);
int sched_getcpu(void);
int sched_get_priority_max(int policy);
int sched_get_priority_min(int policy);
int sched_getparam(pid_t pid, struct sched_param *param);
int sched_setparam(pid_t pid, const struct sched_param *param);
int sched_getscheduler(pid_t pid);
int sched_setscheduler(pid_t pid, int policy,
                       const struct sched_param *param);
int sched_rr_get_interval(pid_t pid, struct timespec *interval);
int sched_setaffinity(pid_t pid, size_t cpusetsize, const cpu_set_t *mask);
int sched_getaffinity(pid_t pid, size_t cpusetsize, cpu_set_t *mask);

#endif /* _STATICROOF_SCHED_H */
