/* time.h -- staticroof stub (C11 plus POSIX clocks). */
#ifndef _STATICROOF_TIME_H
#define _STATICROOF_TIME_H

#include "_staticroof_types.h"

/* struct timespec, time_t and clock_t come from the shared header. */

#define CLOCKS_PER_SEC            ((clock_t)1000000)
#define TIME_UTC                  1

#define CLOCK_REALTIME            0
#define CLOCK_MONOTONIC           1
#define CLOCK_PROCESS_CPUTIME_ID  2
#define CLOCK_THREAD_CPUTIME_ID   3
#define CLOCK_MONOTONIC_RAW       4

struct tm {
    int tm_sec;
    int tm_min;
    int tm_hour;
    int tm_mday;
    int tm_mon;
    int tm_year;
    int tm_wday;
    int tm_yday;
    int tm_isdst;
};

clock_t clock(void);
time_t time(time_t *tloc);
double difftime(time_t time1, time_t time0);
time_t mktime(struct tm *tm);
int timespec_get(struct timespec *ts, int base);

char *asctime(const struct tm *tm);
char *ctime(const time_t *timer);
struct tm *gmtime(const time_t *timer);
struct tm *localtime(const time_t *timer);
struct tm *gmtime_r(const time_t *restrict timer, struct tm *restrict result);
struct tm *localtime_r(const time_t *restrict timer,
                       struct tm *restrict result);
size_t strftime(char *restrict s, size_t maxsize,
                const char *restrict format, const struct tm *restrict tm);

int clock_gettime(clockid_t clock_id, struct timespec *tp);
int clock_getres(clockid_t clock_id, struct timespec *res);
int nanosleep(const struct timespec *req, struct timespec *rem);

#endif /* _STATICROOF_TIME_H */
