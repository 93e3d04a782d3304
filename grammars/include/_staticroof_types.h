/*
 * _staticroof_types.h -- shared typedefs for the staticroof stub headers.
 *
 * Internal header: included by the other stubs, not meant to be included
 * directly by analysed code.  Models an LP64 target (long and pointers are
 * 64 bits wide).  Pure C99 so that pycparser can parse it.
 */
#ifndef _STATICROOF_TYPES_H
#define _STATICROOF_TYPES_H

#define __STATICROOF_STUBS__ 1

/* ---- NULL ------------------------------------------------------------- */
#ifndef NULL
#define NULL ((void *)0)
#endif

/* ---- sizes and pointer-sized integers ---------------------------------- */
typedef unsigned long size_t;
typedef long ssize_t;
typedef long ptrdiff_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;
typedef int wchar_t;
typedef unsigned int wint_t;
typedef struct { long double __sr_ld; long long __sr_ll; } max_align_t;

/* ---- exact-width integers --------------------------------------------- */
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;

/* ---- minimum-width integers ------------------------------------------- */
typedef signed char int_least8_t;
typedef short int_least16_t;
typedef int int_least32_t;
typedef long int_least64_t;
typedef unsigned char uint_least8_t;
typedef unsigned short uint_least16_t;
typedef unsigned int uint_least32_t;
typedef unsigned long uint_least64_t;

/* ---- fastest minimum-width integers ----------------------------------- */
typedef signed char int_fast8_t;
typedef long int_fast16_t;
typedef long int_fast32_t;
typedef long int_fast64_t;
typedef unsigned char uint_fast8_t;
typedef unsigned long uint_fast16_t;
typedef unsigned long uint_fast32_t;
typedef unsigned long uint_fast64_t;

/* ---- greatest-width integers ------------------------------------------ */
typedef long intmax_t;
typedef unsigned long uintmax_t;

/* ---- POSIX scalar types ----------------------------------------------- */
typedef long off_t;
typedef long time_t;
typedef long clock_t;
typedef long suseconds_t;
typedef unsigned int useconds_t;
typedef int clockid_t;
typedef int pid_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef unsigned int mode_t;
typedef unsigned long dev_t;
typedef unsigned long ino_t;
typedef unsigned long nlink_t;
typedef long blksize_t;
typedef long blkcnt_t;
typedef unsigned long rlim_t;
typedef int sig_atomic_t;
typedef unsigned long pthread_t;

/* ---- time structures -------------------------------------------------- */
struct timeval {
    time_t tv_sec;
    suseconds_t tv_usec;
};

struct timespec {
    time_t tv_sec;
    long tv_nsec;
};

/* ---- stdio ------------------------------------------------------------ */
/* FILE is opaque: only pointers to it are ever used. */
typedef struct __sr_FILE FILE;
typedef struct { long long __sr_pos; } fpos_t;

/* ---- variadic arguments ----------------------------------------------- */
/* A plain pointer type; see stdarg.h for the macros that use it. */
typedef char *va_list;

#endif /* _STATICROOF_TYPES_H */
