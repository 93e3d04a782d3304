/* sys/time.h -- staticroof stub (POSIX). */
#ifndef _STATICROOF_SYS_TIME_H
#define _STATICROOF_SYS_TIME_H

#include "../_staticroof_types.h"
#include "../time.h"

/* struct timeval comes from the shared header. */

struct timezone {
    int tz_minuteswest;
    int tz_dsttime;
};

#define ITIMER_REAL    0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF    2

struct itimerval {
    struct timeval it_interval;
    struct timeval it_value;
};

int gettimeofday(struct timeval *restrict tv, void *restrict tz);
int settimeofday(const struct timeval *tv, const struct timezone *tz);
int getitimer(int which, struct itimerval *value);
int setitimer(int which, const struct itimerval *restrict value,
              struct itimerval *restrict ovalue);

#endif /* _STATICROOF_SYS_TIME_H */
