/* sys/types.h -- staticroof stub (POSIX); types are in the shared header. */
#ifndef _STATICROOF_SYS_TYPES_H
#define _STATICROOF_SYS_TYPES_H

#include "../_staticroof_types.h"

/* glibc's System V names (__USE_MISC, on by default); <stdlib.h> includes this header */
typedef unsigned char u_char;
typedef unsigned short u_short;
typedef unsigned int u_int;
typedef unsigned long u_long;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;

#endif /* _STATICROOF_SYS_TYPES_H */
