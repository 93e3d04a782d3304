/* errno.h -- staticroof stub. */
#ifndef _STATICROOF_ERRNO_H
#define _STATICROOF_ERRNO_H

int *__sr_errno_location(void);
#define errno (*__sr_errno_location())

#define EPERM    1
#define ENOENT   2
#define ESRCH    3
#define EINTR    4
#define EIO      5
#define ENXIO    6
#define E2BIG    7
#define ENOEXEC  8
#define EBADF    9
#define ECHILD  10
#define EAGAIN  11
#define ENOMEM  12
#define EACCES  13
#define EFAULT  14
#define EBUSY   16
#define EEXIST  17
#define ENODEV  19
#define ENOTDIR 20
#define EISDIR  21
#define EINVAL  22
#define ENFILE  23
#define EMFILE  24
#define ENOSPC  28
#define ESPIPE  29
#define EROFS   30
#define EPIPE   32
#define EDOM    33
#define ERANGE  34
#define EDEADLK 35
#define ENOSYS  38
#define ETIMEDOUT 110
#define EILSEQ  84
#define EOVERFLOW 75

#endif /* _STATICROOF_ERRNO_H */
