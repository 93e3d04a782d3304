/* stdlib.h -- staticroof stub (C99/C11 plus common POSIX allocation). */
#ifndef _STATICROOF_STDLIB_H
#define _STATICROOF_STDLIB_H

#include "_staticroof_types.h"
#include "sys/types.h"

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX     2147483647
#define MB_CUR_MAX   ((size_t)6)

typedef struct { int quot; int rem; } div_t;
typedef struct { long quot; long rem; } ldiv_t;
typedef struct { long long quot; long long rem; } lldiv_t;

/* ---- memory management ------------------------------------------------ */
void *malloc(size_t size);
void *calloc(size_t nmemb, size_t size);
void *realloc(void *ptr, size_t size);
void free(void *ptr);
void *aligned_alloc(size_t alignment, size_t size);
int posix_memalign(void **memptr, size_t alignment, size_t size);
void *valloc(size_t size);

/* ---- numeric conversion ----------------------------------------------- */
int atoi(const char *nptr);
long atol(const char *nptr);
long long atoll(const char *nptr);
double atof(const char *nptr);
long strtol(const char *restrict nptr, char **restrict endptr, int base);
long long strtoll(const char *restrict nptr, char **restrict endptr, int base);
unsigned long strtoul(const char *restrict nptr, char **restrict endptr,
                      int base);
unsigned long long strtoull(const char *restrict nptr,
                           char **restrict endptr, int base);
double strtod(const char *restrict nptr, char **restrict endptr);
float strtof(const char *restrict nptr, char **restrict endptr);
long double strtold(const char *restrict nptr, char **restrict endptr);

/* ---- pseudo-random numbers -------------------------------------------- */
int rand(void);
void srand(unsigned int seed);
int rand_r(unsigned int *seedp);
long random(void);
void srandom(unsigned int seed);
double drand48(void);
long lrand48(void);
void srand48(long seedval);

/* ---- environment and termination -------------------------------------- */
void abort(void);
void exit(int status);
void _Exit(int status);
void quick_exit(int status);
int atexit(void (*func)(void));
int at_quick_exit(void (*func)(void));
char *getenv(const char *name);
int setenv(const char *name, const char *value, int overwrite);
int unsetenv(const char *name);
int system(const char *command);

/* ---- searching and sorting -------------------------------------------- */
void qsort(void *base, size_t nmemb, size_t size,
           int (*compar)(const void *, const void *));
void *bsearch(const void *key, const void *base, size_t nmemb, size_t size,
              int (*compar)(const void *, const void *));

/* ---- integer arithmetic ----------------------------------------------- */
int abs(int j);
long labs(long j);
long long llabs(long long j);
div_t div(int numer, int denom);
ldiv_t ldiv(long numer, long denom);
lldiv_t lldiv(long long numer, long long denom);

/* ---- multibyte characters --------------------------------------------- */
int mblen(const char *s, size_t n);
int mbtowc(wchar_t *restrict pwc, const char *restrict s, size_t n);
int wctomb(char *s, wchar_t wc);
size_t mbstowcs(wchar_t *restrict pwcs, const char *restrict s, size_t n);
size_t wcstombs(char *restrict s, const wchar_t *restrict pwcs, size_t n);

#endif /* _STATICROOF_STDLIB_H */
